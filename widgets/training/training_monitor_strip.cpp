// The training monitor's figures strip: the run, its step and epoch, the smoothed loss, the
// best validation, throughput, times and progress, each rank's throughput and a Hessian-free
// run's last step. Beside training_monitor_panel.cpp, which fills it.
#include <QFrame>
#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>

#include "widgets/elided_label.h"
#include "widgets/training/hessian_free_step_view.h"
#include "widgets/training/rank_throughput_view.h"
#include "widgets/training/training_monitor_panel.h"

namespace mrnn::widgets {
namespace {

// A figure of the stats strip: bold, selectable.
template <typename Label>
Label* statValue(QWidget* parent, const QString& objectName) {
  auto* label = new Label(parent);
  label->setText(QStringLiteral("-"));
  label->setObjectName(objectName);
  QFont font = label->font();
  font.setBold(true);
  label->setFont(font);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

QLabel* statCaption(QWidget* parent, const QString& text) {
  auto* label = new QLabel(text, parent);
  QFont font = label->font();
  font.setPointSizeF(font.pointSizeF() * 0.85);
  label->setFont(font);
  QPalette palette = label->palette();
  palette.setColor(QPalette::WindowText, QColor(0x70, 0x70, 0x70));
  label->setPalette(palette);
  return label;
}

}  // namespace

QWidget* TrainingMonitorPanel::buildStatsStrip() {
  auto* strip = new QFrame(this);
  strip->setObjectName(QStringLiteral("statsStrip"));
  strip->setFrameShape(QFrame::StyledPanel);
  auto* grid = new QGridLayout(strip);
  grid->setContentsMargins(10, 4, 10, 4);
  grid->setHorizontalSpacing(22);
  grid->setVerticalSpacing(0);
  // The run's name gives up its width first: a long project name must not widen the panel.
  runValue_ = statValue<ElidedLabel>(strip, QStringLiteral("runValue"));
  stepValue_ = statValue<QLabel>(strip, QStringLiteral("stepValue"));
  epochValue_ = statValue<QLabel>(strip, QStringLiteral("epochValue"));
  lossValue_ = statValue<QLabel>(strip, QStringLiteral("lossValue"));
  bestValue_ = statValue<QLabel>(strip, QStringLiteral("bestValue"));
  speedValue_ = statValue<QLabel>(strip, QStringLiteral("speedValue"));
  elapsedValue_ = statValue<QLabel>(strip, QStringLiteral("elapsedValue"));
  etaValue_ = statValue<QLabel>(strip, QStringLiteral("etaValue"));
  const QList<QPair<QString, QLabel*>> cells = {{tr("Run"), runValue_},
                                                {tr("Step"), stepValue_},
                                                {tr("Epoch"), epochValue_},
                                                {tr("Loss (smoothed)"), lossValue_},
                                                {tr("Best validation"), bestValue_},
                                                {tr("Throughput"), speedValue_},
                                                {tr("Elapsed"), elapsedValue_},
                                                {tr("ETA"), etaValue_}};
  for (int i = 0; i < cells.size(); ++i) {
    grid->addWidget(statCaption(strip, cells[i].first), 0, i);
    grid->addWidget(cells[i].second, 1, i);
  }
  progress_ = new QProgressBar(strip);
  progress_->setObjectName(QStringLiteral("trainingProgress"));
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setFormat(QStringLiteral("%p%"));
  progress_->setToolTip(tr("Share of the run's training time done, from the engine's ETA"));
  progress_->setMinimumWidth(140);
  grid->addWidget(statCaption(strip, tr("Progress")), 0, cells.size());
  grid->addWidget(progress_, 1, cells.size());
  grid->setColumnStretch(cells.size(), 1);
  // A run on several processes: each rank's throughput, on a line of its own; a Hessian-free
  // run's last step (CG, λ, ρ) on another.
  rankView_ = new RankThroughputView(strip);
  grid->addWidget(rankView_, 2, 0, 1, cells.size() + 1);
  hessianFreeView_ = new HessianFreeStepView(strip);
  grid->addWidget(hessianFreeView_, 3, 0, 1, cells.size() + 1);
  return strip;
}

}  // namespace mrnn::widgets
