#pragma once

#include <QDialog>

#include "engine/config/model_config.h"
#include "engine/config/parameter_matching.h"

class QComboBox;
class QFormLayout;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace mrnn::widgets {

using engine::ParameterMatch;
using engine::SizedSetting;

// A trained model whose size can be matched: "Run 3 · lstm · 441,440 params".
struct ParameterReference {
  QString label;
  int64_t parameters = 0;
};

// "Match parameters…": pick a layer and the setting to size, give a target parameter count
// (typed, the current total, any of the project's runs' counts, or the count of the same
// model with that layer replaced by another cell, e.g. "an LSTM of 512 units"), and see the
// size that comes closest and the total it gives; Apply stays off while the target is out of
// reach. Accepting hands back the resized model; the caller makes it one edit.
class MatchParametersDialog : public QDialog {
  Q_OBJECT

 public:
  MatchParametersDialog(const engine::ModelConfig& model, int64_t vocab, int layer = 0,
                        QWidget* parent = nullptr);

  int layer() const;
  SizedSetting setting() const;
  // The target as typed; 0 when the text is not a count.
  int64_t target() const;
  // The best size for the current choices; size 0 when there is nothing to size.
  ParameterMatch match() const { return match_; }
  // The model with the chosen layer set to the matched size.
  engine::ModelConfig result() const;

  void setLayer(int layer);
  void setSetting(SizedSetting setting);
  void setTarget(int64_t target);
  // Fills the target with the count of the model whose chosen layer is a `type` layer of
  // `hiddenSize` units (default settings otherwise).
  void setReference(engine::CellType type, int64_t hiddenSize);
  // That count, for the dialog's reference row and tests.
  int64_t referenceCount(engine::CellType type, int64_t hiddenSize) const;
  // Trained models to match (the project's runs); their row shows when there are any.
  void setRunReferences(const QList<ParameterReference>& runs);
  QComboBox* runReferenceBox() const { return runReference_; }

 private:
  void refreshSettings();
  void recompute();

  engine::ModelConfig model_;
  int64_t vocab_;
  ParameterMatch match_;

  QComboBox* layer_ = nullptr;
  QComboBox* setting_ = nullptr;
  QLineEdit* target_ = nullptr;
  QFormLayout* form_ = nullptr;
  QComboBox* runReference_ = nullptr;
  QWidget* runReferenceRow_ = nullptr;
  QComboBox* referenceType_ = nullptr;
  QSpinBox* referenceSize_ = nullptr;
  QPushButton* useReference_ = nullptr;
  QPushButton* useCurrent_ = nullptr;
  QLabel* result_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace mrnn::widgets
