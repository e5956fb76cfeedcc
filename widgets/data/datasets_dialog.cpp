#include "widgets/data/datasets_dialog.h"
#include "widgets/native_path.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/config/project_file.h"
#include "engine/io/written_files.h"
#include "widgets/data/dataset_downloader.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

constexpr int kTextIntervalMs = 250;  // progress text refreshes at most this often

QString transferText(qint64 bytes) {
  if (bytes < 1000 * 1000)
    return QStringLiteral("%1 kB").arg(static_cast<double>(bytes) / 1e3, 0, 'f', 0);
  const double mb = static_cast<double>(bytes) / 1e6;
  return QStringLiteral("%1 MB").arg(mb, 0, 'f', mb < 10 ? 1 : 0);
}

QString levelName(engine::InputLevel level) {
  switch (level) {
    case engine::InputLevel::Byte:
      return DatasetsDialog::tr("bytes");
    case engine::InputLevel::Word:
      return DatasetsDialog::tr("words");
    default:
      return DatasetsDialog::tr("characters");
  }
}

qint64 partialBytes(const DatasetInfo& info, const QString& folder) {
  qint64 total = 0;
  for (const DatasetDownload& download : info.downloads)
    total += QFileInfo(QDir(folder).filePath(download.fileName + QStringLiteral(".part"))).size();
  return total;
}

QString duration(double seconds) {
  if (seconds < 90) return DatasetsDialog::tr("%1 s").arg(std::max(1, int(std::lround(seconds))));
  if (seconds < 5400) return DatasetsDialog::tr("%1 min").arg(int(std::lround(seconds / 60)));
  return DatasetsDialog::tr("%1 h").arg(seconds / 3600, 0, 'f', 1);
}

}  // namespace

DatasetsDialog::DatasetsDialog(ProjectDocument& document, QWidget* parent)
    : QDialog(parent), document_(document), downloader_(new DatasetDownloader(this)) {
  setObjectName(QStringLiteral("datasetsDialog"));
  setWindowTitle(tr("Standard data sets"));
  buildUi();
  fillList();
  connect(downloader_, &DatasetDownloader::progress, this, &DatasetsDialog::onProgress);
  connect(downloader_, &DatasetDownloader::statusChanged, this,
          [this](const QString& text) { setStatus(text, false); });
  connect(downloader_, &DatasetDownloader::finished, this, [this](const QString&) {
    progress_->setRange(0, 1000);
    progress_->setValue(1000);
    progress_->setFormat(tr("downloaded"));
    const QStringList unverified = downloader_->unverifiedFiles();
    if (!unverified.isEmpty()) {
      QStringList names;
      for (const QString& path : unverified) names << QFileInfo(path).fileName();
      setStatus(tr("Downloaded. Not verified: no published checksum covers %1.")
                    .arg(names.join(QStringLiteral(", "))),
                false);
    }
    refreshStates();
    updateButtons();
  });
  connect(downloader_, &DatasetDownloader::failed, this, [this](const QString& reason) {
    setStatus(reason, true);
    refreshStates();
    updateButtons();
  });
  connect(downloader_, &DatasetDownloader::cancelled, this, [this] {
    refreshStates();
    updateButtons();
  });
  setDestination(DatasetCatalog::defaultDestination());
  list_->setCurrentItem(list_->topLevelItem(0));
  setStatus(tr("Choose a data set and press Download. Downloads resume where they stopped."),
            false);
  resize(780, 540);
}

DatasetsDialog::~DatasetsDialog() = default;

