#pragma once

#include <QWidget>

#include "widgets/training/training_event_metatypes.h"

class QLabel;

namespace mrnn::widgets {

// The live run's last Hessian-free step, under the monitor's figures: "Hessian-free  CG 87
// iterations, kept 75 · λ 6.67 · ρ 0.81 · step 1". ρ below ¼ (λ grows) or a rejected step is
// drawn in orange: the quadratic model did not predict the loss. Hidden for first-order runs.
class HessianFreeStepView : public QWidget {
  Q_OBJECT

 public:
  explicit HessianFreeStepView(QWidget* parent = nullptr);

  // Hides until a Hessian-free step arrives (a new run starts).
  void clear();
  // A step's figures; a step without them (a first-order rule) changes nothing.
  void addStep(const engine::StepEvent& step);
  // What the view says, as plain text.
  QString text() const;

 private:
  QLabel* caption_ = nullptr;
  QLabel* figures_ = nullptr;
};

}  // namespace mrnn::widgets
