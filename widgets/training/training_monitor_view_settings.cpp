// The training monitor's reading settings: those the application keeps between sessions, and
// the loss unit, which follows the project.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <cmath>

#include "engine/config/project_file.h"
#include "widgets/project/project_document.h"
#include "widgets/training/training_charts.h"
#include "widgets/training/training_monitor_panel.h"

namespace mrnn::widgets {

QVariantMap TrainingMonitorPanel::viewSettings() const {
  return {{QStringLiteral("xAxis"), xAxis_->currentData()},
          {QStringLiteral("logScale"), logScale_->isChecked()},
          {QStringLiteral("groupSeeds"), groupSeeds_->isChecked()},
          {QStringLiteral("smoothing"), smoothing_->value()}};
}

void TrainingMonitorPanel::restoreViewSettings(const QVariantMap& settings) {
  // Values from another version or a hand-edited store: only those the controls can show.
  const int axis = xAxis_->findData(settings.value(QStringLiteral("xAxis"), -1).toInt());
  if (axis >= 0) xAxis_->setCurrentIndex(axis);
  if (settings.contains(QStringLiteral("logScale"))) {
    logScale_->setChecked(settings.value(QStringLiteral("logScale")).toBool());
  }
  if (settings.contains(QStringLiteral("groupSeeds"))) {
    groupSeeds_->setChecked(settings.value(QStringLiteral("groupSeeds")).toBool());
  }
  bool ok = false;
  const double weight = settings.value(QStringLiteral("smoothing")).toDouble(&ok);
  if (ok && std::isfinite(weight)) smoothing_->setValue(weight);  // the box clamps it
}

bool TrainingMonitorPanel::showsSquaredError() const {
  return unit_->currentData().toInt() == static_cast<int>(TrainingCharts::Unit::SquaredError);
}

void TrainingMonitorPanel::applyDefaultUnit() {
  // Word models are read in perplexity, character and byte models in bits per symbol, and so
  // are the generated problems (a loss per scored step, where a perplexity of 1.02 says
  // little); a real-valued output (squared error) in nothing else, so the box offers nothing
  // else.
  const engine::Project& project = document_.project();
  const bool squaredError = !project.model.predictsSymbols();
  const bool problem = project.data.synthetic != engine::SyntheticTask::None;
  // What the box was last filled for: the input level, -2 for a real-valued output, -3 for a
  // generated problem.
  const int filledFor = squaredError ? -2
                        : problem    ? -3
                                     : static_cast<int>(project.model.input.level);
  if (filledFor == defaultUnitLevel_) return;
  defaultUnitLevel_ = filledFor;
  const QSignalBlocker quiet(unit_);
  unit_->clear();
  if (squaredError) {
    unit_->addItem(tr("squared error"), static_cast<int>(TrainingCharts::Unit::SquaredError));
  } else {
    unit_->addItem(tr("bits/symbol"), static_cast<int>(TrainingCharts::Unit::BitsPerSymbol));
    unit_->addItem(tr("perplexity"), static_cast<int>(TrainingCharts::Unit::Perplexity));
    unit_->setCurrentIndex(!problem && project.model.input.level == engine::InputLevel::Word);
  }
  unit_->setEnabled(!squaredError);
  charts_->setUnit(static_cast<TrainingCharts::Unit>(unit_->currentData().toInt()));
  updateStats();
}

}  // namespace mrnn::widgets
