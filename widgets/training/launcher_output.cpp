#include "widgets/training/launcher_output.h"

#include <QRegularExpression>
#include <algorithm>

namespace mrnn::widgets {

qint64 runNamedIn(const QString& line) {
  static const QRegularExpression patterns[] = {
      QRegularExpression(QStringLiteral("^run (\\d+), checkpoint ")),
      QRegularExpression(QStringLiteral("^resumed run (\\d+) at step ")),
      QRegularExpression(QStringLiteral("^mrnn: (?:rank \\d+: )?run (\\d+) failed at step "))};
  for (const QRegularExpression& pattern : patterns) {
    const QRegularExpressionMatch match = pattern.match(line);
    if (match.hasMatch()) return match.captured(1).toLongLong();
  }
  return 0;
}

QString launcherFailureText(const QStringList& stderrLines) {
  static const QRegularExpression rankPrefix(QStringLiteral("^rank \\d+: "));
  static const QRegularExpression couldNotStart(QStringLiteral("^training could not start: "));
  static const QRegularExpression runFailed(QStringLiteral("^run \\d+ failed at step \\d+: "));
  static const QRegularExpression rankEnded(
      QStringLiteral("^(rank \\d+ \\(pid \\d+\\) (?:was killed by signal|exited with code)[^;]*)"));
  QStringList killed;   // ranks killed by a signal
  QStringList exits;    // ranks that exited with an error code
  QStringList reasons;  // what the ranks (or the launcher) said
  QStringList other;    // not mrnn's own lines
  for (const QString& raw : stderrLines) {
    QString line = raw.trimmed();
    if (line.isEmpty()) continue;
    if (!line.startsWith(QLatin1String("mrnn: "))) {
      other.append(line);
      continue;
    }
    line = line.mid(6);
    const QRegularExpressionMatch ended = rankEnded.match(line);
    if (ended.hasMatch()) {
      (line.contains(QLatin1String("killed by signal")) ? killed : exits).append(ended.captured(1));
      continue;
    }
    // Advice for the terminal; the monitor gives its own (resume from the Runs table).
    if (line.startsWith(QLatin1String("the run's last checkpoint is intact"))) continue;
    line.remove(rankPrefix);
    line.remove(couldNotStart);
    line.remove(runFailed);
    if (!reasons.contains(line)) reasons.append(line);
  }
  QStringList out = killed;
  out += reasons;
  if (out.isEmpty()) out = exits;
  if (out.isEmpty()) out = other.mid(std::max(0, static_cast<int>(other.size()) - 3));
  return out.join(QLatin1Char('\n'));
}

}  // namespace mrnn::widgets
