// The runs panel's Evaluate: the run's checkpoint scored on the test split on a worker
// thread, the figure recorded as the run's; a checkpoint that cannot be read met with the run's
// other one when that is whole (a banner link). A file of its own so that runs_panel.cpp stays
// the table and its run actions.

#include <QDir>
#include <QProgressBar>
#include <QToolButton>
#include <memory>
#include <optional>

#include "engine/io/checkpoint_envelope.h"
#include "engine/store/run_catalogue.h"
#include "engine/training/run_test_evaluation.h"
#include "widgets/display_format.h"
#include "widgets/elided_label.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/training/background_job.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"

namespace mrnn::widgets {
namespace {

// When the checkpoint an evaluation of run `runId` chose (`checkpoint`, or the catalogue's
// choice when empty) cannot be read: the run's other checkpoint, when that one is whole.
// Never throws: it only adds to a failure already said.
std::optional<engine::RunCheckpoint> wholeAlternativeWhenUnreadable(const std::string& folder,
                                                                    int64_t runId,
                                                                    const std::string& checkpoint) {
  try {
    const engine::RunCatalogue catalogue(folder);
    const std::string chosen =
        checkpoint.empty() ? catalogue.checkpointToAnalyse(runId) : checkpoint;
    if (engine::checkpointFileProblem(chosen).empty()) return std::nullopt;  // read; another fault
    return catalogue.wholeAlternative(chosen);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace

void RunsPanel::evaluateSelected() {
  const QList<qint64> ids = selectedRunIds();
  if (ids.size() == 1) evaluateRun(ids.first(), QString());
}

void RunsPanel::evaluateRun(qint64 runId, const QString& checkpointPath) {
  if (isEvaluating() || document_.isUntitled()) return;
  const std::string folder = toNativePath(document_.folder());
  const std::string checkpoint = toNativePath(checkpointPath);
  auto result = std::make_shared<engine::RunTestEvaluation>();
  auto other = std::make_shared<std::optional<engine::RunCheckpoint>>();
  evaluation_ = new BackgroundJob(
      [folder, runId, checkpoint, result, other](engine::JobContext& context) {
        try {
          *result = engine::evaluateRunOnTest(folder, runId, &context, checkpoint);
        } catch (...) {
          *other = wholeAlternativeWhenUnreadable(folder, runId, checkpoint);
          throw;
        }
      },
      this);
  evaluatingRun_ = runId;
  const QString title = runTitle(runId);
  const auto end = [this] {
    evaluation_->deleteLater();
    evaluation_ = nullptr;
    evaluatingRun_ = 0;
    progress_->setVisible(false);
    cancel_->setVisible(false);
    updateActions();
  };
  connect(evaluation_, &BackgroundJob::progress, this,
          [this](double fraction, const QString& phase) {
            progress_->setValue(static_cast<int>(fraction * 1000));
            footer_->setFullText(tr("Evaluating %1: %2…").arg(runTitle(evaluatingRun_), phase));
          });
  connect(evaluation_, &BackgroundJob::succeeded, this, [this, end, result, runId, title] {
    end();
    const engine::LossFigures& f = result->figures;
    QString detail =
        tr("%1 bits/symbol, perplexity %2 on %3 test symbols")
            .arg(formatLoss(f.bitsPerSymbol), formatValue(f.perplexity), formatCount(f.symbols));
    if (f.words > 0) detail += tr("; %1 bits/word").arg(formatLoss(f.bitsPerWord));
    detail += tr(".\nCheckpoint %1; recorded as the run's test result.")
                  .arg(QDir::toNativeSeparators(fromNativePath(result->checkpoint)));
    banner_->showMessage(RunBanner::Kind::Success, tr("Test evaluation of %1").arg(title), detail);
    refresh();
    showMessage(tr("%1: test %2 bits/symbol").arg(title, formatLoss(f.bitsPerSymbol)));
    emit evaluationFinished(runId, true, detail);
  });
  connect(evaluation_, &BackgroundJob::failed, this,
          [this, end, runId, title, other](const QString& why) {
            end();
            banner_->showMessage(RunBanner::Kind::Failure, tr("Evaluation of %1 failed").arg(title),
                                 why);
            if (*other) {
              const engine::RunCheckpoint whole = **other;
              banner_->setAction(
                  tr("Evaluate its %1 checkpoint (step %2)")
                      .arg(QString::fromStdString(whole.kind))
                      .arg(whole.step),
                  [this, runId, whole] { evaluateRun(runId, fromNativePath(whole.path)); });
            }
            showMessage(tr("Evaluation of %1 failed: %2").arg(title, why));
            emit evaluationFinished(runId, false, why);
          });
  connect(evaluation_, &BackgroundJob::cancelled, this, [this, end, runId, title] {
    end();
    showMessage(tr("Evaluation of %1 cancelled").arg(title));
    emit evaluationFinished(runId, false, tr("cancelled"));
  });
  progress_->setValue(0);
  progress_->setVisible(true);
  cancel_->setVisible(true);
  footer_->setFullText(tr("Evaluating %1…").arg(title));
  updateActions();
  evaluation_->start();
}

void RunsPanel::cancelEvaluation() {
  if (evaluation_) evaluation_->cancel();
}

}  // namespace mrnn::widgets
