#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "engine/runtime/progress_sink.h"
#include "engine/runtime/stop_token.h"

namespace mrnn::engine {

class LoadFollowingThreads;

// Thrown by JobContext::report() once the job was cancelled; the operation unwinds and its
// caller reports "cancelled", not a failure.
class JobCancelledError : public std::runtime_error {
 public:
  JobCancelledError() : std::runtime_error("cancelled") {}
};

// The one interface through which every long engine operation (evaluation, scoring,
// probing, sampling, the benchmark; training for its evaluations) reports progress and
// learns that it should stop: the caller's progress sink and stop token, together.
// Operations take a JobContext* that may be null: no reports, never cancelled.
class JobContext {
 public:
  // `stop` must outlive the context (and every part() of it).
  JobContext(ProgressSink sink, const StopToken& stop) : sink_(std::move(sink)), stop_(&stop) {}

  // Hands the progress to the sink; throws JobCancelledError once cancelled, so a long loop
  // stops at its next report. Threads that follow the load are read again here.
  void report(double fraction, const std::string& phase = "");
  // The job's threads follow the machine's load: each report polls them (parts too).
  void followLoad(std::shared_ptr<LoadFollowingThreads> threads) { threads_ = std::move(threads); }
  bool cancelled() const { return stop_->stopRequested(); }
  // Whether reports go anywhere: a context made only to carry a stop token has no sink,
  // and callers in hot loops skip building their report for it.
  bool reports() const { return static_cast<bool>(sink_) || threads_ != nullptr; }
  // A context for one part of the job (one of several steps run in a row): its fractions
  // 0..1 land in [from, to] of this context's range and its phases read "name, phase" (just
  // "name" for an empty phase). Same sink, same stop token.
  JobContext part(double from, double to, const std::string& name = "") const;

 private:
  ProgressSink sink_;
  const StopToken* stop_;
  double from_ = 0.0;
  double to_ = 1.0;
  std::string name_;
  std::shared_ptr<LoadFollowingThreads> threads_;
};

// For operations that take a JobContext*: reports when there is one.
inline void reportTo(JobContext* job, double fraction, const std::string& phase = "") {
  if (job) job->report(fraction, phase);
}

}  // namespace mrnn::engine
