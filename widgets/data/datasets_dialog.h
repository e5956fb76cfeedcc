#pragma once

#include <QDialog>
#include <QElapsedTimer>
#include <QString>

#include "widgets/data/dataset_catalog.h"

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace mrnn::widgets {

class DatasetDownloader;
class ProjectDocument;

// The standard data sets: a list with level, download size, how each is checked and whether
// it is on disk; a destination folder; Download / Cancel with a progress bar (MB, speed, time
// left) and status text; and "Use in project", which points the project's data section and
// input level at the downloaded files. Closing the dialog cancels a running download; its
// partial file is kept and resumes next time.
class DatasetsDialog : public QDialog {
  Q_OBJECT

 public:
  enum Column { NameColumn, LevelColumn, SizeColumn, ChecksumColumn, StateColumn, ColumnCount };

  explicit DatasetsDialog(ProjectDocument& document, QWidget* parent = nullptr);
  ~DatasetsDialog() override;

  QString destination() const;
  void setDestination(const QString& folder);
  // Selects the data set with this id; false when the catalog has none.
  bool selectDataset(const QString& id);
  const DatasetInfo* selectedDataset() const;

  // Downloads the selected data set into the destination folder.
  void download();
  void cancelDownload();
  // Points the project's data section and input level at the selected data set's files;
  // false (and nothing changes) unless it is downloaded.
  bool useInProject();

  DatasetDownloader* downloader() const { return downloader_; }
  const DatasetCatalog& catalog() const { return catalog_; }
  // Lists another catalog instead of the standard one.
  void setCatalog(const DatasetCatalog& catalog);
  QString statusText() const;
  QString progressText() const;

  // True when every file the data set provides is in its folder under `destination`.
  static bool isDownloaded(const DatasetInfo& info, const QString& destination);

 public slots:
  void reject() override;

 private:
  void buildUi();
  void fillList();
  void refreshStates();
  void updateDetails();
  void updateButtons();
  void chooseDestination();
  void onProgress(qint64 received, qint64 total);
  void setStatus(const QString& text, bool isError);

  ProjectDocument& document_;
  DatasetCatalog catalog_;
  DatasetDownloader* downloader_;
  QTreeWidget* list_ = nullptr;
  QLabel* details_ = nullptr;
  QLineEdit* destination_ = nullptr;
  QPushButton* chooseButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* progressText_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* downloadButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QPushButton* useButton_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
  QElapsedTimer speedTimer_;
  QElapsedTimer textTimer_;
  qint64 speedStart_ = -1;  // bytes already there when this transfer began
};

}  // namespace mrnn::widgets
