#include "widgets/composer/block_inspector.h"

#include <algorithm>
#include <limits>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "engine/config/parameter_count.h"
#include "engine/config/parameter_matching.h"
#include "widgets/composer/cell_catalogue.h"
#include "widgets/composer/composer_block.h"
#include "widgets/monospace_font.h"
#include "widgets/project/project_document.h"

namespace mrnn::widgets {
namespace {

using engine::kMaxLayerWidth;

enum Page { EmptyPage, InputPage, LayerPage, OutputPage };

constexpr int kMergeBase = 0x434d0000;  // "CM": the composer's merge keys
constexpr int kMaxWidth = static_cast<int>(kMaxLayerWidth);

// Setters that leave a widget alone when it already shows the value, so the caret and
// selection of the box being typed in stay where they are.
void display(QSpinBox* box, int64_t value) {
  const int clamped = static_cast<int>(std::clamp<int64_t>(value, box->minimum(), box->maximum()));
  if (box->value() != clamped) box->setValue(clamped);
}
void display(QDoubleSpinBox* box, double value) {
  if (box->value() != value) box->setValue(value);
}
void display(QComboBox* box, int index) {
  if (box->currentIndex() != index) box->setCurrentIndex(index);
}
void display(QCheckBox* box, bool value) {
  if (box->isChecked() != value) box->setChecked(value);
}

QFormLayout* makeForm(QWidget* parent) {
  auto* form = new QFormLayout(parent);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setLabelAlignment(Qt::AlignRight | Qt::AlignVCenter);
  form->setHorizontalSpacing(10);
  form->setVerticalSpacing(6);
  return form;
}

QString layerName(int block) {
  return QObject::tr("layer %1").arg(block);
}

}  // namespace

int BlockInspector::mergeKey(Field field, int block) {
  return kMergeBase + static_cast<int>(field) * 4096 + block;
}

BlockInspector::BlockInspector(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("blockInspector"));
  pages_ = new QStackedWidget(this);
  pages_->insertWidget(EmptyPage, buildEmptyPage());
  pages_->insertWidget(InputPage, buildInputPage());
  pages_->insertWidget(LayerPage, buildLayerPage());
  pages_->insertWidget(OutputPage, buildOutputPage());

  auto* content = new QWidget;
  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(12, 10, 12, 12);
  contentLayout->setSpacing(8);
  contentLayout->addWidget(buildHeader());
  contentLayout->addWidget(pages_);
  contentLayout->addStretch(1);

  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);
  showBlock(-1);
}

QWidget* BlockInspector::buildHeader() {
  auto* header = new QWidget;
  auto* layout = new QVBoxLayout(header);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  title_ = new QLabel;
  title_->setObjectName(QStringLiteral("inspectorTitle"));
  QFont titleFont = title_->font();
  titleFont.setBold(true);
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
  title_->setFont(titleFont);
  subtitle_ = new QLabel;
  subtitle_->setObjectName(QStringLiteral("inspectorSubtitle"));
  subtitle_->setWordWrap(true);
  subtitle_->setStyleSheet(QStringLiteral("color: #5c636a;"));
  count_ = new QLabel;
  count_->setObjectName(QStringLiteral("inspectorCount"));
  count_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  problems_ = new QLabel;
  problems_->setObjectName(QStringLiteral("inspectorProblems"));
  problems_->setWordWrap(true);
  problems_->setStyleSheet(
      QStringLiteral("color: #c92a2a; background: #fff5f5; border: 1px solid #ffc9c9;"
                     "border-radius: 4px; padding: 6px;"));
  layout->addWidget(title_);
  layout->addWidget(subtitle_);
  layout->addWidget(count_);
  layout->addSpacing(4);
  layout->addWidget(problems_);
  return header;
}

QWidget* BlockInspector::buildEmptyPage() {
  auto* label = new QLabel(tr("Select a block on the canvas to edit its settings."));
  label->setWordWrap(true);
  label->setStyleSheet(QStringLiteral("color: #5c636a;"));
  return label;
}

QLabel* BlockInspector::makeEquationsLabel(const QString& objectName) {
  auto* label = new QLabel;
  label->setObjectName(objectName);
  QFont mono = monospaceFont();
  mono.setPointSizeF(font().pointSizeF() * 0.9);
  label->setFont(mono);
  // The equations must not widen the inspector; the texts are kept narrow instead.
  label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label->setWordWrap(false);
  label->setStyleSheet(
      QStringLiteral("background: #f8f9fa; border: 1px solid #dee2e6; border-radius: 4px;"
                     "padding: 8px; color: #212529;"));
  label->setToolTip(equationNotation());
  return label;
}

