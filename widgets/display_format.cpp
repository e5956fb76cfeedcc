#include "widgets/display_format.h"

#include <QLocale>
#include <cmath>

namespace mrnn::widgets {
namespace {

QLocale english() {
  QLocale locale(QLocale::English, QLocale::UnitedStates);
  return locale;
}

}  // namespace

QString formatCount(qint64 value) {
  return english().toString(value);
}

QString formatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("-");
  const auto total = static_cast<qint64>(std::llround(seconds));
  return QStringLiteral("%1:%2:%3")
      .arg(total / 3600)
      .arg(total / 60 % 60, 2, 10, QLatin1Char('0'))
      .arg(total % 60, 2, 10, QLatin1Char('0'));
}

QString formatEta(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return QStringLiteral("-");
  const auto total = static_cast<qint64>(std::llround(seconds));
  if (total >= 3600) {
    return QStringLiteral("%1h %2m")
        .arg(total / 3600)
        .arg(total / 60 % 60, 2, 10, QLatin1Char('0'));
  }
  if (total >= 60) {
    return QStringLiteral("%1m %2s").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
  }
  return QStringLiteral("%1s").arg(total);
}

QString formatLoss(double value) {
  if (!std::isfinite(value)) return QStringLiteral("-");
  return QString::number(value, 'f', 4);
}

QString formatValue(double value) {
  if (!std::isfinite(value)) return QStringLiteral("-");
  const double magnitude = std::fabs(value);
  if (magnitude >= 1000.0) return formatCount(static_cast<qint64>(std::llround(value)));
  if (magnitude != 0.0 && magnitude < 1e-3) return QString::number(value, 'e', 2);
  return QString::number(value, 'g', 4);
}

}  // namespace mrnn::widgets
