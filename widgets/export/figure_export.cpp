#include "widgets/export/figure_export.h"

#include <qcustomplot.h>
#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QWidget>
#include <optional>
#include <stdexcept>

#include "engine/io/atomic_file.h"
#include "engine/io/output_file.h"
#include "widgets/project/open_project_files.h"

namespace mrnn::widgets {

namespace {

enum class Format { Png, Svg, Pdf };

// Every figure carries this mark (a PNG text chunk, an SVG description, a PDF's creator), so
// that a figure saved without a dialog replaces only one the workbench made.
constexpr const char* kFigureMark = "mRNN Workbench figure";

// The format a path's suffix names (any case), if it names one.
std::optional<Format> suffixFormat(const QString& path) {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return Format::Png;
  if (suffix == QLatin1String("svg")) return Format::Svg;
  if (suffix == QLatin1String("pdf")) return Format::Pdf;
  return std::nullopt;
}

Format formatOf(const QString& path) {
  if (const auto format = suffixFormat(path)) return *format;
  throw std::runtime_error(
      QStringLiteral("%1: unknown figure format '.%2' (use .png, .svg or .pdf)")
          .arg(QDir::toNativeSeparators(path), QFileInfo(path).suffix())
          .toStdString());
}

[[noreturn]] void fail(const QString& path, const QString& why) {
  throw std::runtime_error(
      QStringLiteral("cannot save %1: %2").arg(QDir::toNativeSeparators(path), why).toStdString());
}

// The file dialog asked before replacing a file; links, devices and a project's own files
// (its run database, checkpoints, project and experiment files, an open project's corpora)
// are never replaced.
void checkDestination(const QString& path) {
  try {
    engine::checkOutputPath(QFile::encodeName(path).toStdString(), OpenProjectFiles::exportRules());
  } catch (const engine::OutputRefused& error) {
    throw std::runtime_error(error.what());
  }
}

// Through the engine's atomic save: the old file or the new one, never a torn one; a
// replaced file keeps its mode, a read-only one is refused.
void writeAtomically(const QString& path, const QByteArray& bytes) {
  try {
    engine::writeFileAtomically(QFile::encodeName(path).toStdString(), bytes.toStdString());
  } catch (const std::exception& error) {
    throw std::runtime_error(error.what());
  }
}

}  // namespace

QString figureFileFilter() {
  return QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

bool isFigurePath(const QString& path) {
  return suffixFormat(path).has_value();
}

void markAsWorkbenchFigure(QImage& image) {
  image.setText(QStringLiteral("Software"), QString::fromLatin1(kFigureMark));
}

bool isWorkbenchFigure(const QString& path) {
  const std::string bytes = engine::fileHead(QFile::encodeName(path).toStdString(), 64 * 1024);
  if (bytes.rfind("\x89PNG", 0) == 0 || bytes.rfind("<?xml", 0) == 0) {
    return bytes.find(kFigureMark) != std::string::npos;
  }
  if (bytes.rfind("%PDF", 0) == 0) {
    // QPdfWriter writes the creator, in its first lines, as UTF-16 (big-endian, with a BOM).
    std::string creator = "/Creator (\xFE\xFF";
    for (const char c : std::string(kFigureMark)) creator += std::string(1, '\0') + c;
    return bytes.find(creator) != std::string::npos;
  }
  return false;
}

void saveFigure(const QString& path, const QSize& size,
                const std::function<void(QPaintDevice& device, const QSize& size)>& paint) {
  const Format format = formatOf(path);
  if (size.isEmpty()) fail(path, QStringLiteral("the figure has no size"));
  checkDestination(path);
  // Rendered in memory first: a painter that fails leaves the earlier file as it was.
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  bool ok = true;
  switch (format) {
    case Format::Png: {
      QImage image(size * 2, QImage::Format_ARGB32);
      image.setDevicePixelRatio(2.0);
      image.fill(Qt::white);
      markAsWorkbenchFigure(image);
      paint(image, size);
      ok = image.save(&buffer, "PNG");
      break;
    }
    case Format::Svg: {
      QSvgGenerator generator;
      generator.setOutputDevice(&buffer);
      generator.setSize(size);
      generator.setViewBox(QRect(QPoint(0, 0), size));
      generator.setTitle(QFileInfo(path).completeBaseName());
      generator.setDescription(QString::fromLatin1(kFigureMark));
      paint(generator, size);
      break;
    }
    case Format::Pdf: {
      QPdfWriter writer(&buffer);
      writer.setCreator(QString::fromLatin1(kFigureMark));
      writer.setTitle(QFileInfo(path).completeBaseName());
      writer.setResolution(96);
      writer.setPageMargins(QMarginsF(0, 0, 0, 0));
      writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
      paint(writer, size);
      break;
    }
  }
  if (!ok || bytes.isEmpty()) fail(path, QStringLiteral("drawing the figure failed"));
  writeAtomically(path, bytes);
}

void savePlot(const QString& path, QCustomPlot* plot) {
  savePlots(path, plot, {plot});
}

void savePlots(const QString& path, QWidget* frame, const std::vector<QCustomPlot*>& plots) {
  saveFigure(path, frame->size(), [frame, &plots](QPaintDevice& device, const QSize&) {
    QCPPainter painter;
    if (!painter.begin(&device)) return;
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    for (QCustomPlot* plot : plots) {
      painter.save();
      painter.translate(plot->mapTo(frame, QPoint(0, 0)));
      plot->toPainter(&painter, plot->width(), plot->height());
      painter.restore();
    }
    painter.end();
  });
}

void saveWidget(const QString& path, QWidget* widget) {
  saveFigure(path, widget->size(), [widget](QPaintDevice& device, const QSize&) {
    QPainter painter;
    if (!painter.begin(&device)) return;
    painter.setRenderHint(QPainter::Antialiasing);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.end();
  });
}

void saveText(const QString& path, const QByteArray& data) {
  checkDestination(path);
  writeAtomically(path, data);
}

}  // namespace mrnn::widgets
