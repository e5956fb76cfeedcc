#pragma once

#include <QPointF>
#include <QString>
#include <QWidget>
#include <string>
#include <vector>

#include "widgets/gates/activation_colour_scale.h"
#include "widgets/gates/unit_pattern.h"

class QCPColorMap;
class QCPColorScale;
class QCPAxisTickerText;
class QCPItemRect;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace mrnn::engine {
struct ProbeTrace;
}

namespace mrnn::widgets {

// One probe of one layer over the text as a map: time step across, unit up, each cell
// coloured by the value (ActivationColourScale: gates on a fixed [0, 1], other probes
// symmetric around 0), a colour scale beside it. Hovering reads the cell out below the map
// ("step 12 'e' · unit 5 · f = 0.873"); clicking a cell selects its unit, which is outlined.
// Dragging and the wheel pan and zoom along time (long texts); a double click shows it all.
// The time axis names each step by its symbol wherever the zoom leaves room for them (LSTMVis'
// text under the map), and Shift+drag brushes a range of steps (stepsBrushed).
class GateHeatmap : public QWidget {
  Q_OBJECT

 public:
  explicit GateHeatmap(QWidget* parent = nullptr);

  // Shows `trace` (`symbols` name the steps) under `title`.
  void setTrace(const engine::ProbeTrace& trace, const std::vector<std::string>& symbols,
                const ActivationColourScale& scale, const QString& title);
  // No map; `message` says why in the title.
  void clearMap(const QString& message);

  bool hasTrace() const { return steps_ > 0 && units_ > 0; }
  int steps() const { return steps_; }
  int units() const { return units_; }
  const ActivationColourScale& scale() const { return scale_; }
  QString title() const;
  // The value the map holds for a cell (NaN outside the map).
  double value(int step, int unit) const;
  // The read-out for a cell: "step 12 'e' · unit 5 · f = 0.873".
  QString hoverText(int step, int unit) const;
  // The cell under a point of plot() (its widget coordinates); false outside the map.
  bool cellAt(const QPointF& position, int* step, int* unit) const;
  // The centre of a cell in plot() widget coordinates (after the plot was laid out).
  QPointF cellCentre(int step, int unit) const;

  // Marks steps [first, end) across every unit (empty: none), as a brush leaves them.
  void setBrushedSteps(const StepRange& steps);
  StepRange brushedSteps() const { return brushed_; }
  // True when the time axis names the visible steps by their symbols.
  bool showsSymbolTicks() const { return symbolTicks_; }

  // Outlines the row of `unit` (-1: none).
  void setSelectedUnit(int unit);
  int selectedUnit() const { return selectedUnit_; }

  QCustomPlot* plot() const { return plot_; }
  QCPColorMap* colorMap() const { return map_; }
  QCPColorScale* colorScale() const { return colourScale_; }
  QLabel* readout() const { return readout_; }

 signals:
  void unitClicked(int unit, int step);
  // A Shift+drag brushed steps [first, end).
  void stepsBrushed(qint64 first, qint64 end);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void mouseMoved(QMouseEvent* event);
  void mousePressed(QMouseEvent* event);
  void mouseReleased(QMouseEvent* event);
  void showWholeText();
  void buildSymbolTicker();
  // Symbol labels or step numbers, whichever fits; `force` sets the ticker even if unchanged.
  void updateTimeTicks(bool force = false);
  int stepAtPixel(double x) const;
  void resetReadout();

  QCustomPlot* plot_ = nullptr;
  QCPColorMap* map_ = nullptr;
  QCPColorScale* colourScale_ = nullptr;
  QCPTextElement* title_ = nullptr;
  QCPItemRect* selection_ = nullptr;  // black inside a white halo: visible on any colour
  QCPItemRect* halo_ = nullptr;
  QCPItemRect* brush_ = nullptr;  // the brushed steps, across every unit
  QSharedPointer<QCPAxisTickerText> symbolTicker_;
  QLabel* readout_ = nullptr;
  ActivationColourScale scale_;
  std::vector<std::string> symbols_;
  QString probe_;
  int steps_ = 0;
  int units_ = 0;
  int selectedUnit_ = -1;
  QPointF pressedAt_;
  StepRange brushed_{-1, -1};
  int brushAnchor_ = -1;  // the step a Shift+drag started at; -1 when not brushing
  bool symbolTicks_ = false;
  bool wordTicks_ = false;
};

}  // namespace mrnn::widgets
