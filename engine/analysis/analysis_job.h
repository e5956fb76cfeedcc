#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>

#include "engine/runtime/job_context.h"
#include "engine/training/event_queue.h"

namespace mrnn::engine {

// What an analysis job's queue carries: its progress (JobContext reports), then how it ended
// (done, cancelled or failed with a reason). Results themselves are plain structs the job's
// function returns; they are read after wait().
struct JobDone {};
struct JobCancelled {};
struct JobFailed {
  std::string reason;
};
using JobEvent = std::variant<JobProgress, JobDone, JobCancelled, JobFailed>;

// Runs one analysis on its own engine thread (never the caller's), cancellable, with
// progress events. Destroying a running job cancels and joins it.
class AnalysisJob {
 public:
  using Work = std::function<void(JobContext&)>;

  explicit AnalysisJob(Work work);
  ~AnalysisJob();
  AnalysisJob(const AnalysisJob&) = delete;
  AnalysisJob& operator=(const AnalysisJob&) = delete;

  void start();
  void cancel() { stop_.requestStop(); }
  void wait();
  bool isRunning() const { return running_; }
  EventQueue<JobEvent>& events() { return events_; }

 private:
  Work work_;
  EventQueue<JobEvent> events_;
  StopToken stop_;
  std::atomic<bool> running_{false};
  std::thread thread_;
};

}  // namespace mrnn::engine
