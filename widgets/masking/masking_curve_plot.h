#pragma once

#include <QColor>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

#include "widgets/masking/masking_series.h"

class QCPErrorBars;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QSplitter;
class QTableWidget;

namespace mrnn::widgets {

// Shuang et al. Fig. 5: evaluation loss (bits per symbol) against the masked fraction P, one
// curve per (model, layer selection) with ± one standard deviation over the masks as error
// bars. Colour says the layer (dark grey: all layers at once), the line the model (A solid
// with round markers, B dashed with square ones). Beside the plot, a table of P rows by
// curves gives mean ± std in bits per symbol.
class MaskingCurvePlot : public QWidget {
  Q_OBJECT

 public:
  explicit MaskingCurvePlot(QWidget* parent = nullptr);

  // Replaces the curves; `caption` (which models A and B are) heads the plot and its exports.
  void setSeries(const std::vector<MaskingSeries>& series, const QString& caption);
  void clear();

  const std::vector<MaskingSeries>& series() const { return series_; }
  QCustomPlot* plot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  QString caption() const;
  // The graph and error bars of series `index` (in the order given to setSeries).
  QCPGraph* graph(int index) const;
  QCPErrorBars* errorBars(int index) const;

  // The colour of a layer's curves (the same for both models).
  static QColor layerColour(const std::optional<size_t>& layer);
  // What the table shows for one point: "1.2345 ± 0.0123" (bits per symbol).
  static QString cellText(double meanNats, double stdNats);

 private:
  void fillTable();
  void fitRanges();

  QSplitter* splitter_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QCPTextElement* title_ = nullptr;
  QTableWidget* table_ = nullptr;
  std::vector<MaskingSeries> series_;
  std::vector<QCPGraph*> graphs_;
  std::vector<QCPErrorBars*> errorBars_;
};

}  // namespace mrnn::widgets
