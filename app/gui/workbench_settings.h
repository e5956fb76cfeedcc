#pragma once

#include <QSettings>

namespace mrnn::app {

// The workbench's settings (window layout, recent projects, last folder), named explicitly
// rather than through QCoreApplication so every part finds the same store whoever runs it.
inline QSettings workbenchSettings() {
  return QSettings(QStringLiteral("mRNN Workbench"), QStringLiteral("mrnn-workbench"));
}

}  // namespace mrnn::app
