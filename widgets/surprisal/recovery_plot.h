#pragma once

#include <qcustomplot.h>
#include <QStringList>

namespace mrnn::engine {
struct RecoveryTable;
}

namespace mrnn::widgets {

// Krause et al. Fig. 3: the mean loss on the most surprising symbols (x = 0) and at +1..+K
// after them, one curve with markers per model, in bits per symbol; a dashed line at each
// model's mean over the whole text shows how far it has recovered.
class RecoveryPlot : public QCustomPlot {
  Q_OBJECT

 public:
  explicit RecoveryPlot(QWidget* parent = nullptr);

  // `colours` gives each model's (its run's: run_colours.h); missing ones are a slot's own.
  void showRecovery(const engine::RecoveryTable& table, const QStringList& labels,
                    const QVector<QColor>& colours = {});
  void clearRecovery();

  int modelCount() const { return models_; }
  // Model m's curve (points at x = 0..K) and its overall-mean line (two points spanning the
  // x range, same y).
  QCPGraph* curve(int model) const;
  QCPGraph* overallLine(int model) const;
  QCPTextElement* title() const { return title_; }

 private:
  QCPTextElement* title_ = nullptr;
  int models_ = 0;
};

}  // namespace mrnn::widgets
