#pragma once

#include <QColor>
#include <QList>
#include <QWidget>
#include <vector>

#include "engine/probing/probing_output.h"

class QCPGraph;
class QCustomPlot;
class QTableWidget;

namespace mrnn::widgets {

// How far apart the children of one node lie, per depth (the "width" of the tree, Krause et
// al. Fig. 1): the mean euclidean distance between siblings' hidden states on the left axis
// (solid), the mean cosine distance on the right axis (dashed), one colour per model; the
// same numbers in a table beside the plot. Depths without a sibling pair have no point.
class SpreadPlot : public QWidget {
  Q_OBJECT

 public:
  explicit SpreadPlot(QWidget* parent = nullptr);

  // One curve pair and one block of table rows per tree, in `colours` order.
  void setTrees(const std::vector<engine::LabelledTree>& trees, const QList<QColor>& colours);
  void clear();

  QCustomPlot* plot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  int modelCount() const { return models_; }
  // Model `model`'s curves (nullptr when there is no such model).
  QCPGraph* euclideanGraph(int model) const;
  QCPGraph* cosineGraph(int model) const;

 private:
  QCustomPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  int models_ = 0;
};

}  // namespace mrnn::widgets
