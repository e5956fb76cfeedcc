#include "widgets/data/dataset_info.h"

namespace mrnn::widgets {

qint64 DatasetInfo::downloadSize() const {
  qint64 total = 0;
  for (const DatasetDownload& download : downloads) {
    if (download.size <= 0) return 0;
    total += download.size;
  }
  return total;
}

bool DatasetInfo::isVerifiable() const {
  return unverifiableFiles().isEmpty();
}

QStringList DatasetInfo::unverifiableFiles() const {
  QStringList result;
  for (const DatasetDownload& download : downloads) {
    if (!download.sha256.isEmpty()) continue;
    if (download.archive == ArchiveKind::None) {
      // A plain file is itself one of the yielded files: covered if that entry has a checksum.
      bool covered = false;
      for (const DatasetFile& file : files)
        covered = covered || (file.path == download.fileName && !file.sha256.isEmpty());
      if (!covered) result << download.fileName;
      continue;
    }
    // An archive without a checksum: what it yields must carry one each.
    for (const DatasetFile& file : files)
      if (file.sha256.isEmpty()) result << file.path;
  }
  result.removeDuplicates();
  return result;
}

}  // namespace mrnn::widgets