QSpinBox* BlockInspector::makeSpin(const QString& name, int minimum, int maximum,
                                   const QString& tip) {
  auto* box = new QSpinBox;
  box->setObjectName(name);
  box->setRange(minimum, maximum);
  box->setToolTip(tip);
  box->setGroupSeparatorShown(false);
  box->setAccelerated(true);
  return box;
}

QDoubleSpinBox* BlockInspector::makeNumber(const QString& name, double minimum, double maximum,
                                           double step, const QString& tip, int decimals) {
  auto* box = new QDoubleSpinBox;
  box->setObjectName(name);
  box->setRange(minimum, maximum);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setToolTip(tip);
  return box;
}

QDoubleSpinBox* BlockInspector::makeRate(const QString& name, const QString& tip) {
  return makeNumber(name, 0.0, 0.99, 0.05, tip);
}

QComboBox* BlockInspector::makeCombo(const QString& name, const QStringList& items,
                                     const QString& tip) {
  auto* box = new QComboBox;
  box->setObjectName(name);
  box->addItems(items);
  box->setToolTip(tip);
  return box;
}

QCheckBox* BlockInspector::makeCheck(const QString& name, const QString& text, const QString& tip) {
  auto* box = new QCheckBox(text);
  box->setObjectName(name);
  box->setToolTip(tip);
  return box;
}

QWidget* BlockInspector::buildInputPage() {
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* settings = new QGroupBox(tr("Input"));
  QFormLayout* form = makeForm(settings);
  level_ = makeCombo(QStringLiteral("inputLevel"), {tr("byte"), tr("char"), tr("word")},
                     tr("Symbol level: bytes always have 256 symbols"));
  embeddingSize_ = makeSpin(QStringLiteral("embeddingSize"), 0, kMaxWidth,
                            tr("Width of the linear embedding E; 0 feeds one-hot vectors"));
  embeddingSize_->setSpecialValueText(tr("one-hot (0)"));
  vocabSize_ = makeSpin(QStringLiteral("vocabSize"), 0, 100'000'000,
                        tr("Vocabulary size V; 0 takes it from the corpus (bytes: 256)"));
  vocabSize_->setSpecialValueText(tr("from the corpus"));
  dropoutEmbedding_ = makeRate(QStringLiteral("dropoutEmbedding"),
                               tr("Variational dropout on embedding features, one mask per "
                                  "window"));
  dropoutToken_ = makeRate(QStringLiteral("dropoutToken"),
                           tr("Drops whole vocabulary entries of the embedding (AWD-LSTM)"));
  form->addRow(tr("Level"), level_);
  form->addRow(tr("Embedding size"), embeddingSize_);
  form->addRow(tr("Vocabulary"), vocabSize_);
  form->addRow(tr("Embedding dropout"), dropoutEmbedding_);
  form->addRow(tr("Token dropout"), dropoutToken_);
  layout->addWidget(settings);
  auto* equations = new QGroupBox(tr("Equations"));
  auto* equationsLayout = new QVBoxLayout(equations);
  inputEquations_ = makeEquationsLabel(QStringLiteral("inputEquations"));
  equationsLayout->addWidget(inputEquations_);
  layout->addWidget(equations);
  layout->addStretch(1);  // pages keep their natural height in the stack

  connect(level_, &QComboBox::currentIndexChanged, this, [this](int index) {
    editModel(InputLevelField, tr("Set input level"), [index](engine::ModelConfig& model) {
      model.input.level = index == 0   ? engine::InputLevel::Byte
                          : index == 2 ? engine::InputLevel::Word
                                       : engine::InputLevel::Char;
    });
  });
  connect(embeddingSize_, &QSpinBox::valueChanged, this, [this](int value) {
    editModel(EmbeddingSize, tr("Set embedding size"),
              [value](engine::ModelConfig& model) { model.input.embeddingSize = value; });
  });
  connect(vocabSize_, &QSpinBox::valueChanged, this, [this](int value) {
    editModel(VocabSize, tr("Set vocabulary size"),
              [value](engine::ModelConfig& model) { model.input.vocabSize = value; });
  });
  connect(dropoutEmbedding_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(DropoutEmbedding, tr("Set embedding dropout"),
              [value](engine::ModelConfig& model) { model.dropout.embedding = value; });
  });
  connect(dropoutToken_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(DropoutToken, tr("Set token dropout"),
              [value](engine::ModelConfig& model) { model.dropout.token = value; });
  });
  return page;
}

