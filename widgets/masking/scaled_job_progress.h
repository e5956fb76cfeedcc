#pragma once

#include <functional>
#include <string>

namespace mrnn::engine {
class JobContext;
}

namespace mrnn::widgets {

// Runs one engine analysis that reports its own progress 0..1 as part of a larger job: its
// reports reach `job` mapped into [from, to] (so several analyses fill one progress bar),
// with the phase passed through `phase` (identity when empty). Cancelling `job` stops the
// analysis at its next report (JobCancelledError). The analysis runs on the calling thread;
// a helper thread forwards its reports, because JobContext::report cannot be intercepted.
void runWithScaledProgress(engine::JobContext& job, double from, double to,
                           const std::function<void(engine::JobContext& part)>& work,
                           const std::function<std::string(const std::string&)>& phase = {});

}  // namespace mrnn::widgets
