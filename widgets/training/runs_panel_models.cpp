// The runs panel's models in and out of PyTorch: Export Model (a run's checkpoint as a state
// dict or safetensors file) and Import PyTorch Model (ImportModelDialog), a file of its own so
// that runs_panel.cpp stays the table and its run actions.

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <memory>

#include "engine/analysis/loaded_model.h"
#include "engine/config/project_store_paths.h"
#include "engine/interop/model_export.h"

#include "engine/store/run_catalogue.h"
#include "widgets/display_format.h"
#include "widgets/elided_label.h"
#include "widgets/native_path.h"
#include "widgets/project/project_document.h"
#include "widgets/training/background_job.h"
#include "widgets/training/import_model_dialog.h"
#include "widgets/training/run_banner.h"
#include "widgets/training/runs_panel.h"
#include "widgets/training/runs_table_model.h"

namespace mrnn::widgets {
namespace {

const QString kTorchSuffix = QStringLiteral(".pt");
const QString kSafetensorsSuffix = QStringLiteral(".safetensors");

// "run-3-mlstm-256.pt": the run's number and name, fit for any file system.
QString suggestedModelFile(qint64 runId, const QString& runName) {
  QString stem = runName;
  stem.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]+")), QStringLiteral("-"));
  stem.remove(QRegularExpression(QStringLiteral("^-+|-+$")));
  return QStringLiteral("run-%1%2%3")
      .arg(runId)
      .arg(stem.isEmpty() ? QString() : QStringLiteral("-") + stem, kTorchSuffix);
}

}  // namespace

void RunsPanel::updateExportModelAction(const QList<qint64>& ids) {
  QString why;
  if (document_.isUntitled()) {
    why = tr("Save the project and train it: a run's model can then be exported");
  } else if (ids.isEmpty()) {
    why = tr("Select a run to export its model");
  } else if (ids.size() > 1) {
    why = tr("Select one run to export its model");
  } else if (!exportable_.contains(ids.first())) {
    why = tr("Run %1 has no checkpoint to export: it stopped or failed before its first one, "
             "or its files were deleted")
              .arg(ids.first());
  } else if (isExportingModel()) {
    why = tr("An export is under way");
  }
  exportModel_->setEnabled(why.isEmpty());
  if (!why.isEmpty()) {
    exportModel_->setToolTip(why);
    return;
  }
  const bool best = exportable_.value(ids.first()) == QStringLiteral("best");
  exportModel_->setToolTip(
      (best ? tr("Write run %1's best checkpoint as a PyTorch state dict or a safetensors file")
            : tr("Write run %1's latest checkpoint (it has no best) as a PyTorch state dict or "
                 "a safetensors file"))
          .arg(ids.first()));
}

void RunsPanel::exportModelSelected() {
  const QList<qint64> ids = selectedRunIds();
  if (ids.size() != 1 || !exportModel_->isEnabled()) return;
  const qint64 runId = ids.first();
  const QString name = QString::fromStdString(model_->run(model_->rowOfRun(runId)).name);
  const QString torchFilter = tr("PyTorch state dict (*.pt)");
  const QString safetensorsFilter = tr("safetensors (*.safetensors)");
  QString filter = torchFilter;
  QString path = QFileDialog::getSaveFileName(
      this, tr("Export the model of %1").arg(runTitle(runId)),
      QDir(document_.folder()).filePath(suggestedModelFile(runId, name)),
      torchFilter + QStringLiteral(";;") + safetensorsFilter, &filter);
  if (path.isEmpty()) return;
  // The name decides the format (as `mrnn export` reads it); a name without either suffix
  // takes the one of the filter the user chose.
  // The dialog asked only about the name it was given: a file at the name with the suffix
  // added was never confirmed, and is replaced only when it is an export itself.
  const bool asked = path.endsWith(kTorchSuffix) || path.endsWith(kSafetensorsSuffix);
  if (!asked) path += filter == safetensorsFilter ? kSafetensorsSuffix : kTorchSuffix;
  exportModelTo(runId, path, asked);
}