QWidget* BlockInspector::buildLayerPage() {
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);

  auto* settings = new QGroupBox(tr("Layer"));
  layerForm_ = makeForm(settings);
  QStringList cellNames;
  for (engine::CellType type : engine::allCellTypes()) cellNames << cellDisplayName(type);
  cellType_ = makeCombo(QStringLiteral("cellType"), cellNames,
                        tr("The recurrent cell; sizes are kept when it changes"));
  hiddenSize_ =
      makeSpin(QStringLiteral("hiddenSize"), 1, kMaxWidth, tr("H, the layer's output width"));
  mSize_ = makeSpin(QStringLiteral("mSize"), 0, kMaxWidth,
                    tr("M, the width of the intermediate state m; 0 follows H"));
  mSize_->setSpecialValueText(tr("same as H"));
  outputGate_ = makeCombo(QStringLiteral("outputGate"),
                          {tr("outside: o ⊙ tanh(c)"), tr("inside: tanh(o ⊙ c)")},
                          tr("Where the output gate acts (Krause §4.1)"));
  rounds_ =
      makeSpin(QStringLiteral("rounds"), 0, 32, tr("Mogrifier rounds r; 0 is exactly the LSTM"));
  rank_ = makeSpin(QStringLiteral("rank"), 0, kMaxWidth,
                   tr("Rank k of Q and R; must be below min(input width, hidden size). 0: full "
                      "rank"));
  rank_->setSpecialValueText(tr("full rank"));
  zigzag_ = makeCheck(QStringLiteral("zigzag"), tr("zigzag"),
                      tr("Off: every Q reads the original h and every R the original x (the "
                         "ablation of Melis §4.1)"));
  resetAfter_ = makeCheck(QStringLiteral("resetAfter"), tr("reset gate after the product"),
                          tr("PyTorch's and cuDNN's GRU: j = tanh(U_h x + b_h + r ⊙ (W_h h + "
                             "b_hh)); off, Maupomé & Meurs eq. 20: tanh(U_h x + W_h (r ⊙ h) + "
                             "b_h). An imported torch.nn.GRU has it on"));
  majorShare_ = makeNumber(QStringLiteral("majorShare"), 0.01, 1.0, 0.05,
                           tr("Fraction of H in the major LSTM; 1 leaves no minor LSTM"));
  minorInput_ = makeCombo(QStringLiteral("minorInput"),
                          {tr("embedding (MMLM-1)"), tr("layer below (MMLM-2)")},
                          tr("What the minor LSTM reads (Shuang §V-D1)"));
  weightDrop_ = makeRate(QStringLiteral("weightDrop"),
                         tr("DropConnect on the recurrent matrices, one mask per window"));
  weightNorm_ = makeCheck(QStringLiteral("weightNorm"), tr("weight normalisation"),
                          tr("Each recurrent matrix row is g · v / ‖v‖ (Krause §4.2)"));
  layerForm_->addRow(tr("Cell"), cellType_);
  layerForm_->addRow(tr("Hidden size"), hiddenSize_);
  layerForm_->addRow(tr("m size"), mSize_);
  layerForm_->addRow(tr("Output gate"), outputGate_);
  layerForm_->addRow(tr("Rounds"), rounds_);
  layerForm_->addRow(tr("Rank"), rank_);
  layerForm_->addRow(QString(), zigzag_);
  layerForm_->addRow(QString(), resetAfter_);
  layerForm_->addRow(tr("Major share"), majorShare_);
  layerForm_->addRow(tr("Minor input"), minorInput_);
  layerForm_->addRow(tr("Weight drop"), weightDrop_);
  layerForm_->addRow(QString(), weightNorm_);
  layout->addWidget(settings);

  auto* equations = new QGroupBox(tr("Equations"));
  auto* equationsLayout = new QVBoxLayout(equations);
  layerEquations_ = makeEquationsLabel(QStringLiteral("equations"));
  equationsLayout->addWidget(layerEquations_);
  formula_ = new QLabel;
  formula_->setObjectName(QStringLiteral("parameterFormula"));
  formula_->setWordWrap(true);
  formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  formula_->setToolTip(
      tr("I input width, H hidden size, M m size (F for the mRNN), r rounds, "
         "k rank"));
  equationsLayout->addWidget(formula_);
  layout->addWidget(equations);

  auto* whole = new QGroupBox(tr("All layers"));
  whole->setToolTip(tr("Settings shared by every layer of the model"));
  QFormLayout* wholeForm = makeForm(whole);
  dropoutHidden_ = makeRate(QStringLiteral("dropoutHidden"),
                            tr("Variational dropout on each layer's output before the next"));
  dropoutState_ = makeRate(QStringLiteral("dropoutState"),
                           tr("Variational dropout on h(t-1) where it enters the recurrent "
                              "matrices"));
  initRecurrent_ = makeCombo(
      QStringLiteral("initRecurrent"), {tr("scaled orthogonal"), tr("uniform"), tr("sparse")},
      tr("Initialisation of the recurrent matrices; sparse keeps a few nonzero "
         "incoming weights per unit, as Hessian-free training of the mRNN starts "
         "(init.sparse_connections in the YAML)"));
  initScale_ = makeNumber(QStringLiteral("initScale"), 0.0, 100.0, 0.1,
                          tr("Orthogonal scale (Krause: 0.7), the uniform bound's factor, or "
                             "the sparse matrices' spectral radius"));
  inputScale_ = makeNumber(
      QStringLiteral("inputScale"), 0.0, 100.0, 0.1,
      tr("Input matrices start uniform within ±scale/√inputs (1: the usual). Small inputs keep "
         "a tanh RNN near linear, where an orthogonal recurrence keeps what it read long ago"));
  forgetBias_ = makeNumber(QStringLiteral("forgetBias"), -100.0, 100.0, 0.5,
                           tr("Initial forget-gate bias of LSTM-family cells (Krause: 3)"), 2);
  seed_ = new QLineEdit;
  seed_->setObjectName(QStringLiteral("initSeed"));
  seed_->setValidator(
      new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,19}")), seed_));
  seed_->setToolTip(tr("Seeds the initial weights: the same seed builds the same model"));
  wholeForm->addRow(tr("Hidden dropout"), dropoutHidden_);
  wholeForm->addRow(tr("State dropout"), dropoutState_);
  wholeForm->addRow(tr("Recurrent init"), initRecurrent_);
  wholeForm->addRow(tr("Init scale"), initScale_);
  wholeForm->addRow(tr("Input scale"), inputScale_);
  wholeForm->addRow(tr("Forget bias"), forgetBias_);
  wholeForm->addRow(tr("Seed"), seed_);
  layout->addWidget(whole);
  layout->addStretch(1);

  connect(cellType_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index < 0) return;
    const engine::CellType type = engine::allCellTypes()[static_cast<size_t>(index)];
    editModel(CellTypeField, tr("Change %1 to %2").arg(layerName(block_), cellDisplayName(type)),
              [this, type](engine::ModelConfig& model) {
                model.layers[static_cast<size_t>(block_ - 1)].type = type;
              });
  });
  connect(hiddenSize_, &QSpinBox::valueChanged, this, [this](int value) {
    editLayer(HiddenSize, tr("hidden size"),
              [value](engine::LayerConfig& layer) { layer.hiddenSize = value; });
  });
  connect(mSize_, &QSpinBox::valueChanged, this, [this](int value) {
    editLayer(MSize, tr("m size"), [value](engine::LayerConfig& layer) { layer.mSize = value; });
  });
  connect(outputGate_, &QComboBox::currentIndexChanged, this, [this](int index) {
    editLayer(OutputGateField, tr("output gate"), [index](engine::LayerConfig& layer) {
      layer.outputGate = index == 1 ? engine::OutputGate::Inside : engine::OutputGate::Outside;
    });
  });
  connect(rounds_, &QSpinBox::valueChanged, this, [this](int value) {
    editLayer(Rounds, tr("rounds"), [value](engine::LayerConfig& layer) { layer.rounds = value; });
  });
  connect(rank_, &QSpinBox::valueChanged, this, [this](int value) {
    editLayer(Rank, tr("rank"), [value](engine::LayerConfig& layer) { layer.rank = value; });
  });
  connect(zigzag_, &QCheckBox::toggled, this, [this](bool on) {
    editLayer(Zigzag, tr("zigzag"), [on](engine::LayerConfig& layer) { layer.zigzag = on; });
  });
  connect(resetAfter_, &QCheckBox::toggled, this, [this](bool on) {
    editLayer(ResetAfterField, tr("reset gate"),
              [on](engine::LayerConfig& layer) { layer.resetAfter = on; });
  });
  connect(majorShare_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editLayer(MajorShare, tr("major share"),
              [value](engine::LayerConfig& layer) { layer.majorShare = value; });
  });
  connect(minorInput_, &QComboBox::currentIndexChanged, this, [this](int index) {
    editLayer(MinorInputField, tr("minor input"), [index](engine::LayerConfig& layer) {
      layer.minorInput = index == 1 ? engine::MinorInput::Below : engine::MinorInput::Embedding;
    });
  });
  connect(weightDrop_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editLayer(WeightDrop, tr("weight drop"),
              [value](engine::LayerConfig& layer) { layer.weightDrop = value; });
  });
  connect(weightNorm_, &QCheckBox::toggled, this, [this](bool on) {
    editLayer(WeightNorm, tr("weight normalisation"),
              [on](engine::LayerConfig& layer) { layer.weightNorm = on; });
  });
  connect(dropoutHidden_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(DropoutHidden, tr("Set hidden dropout"),
              [value](engine::ModelConfig& model) { model.dropout.hidden = value; });
  });
  connect(dropoutState_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(DropoutState, tr("Set state dropout"),
              [value](engine::ModelConfig& model) { model.dropout.state = value; });
  });
  connect(initRecurrent_, &QComboBox::currentIndexChanged, this, [this](int index) {
    editModel(InitRecurrent, tr("Set recurrent initialisation"),
              [index](engine::ModelConfig& model) {
                model.init.recurrent = index == 2   ? engine::RecurrentInit::Sparse
                                       : index == 1 ? engine::RecurrentInit::Uniform
                                                    : engine::RecurrentInit::Orthogonal;
              });
  });
  connect(initScale_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(InitScale, tr("Set initialisation scale"),
              [value](engine::ModelConfig& model) { model.init.recurrentScale = value; });
  });
  connect(inputScale_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(InputScale, tr("Set input scale"),
              [value](engine::ModelConfig& model) { model.init.inputScale = value; });
  });
  connect(forgetBias_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(ForgetBias, tr("Set forget bias"),
              [value](engine::ModelConfig& model) { model.init.forgetBias = value; });
  });
  connect(seed_, &QLineEdit::textEdited, this, [this](const QString& text) {
    bool ok = false;
    const qulonglong seed = text.toULongLong(&ok);
    // The parser takes seeds up to the largest signed 64-bit integer.
    if (!ok || seed > static_cast<qulonglong>(std::numeric_limits<int64_t>::max())) return;
    editModel(InitSeed, tr("Set seed"), [seed](engine::ModelConfig& model) {
      model.init.seed = static_cast<uint64_t>(seed);
    });
  });
  return page;
}

