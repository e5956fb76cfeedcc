// The training monitor's reading settings, kept by the application between sessions.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <cmath>

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

}  // namespace mrnn::widgets
