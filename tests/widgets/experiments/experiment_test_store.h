#pragma once

// What the queue would leave behind for an experiment's trials, written through the engine, for
// the Experiments panel's tests that read results without training anything.

#include <cstdint>
#include <set>

#include "engine/experiment/experiment_plan.h"

namespace mrnn::test {

// Each trial of `plan` done, its run finished with best validation 2 + 0.1 * configuration +
// 0.05 * seed bits (and test 0.2 more). Trials in `skip` are left out (queued, no run).
void fillStore(const engine::ExperimentPlan& plan, const std::set<int64_t>& skip = {});

}  // namespace mrnn::test
