#pragma once

#include <QString>
#include <QStringList>

class QWidget;

namespace mrnn::app {

class MainWindow;

// Fills the panels from the open project's existing runs so that documentation screenshots
// show real content: the newest runs' curves in the training monitor, three completions in
// the sampler, a finished corpus scan. For an analysis view (`panel` gates, tree, surprisal,
// masking or sizes) it runs that view's analysis on the newest run's best checkpoint, compared
// with the newest run of another model type where the view compares, and floats that view's
// dock at the window's size so the picture shows the whole view. `view` pictures one state of
// the panel (showcaseViews()): the monitor's seeds as groups, a range brushed on the gates'
// map, the surprisal's A − B colours, two runs' settings compared. Returns what to picture:
// the window, that dock, or a dialog. Waits (turning the event loop) at most a few minutes.
QWidget* prepareShowcase(MainWindow& window, const QString& panel = QString(),
                         const QString& view = QString());
// The views prepareShowcase knows, each with the panel it belongs to ("seeds" -> "training").
QString showcaseViewPanel(const QString& view);
QStringList showcaseViews();

}  // namespace mrnn::app