QWidget* BlockInspector::buildOutputPage() {
  auto* page = new QWidget;
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* settings = new QGroupBox(tr("Output"));
  outputForm_ = makeForm(settings);
  outputKind_ = makeCombo(
      QStringLiteral("outputKind"),
      {tr("softmax"), tr("Mixture of Softmaxes"), tr("linear (real numbers)")},
      tr("A softmax, a Mixture of Softmaxes (Yang et al. 2017), or real numbers with squared "
         "error (the addition problem's target)"));
  mixtures_ = makeSpin(QStringLiteral("mixtures"), 1, 1024, tr("K, the number of components"));
  latentSize_ = makeSpin(QStringLiteral("latentSize"), 0, kMaxWidth,
                         tr("Latent width; 0 takes the embedding size when tied, else the last "
                            "layer's width"));
  latentSize_->setSpecialValueText(tr("automatic"));
  tieEmbeddings_ = makeCheck(QStringLiteral("tieEmbeddings"), tr("tie to the embedding"),
                             tr("Share the output matrix with the input embedding; the widths "
                                "must agree"));
  dropoutOutput_ = makeRate(QStringLiteral("dropoutOutput"),
                            tr("Variational dropout on the last layer's output before the "
                               "softmax"));
  outputForm_->addRow(tr("Type"), outputKind_);
  outputForm_->addRow(tr("Components"), mixtures_);
  outputForm_->addRow(tr("Latent size"), latentSize_);
  outputForm_->addRow(QString(), tieEmbeddings_);
  outputForm_->addRow(tr("Output dropout"), dropoutOutput_);
  layout->addWidget(settings);
  auto* equations = new QGroupBox(tr("Equations"));
  auto* equationsLayout = new QVBoxLayout(equations);
  outputEquations_ = makeEquationsLabel(QStringLiteral("outputEquations"));
  equationsLayout->addWidget(outputEquations_);
  layout->addWidget(equations);
  layout->addStretch(1);

  connect(outputKind_, &QComboBox::currentIndexChanged, this, [this](int index) {
    editModel(OutputKindField, tr("Set output type"), [index](engine::ModelConfig& model) {
      model.output.kind = index == 2   ? engine::OutputKind::Linear
                          : index == 1 ? engine::OutputKind::MixtureOfSoftmaxes
                                       : engine::OutputKind::Softmax;
      if (index == 2) model.output.tieEmbeddings = false;
    });
  });
  connect(mixtures_, &QSpinBox::valueChanged, this, [this](int value) {
    editModel(Mixtures, tr("Set mixture components"),
              [value](engine::ModelConfig& model) { model.output.mixtures = value; });
  });
  connect(latentSize_, &QSpinBox::valueChanged, this, [this](int value) {
    editModel(LatentSize, tr("Set latent size"),
              [value](engine::ModelConfig& model) { model.output.latentSize = value; });
  });
  connect(tieEmbeddings_, &QCheckBox::toggled, this, [this](bool on) {
    editModel(TieEmbeddings, on ? tr("Tie embeddings") : tr("Untie embeddings"),
              [on](engine::ModelConfig& model) { model.output.tieEmbeddings = on; });
  });
  connect(dropoutOutput_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editModel(DropoutOutput, tr("Set output dropout"),
              [value](engine::ModelConfig& model) { model.dropout.output = value; });
  });
  return page;
}

