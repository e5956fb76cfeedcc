#include "widgets/masking/scaled_job_progress.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <variant>

#include "engine/analysis/analysis_job.h"

namespace mrnn::widgets {

void runWithScaledProgress(engine::JobContext& job, double from, double to,
                           const std::function<void(engine::JobContext& part)>& work,
                           const std::function<std::string(const std::string&)>& phase) {
  const auto phaseOf = [&phase](const std::string& text) { return phase ? phase(text) : text; };
  job.report(from, phaseOf(""));  // also stops here when the job was cancelled before
  engine::EventQueue<engine::JobEvent> events;
  std::atomic<bool> cancelled{false};
  // The forwarder is the only user of `job` while `work` runs; it raises the part's cancel
  // flag when the outer job is cancelled, so the part's next report() throws.
  std::thread forwarder([&] {
    for (;;) {
      const auto event = events.pop(std::chrono::milliseconds(50));
      if (!event) {
        if (job.cancelled()) cancelled = true;
        continue;
      }
      if (std::holds_alternative<engine::JobDone>(*event)) return;
      if (const auto* progress = std::get_if<engine::JobProgress>(&*event)) {
        try {
          job.report(from + (to - from) * progress->fraction, phaseOf(progress->phase));
        } catch (const engine::JobCancelledError&) {
          cancelled = true;
        }
      }
    }
  });
  engine::JobContext part(events, cancelled);
  try {
    work(part);
  } catch (...) {
    events.push(engine::JobDone{});
    forwarder.join();
    throw;
  }
  events.push(engine::JobDone{});
  forwarder.join();
  job.report(to, phaseOf(""));  // throws when the job was cancelled during the part's last stretch
}

}  // namespace mrnn::widgets
