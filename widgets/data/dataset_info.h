#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include "engine/config/data_config.h"
#include "engine/config/model_config.h"

namespace mrnn::widgets {

// How a downloaded file is unpacked.
enum class ArchiveKind {
  None,   // the file is used as it is
  Zip,    // unpacked with `unzip`
  TarGz,  // unpacked with `tar -xzf`
};

// One file fetched from the network. `sha256` is the published checksum of exactly these
// bytes (lower-case hex); empty when none is published, and then the files it yields are
// checked instead where their checksums are known.
struct DatasetDownload {
  QStringList urls;  // the first is the primary; the others are mirrors of the same bytes
  QString fileName;  // saved as <dataset folder>/<fileName>
  QString sha256;
  qint64 size = 0;  // bytes; 0 when not published
  ArchiveKind archive = ArchiveKind::None;
  // Archive members to unpack (wildcards allowed); empty: all of them.
  QStringList members;
};

// A file the data set provides once downloaded (and unpacked), relative to its folder.
struct DatasetFile {
  QString path;
  QString sha256;   // empty when not published
  qint64 size = 0;  // 0 when not published
};

// One of the standard language-modelling data sets: where to get it, how to check it, and the
// project settings that read it.
struct DatasetInfo {
  QString id;  // the folder it is saved in, under the destination ("tinyshakespeare")
  QString name;
  QString description;
  QString reference;  // where it comes from: paper and origin, in words
  QString licence;
  // Where the checksums come from, in words (shown in the dialog's details).
  QString checksumSource;
  QVector<DatasetDownload> downloads;
  QVector<DatasetFile> files;
  // The project's data section once downloaded: train/valid/test are relative to the data
  // set's folder (empty valid/test: split off the end of train by the fractions).
  engine::DataConfig data;
  engine::InputLevel level = engine::InputLevel::Char;

  // The bytes to download: the sum of the published sizes (0 when one is not published).
  qint64 downloadSize() const;
  // True when every downloaded file, or else every file it yields, has a published checksum.
  bool isVerifiable() const;
  // The files whose bytes no published checksum covers: the yielded files of a download that
  // has none, when they have none either. Empty for a fully verifiable data set.
  QStringList unverifiableFiles() const;
};

}  // namespace mrnn::widgets
