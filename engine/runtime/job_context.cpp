#include "engine/runtime/job_context.h"

#include "engine/runtime/load_following_threads.h"

namespace mrnn::engine {

void JobContext::report(double fraction, const std::string& phase) {
  if (cancelled()) throw JobCancelledError();
  if (threads_) threads_->poll();
  if (!sink_) return;
  const std::string text = name_.empty() ? phase : phase.empty() ? name_ : name_ + ", " + phase;
  sink_(JobProgress{from_ + (to_ - from_) * fraction, text});
}

JobContext JobContext::part(double from, double to, const std::string& name) const {
  JobContext part(sink_, *stop_);
  part.from_ = from_ + (to_ - from_) * from;
  part.to_ = from_ + (to_ - from_) * to;
  part.name_ = name_.empty() ? name : name.empty() ? name_ : name_ + ", " + name;
  part.threads_ = threads_;
  return part;
}

}  // namespace mrnn::engine
