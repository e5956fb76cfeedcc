#include "widgets/training/device_choice_box.h"

#include <QAbstractItemView>
#include <QStandardItemModel>

#include "engine/devices/gpu_inventory.h"

namespace mrnn::widgets {
namespace {

// The list is read once per process: asking wakes the CUDA driver, and GPUs do not come and
// go while the workbench runs.
const engine::ComputeDevices& devicesSeenOnce() {
  static const engine::ComputeDevices devices = engine::listComputeDevices();
  return devices;
}

QString gigabytes(int64_t bytes) {
  return QString::number(static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0), 'f', 0) +
         QStringLiteral(" GB");
}

}  // namespace

DeviceChoiceBox::DeviceChoiceBox(QWidget* parent) : QComboBox(parent) {
  setObjectName(QStringLiteral("deviceChoiceBox"));
  // Wide enough for "CPU" or "cuda:0 · NVIDIA H100 8…" on the tool bar; the list opens as
  // wide as its longest entry, so the reason for no GPU reads whole there.
  setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  setMinimumContentsLength(16);
  fill();
  view()->setMinimumWidth(view()->sizeHintForColumn(0) + 24);
  connect(this, qOverload<int>(&QComboBox::activated), this, [this](int index) {
    if (!showing_) emit deviceChosen(itemData(index).toString());
  });
}

void DeviceChoiceBox::fill() {
  const auto& devices = devicesSeenOnce();
  addItem(tr("CPU"), QStringLiteral("cpu"));
  setItemData(0, tr("Train on this machine's processors"), Qt::ToolTipRole);
  for (const auto& gpu : devices.gpus) {
    QString text =
        QString::fromStdString(gpu.id) + QStringLiteral(" · ") + QString::fromStdString(gpu.name);
    if (gpu.memoryBytes > 0) text += QStringLiteral(" · ") + gigabytes(gpu.memoryBytes);
    addItem(text, QString::fromStdString(gpu.id));
    setItemData(count() - 1, tr("Train on %1").arg(text), Qt::ToolTipRole);
  }
  unavailableReason_ = QString::fromStdString(devices.unavailableReason);
  if (devices.gpus.empty()) {
    addItem(tr("GPU: %1").arg(unavailableReason_), QString());
    if (auto* items = qobject_cast<QStandardItemModel*>(model())) {
      items->item(count() - 1)->setEnabled(false);
    }
    setItemData(count() - 1, tr("No GPU can be chosen: %1.").arg(unavailableReason_),
                Qt::ToolTipRole);
  }
  listed_ = count();
  setToolTip(devices.gpus.empty()
                 ? tr("Where the run trains (training.device). No GPU: %1.").arg(unavailableReason_)
                 : tr("Where the run trains (training.device): the CPU or one of %n GPU(s)", "",
                      static_cast<int>(devices.gpus.size())));
}

int DeviceChoiceBox::indexOfDevice(const QString& device) const {
  // "cuda" is the first GPU, as LibTorch reads it.
  const QString wanted = device == QStringLiteral("cuda") ? QStringLiteral("cuda:0") : device;
  for (int i = 0; i < listed_; ++i) {
    if (!wanted.isEmpty() && itemData(i).toString() == wanted) return i;
  }
  return -1;
}

void DeviceChoiceBox::showDevice(const QString& device) {
  showing_ = true;
  while (count() > listed_) removeItem(count() - 1);
  int index = indexOfDevice(device);
  if (index < 0) {
    // A GPU this machine lacks (a project from another machine): kept, marked, so that
    // saving the project does not change where it trains elsewhere.
    addItem(tr("%1 (not on this machine)").arg(device), device);
    index = count() - 1;
    setItemData(
        index,
        tr("The project trains on %1, which this machine does not have%2; choose "
           "another device to train here")
            .arg(device, unavailableReason_.isEmpty()
                             ? QString()
                             : QStringLiteral(" (") + unavailableReason_ + QStringLiteral(")")),
        Qt::ToolTipRole);
  }
  setCurrentIndex(index);
  showing_ = false;
}

QString DeviceChoiceBox::device() const {
  return currentData().toString();
}

}  // namespace mrnn::widgets
