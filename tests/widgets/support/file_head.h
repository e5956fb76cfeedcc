#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

namespace mrnn::test {

// The first `bytes` bytes of a file (empty when it cannot be read): the export tests check
// a saved figure's format by its signature ("\x89PNG", "<?xml", "%PDF").
inline QByteArray fileHead(const QString& path, int bytes) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return file.read(bytes);
}

}  // namespace mrnn::test
