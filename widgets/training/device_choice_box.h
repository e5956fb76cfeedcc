#pragma once

#include <QComboBox>
#include <QString>

namespace mrnn::widgets {

// Where the next run trains, beside Start: "CPU", then each GPU this build's LibTorch sees
// ("cuda:0 · NVIDIA H100 80GB HBM3 · 80 GB"). Without any, one greyed "GPU" entry whose text
// and tooltip give the reason ("this build's LibTorch has no CUDA"), so the choice is
// visible and why it is missing. A project naming a GPU this machine lacks keeps that name
// as a marked entry rather than silently switching to the CPU.
class DeviceChoiceBox : public QComboBox {
  Q_OBJECT

 public:
  explicit DeviceChoiceBox(QWidget* parent = nullptr);

  // Shows `device` ("cpu", "cuda", "cuda:N") without emitting deviceChosen.
  void showDevice(const QString& device);
  // The chosen device's name as training.device takes it.
  QString device() const;
  // The reason no GPU can be chosen, empty when one can.
  QString unavailableReason() const { return unavailableReason_; }

 signals:
  // The user chose another device.
  void deviceChosen(const QString& device);

 private:
  void fill();
  int indexOfDevice(const QString& device) const;

  QString unavailableReason_;
  int listed_ = 0;  // entries for this machine's devices; a marked one may follow
  bool showing_ = false;
};

}  // namespace mrnn::widgets
