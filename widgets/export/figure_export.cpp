#include "widgets/export/figure_export.h"

#include <sys/stat.h>

#include <qcustomplot.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTemporaryFile>
#include <QWidget>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "engine/io/output_file.h"

namespace mrnn::widgets {

namespace {

enum class Format { Png, Svg, Pdf };

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

// A temporary name in the target's folder (same file system, so the rename is atomic).
QString temporaryBeside(const QString& path) {
  const QFileInfo info(path);
  if (!info.absoluteDir().exists()) fail(path, QStringLiteral("the folder does not exist"));
  QTemporaryFile probe(info.absoluteDir().filePath(
      QStringLiteral(".%1.XXXXXX.%2").arg(info.completeBaseName(), info.suffix())));
  probe.setAutoRemove(false);
  if (!probe.open()) fail(path, probe.errorString());
  const QString name = probe.fileName();
  probe.close();
  return name;
}

// The file dialog asked before replacing a file; links, devices and a project's own files
// (its run database, checkpoints, project and experiment files) are never replaced.
void checkDestination(const QString& path) {
  try {
    engine::checkOutputPath(QFile::encodeName(path).toStdString(), engine::OutputRules());
  } catch (const engine::OutputRefused& error) {
    throw std::runtime_error(error.what());
  }
}

void replace(const QString& temporary, const QString& path) {
  // The temporary was made private (0600); the figure gets what any new file gets (0666
  // less the umask), as the CSV beside it does.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  std::error_code error;
  std::filesystem::permissions(QFile::encodeName(temporary).toStdString(),
                               static_cast<std::filesystem::perms>(0666 & ~mask),
                               std::filesystem::perm_options::replace, error);
  // rename(2) replaces the target in one step: readers see the old file or the new one.
  std::filesystem::rename(QFile::encodeName(temporary).toStdString(),
                          QFile::encodeName(path).toStdString(), error);
  if (error) {
    QFile::remove(temporary);
    fail(path, QString::fromStdString(error.message()));
  }
}

}  // namespace

QString figureFileFilter() {
  return QObject::tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)");
}

bool isFigurePath(const QString& path) {
  return suffixFormat(path).has_value();
}

void saveFigure(const QString& path, const QSize& size,
                const std::function<void(QPaintDevice& device, const QSize& size)>& paint) {
  const Format format = formatOf(path);
  if (size.isEmpty()) fail(path, QStringLiteral("the figure has no size"));
  checkDestination(path);
  const QString temporary = temporaryBeside(path);
  bool ok = true;
  try {
    switch (format) {
      case Format::Png: {
        QImage image(size * 2, QImage::Format_ARGB32);
        image.setDevicePixelRatio(2.0);
        image.fill(Qt::white);
        paint(image, size);
        ok = image.save(temporary, "PNG");
        break;
      }
      case Format::Svg: {
        QSvgGenerator generator;
        generator.setFileName(temporary);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        generator.setTitle(QFileInfo(path).completeBaseName());
        generator.setDescription(QStringLiteral("mRNN Workbench"));
        paint(generator, size);
        break;
      }
      case Format::Pdf: {
        QPdfWriter writer(temporary);
        writer.setCreator(QStringLiteral("mRNN Workbench"));
        writer.setTitle(QFileInfo(path).completeBaseName());
        writer.setResolution(96);
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / 96.0, QPageSize::Point));
        paint(writer, size);
        break;
      }
    }
  } catch (...) {
    QFile::remove(temporary);  // the earlier file, if any, stays as it was
    throw;
  }
  if (!ok || QFileInfo(temporary).size() == 0) {
    QFile::remove(temporary);
    fail(path, QStringLiteral("writing the figure failed (is the disk full?)"));
  }
  replace(temporary, path);
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
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) fail(path, file.errorString());
  if (file.write(data) != data.size()) {
    file.cancelWriting();
    fail(path, QStringLiteral("writing failed (is the disk full?)"));
  }
  if (!file.commit()) fail(path, file.errorString());
}

}  // namespace mrnn::widgets
