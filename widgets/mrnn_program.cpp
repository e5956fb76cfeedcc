#include "widgets/mrnn_program.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace mrnn::widgets {

QString findMrnnProgram() {
  const QDir here(QCoreApplication::applicationDirPath());
  for (const QString& candidate :
       {here.filePath(QStringLiteral("mrnn")), here.filePath(QStringLiteral("../cli/mrnn"))}) {
    const QFileInfo info(candidate);
    if (info.isFile() && info.isExecutable()) return info.canonicalFilePath();
  }
  return QStandardPaths::findExecutable(QStringLiteral("mrnn"));
}

}  // namespace mrnn::widgets
