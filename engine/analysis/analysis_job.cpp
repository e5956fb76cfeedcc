#include "engine/analysis/analysis_job.h"

#include <torch/torch.h>

#include "engine/devices/torch_threads.h"
#include "engine/training/library_error_text.h"

namespace mrnn::engine {

AnalysisJob::AnalysisJob(Work work) : work_(std::move(work)) {}

AnalysisJob::~AnalysisJob() {
  stop_.requestStop();
  if (thread_.joinable()) thread_.join();
}

void AnalysisJob::start() {
  if (thread_.joinable()) throw std::logic_error("this analysis job was already started");
  running_ = true;
  thread_ = std::thread([this] {
    torch::NoGradGuard noGrad;  // analyses never train; grad mode is per thread
    JobContext context([this](const JobProgress& progress) { events_.push(progress); }, stop_);
    try {
      // The desktop is never idle: the analysis takes the processors others leave free,
      // set on this thread (OpenMP's count is per thread) and read again at its reports.
      context.followLoad(torchThreads(0));
      work_(context);
      events_.push(JobDone{});
    } catch (const JobCancelledError&) {
      events_.push(JobCancelled{});
    } catch (const std::exception& error) {
      events_.push(JobFailed{libraryErrorText(error)});
    }
    running_ = false;
  });
}

void AnalysisJob::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace mrnn::engine
