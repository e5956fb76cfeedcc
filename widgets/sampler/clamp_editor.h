#pragma once

#include <QList>
#include <QWidget>

#include <vector>

#include "widgets/sampler/sampler_model_info.h"

class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace mrnn::widgets {

// One clamped unit: hidden unit `unit` of layer `layer` (both from 0) held at `value`.
struct ClampSetting {
  int layer = 0;
  qint64 unit = 0;
  double value = 0.0;
};

// Rows of (layer, unit, value) to hold while sampling (the "sentiment neuron" experiment):
// add and remove rows; the spin boxes stay inside the loaded model's layers and units.
class ClampEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ClampEditor(QWidget* parent = nullptr);

  // Bounds the layer and unit spin boxes by the model (no model: loose bounds).
  void setModelInfo(const SamplerModelInfo& info);
  // `layer` from 0. Values outside the model's bounds are clamped into them.
  void addClamp(int layer = 0, qint64 unit = 0, double value = 1.0);
  void removeClamp(int row);
  int rowCount() const { return static_cast<int>(rows_.size()); }
  QList<ClampSetting> clamps() const;

 Q_SIGNALS:
  void changed();

 private:
  struct Row {
    QWidget* widget = nullptr;
    QSpinBox* layer = nullptr;
    QSpinBox* unit = nullptr;
    QDoubleSpinBox* value = nullptr;
    QToolButton* remove = nullptr;
  };
  void applyBounds(Row& row);
  void updateEmptyState();

  SamplerModelInfo info_;
  std::vector<Row> rows_;
  QVBoxLayout* rowsLayout_;
  QWidget* header_;
  QLabel* empty_;
};

}  // namespace mrnn::widgets
