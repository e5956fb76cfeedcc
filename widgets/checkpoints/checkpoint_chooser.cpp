#include "widgets/checkpoints/checkpoint_chooser.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolButton>

#include "widgets/checkpoints/checkpoint_list.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {

namespace {
constexpr int kPathRole = Qt::UserRole + 1;
constexpr int kShortRole = Qt::UserRole + 2;
constexpr int kRunRole = Qt::UserRole + 3;
}  // namespace

CheckpointChooser::CheckpointChooser(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  combo_ = new QComboBox(this);
  combo_->setObjectName(QStringLiteral("checkpointCombo"));
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(28);
  combo_->setToolTip(
      tr("The trained model to analyse: the best (by validation) or latest checkpoint of each "
         "of the project's runs, newest run first"));
  browse_ = new QToolButton(this);
  browse_->setObjectName(QStringLiteral("otherCheckpointButton"));
  browse_->setText(tr("Other file..."));
  browse_->setToolTip(tr("Analyse a checkpoint file from anywhere (.pt)"));
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(combo_, 1);
  layout->addWidget(browse_);
  connect(browse_, &QToolButton::clicked, this, &CheckpointChooser::browse);
  connect(combo_, qOverload<int>(&QComboBox::activated), this, [this] { picked_ = true; });
  connect(combo_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
    const QString path = checkpoint();
    if (path != lastEmitted_) {
      lastEmitted_ = path;
      emit checkpointChanged(path);
    }
  });
  connect(&document_, &ProjectDocument::pathChanged, this, &CheckpointChooser::refresh);
  refresh();
}

void CheckpointChooser::setOptional(const QString& noneText) {
  noneText_ = noneText;
  {
    // A comparison is asked for, never implied: start on "none", not on the first run.
    const QSignalBlocker blocker(combo_);
    combo_->setCurrentIndex(-1);
  }
  refresh();
}

QString CheckpointChooser::checkpoint() const {
  return combo_->currentData(kPathRole).toString();
}

QString CheckpointChooser::label() const {
  return combo_->currentData(kShortRole).toString();
}

qint64 CheckpointChooser::runId() const {
  return combo_->currentData(kRunRole).toLongLong();
}

int CheckpointChooser::count() const {
  return combo_->count();
}

void CheckpointChooser::setCheckpoint(const QString& path) {
  picked_ = true;
  const QString absolute = QFileInfo(path).absoluteFilePath();
  int row = combo_->findData(absolute, kPathRole);
  if (row < 0) {
    extraFiles_.append(absolute);
    refresh();
    row = combo_->findData(absolute, kPathRole);
  }
  combo_->setCurrentIndex(row);
}

void CheckpointChooser::refresh() {
  const QString selected = checkpoint();
  QList<CheckpointEntry> entries;
  try {
    if (!document_.folder().isEmpty()) entries = listCheckpoints(document_.folder());
  } catch (const std::exception& error) {
    emit problem(
        tr("Cannot read the project's runs: %1").arg(QString::fromStdString(error.what())));
  }
  {
    const QSignalBlocker blocker(combo_);
    combo_->clear();
    if (!noneText_.isEmpty()) {
      combo_->addItem(noneText_);
      combo_->setItemData(0, QString(), kPathRole);
    }
    for (const auto& entry : entries) {
      combo_->addItem(entry.label());
      const int row = combo_->count() - 1;
      combo_->setItemData(row, QFileInfo(entry.path).absoluteFilePath(), kPathRole);
      combo_->setItemData(row, entry.runId, kRunRole);
      combo_->setItemData(
          row,
          tr("Run %1 · %2 · %3")
              .arg(entry.runId)
              .arg(entry.runName.isEmpty() ? entry.modelType : entry.runName, entry.kind),
          kShortRole);
      combo_->setItemData(row, entry.details(), Qt::ToolTipRole);
    }
    for (const QString& file : extraFiles_) {
      if (combo_->findData(file, kPathRole) >= 0) continue;
      combo_->addItem(tr("File: %1").arg(QFileInfo(file).fileName()));
      const int row = combo_->count() - 1;
      combo_->setItemData(row, file, kPathRole);
      combo_->setItemData(row, QFileInfo(file).fileName(), kShortRole);
      combo_->setItemData(row, file, Qt::ToolTipRole);
    }
    // A pick by hand stays while it exists (a picked "none" included); otherwise the best
    // model, which a run that validates better replaces.
    const int keep = picked_ ? combo_->findData(selected, kPathRole) : -1;
    if (keep < 0) picked_ = false;
    const int preferred = preferredCheckpoint(entries);
    const int first = preferred >= 0 && noneText_.isEmpty() ? preferred
                      : combo_->count() > 0                 ? 0
                                                            : -1;
    combo_->setCurrentIndex(keep >= 0 ? keep : first);
    widenPopupToItems(combo_);
  }
  combo_->setPlaceholderText(document_.isUntitled()
                                 ? tr("No checkpoint: save and train the project first")
                                 : tr("No checkpoint yet: train a run first"));
  const QString path = checkpoint();
  if (path != lastEmitted_) {
    lastEmitted_ = path;
    emit checkpointChanged(path);
  }
}

void CheckpointChooser::browse() {
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Analyse a checkpoint"), document_.folder(),
                                   tr("Checkpoints (*.pt);;All files (*)"));
  if (!path.isEmpty()) setCheckpoint(path);
}

}  // namespace mrnn::widgets
