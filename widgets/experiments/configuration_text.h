#pragma once

#include <QString>

#include <cstddef>

#include "engine/experiment/experiment_results.h"

namespace mrnn::widgets {

// A configuration's value on axis `axis` as the plots and tables label it ("" where the
// configuration has no such axis).
inline QString settingText(const engine::ConfigurationResult& row, size_t axis) {
  return axis < row.settings.size() ? QString::fromStdString(row.settings[axis].value).trimmed()
                                    : QString();
}

}  // namespace mrnn::widgets
