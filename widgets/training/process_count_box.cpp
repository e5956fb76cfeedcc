#include "widgets/training/process_count_box.h"

namespace mrnn::widgets {

ProcessCountBox::ProcessCountBox(QWidget* parent) : QSpinBox(parent) {
  setObjectName(QStringLiteral("processCountBox"));
  setRange(1, 1);
  setValue(1);
  setAccelerated(false);
  connect(this, qOverload<int>(&QSpinBox::valueChanged), this, &ProcessCountBox::updateText);
  updateText();
}

void ProcessCountBox::setCapacity(bool gpus, int maximum) {
  gpus_ = gpus;
  setMaximum(std::max(1, maximum));
  updateText();
}

void ProcessCountBox::updateText() {
  const bool one = value() == 1;
  if (gpus_) {
    setSuffix(one ? tr(" GPU") : tr(" GPUs"));
  } else {
    setSuffix(one ? tr(" process") : tr(" processes"));
  }
  const QString what = gpus_ ? tr("GPUs") : tr("processes");
  setToolTip(
      tr("How many %1 train the run together (data parallel: each takes a share of "
         "training.batch_size, which must divide evenly; see docs/distributed.md).\n"
         "1 trains inside the workbench. More start `mrnn train --nproc N`, followed here "
         "through the run store, with each rank's throughput shown; such a run cannot pause, "
         "only stop (with a checkpoint).\nAt most %2 on this machine.")
          .arg(what)
          .arg(maximum()));
}

}  // namespace mrnn::widgets
