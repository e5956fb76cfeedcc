#pragma once

#include <QString>
#include <QVector>
#include <utility>

#include "widgets/data/dataset_info.h"

namespace mrnn::widgets {

// The standard language-modelling data sets the workbench can download: tiny Shakespeare,
// Penn Treebank (characters and words), text8, enwik8, WikiText-2 and WikiText-103. Every
// checksum is a published one (see each entry's checksumSource); none is computed here.
class DatasetCatalog {
 public:
  DatasetCatalog();
  // Another list (tests, or sets a lab hosts itself).
  explicit DatasetCatalog(QVector<DatasetInfo> datasets) : datasets_(std::move(datasets)) {}

  const QVector<DatasetInfo>& datasets() const { return datasets_; }
  // nullptr when no data set has that id.
  const DatasetInfo* find(const QString& id) const;

  // Where downloads go unless the user picks another folder: `data/` under the
  // application's data folder (QStandardPaths::AppDataLocation).
  static QString defaultDestination();

 private:
  QVector<DatasetInfo> datasets_;
};

}  // namespace mrnn::widgets
