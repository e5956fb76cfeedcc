#include "widgets/experiments/experiment_snapshot.h"

#include <cmath>
#include <exception>
#include <map>

#include "engine/experiment/queue_control.h"
#include "engine/store/run_catalogue.h"

namespace mrnn::widgets {
namespace {

QString number(const std::optional<double>& value) {
  return value ? QString::number(*value, 'g', 10) : QStringLiteral("-");
}

}  // namespace

int64_t ExperimentSnapshot::count(engine::TrialStatus status) const {
  int64_t n = 0;
  for (size_t i = 0; i < progress.size(); ++i) {
    if (current[i] && progress[i].trial.status == status && !progress[i].interrupted) ++n;
  }
  return n;
}

int64_t ExperimentSnapshot::interrupted() const {
  int64_t n = 0;
  for (const auto& row : progress) n += row.interrupted ? 1 : 0;
  return n;
}

QString ExperimentSnapshot::signature() const {
  QString text = queue ? QString::number(queue->pid) : QStringLiteral("none");
  text += paused ? QStringLiteral("|paused") : QStringLiteral("|on");
  text += QLatin1Char('|') + error;
  for (size_t i = 0; i < progress.size(); ++i) {
    const auto& row = progress[i];
    text += QStringLiteral("|%1:%2:%3:%4:%5:%6:%7")
                .arg(row.trial.trial)
                .arg(QString::fromStdString(row.statusText()))
                .arg(row.trial.runId)
                .arg(current[i] ? 1 : 0)
                .arg(row.run ? row.run->steps : -1)
                .arg(row.trial.budget)
                .arg(QString::fromStdString(row.trial.reason));
    if (row.run) {
      text += QLatin1Char(':') + number(row.run->bestValid) + QLatin1Char(':') +
              number(row.run->testResult);
    }
  }
  return text;
}

ExperimentSnapshot readExperimentSnapshot(const engine::ExperimentPlan& plan) {
  ExperimentSnapshot snapshot;
  const std::string& folder = plan.folder();
  const std::string& name = plan.experiment.name;
  try {
    const engine::QueueControl control(folder, name);
    snapshot.queue = control.holder();
    if (snapshot.queue) {
      snapshot.queueLocal = control.local(*snapshot.queue);
      snapshot.paused = snapshot.queueLocal && control.paused();
    }
    const engine::ExperimentLedger ledger(folder, engine::ExperimentLedger::Access::ReadOnly);
    const std::vector<engine::TrialRecord> trials = ledger.trials(name);
    if (engine::RunCatalogue::exists(folder)) snapshot.runs = engine::RunCatalogue(folder).runs();
    snapshot.progress = engine::experimentProgress(
        trials, snapshot.runs,
        [&folder, &name](int64_t trial) { return engine::trialTrainedNow(folder, name, trial); },
        snapshot.queue.has_value());
    // Only the trials that ran with the plan's configuration count for it.
    std::vector<engine::TrialRecord> current;
    for (const auto& row : snapshot.progress) {
      const int64_t index = row.trial.trial;
      const bool planned = index >= 0 && index < static_cast<int64_t>(plan.trials.size());
      const bool same =
          planned && row.trial.fingerprint == plan.trials[static_cast<size_t>(index)].fingerprint;
      snapshot.current.push_back(same);
      if (same) current.push_back(row.trial);
      const bool ran = row.trial.status != engine::TrialStatus::Queued || row.trial.runId > 0;
      if (!same && ran) ++snapshot.changedTrials;
    }
    snapshot.results = engine::experimentResults(plan, current, snapshot.runs);
  } catch (const std::exception& error) {
    snapshot.error = QString::fromUtf8(error.what());
  }
  return snapshot;
}

}  // namespace mrnn::widgets