void BlockInspector::showBlock(int block, const QStringList& problems) {
  const engine::ModelConfig& model = document_.project().model;
  const int layers = static_cast<int>(model.layers.size());
  if (block < 0 || block > layers + 1) block = -1;
  block_ = block;
  updating_ = true;
  const int64_t vocab = document_.vocabularySize();
  const std::vector<ComposerBlock> blocks = describeBlocks(model, vocab);
  if (block < 0) {
    pages_->setCurrentIndex(EmptyPage);
    title_->setText(tr("Inspector"));
    subtitle_->clear();
    count_->clear();
  } else {
    const ComposerBlock& shown = blocks[static_cast<size_t>(block)];
    title_->setText(shown.title);
    count_->setText(shown.parameters >= 0
                        ? tr("<b>%1</b> parameters").arg(formatCount(shown.parameters))
                        : tr("Parameters: vocabulary size not known yet"));
    if (block == 0) {
      subtitle_->setText(tr("What the first layer reads"));
      pages_->setCurrentIndex(InputPage);
      refreshInput(model);
    } else if (block == layers + 1) {
      subtitle_->setText(model.output.kind == engine::OutputKind::Linear
                             ? tr("Real numbers at the judged steps")
                             : tr("The distribution over the next symbol"));
      pages_->setCurrentIndex(OutputPage);
      refreshOutput(model);
    } else {
      const engine::CellType type = model.layers[static_cast<size_t>(block - 1)].type;
      subtitle_->setText(cellSummary(type) + QStringLiteral("\n") + cellPaper(type));
      pages_->setCurrentIndex(LayerPage);
      refreshLayer(model, static_cast<size_t>(block - 1));
    }
  }
  // The stack takes the height of the page shown, not of its tallest page, so short pages
  // need no scroll bar.
  for (int page = 0; page < pages_->count(); ++page) {
    const bool current = page == pages_->currentIndex();
    pages_->widget(page)->setSizePolicy(QSizePolicy::Preferred,
                                        current ? QSizePolicy::Preferred : QSizePolicy::Ignored);
  }
  pages_->updateGeometry();
  problems_->setText(QStringLiteral("⚠ ") + problems.join(QStringLiteral("\n⚠ ")));
  problems_->setVisible(!problems.isEmpty());
  updating_ = false;
}

