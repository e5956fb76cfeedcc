#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <string>

namespace mrnn::widgets {

// File names between Qt and the engine: the engine takes paths as the operating system's
// bytes (std::string), Qt as QString; QFile's codec is the one that round-trips them.
inline std::string toNativePath(const QString& path) {
  return QFile::encodeName(path).toStdString();
}

inline QString fromNativePath(const std::string& path) {
  return QFile::decodeName(QByteArray::fromStdString(path));
}

}  // namespace mrnn::widgets
