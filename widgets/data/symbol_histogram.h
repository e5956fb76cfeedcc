#pragma once

#include <QVector>
#include <QWidget>

#include "widgets/data/corpus_scan.h"

class QCustomPlot;
class QCPBars;
class QLabel;
class QStackedWidget;
class QMouseEvent;

namespace mrnn::widgets {

// Bars of the most frequent symbols of the training split, as shares of all its symbols, with
// the symbols as readable labels under them (whitespace shown as ␣ ↵ ⇥). Hovering a bar
// tells its symbol, count and share. Without data a short message takes the plot's place.
class SymbolHistogram : public QWidget {
  Q_OBJECT

 public:
  explicit SymbolHistogram(QWidget* parent = nullptr);

  // `total`: the training split's symbol count, for the shares.
  void setCounts(const QVector<SymbolCount>& counts, qint64 total);
  void showMessage(const QString& message);

  // The labels under the bars, most frequent first (for tests).
  QStringList labels() const;
  QCustomPlot* plot() const { return plot_; }

 private:
  void showToolTip(QMouseEvent* event);

  QStackedWidget* stack_;
  QCustomPlot* plot_;
  QCPBars* bars_;
  QLabel* message_;
  QVector<SymbolCount> counts_;
  qint64 total_ = 0;
};

}  // namespace mrnn::widgets