void BlockInspector::refreshInput(const engine::ModelConfig& model) {
  const engine::InputConfig& input = model.input;
  display(level_, input.level == engine::InputLevel::Byte   ? 0
                  : input.level == engine::InputLevel::Word ? 2
                                                            : 1);
  display(embeddingSize_, input.embeddingSize);
  display(vocabSize_, input.vocabSize);
  display(dropoutEmbedding_, model.dropout.embedding);
  display(dropoutToken_, model.dropout.token);
  inputEquations_->setText(inputEquations(input));
}

void BlockInspector::refreshLayer(const engine::ModelConfig& model, size_t index) {
  const engine::LayerConfig& layer = model.layers[index];
  const auto& types = engine::allCellTypes();
  const auto position = std::find(types.begin(), types.end(), layer.type) - types.begin();
  display(cellType_, static_cast<int>(position));
  display(hiddenSize_, layer.hiddenSize);
  display(mSize_, layer.mSize);
  display(outputGate_, layer.outputGate == engine::OutputGate::Inside ? 1 : 0);
  display(rounds_, layer.rounds);
  display(rank_, layer.rank);
  display(zigzag_, layer.zigzag);
  display(resetAfter_, layer.resetAfter);
  display(majorShare_, layer.majorShare);
  display(minorInput_, layer.minorInput == engine::MinorInput::Below ? 1 : 0);
  display(weightDrop_, layer.weightDrop);
  display(weightNorm_, layer.weightNorm);
  display(dropoutHidden_, model.dropout.hidden);
  display(dropoutState_, model.dropout.state);
  display(initRecurrent_, static_cast<int>(model.init.recurrent));
  display(initScale_, model.init.recurrentScale);
  display(inputScale_, model.init.inputScale);
  display(forgetBias_, model.init.forgetBias);
  const QString seed = QString::number(static_cast<qulonglong>(model.init.seed));
  if (seed_->text() != seed) seed_->setText(seed);

  // Only the keys the parser accepts for this cell type.
  const engine::CellType type = layer.type;
  layerForm_->setRowVisible(mSize_, engine::hasIntermediateState(type));
  layerForm_->labelForField(mSize_)->setProperty(
      "text", type == engine::CellType::Mrnn ? tr("Factor size") : tr("m size"));
  layerForm_->setRowVisible(outputGate_, engine::isLstmFamily(type));
  const bool mogrifier = type == engine::CellType::Mogrifier;
  layerForm_->setRowVisible(rounds_, mogrifier);
  layerForm_->setRowVisible(rank_, mogrifier);
  layerForm_->setRowVisible(zigzag_, mogrifier);
  layerForm_->setRowVisible(resetAfter_, type == engine::CellType::Gru);
  const bool majorMinor = type == engine::CellType::Mmlstm;
  layerForm_->setRowVisible(majorShare_, majorMinor);
  layerForm_->setRowVisible(minorInput_, majorMinor);
  layerEquations_->setText(layerEquations(layer));
  formula_->setText(
      tr("Parameters: %1").arg(QString::fromStdString(engine::cellParameterFormula(type))));
}

