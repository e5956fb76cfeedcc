#include "app/gui/screenshot_file.h"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <exception>
#include <string>

#include "engine/io/output_file.h"

namespace mrnn::app {
namespace {

// The PNG text chunk that marks a screenshot as the workbench's; it precedes the image data.
constexpr const char* kSoftwareKey = "Software";
constexpr const char* kSoftware = "mRNN Workbench screenshot";

}  // namespace

bool isWorkbenchScreenshot(const QString& path) {
  const std::string head = engine::fileHead(QFile::encodeName(path).toStdString(), 4096);
  return head.rfind("\x89PNG", 0) == 0 && head.find(kSoftware) != std::string::npos;
}

QString writeScreenshot(const QImage& image, const QString& path) {
  const std::string target = QFile::encodeName(path).toStdString();
  engine::OutputRules rules;
  rules.ownOutput = [](const std::string& existing) {
    return isWorkbenchScreenshot(QFile::decodeName(existing.c_str()));
  };
  rules.howToReplace = "delete it first to replace it";
  QImage marked = image;
  marked.setText(QString::fromLatin1(kSoftwareKey), QString::fromLatin1(kSoftware));
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  if (!marked.save(&buffer, "PNG")) return QStringLiteral("could not encode %1 as PNG").arg(path);
  try {
    engine::writeOutputFile(target, png.toStdString(), rules);
  } catch (const std::exception& error) {
    return QString::fromStdString(error.what());
  }
  return QString();
}

}  // namespace mrnn::app
