#include "engine/analysis/analysis_job.h"

#include <torch/torch.h>

namespace mrnn::engine {

void JobContext::report(double fraction, const std::string& phase) {
  if (cancelled_) throw JobCancelledError();
  const std::string text = name_.empty() ? phase : phase.empty() ? name_ : name_ + ", " + phase;
  events_.push(JobProgress{from_ + (to_ - from_) * fraction, text});
}

JobContext JobContext::part(double from, double to, const std::string& name) const {
  JobContext part(events_, cancelled_);
  part.from_ = from_ + (to_ - from_) * from;
  part.to_ = from_ + (to_ - from_) * to;
  part.name_ = name_.empty() ? name : name.empty() ? name_ : name_ + ", " + name;
  return part;
}

AnalysisJob::AnalysisJob(Work work) : work_(std::move(work)) {}

AnalysisJob::~AnalysisJob() {
  cancelled_ = true;
  if (thread_.joinable()) thread_.join();
}

void AnalysisJob::start() {
  if (thread_.joinable()) throw std::logic_error("this analysis job was already started");
  running_ = true;
  thread_ = std::thread([this] {
    torch::NoGradGuard noGrad;  // analyses never train; grad mode is per thread
    JobContext context(events_, cancelled_);
    try {
      work_(context);
      events_.push(JobDone{});
    } catch (const JobCancelledError&) {
      events_.push(JobCancelled{});
    } catch (const std::exception& error) {
      events_.push(JobFailed{error.what()});
    }
    running_ = false;
  });
}

void AnalysisJob::wait() {
  if (thread_.joinable()) thread_.join();
}

}  // namespace mrnn::engine
