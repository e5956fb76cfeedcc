#include "widgets/composer/match_parameters_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "widgets/composer/cell_catalogue.h"
#include "widgets/composer/composer_block.h"

namespace mrnn::widgets {

using engine::kMaxLayerWidth;

MatchParametersDialog::MatchParametersDialog(const engine::ModelConfig& model, int64_t vocab,
                                             int layer, QWidget* parent)
    : QDialog(parent), model_(model), vocab_(vocab) {
  setObjectName(QStringLiteral("matchParametersDialog"));
  setWindowTitle(tr("Match Parameters"));
  setMinimumWidth(520);

  auto* intro = new QLabel(
      tr("Resize one layer so that the whole model has as many parameters as a target, for "
         "equal-size comparisons (an mLSTM against an LSTM, as in the papers)."));
  intro->setWordWrap(true);

  layer_ = new QComboBox;
  layer_->setObjectName(QStringLiteral("layer"));
  layer_->setToolTip(tr("The layer to resize"));
  for (size_t i = 0; i < model_.layers.size(); ++i) {
    layer_->addItem(tr("Layer %1 · %2 (H %3)")
                        .arg(i + 1)
                        .arg(cellDisplayName(model_.layers[i].type))
                        .arg(model_.layers[i].hiddenSize));
  }
  setting_ = new QComboBox;
  setting_->setObjectName(QStringLiteral("setting"));
  setting_->setToolTip(
      tr("What to size: the hidden size, or the intermediate state's width for "
         "cells that have one"));

  target_ = new QLineEdit;
  target_->setObjectName(QStringLiteral("target"));
  target_->setValidator(new QRegularExpressionValidator(
      QRegularExpression(QStringLiteral("[0-9][0-9,  ]{0,20}")), target_));
  target_->setToolTip(tr("The total number of parameters to reach, for example 441,440"));

  referenceType_ = new QComboBox;
  referenceType_->setObjectName(QStringLiteral("referenceType"));
  for (engine::CellType type : engine::allCellTypes()) {
    referenceType_->addItem(cellDisplayName(type), static_cast<int>(type));
  }
  referenceType_->setToolTip(tr("The cell the chosen layer would be in the reference model"));
  referenceSize_ = new QSpinBox;
  referenceSize_->setObjectName(QStringLiteral("referenceSize"));
  referenceSize_->setRange(1, static_cast<int>(kMaxLayerWidth));
  referenceSize_->setSuffix(tr(" units"));
  referenceSize_->setToolTip(tr("Hidden size of the reference layer"));
  useReference_ = new QPushButton(tr("Use its count"));
  useReference_->setObjectName(QStringLiteral("useReference"));
  useReference_->setToolTip(
      tr("Set the target to the parameter count of this model with the "
         "chosen layer replaced by the reference layer"));
  useCurrent_ = new QPushButton;
  useCurrent_->setObjectName(QStringLiteral("useCurrent"));
  useCurrent_->setToolTip(tr("Set the target to the model's present total"));

  runReference_ = new QComboBox;
  runReference_->setObjectName(QStringLiteral("runReference"));
  runReference_->setToolTip(tr("A run of this project whose parameter count to match"));
  auto* useRun = new QPushButton(tr("Use its count"));
  useRun->setObjectName(QStringLiteral("useRunReference"));
  connect(useRun, &QPushButton::clicked, this, [this] {
    if (runReference_->currentIndex() >= 0) {
      setTarget(runReference_->currentData().toLongLong());
    }
  });
  runReferenceRow_ = new QWidget;
  auto* runRow = new QHBoxLayout(runReferenceRow_);
  runRow->setContentsMargins(0, 0, 0, 0);
  runRow->addWidget(runReference_, 1);
  runRow->addWidget(useRun);

  auto* referenceRow = new QHBoxLayout;
  referenceRow->addWidget(referenceType_, 1);
  referenceRow->addWidget(referenceSize_);
  referenceRow->addWidget(useReference_);

  auto* form = new QFormLayout;
  form->addRow(tr("Layer"), layer_);
  form->addRow(tr("Size"), setting_);
  form->addRow(tr("Target parameters"), target_);
  form->addRow(tr("A run of the project"), runReferenceRow_);
  form->addRow(tr("Same model with"), referenceRow);
  form->addRow(QString(), useCurrent_);

  result_ = new QLabel;
  result_->setObjectName(QStringLiteral("result"));
  result_->setWordWrap(true);
  result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  result_->setStyleSheet(
      QStringLiteral("background: #f8f9fa; border: 1px solid #dee2e6; border-radius: 4px;"
                     "padding: 8px;"));

  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
  buttons_->button(QDialogButtonBox::Ok)->setText(tr("Apply"));
  buttons_->button(QDialogButtonBox::Ok)->setToolTip(tr("Resize the layer (one undoable edit)"));
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

  form_ = form;
  form->setRowVisible(runReferenceRow_, false);  // until there are runs
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(form);
  layout->addWidget(result_);
  layout->addWidget(buttons_);

  const bool usable = vocab_ > 0 && !model_.layers.empty();
  useCurrent_->setText(
      usable
          ? tr("Use the current total (%1)").arg(formatCount(modelParameterCount(model_, vocab_)))
          : tr("Use the current total"));
  connect(layer_, &QComboBox::currentIndexChanged, this, [this] {
    refreshSettings();
    recompute();
  });
  connect(setting_, &QComboBox::currentIndexChanged, this, [this] { recompute(); });
  connect(target_, &QLineEdit::textChanged, this, [this] { recompute(); });
  connect(useReference_, &QPushButton::clicked, this, [this] {
    setReference(static_cast<engine::CellType>(referenceType_->currentData().toInt()),
                 referenceSize_->value());
  });
  connect(useCurrent_, &QPushButton::clicked, this, [this] {
    if (vocab_ > 0 && !model_.layers.empty()) setTarget(modelParameterCount(model_, vocab_));
  });
  for (QWidget* widget : std::initializer_list<QWidget*>{
           layer_, setting_, target_, referenceType_, referenceSize_, useReference_, useCurrent_}) {
    widget->setEnabled(usable);
  }

  if (!model_.layers.empty()) {
    const int chosen = std::clamp(layer, 0, static_cast<int>(model_.layers.size()) - 1);
    const engine::LayerConfig& current = model_.layers[static_cast<size_t>(chosen)];
    // The comparison the papers make: an LSTM of the same width, unless it is one already.
    const engine::CellType reference =
        current.type == engine::CellType::Lstm ? engine::CellType::Mlstm : engine::CellType::Lstm;
    referenceType_->setCurrentIndex(referenceType_->findData(static_cast<int>(reference)));
    referenceSize_->setValue(static_cast<int>(current.hiddenSize));
    layer_->setCurrentIndex(chosen);
    refreshSettings();
    if (usable) setReference(reference, current.hiddenSize);
  }
  recompute();
}

int MatchParametersDialog::layer() const {
  return layer_->currentIndex();
}

SizedSetting MatchParametersDialog::setting() const {
  return setting_->currentIndex() == 1 ? SizedSetting::MSize : SizedSetting::HiddenSize;
}

int64_t MatchParametersDialog::target() const {
  QString digits = target_->text();
  digits.remove(QLatin1Char(',')).remove(QLatin1Char(' ')).remove(QChar(0x202f));
  bool ok = false;
  const qlonglong value = digits.toLongLong(&ok);
  return ok && value > 0 ? static_cast<int64_t>(value) : 0;
}

engine::ModelConfig MatchParametersDialog::result() const {
  if (match_.size <= 0 || layer() < 0) return model_;
  return withLayerSize(model_, static_cast<size_t>(layer()), setting(), match_.size);
}

void MatchParametersDialog::setLayer(int layer) {
  layer_->setCurrentIndex(layer);
}

void MatchParametersDialog::setSetting(SizedSetting setting) {
  setting_->setCurrentIndex(setting == SizedSetting::MSize && setting_->count() > 1 ? 1 : 0);
}

void MatchParametersDialog::setTarget(int64_t target) {
  target_->setText(formatCount(target));
}

int64_t MatchParametersDialog::referenceCount(engine::CellType type, int64_t hiddenSize) const {
  if (vocab_ <= 0 || layer() < 0) return 0;
  engine::ModelConfig reference = model_;
  engine::LayerConfig replacement;
  replacement.type = type;
  replacement.hiddenSize = hiddenSize;
  reference.layers[static_cast<size_t>(layer())] = replacement;
  return modelParameterCount(reference, vocab_);
}

void MatchParametersDialog::setReference(engine::CellType type, int64_t hiddenSize) {
  referenceType_->setCurrentIndex(referenceType_->findData(static_cast<int>(type)));
  referenceSize_->setValue(static_cast<int>(hiddenSize));
  const int64_t count = referenceCount(type, hiddenSize);
  if (count > 0) setTarget(count);
}

void MatchParametersDialog::refreshSettings() {
  const int index = layer();
  const bool hasM =
      index >= 0 && engine::hasIntermediateState(model_.layers[static_cast<size_t>(index)].type);
  const bool factor =
      hasM && model_.layers[static_cast<size_t>(index)].type == engine::CellType::Mrnn;
  const int previous = setting_->currentIndex();
  setting_->blockSignals(true);
  setting_->clear();
  setting_->addItem(tr("Hidden size (H)"));
  if (hasM) setting_->addItem(factor ? tr("Factor size (F)") : tr("m size (M)"));
  setting_->setCurrentIndex(previous == 1 && hasM ? 1 : 0);
  setting_->blockSignals(false);
}

void MatchParametersDialog::setRunReferences(const QList<ParameterReference>& runs) {
  runReference_->clear();
  for (const ParameterReference& run : runs) {
    runReference_->addItem(run.label, QVariant::fromValue<qlonglong>(run.parameters));
  }
  form_->setRowVisible(runReferenceRow_, !runs.isEmpty());
}

void MatchParametersDialog::recompute() {
  match_ = {};
  QPushButton* apply = buttons_->button(QDialogButtonBox::Ok);
  apply->setEnabled(false);
  if (model_.layers.empty()) {
    result_->setText(tr("The model has no layer to resize."));
    return;
  }
  if (vocab_ <= 0) {
    result_->setText(
        tr("The vocabulary size is not known yet: set model.input.vocab_size or "
           "open the data panel so the corpus is read. Every count depends on it."));
    return;
  }
  const int64_t goal = target();
  if (goal <= 0) {
    result_->setText(tr("Type a target parameter count, or fill it from a reference."));
    return;
  }
  const auto index = static_cast<size_t>(layer());
  match_ = matchParameters(model_, index, setting(), vocab_, goal);
  const engine::LayerConfig& current = model_.layers[index];
  const int64_t before =
      setting() == SizedSetting::HiddenSize ? current.hiddenSize : current.intermediateSize();
  const int64_t difference = match_.total - goal;
  const double percent = 100.0 * static_cast<double>(difference) / static_cast<double>(goal);
  const QString name = setting() == SizedSetting::HiddenSize ? tr("Hidden size") : tr("m size");
  QString text =
      tr("<b>%1: %2</b> (now %3)<br>Total: <b>%4</b> parameters, %5%6 (%7%8 %) from the target")
          .arg(name, formatCount(match_.size), formatCount(before), formatCount(match_.total),
               difference >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
               formatCount(std::llabs(difference)),
               difference >= 0 ? QStringLiteral("+") : QStringLiteral("−"),
               QString::number(std::fabs(percent), 'f', 2));
  if (!match_.reachable) {
    text +=
        tr("<br><span style='color:#c92a2a'>The target is out of reach by sizing this layer "
           "alone.</span>");
  }
  result_->setText(text);
  apply->setEnabled(match_.size != before && match_.reachable);
}

}  // namespace mrnn::widgets
