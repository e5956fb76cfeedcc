#pragma once

#include <QWidget>
#include <functional>

#include "engine/config/model_config.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace mrnn::widgets {

class ProjectDocument;

// Edits the settings of the block selected on the canvas and shows its equations. Every
// change goes through ProjectDocument::editModel with a merge key per field and block, so a
// burst of typing in one box is one undo step. Only the settings that apply to the cell
// type are shown (the parser rejects the others).
class BlockInspector : public QWidget {
  Q_OBJECT

 public:
  explicit BlockInspector(ProjectDocument& document, QWidget* parent = nullptr);

  // Shows block `block` (0 input, 1..N layers, N+1 output; -1 none) of the document's
  // current model, with `problems` listed on top. Call again after every document change.
  void showBlock(int block, const QStringList& problems = {});
  int shownBlock() const { return block_; }

  // The fields that make up merge keys (one undo step per field and block while typing).
  enum Field {
    CellTypeField,
    HiddenSize,
    MSize,
    OutputGateField,
    Rounds,
    Rank,
    Zigzag,
    ResetAfterField,
    MajorShare,
    MinorInputField,
    WeightDrop,
    WeightNorm,
    InputLevelField,
    EmbeddingSize,
    VocabSize,
    OutputKindField,
    Mixtures,
    LatentSize,
    TieEmbeddings,
    DropoutEmbedding,
    DropoutToken,
    DropoutHidden,
    DropoutState,
    DropoutOutput,
    InitSeed,
    InitRecurrent,
    InitScale,
    ForgetBias,
    InputScale,
  };
  static int mergeKey(Field field, int block);

 private:
  QWidget* buildHeader();
  QWidget* buildInputPage();
  QWidget* buildLayerPage();
  QWidget* buildOutputPage();
  QWidget* buildEmptyPage();
  QLabel* makeEquationsLabel(const QString& objectName);
  QSpinBox* makeSpin(const QString& name, int minimum, int maximum, const QString& tip);
  QDoubleSpinBox* makeNumber(const QString& name, double minimum, double maximum, double step,
                             const QString& tip, int decimals = 3);
  QDoubleSpinBox* makeRate(const QString& name, const QString& tip);
  QComboBox* makeCombo(const QString& name, const QStringList& items, const QString& tip);
  QCheckBox* makeCheck(const QString& name, const QString& text, const QString& tip);

  void refreshInput(const engine::ModelConfig& model);
  void refreshLayer(const engine::ModelConfig& model, size_t index);
  void refreshOutput(const engine::ModelConfig& model);

  // Applies `change` to a copy of the model and hands it to the document.
  void editModel(Field field, const QString& label,
                 const std::function<void(engine::ModelConfig&)>& change);
  void editLayer(Field field, const QString& what,
                 const std::function<void(engine::LayerConfig&)>& change);

  ProjectDocument& document_;
  int block_ = -1;
  bool updating_ = false;  // true while showing values: their change signals are not edits

  QStackedWidget* pages_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* subtitle_ = nullptr;
  QLabel* count_ = nullptr;
  QLabel* problems_ = nullptr;

  // Input page.
  QComboBox* level_ = nullptr;
  QSpinBox* embeddingSize_ = nullptr;
  QSpinBox* vocabSize_ = nullptr;
  QDoubleSpinBox* dropoutEmbedding_ = nullptr;
  QDoubleSpinBox* dropoutToken_ = nullptr;
  QLabel* inputEquations_ = nullptr;

  // Layer page.
  QFormLayout* layerForm_ = nullptr;
  QComboBox* cellType_ = nullptr;
  QSpinBox* hiddenSize_ = nullptr;
  QSpinBox* mSize_ = nullptr;
  QComboBox* outputGate_ = nullptr;
  QSpinBox* rounds_ = nullptr;
  QSpinBox* rank_ = nullptr;
  QCheckBox* zigzag_ = nullptr;
  QCheckBox* resetAfter_ = nullptr;
  QDoubleSpinBox* majorShare_ = nullptr;
  QComboBox* minorInput_ = nullptr;
  QDoubleSpinBox* weightDrop_ = nullptr;
  QCheckBox* weightNorm_ = nullptr;
  QDoubleSpinBox* dropoutHidden_ = nullptr;
  QDoubleSpinBox* dropoutState_ = nullptr;
  QComboBox* initRecurrent_ = nullptr;
  QDoubleSpinBox* initScale_ = nullptr;
  QDoubleSpinBox* forgetBias_ = nullptr;
  QDoubleSpinBox* inputScale_ = nullptr;
  QLineEdit* seed_ = nullptr;
  QLabel* layerEquations_ = nullptr;
  QLabel* formula_ = nullptr;

  // Output page.
  QFormLayout* outputForm_ = nullptr;
  QComboBox* outputKind_ = nullptr;
  QSpinBox* mixtures_ = nullptr;
  QSpinBox* latentSize_ = nullptr;
  QCheckBox* tieEmbeddings_ = nullptr;
  QDoubleSpinBox* dropoutOutput_ = nullptr;
  QLabel* outputEquations_ = nullptr;
};

}  // namespace mrnn::widgets
