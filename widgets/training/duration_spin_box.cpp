#include "widgets/training/duration_spin_box.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace mrnn::widgets {
namespace {

// The step the arrows take from `seconds` upwards: a round figure of its own size.
double unitAbove(double seconds) {
  if (seconds < 60.0) return 5.0;
  if (seconds < 3600.0) return 60.0;
  return 300.0;
}

QString secondsText(double seconds) {
  // Whole seconds as integers; a fraction (a test's 0.5 s budget) with up to three decimals.
  return QString::number(std::round(seconds * 1000.0) / 1000.0, 'g', 12);
}

}  // namespace

DurationSpinBox::DurationSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
  setDecimals(3);
  setKeyboardTracking(false);  // "1 h 3" on the way to "1 h 30 min" is not a value
}

QString DurationSpinBox::durationText(double seconds) {
  if (!(seconds > 0.0)) return QString();
  const double rounded = std::round(seconds * 1000.0) / 1000.0;
  const auto whole = static_cast<qint64>(std::floor(rounded));
  const qint64 hours = whole / 3600;
  const qint64 minutes = whole / 60 % 60;
  const double rest = rounded - static_cast<double>(hours * 3600 + minutes * 60);
  QStringList parts;
  if (hours > 0) parts << QStringLiteral("%1 h").arg(hours);
  if (minutes > 0) parts << QStringLiteral("%1 min").arg(minutes);
  if (rest > 0.0005 || parts.isEmpty()) parts << secondsText(rest) + QStringLiteral(" s");
  return parts.join(QLatin1Char(' '));
}

double DurationSpinBox::secondsFrom(const QString& text) {
  const QString trimmed = text.trimmed().toLower();
  if (trimmed.isEmpty() || trimmed == QStringLiteral("none")) return 0.0;
  static const QRegularExpression clock(QStringLiteral(R"(^(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)$)"));
  if (const auto match = clock.match(trimmed); match.hasMatch()) {
    return match.captured(1).toDouble() * 3600.0 + match.captured(2).toDouble() * 60.0 +
           match.captured(3).toDouble();
  }
  // Numbers each with its unit, largest first; a bare number is seconds.
  static const QRegularExpression part(
      QStringLiteral(R"(\G\s*(\d+(?:\.\d*)?|\.\d+)\s*(hours?|h|minutes?|min|m|seconds?|sec|s)?)"));
  double seconds = 0.0;
  qsizetype at = 0;
  int count = 0;
  while (at < trimmed.size()) {
    const auto match = part.match(trimmed, at);
    if (!match.hasMatch() || match.capturedLength() == 0) return -1.0;
    const QString unit = match.captured(2);
    const double scale = unit.startsWith(QLatin1Char('h'))   ? 3600.0
                         : unit.startsWith(QLatin1Char('m')) ? 60.0
                                                             : 1.0;
    seconds += match.captured(1).toDouble() * scale;
    at = match.capturedEnd();
    ++count;
  }
  return count > 0 ? seconds : -1.0;
}

void DurationSpinBox::stepBy(int steps) {
  double value = this->value();
  for (int i = 0; i < std::abs(steps); ++i) {
    if (steps > 0) {
      const double unit = unitAbove(value);
      value = (std::floor(value / unit + 1e-9) + 1.0) * unit;
    } else {
      const double unit = unitAbove(std::max(0.0, value - 1e-6));
      value = std::max(0.0, (std::ceil(value / unit - 1e-9) - 1.0) * unit);
    }
  }
  setValue(std::clamp(value, minimum(), maximum()));
  selectAll();
}

QString DurationSpinBox::textFromValue(double value) const {
  return durationText(value);
}

double DurationSpinBox::valueFromText(const QString& text) const {
  const double seconds = secondsFrom(text);
  return seconds < 0.0 ? value() : seconds;
}

QValidator::State DurationSpinBox::validate(QString& text, int& /*position*/) const {
  const double seconds = secondsFrom(text);
  if (seconds >= 0.0 && seconds <= maximum()) return QValidator::Acceptable;
  // On the way to a duration: digits, units' letters, spaces, colons and points.
  static const QRegularExpression partial(QStringLiteral(R"(^[\d\s.:a-zA-Z]*$)"));
  return partial.match(text).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

}  // namespace mrnn::widgets
