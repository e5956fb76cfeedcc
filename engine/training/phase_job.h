#pragma once

#include <functional>
#include <string>

#include "engine/runtime/job_context.h"
#include "engine/training/training_events.h"

namespace mrnn::engine {

// The job an evaluation inside a training run reports to: its progress goes out as
// PhaseEvents named `phase` ("validating", "testing"), about one per percent, for the
// monitor's bar. Never cancelled: a stop waits for the step.
JobContext phaseJob(std::function<void(const PhaseEvent&)> publish, const std::string& phase);

}  // namespace mrnn::engine
