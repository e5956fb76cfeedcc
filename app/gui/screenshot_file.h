#pragma once

#include <QString>

class QImage;

namespace mrnn::app {

// Writes `image` as a PNG at `path` (`mrnn-workbench --screenshot`) as every command writes a
// file its user names (engine/io/output_file.h): never through a link, over a device, FIFO or a
// project's own file, and over an existing file only when it is a picture the workbench wrote
// (a screenshot or figure: the mark widgets::isWorkbenchFigure knows); atomically. Returns why not
// in one sentence, or an empty string once written.
QString writeScreenshot(const QImage& image, const QString& path);

}  // namespace mrnn::app
