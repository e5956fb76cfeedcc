#include "engine/training/training_run.h"

namespace mrnn::engine {

TrainingRun::TrainingRun(Project project) : project_(std::move(project)) {}

TrainingRun::~TrainingRun() {
  if (thread_.joinable()) {
    stop_.requestStop();
    thread_.join();
  }
}

void TrainingRun::start(const std::string& resumeFrom, const RunLength& length) {
  if (thread_.joinable()) throw std::logic_error("this training run was already started");
  running_ = true;
  thread_ = std::thread([this, resumeFrom, length] {
    Trainer trainer(
        project_, [this](TrainingEvent event) { events_.push(std::move(event)); }, collective_);
    outcome_ = trainer.run(stop_, resumeFrom, length);
    running_ = false;
  });
}

void TrainingRun::wait() {
  if (thread_.joinable()) thread_.join();
}

bool TrainingRun::isRunning() const {
  return running_;
}

}  // namespace mrnn::engine
