#include "engine/training/phase_job.h"

#include <memory>

namespace mrnn::engine {

JobContext phaseJob(std::function<void(const PhaseEvent&)> publish, const std::string& phase) {
  auto last = std::make_shared<JobProgress>(JobProgress{-1.0, ""});
  JobContext job(
      [publish = std::move(publish), last](const JobProgress& progress) {
        if (progress.fraction - last->fraction < 0.01 && progress.phase == last->phase &&
            progress.fraction < 1.0) {
          return;
        }
        *last = progress;
        publish(PhaseEvent{progress.fraction, progress.phase});
      },
      StopToken::never());
  return job.part(0.0, 1.0, phase);
}

}  // namespace mrnn::engine