void DatasetsDialog::buildUi() {
  auto* intro = new QLabel(
      tr("The corpora of the language-modelling literature. Each download is checked against its "
         "published sha256 checksum before it is used; an interrupted download resumes where it "
         "stopped."),
      this);
  intro->setWordWrap(true);

  list_ = new QTreeWidget(this);
  list_->setObjectName(QStringLiteral("datasetList"));
  list_->setColumnCount(ColumnCount);
  list_->setHeaderLabels(
      {tr("Data set"), tr("Level"), tr("Download"), tr("Checked by"), tr("On disk")});
  list_->setRootIsDecorated(false);
  list_->setAlternatingRowColors(true);
  list_->setUniformRowHeights(true);
  list_->header()->setStretchLastSection(false);
  list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  list_->header()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
  connect(list_, &QTreeWidget::currentItemChanged, this, [this] {
    updateDetails();
    updateButtons();
  });
  connect(list_, &QTreeWidget::itemDoubleClicked, this, [this] {
    if (!downloader_->isRunning()) download();
  });

  details_ = new QLabel(this);
  details_->setObjectName(QStringLiteral("datasetDetails"));
  details_->setWordWrap(true);
  details_->setTextFormat(Qt::RichText);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  details_->setMinimumHeight(details_->fontMetrics().lineSpacing() * 6);
  details_->setFrameShape(QFrame::StyledPanel);
  details_->setMargin(8);

  auto* destinationRow = new QHBoxLayout;
  auto* destinationLabel = new QLabel(tr("&Save in:"), this);
  destination_ = new QLineEdit(this);
  destination_->setObjectName(QStringLiteral("destination"));
  destination_->setToolTip(tr("Each data set gets its own folder here"));
  destinationLabel->setBuddy(destination_);
  connect(destination_, &QLineEdit::editingFinished, this, [this] {
    refreshStates();
    updateButtons();
  });
  chooseButton_ = new QPushButton(tr("C&hoose…"), this);
  chooseButton_->setToolTip(tr("Choose the folder downloads go to"));
  connect(chooseButton_, &QPushButton::clicked, this, &DatasetsDialog::chooseDestination);
  destinationRow->addWidget(destinationLabel);
  destinationRow->addWidget(destination_, 1);
  destinationRow->addWidget(chooseButton_);

  progress_ = new QProgressBar(this);
  progress_->setObjectName(QStringLiteral("downloadProgress"));
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setTextVisible(true);
  progress_->setFormat(tr("nothing downloading"));
  progressText_ = new QLabel(this);
  progressText_->setObjectName(QStringLiteral("progressText"));
  progressText_->setMinimumWidth(progressText_->fontMetrics().horizontalAdvance(
      QStringLiteral("000 of 000 MB · 00.0 MB/s · 00 min left")));
  auto* progressRow = new QHBoxLayout;
  progressRow->addWidget(progress_, 1);
  progressRow->addWidget(progressText_);

  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("downloadStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setMinimumHeight(status_->fontMetrics().lineSpacing() * 2);
  status_->setAlignment(Qt::AlignTop | Qt::AlignLeft);

  buttons_ = new QDialogButtonBox(this);
  downloadButton_ = buttons_->addButton(tr("&Download"), QDialogButtonBox::ActionRole);
  downloadButton_->setObjectName(QStringLiteral("downloadButton"));
  downloadButton_->setToolTip(tr("Download the selected data set (resumes a partial download)"));
  cancelButton_ = buttons_->addButton(tr("&Cancel download"), QDialogButtonBox::ActionRole);
  cancelButton_->setObjectName(QStringLiteral("cancelButton"));
  cancelButton_->setToolTip(tr("Stop; the partial download is kept and resumes next time"));
  useButton_ = buttons_->addButton(tr("&Use in project"), QDialogButtonBox::ActionRole);
  useButton_->setObjectName(QStringLiteral("useButton"));
  useButton_->setToolTip(tr("Set the project's corpus files, format and level to this data set"));
  buttons_->addButton(QDialogButtonBox::Close);
  connect(downloadButton_, &QPushButton::clicked, this, &DatasetsDialog::download);
  connect(cancelButton_, &QPushButton::clicked, this, &DatasetsDialog::cancelDownload);
  connect(useButton_, &QPushButton::clicked, this, [this] {
    if (useInProject()) accept();
  });
  connect(buttons_, &QDialogButtonBox::rejected, this, &DatasetsDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  // The list shows all seven sets without scrolling; the details take what is left.
  list_->setMinimumHeight(list_->fontMetrics().lineSpacing() * 10);
  layout->addWidget(list_, 0);
  layout->addWidget(details_, 1);
  layout->addLayout(destinationRow);
  layout->addLayout(progressRow);
  layout->addWidget(status_);
  layout->addWidget(buttons_);
}

void DatasetsDialog::setCatalog(const DatasetCatalog& catalog) {
  if (downloader_->isRunning()) return;
  catalog_ = catalog;
  list_->clear();
  fillList();
  list_->setCurrentItem(list_->topLevelItem(0));
  refreshStates();
  updateButtons();
}

void DatasetsDialog::fillList() {
  for (const DatasetInfo& info : catalog_.datasets()) {
    auto* item = new QTreeWidgetItem(list_);
    item->setData(NameColumn, Qt::UserRole, info.id);
    item->setText(NameColumn, info.name);
    item->setToolTip(NameColumn, info.description);
    item->setText(LevelColumn, levelName(info.level));
    const qint64 size = info.downloadSize();
    item->setText(SizeColumn, size > 0 ? transferText(size) : tr("unknown"));
    item->setTextAlignment(SizeColumn, Qt::AlignRight | Qt::AlignVCenter);
    bool archiveChecked = true;
    for (const DatasetDownload& download : info.downloads)
      archiveChecked = archiveChecked && !download.sha256.isEmpty();
    if (!info.isVerifiable()) {
      item->setText(ChecksumColumn, tr("not verified"));
      item->setForeground(ChecksumColumn, QColor(176, 96, 0));
      item->setToolTip(ChecksumColumn,
                       tr("No published checksum covers %1.")
                           .arg(info.unverifiableFiles().join(QStringLiteral(", "))));
    } else {
      item->setText(ChecksumColumn, archiveChecked ? tr("sha256") : tr("sha256 of files"));
      item->setToolTip(ChecksumColumn, info.checksumSource);
    }
  }
}

QString DatasetsDialog::destination() const {
  return destination_->text().trimmed();
}

void DatasetsDialog::setDestination(const QString& folder) {
  destination_->setText(QDir::toNativeSeparators(folder));
  refreshStates();
  updateButtons();
}

bool DatasetsDialog::selectDataset(const QString& id) {
  for (int i = 0; i < list_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = list_->topLevelItem(i);
    if (item->data(NameColumn, Qt::UserRole).toString() == id) {
      list_->setCurrentItem(item);
      return true;
    }
  }
  return false;
}

const DatasetInfo* DatasetsDialog::selectedDataset() const {
  const QTreeWidgetItem* item = list_->currentItem();
  return item ? catalog_.find(item->data(NameColumn, Qt::UserRole).toString()) : nullptr;
}

bool DatasetsDialog::isDownloaded(const DatasetInfo& info, const QString& destination) {
  if (destination.isEmpty() || info.files.isEmpty()) return false;
  const QDir folder(DatasetDownloader::folderFor(info, destination));
  for (const DatasetFile& file : info.files)
    if (!QFileInfo::exists(folder.filePath(file.path))) return false;
  return true;
}

void DatasetsDialog::refreshStates() {
  const QString folder = destination();
  for (int i = 0; i < list_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = list_->topLevelItem(i);
    const DatasetInfo* info = catalog_.find(item->data(NameColumn, Qt::UserRole).toString());
    if (!info) continue;
    const qint64 partial = partialBytes(*info, DatasetDownloader::folderFor(*info, folder));
    item->setToolTip(StateColumn, QString());
    if (isDownloaded(*info, folder)) {
      // Files put there by hand (or changed since) are the user's: say so, not "downloaded".
      const engine::WrittenFiles written(toNativePath(DatasetDownloader::folderFor(*info, folder)));
      bool ours = true;
      for (const DatasetFile& file : info->files)
        ours = ours && written.wrote(file.path.toStdString());
      item->setText(StateColumn, ours ? tr("downloaded") : tr("in place"));
      item->setToolTip(StateColumn,
                       ours ? tr("Downloaded here and checked against the published checksums")
                            : tr("In the folder, but not as downloaded here (put there by hand, "
                                 "or changed since): Verify checks them"));
    } else if (partial > 0) {
      item->setText(StateColumn, tr("partial, %1").arg(transferText(partial)));
    } else {
      item->setText(StateColumn, QStringLiteral("–"));
    }
  }
  updateDetails();
}

void DatasetsDialog::updateDetails() {
  const DatasetInfo* info = selectedDataset();
  if (!info) {
    details_->clear();
    return;
  }
  QStringList files;
  for (const DatasetFile& file : info->files) files << file.path.toHtmlEscaped();
  QString checks = info->checksumSource.toHtmlEscaped();
  if (!info->isVerifiable())
    checks += tr(" <span style='color:#b06000'><b>Not verified:</b> %1 has no published "
                 "checksum.</span>")
                  .arg(info->unverifiableFiles().join(QStringLiteral(", ")).toHtmlEscaped());
  const QString folder =
      QDir::toNativeSeparators(DatasetDownloader::folderFor(*info, destination()));
  // Only what the entry says: a list of sets hosted elsewhere may leave fields empty.
  QStringList lines;
  lines << QStringLiteral("<b>%1</b> — %2<br>")
               .arg(info->name.toHtmlEscaped(), info->description.toHtmlEscaped());
  if (!info->reference.isEmpty())
    lines << tr("<b>Source:</b> %1").arg(info->reference.toHtmlEscaped());
  if (!info->licence.isEmpty())
    lines << tr("<b>Licence:</b> %1").arg(info->licence.toHtmlEscaped());
  if (!checks.isEmpty()) lines << tr("<b>Checksums:</b> %1").arg(checks);
  lines << tr("<b>Files:</b> %1").arg(files.join(QStringLiteral(", ")));
  lines << tr("<b>Folder:</b> %1").arg(folder.toHtmlEscaped());
  details_->setText(lines.join(QStringLiteral("<br>")));
}

void DatasetsDialog::updateButtons() {
  const bool running = downloader_->isRunning();
  const DatasetInfo* info = selectedDataset();
  downloadButton_->setEnabled(!running && info && !destination().isEmpty());
  downloadButton_->setText(info && isDownloaded(*info, destination()) ? tr("&Verify again")
                                                                      : tr("&Download"));
  cancelButton_->setEnabled(running);
  useButton_->setEnabled(!running && info && isDownloaded(*info, destination()));
  list_->setEnabled(!running);
  destination_->setEnabled(!running);
  chooseButton_->setEnabled(!running);
}

void DatasetsDialog::chooseDestination() {
  const QString folder =
      QFileDialog::getExistingDirectory(this, tr("Save data sets in"), destination());
  if (!folder.isEmpty()) setDestination(folder);
}

void DatasetsDialog::download() {
  const DatasetInfo* info = selectedDataset();
  if (!info || downloader_->isRunning() || destination().isEmpty()) return;
  speedStart_ = -1;
  progress_->setValue(0);
  progress_->setFormat(tr("%p%"));
  progressText_->clear();
  setStatus(QString(), false);
  downloader_->start(*info, QDir::fromNativeSeparators(destination()));
  updateButtons();
}

void DatasetsDialog::cancelDownload() {
  downloader_->cancel();
}

void DatasetsDialog::onProgress(qint64 received, qint64 total) {
  if (speedStart_ < 0) {
    speedStart_ = received;
    speedTimer_.start();
    textTimer_.invalidate();
  }
  if (total > 0) {
    progress_->setRange(0, 1000);
    progress_->setValue(
        static_cast<int>(1000.0 * static_cast<double>(received) / static_cast<double>(total)));
  } else {
    progress_->setRange(0, 0);  // busy indicator while the size is unknown
  }
  if (textTimer_.isValid() && textTimer_.elapsed() < kTextIntervalMs && received != total) return;
  textTimer_.start();
  QString text = total > 0 ? tr("%1 of %2").arg(transferText(received), transferText(total))
                           : transferText(received);
  const double seconds = static_cast<double>(speedTimer_.elapsed()) / 1000.0;
  if (seconds > 0.5 && received > speedStart_) {
    const double speed = static_cast<double>(received - speedStart_) / seconds;  // bytes/s
    text += tr(" · %1 MB/s").arg(speed / 1e6, 0, 'f', 1);
    if (total > received)
      text += tr(" · %1 left").arg(duration(static_cast<double>(total - received) / speed));
  }
  progressText_->setText(text);
}

void DatasetsDialog::setStatus(const QString& text, bool isError) {
  status_->setText(text);
  status_->setStyleSheet(isError ? QStringLiteral("color: #a61b0f;") : QString());
}

QString DatasetsDialog::statusText() const {
  return status_->text();
}

QString DatasetsDialog::progressText() const {
  return progressText_->text();
}

bool DatasetsDialog::useInProject() {
  const DatasetInfo* info = selectedDataset();
  if (!info || !isDownloaded(*info, destination())) return false;
  const QDir folder(DatasetDownloader::folderFor(*info, QDir::fromNativeSeparators(destination())));
  const QString projectFolder = document_.folder();
  // Inside the project folder the paths stay relative (the folder can move); else absolute.
  const auto place = [&](const std::string& relative) -> std::string {
    if (relative.empty()) return relative;
    const QString absolute = QDir::cleanPath(folder.absoluteFilePath(fromNativePath(relative)));
    QString stored = absolute;
    if (!projectFolder.isEmpty()) {
      const QString inside = QDir(projectFolder).relativeFilePath(absolute);
      if (!inside.startsWith(QStringLiteral(".."))) stored = inside;
    }
    return toNativePath(stored);
  };
  engine::Project project = document_.project();
  project.hasData = true;
  project.data = info->data;
  project.data.train = place(info->data.train);
  project.data.valid = place(info->data.valid);
  project.data.test = place(info->data.test);
  project.model.input.level = info->level;
  document_.edit(project, tr("Use %1").arg(info->name));
  setStatus(tr("The project now reads %1.").arg(info->name), false);
  return true;
}

void DatasetsDialog::reject() {
  // A download does not outlive its dialog; the .part stays for the next time.
  if (downloader_->isRunning()) downloader_->cancel();
  QDialog::reject();
}

}  // namespace mrnn::widgets
