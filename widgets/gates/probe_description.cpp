#include "widgets/gates/probe_description.h"

#include <QObject>
#include <utility>

namespace mrnn::widgets {

QString probeDescription(const QString& probe) {
  QString base = probe;
  QString part;
  for (const QString& prefix : {QStringLiteral("major."), QStringLiteral("minor.")}) {
    if (base.startsWith(prefix)) {
      part = prefix.chopped(1) + QStringLiteral(" state: ");
      base = base.mid(prefix.size());
    }
  }
  const std::pair<const char*, QString> known[] = {
      {"i", QObject::tr("input gate")},  {"f", QObject::tr("forget gate")},
      {"o", QObject::tr("output gate")}, {"z", QObject::tr("update gate")},
      {"r", QObject::tr("reset gate")},  {"j", QObject::tr("candidate (new content)")},
      {"c", QObject::tr("memory cell")}, {"h", QObject::tr("hidden output")}};
  for (const auto& [name, what] : known) {
    if (base == QLatin1String(name)) return part + what;
  }
  // m, m_z, m_r, m_h: the multiplicative RNNs' factor states.
  if (base.startsWith(QLatin1Char('m'))) {
    return part + QObject::tr("multiplicative intermediate state");
  }
  // The Mogrifier's rounds: x1, h2, ...
  if (base.size() > 1 && (base[0] == QLatin1Char('x') || base[0] == QLatin1Char('h')) &&
      base.mid(1).toInt() > 0) {
    return part + QObject::tr("Mogrifier round %1 (%2 after modulation)")
                      .arg(base.mid(1), base[0] == QLatin1Char('x')
                                            ? QObject::tr("input")
                                            : QObject::tr("previous state"));
  }
  return part + QObject::tr("recorded state");
}

}  // namespace mrnn::widgets
