#pragma once

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>

#include "engine/training/event_queue.h"

namespace mrnn::engine {

// What an analysis reports while it runs: progress in [0, 1] with a short phase text, and
// the end (done, cancelled or failed with a reason). Results themselves are plain structs
// the job's function returns; they are read after wait().
struct JobProgress {
  double fraction = 0.0;
  std::string phase;
};
struct JobDone {};
struct JobCancelled {};
struct JobFailed {
  std::string reason;
};
using JobEvent = std::variant<JobProgress, JobDone, JobCancelled, JobFailed>;

class JobCancelledError : public std::runtime_error {
 public:
  JobCancelledError() : std::runtime_error("cancelled") {}
};

// Handed to the job's function: report progress, and learn whether to stop. report() throws
// JobCancelledError once cancel() was called, so long loops stop at their next report.
class JobContext {
 public:
  JobContext(EventQueue<JobEvent>& events, const std::atomic<bool>& cancelled)
      : events_(events), cancelled_(cancelled) {}
  void report(double fraction, const std::string& phase = "");
  bool cancelled() const { return cancelled_; }
  // A context for one part of the job (one of several analyses run in a row): its
  // fractions 0..1 land in [from, to] of this context's range and its phases read
  // "name, phase" (just "name" for an empty phase). Same events, same cancel flag.
  JobContext part(double from, double to, const std::string& name = "") const;

 private:
  EventQueue<JobEvent>& events_;
  const std::atomic<bool>& cancelled_;
  double from_ = 0.0;
  double to_ = 1.0;
  std::string name_;
};

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
  void cancel() { cancelled_ = true; }
  void wait();
  bool isRunning() const { return running_; }
  EventQueue<JobEvent>& events() { return events_; }

 private:
  Work work_;
  EventQueue<JobEvent> events_;
  std::atomic<bool> cancelled_{false};
  std::atomic<bool> running_{false};
  std::thread thread_;
};

}  // namespace mrnn::engine
