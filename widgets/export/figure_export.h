#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>
#include <functional>
#include <vector>

class QCustomPlot;
class QImage;
class QPaintDevice;
class QWidget;

namespace mrnn::widgets {

// Saving a view's figure and numbers. The format follows the file's suffix: .png (raster at
// twice the size, for print), .svg and .pdf (vector). Saves are atomic: the figure is written
// to a temporary file beside the target, then renamed over it, so a failed save leaves any
// earlier file intact. Errors throw std::runtime_error naming the path and the cause.

// The suffixes saveFigure() understands, for file dialogs: "PNG image (*.png);;...".
QString figureFileFilter();
// True for .png, .svg and .pdf (any case).
bool isFigurePath(const QString& path);
// Whether the file at `path` is a figure saveFigure() wrote (by the mark each format carries),
// or a picture given the mark below, so that a save without a dialog may replace it.
bool isWorkbenchFigure(const QString& path);
// Gives a picture saved as PNG the figures' mark (a window's screenshot).
void markAsWorkbenchFigure(QImage& image);

// A figure of `size` (logical pixels) into `path`: `paint` draws on the device it is given
// (with its own QPainter or QCPPainter) in logical coordinates.
void saveFigure(const QString& path, const QSize& size,
                const std::function<void(QPaintDevice& device, const QSize& size)>& paint);
// A QCustomPlot at its current size (vector output stays vector).
void savePlot(const QString& path, QCustomPlot* plot);
// Several QCustomPlots where they sit inside `frame` (a grid of charts), as one figure.
void savePlots(const QString& path, QWidget* frame, const std::vector<QCustomPlot*>& plots);
// Any widget as it is drawn on screen (text views, tree canvases).
void saveWidget(const QString& path, QWidget* widget);
// `data` (CSV, JSON) into `path`, atomically.
void saveText(const QString& path, const QByteArray& data);

}  // namespace mrnn::widgets
