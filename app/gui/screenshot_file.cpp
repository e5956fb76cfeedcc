#include "app/gui/screenshot_file.h"

#include <QBuffer>
#include <QFile>
#include <QImage>
#include <exception>
#include <string>

#include "engine/io/output_file.h"
#include "widgets/export/figure_export.h"

namespace mrnn::app {

QString writeScreenshot(const QImage& image, const QString& path) {
  const std::string target = QFile::encodeName(path).toStdString();
  engine::OutputRules rules;
  // A picture the workbench saved before (a screenshot or figure) is replaced; nothing else.
  rules.ownOutput = [](const std::string& existing) {
    return widgets::isWorkbenchFigure(QFile::decodeName(existing.c_str()));
  };
  rules.howToReplace = "delete it first to replace it";
  QImage marked = image;
  widgets::markAsWorkbenchFigure(marked);
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
