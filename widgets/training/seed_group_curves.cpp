#include "widgets/training/seed_group_curves.h"

#include <QRegularExpression>

#include <cmath>
#include <map>
#include <vector>

namespace mrnn::widgets {
namespace {

// Mean and sample standard deviation of one metric over the runs, at the steps all reached.
void meanOverRuns(const QVector<RunCurves>& runs, RunMetric metric, Curve* mean, Curve* spread) {
  std::map<double, std::vector<CurvePoint>> byStep;
  for (const RunCurves& run : runs) {
    for (const CurvePoint& point : run.curve(metric)) byStep[point.step].push_back(point);
  }
  const auto n = static_cast<size_t>(runs.size());
  for (const auto& [step, points] : byStep) {
    if (points.size() != n) continue;  // a run has not reached it (or logged it twice)
    CurvePoint m{step, 0.0, 0.0, 0.0, 0.0};
    for (const CurvePoint& p : points) {
      m.epoch += p.epoch / static_cast<double>(n);
      m.wallSeconds += p.wallSeconds / static_cast<double>(n);
      m.symbols += p.symbols / static_cast<double>(n);
      m.value += p.value / static_cast<double>(n);
    }
    double squares = 0.0;
    for (const CurvePoint& p : points) squares += (p.value - m.value) * (p.value - m.value);
    CurvePoint s = m;
    s.value = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0.0;
    mean->append(m);
    spread->append(s);
  }
}

}  // namespace

RunCurves seedGroupCurves(const QVector<RunCurves>& runs, const QString& label) {
  RunCurves group(runs.isEmpty() ? 0 : runs.first().runId(), label);
  QVector<qint64> members;
  for (const RunCurves& run : runs) members.append(run.runId());
  group.setMembers(members);
  for (int m = 0; m < kRunMetricCount; ++m) {
    Curve mean;
    Curve spread;
    meanOverRuns(runs, static_cast<RunMetric>(m), &mean, &spread);
    group.setGroupCurve(static_cast<RunMetric>(m), mean, spread);
  }
  return group;
}

QString seedGroupLabel(const QVector<RunCurves>& runs) {
  QString name = runs.isEmpty() ? QString() : runs.first().label();
  static const QRegularExpression runNumber(QStringLiteral("^run \\d+ · "));
  static const QRegularExpression seed(QStringLiteral(",? seed \\d+$"));
  static const QRegularExpression trialNumber(QStringLiteral(" #\\d+(: |$)"));
  name.remove(runNumber);
  name.remove(seed);
  name.replace(trialNumber, QStringLiteral("\\1"));
  // The configuration first: a narrow legend keeps what tells the groups apart.
  return QStringLiteral("%1 · mean ± std of %2 runs").arg(name).arg(runs.size());
}

}  // namespace mrnn::widgets