void BlockInspector::refreshOutput(const engine::ModelConfig& model) {
  const engine::OutputConfig& output = model.output;
  const bool mos = output.kind == engine::OutputKind::MixtureOfSoftmaxes;
  display(outputKind_, static_cast<int>(output.kind));
  display(mixtures_, output.mixtures);
  display(latentSize_, output.latentSize);
  display(tieEmbeddings_, output.tieEmbeddings);
  display(dropoutOutput_, model.dropout.output);
  outputForm_->setRowVisible(mixtures_, mos);
  outputForm_->setRowVisible(latentSize_, mos);
  outputForm_->setRowVisible(tieEmbeddings_, output.kind != engine::OutputKind::Linear);
  outputEquations_->setText(outputEquations(output));
}

void BlockInspector::editModel(Field field, const QString& label,
                               const std::function<void(engine::ModelConfig&)>& change) {
  if (updating_ || block_ < 0) return;
  engine::ModelConfig model = document_.project().model;
  change(model);
  document_.editModel(model, label, mergeKey(field, block_));
}

void BlockInspector::editLayer(Field field, const QString& what,
                               const std::function<void(engine::LayerConfig&)>& change) {
  if (updating_ || block_ < 1) return;
  const auto index = static_cast<size_t>(block_ - 1);
  if (index >= document_.project().model.layers.size()) return;
  editModel(field, tr("Set %1 of %2").arg(what, layerName(block_)),
            [&change, index](engine::ModelConfig& model) { change(model.layers[index]); });
}

}  // namespace mrnn::widgets