bool RunsPanel::exportModelTo(qint64 runId, const QString& path, bool replaceConfirmed) {
  if (isExportingModel() || document_.isUntitled()) return false;
  const QString title = runTitle(runId);
  std::string checkpoint;
  try {
    // The one the sampler and the analyses open first: the best, else the latest.
    checkpoint = engine::RunCatalogue(toNativePath(document_.folder())).checkpointToAnalyse(runId);
  } catch (const std::exception& error) {
    banner_->showMessage(RunBanner::Kind::Failure,
                         tr("The model of %1 was not exported").arg(title),
                         tr("%1: it stopped or failed before its first checkpoint, or its files "
                            "were deleted.")
                             .arg(QString::fromUtf8(error.what())));
    return false;
  }
  const std::string project = toNativePath(document_.path());
  const std::string output = toNativePath(path);
  auto result = std::make_shared<engine::ExportResult>();
  // The file dialog asked before an existing file is replaced; the description beside it, the
  // project's own files and anything but a regular file never are.
  const bool confirmed = replaceConfirmed && QFileInfo::exists(path);
  // Reading a large checkpoint and writing its weights take seconds.
  modelExport_ = new BackgroundJob(
      [project, runId, checkpoint, output, result, confirmed](engine::JobContext&) {
        const engine::LoadedModel loaded = engine::loadModelForAnalysis(project, runId, checkpoint);
        engine::OutputRules rules;
        rules.guarded = engine::projectStorePaths(loaded.project, project);
        rules.ownOutput = [output, confirmed](const std::string& file) {
          return (confirmed && file == output) || engine::isExportedModelFile(file);
        };
        rules.howToReplace = "give its whole name, suffix included, to replace it";
        *result = engine::exportModel(loaded, output, engine::modelFileFormatFor(output), rules);
      },
      this);
  const auto end = [this] {
    modelExport_->deleteLater();
    modelExport_ = nullptr;
    unsetCursor();
    updateActions();
  };
  const QString kind = QFileInfo(fromNativePath(checkpoint)).completeBaseName();
  connect(modelExport_, &BackgroundJob::succeeded, this, [this, end, result, title, kind, runId] {
    end();
    const QString file = QDir::toNativeSeparators(fromNativePath(result->file));
    QString detail = tr("%1 parameters in %2 tensors, from its %3 checkpoint, to %4")
                         .arg(formatCount(result->parameters))
                         .arg(result->tensors)
                         .arg(kind, file);
    if (!result->description.empty()) {
      detail += tr(", with the model's description in %1. torch.load reads the weights; the "
                   "description says how to build the model around them.")
                    .arg(QDir::toNativeSeparators(fromNativePath(result->description)));
    } else {
      detail += tr(", with the model's description in its metadata.");
    }
    banner_->showMessage(RunBanner::Kind::Success, tr("Exported the model of %1").arg(title),
                         detail);
    showMessage(tr("Exported the model of %1 to %2").arg(title, file));
    emit modelExported(runId, true, detail);
  });
  connect(modelExport_, &BackgroundJob::failed, this,
          [this, end, title, runId](const QString& why) {
            end();
            banner_->showMessage(RunBanner::Kind::Failure,
                                 tr("The model of %1 was not exported").arg(title), why);
            showMessage(tr("The model of %1 was not exported: %2").arg(title, why));
            emit modelExported(runId, false, why);
          });
  footer_->setFullText(
      tr("Exporting the model of %1 to %2…").arg(title, QDir::toNativeSeparators(path)));
  setCursor(Qt::BusyCursor);
  updateActions();
  modelExport_->start();
  return true;
}

void RunsPanel::importModel() {
  if (document_.isUntitled()) return;
  auto* dialog = new ImportModelDialog(document_.path(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &ImportModelDialog::imported, this, &RunsPanel::showImportedRun);
  dialog->open();
}

void RunsPanel::showImportedRun(qint64 runId, const QString& name, const QString& file,
                                const QString& description) {
  refresh();
  // A filter that hides the new run would leave it unselected and unseen.
  const int row = model_->rowOfRun(runId);
  if (row >= 0 && !proxy_->mapFromSource(model_->index(row, 0)).isValid()) filter_->clear();
  selectRuns({runId});
  const int shown = model_->rowOfRun(runId);
  if (shown >= 0) view_->scrollTo(proxy_->mapFromSource(model_->index(shown, 0)));
  const QString title = tr("run %1 · %2").arg(runId).arg(name);
  bannerRun_ = runId;
  banner_->showMessage(RunBanner::Kind::Success, tr("Imported %1").arg(title),
                       tr("%1 (%2). It opens in the sampler and the analysis views; it has no "
                          "curves, as it was not trained here.")
                           .arg(QDir::toNativeSeparators(file), description));
  showMessage(tr("Imported %1 as %2").arg(QFileInfo(file).fileName(), title));
  emit runImported(runId);
}

}  // namespace mrnn::widgets
