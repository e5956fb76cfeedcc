#pragma once

#include <QString>

#include <cstddef>
#include <vector>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_results.h"

namespace mrnn::widgets {

// A configuration's value on axis `axis` as the plots and tables label it ("" where the
// configuration has no such axis).
inline QString settingText(const engine::ConfigurationResult& row, size_t axis) {
  return axis < row.settings.size() ? QString::fromStdString(row.settings[axis].value).trimmed()
                                    : QString();
}

// What a plot labels one of an axis's values (`value` as settingText gives it): its name where
// the axis names its values.
inline QString valueName(const std::vector<engine::ExperimentAxis>& axes, size_t axis,
                         const QString& value) {
  if (axis >= axes.size()) return value;
  return QString::fromStdString(engine::axisValueName(axes[axis], value.toStdString()));
}

}  // namespace mrnn::widgets
