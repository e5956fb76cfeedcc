#pragma once

#include <QSpinBox>
#include <algorithm>

namespace mrnn::widgets {

// How many processes train the next run, beside Start: "1 process" (the workbench's own engine
// thread) up to the machine's processors, or, on a CUDA project whose LibTorch sees GPUs,
// "1 GPU" up to their count (one rank per GPU). The suffix follows the count, so the box
// reads as what it starts.
class ProcessCountBox : public QSpinBox {
  Q_OBJECT

 public:
  explicit ProcessCountBox(QWidget* parent = nullptr);

  // Processes up to `maximum` (processors), or GPUs up to `maximum`; the count is kept
  // within the new range.
  void setCapacity(bool gpus, int maximum);
  bool countsGpus() const { return gpus_; }

 private:
  void updateText();

  bool gpus_ = false;
};

}  // namespace mrnn::widgets
