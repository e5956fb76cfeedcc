#include "widgets/training/background_job.h"

#include <QTimer>
#include <type_traits>

#include "engine/analysis/analysis_job.h"

namespace mrnn::widgets {

BackgroundJob::BackgroundJob(Work work, QObject* parent)
    : QObject(parent),
      job_(std::make_unique<engine::AnalysisJob>(std::move(work))),
      timer_(new QTimer(this)) {
  timer_->setInterval(50);
  connect(timer_, &QTimer::timeout, this, &BackgroundJob::poll);
}

BackgroundJob::~BackgroundJob() = default;  // AnalysisJob cancels and joins

void BackgroundJob::start() {
  job_->start();
  timer_->start();
}

void BackgroundJob::cancel() {
  job_->cancel();
}

bool BackgroundJob::isRunning() const {
  return !ended_ && timer_->isActive();
}

void BackgroundJob::poll() {
  const bool over = !job_->isRunning();
  // Only the latest progress is worth showing; the end event is always the last one.
  for (const engine::JobEvent& event : job_->events().drain()) {
    std::visit(
        [this](const auto& value) {
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, engine::JobProgress>) {
            emit progress(value.fraction, QString::fromStdString(value.phase));
          } else if constexpr (std::is_same_v<T, engine::JobDone>) {
            ended_ = true;
            timer_->stop();
            job_->wait();
            emit succeeded();
          } else if constexpr (std::is_same_v<T, engine::JobCancelled>) {
            ended_ = true;
            timer_->stop();
            job_->wait();
            emit cancelled();
          } else {
            ended_ = true;
            timer_->stop();
            job_->wait();
            emit failed(QString::fromStdString(value.reason));
          }
        },
        event);
    if (ended_) return;
  }
  if (over && !ended_) {
    // The thread ended after pushing its last event; the drain above has seen it. Anything
    // else means the work escaped AnalysisJob's handlers.
    ended_ = true;
    timer_->stop();
    job_->wait();
    emit failed(tr("the background task ended without a result"));
  }
}

}  // namespace mrnn::widgets
