#include "widgets/sampler/sampling_options_form.h"

#include "engine/sampling/sampling_options.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRandomGenerator>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "widgets/sampler/clamp_editor.h"

namespace mrnn::widgets {
namespace {

// "\n" typed in a one-line field means a line break (as in `mrnn sample --stop`).
std::string unescapeLineBreaks(const QString& text) {
  QString out = text;
  out.replace(QStringLiteral("\\n"), QStringLiteral("\n"));
  return out.toStdString();
}

QGroupBox* group(const QString& title, QWidget* parent) {
  auto* box = new QGroupBox(title, parent);
  box->setFlat(true);
  return box;
}

}  // namespace

SamplingOptionsForm::SamplingOptionsForm(QWidget* parent)
    : QWidget(parent),
      prime_(new QPlainTextEdit(this)),
      temperature_(new QDoubleSpinBox(this)),
      topK_(new QSpinBox(this)),
      topP_(new QDoubleSpinBox(this)),
      greedy_(new QCheckBox(tr("Greedy (always the most probable)"), this)),
      beam_(new QSpinBox(this)),
      length_(new QSpinBox(this)),
      completions_(new QSpinBox(this)),
      seed_(new QSpinBox(this)),
      stop_(new QLineEdit(this)),
      alternatives_(new QSpinBox(this)),
      beamNote_(new QLabel(this)),
      clamps_(new ClampEditor(this)) {
  setObjectName(QStringLiteral("samplingOptionsForm"));

  prime_->setObjectName(QStringLiteral("primeEdit"));
  prime_->setPlaceholderText(tr("Text the model reads first; empty starts after a line break"));
  prime_->setToolTip(
      tr("The prime: the model reads it, then continues it. Every symbol must be in the "
         "model's vocabulary (word models map unknown words to <unk>)."));
  prime_->setTabChangesFocus(true);
  prime_->setFixedHeight(64);

  temperature_->setObjectName(QStringLiteral("temperatureSpin"));
  temperature_->setRange(0.05, 10.0);
  temperature_->setSingleStep(0.05);
  temperature_->setDecimals(2);
  temperature_->setValue(1.0);
  temperature_->setToolTip(
      tr("Divides the log-probabilities before drawing: below 1 is more conservative, above 1 "
         "more adventurous"));

  topK_->setObjectName(QStringLiteral("topKSpin"));
  topK_->setRange(0, 1000000);
  topK_->setSpecialValueText(tr("off"));
  topK_->setToolTip(tr("Draw only among the K most probable symbols (off: all)"));

  topP_->setObjectName(QStringLiteral("topPSpin"));
  topP_->setRange(0.01, 1.0);
  topP_->setSingleStep(0.05);
  topP_->setDecimals(2);
  topP_->setValue(1.0);
  topP_->setToolTip(
      tr("Nucleus sampling: draw among the most probable symbols holding this much of the "
         "probability (1: off)"));

  greedy_->setObjectName(QStringLiteral("greedyCheck"));
  greedy_->setToolTip(tr("Take the most probable symbol at every step (no randomness)"));

  beam_->setObjectName(QStringLiteral("beamSpin"));
  beam_->setRange(0, 8);  // every beam gets a column
  beam_->setSpecialValueText(tr("off"));
  beam_->setToolTip(
      tr("Beam search: keep the N most probable continuations and show all N (ignores "
         "temperature, top-k, top-p, seed and the number of completions)"));

  length_->setObjectName(QStringLiteral("lengthSpin"));
  length_->setRange(1, 1000000);
  length_->setValue(200);
  length_->setSuffix(tr(" symbols"));
  length_->setToolTip(tr("Symbols generated per completion"));

  completions_->setObjectName(QStringLiteral("completionsSpin"));
  completions_->setRange(1, 8);
  completions_->setValue(3);
  completions_->setToolTip(tr("Independent completions of the same prime, side by side"));

  seed_->setObjectName(QStringLiteral("seedSpin"));
  seed_->setRange(1, 2147483647);
  seed_->setValue(1);
  seed_->setToolTip(tr("The same seed and settings give the same text"));
  auto* newSeed = new QToolButton(this);
  newSeed->setObjectName(QStringLiteral("newSeedButton"));
  newSeed->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
  newSeed->setToolTip(tr("Draw a new random seed"));
  connect(newSeed, &QToolButton::clicked, this,
          [this] { seed_->setValue(QRandomGenerator::global()->bounded(1, 2147483647)); });
  seedAdvances_ = new QCheckBox(tr("vary"), this);
  seedAdvances_->setObjectName(QStringLiteral("seedAdvancesCheck"));
  seedAdvances_->setChecked(true);
  seedAdvances_->setToolTip(
      tr("New seed each time: after each generation the seed moves on by one, so generating "
         "again gives new text; the status line names the seed a generation used"));
  auto* seedRow = new QHBoxLayout;
  seedRow->setContentsMargins(0, 0, 0, 0);
  seedRow->addWidget(seed_, 1);
  seedRow->addWidget(newSeed);
  seedRow->addWidget(seedAdvances_);

  stop_->setObjectName(QStringLiteral("stopEdit"));
  stop_->setPlaceholderText(tr("none   (e.g. \\n\\n|THE END)"));
  stop_->setToolTip(
      tr("Generation ends right after the first of these strings; separate them with |, "
         "write a line break as \\n"));

  alternatives_->setObjectName(QStringLiteral("alternativesSpin"));
  alternatives_->setRange(1, 50);
  alternatives_->setValue(8);
  alternatives_->setToolTip(
      tr("How many of the most probable symbols to keep per position, "
         "for the list a click on a symbol opens"));

  beamNote_->setObjectName(QStringLiteral("beamNote"));
  beamNote_->setWordWrap(true);
  QPalette muted = beamNote_->palette();
  muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
  beamNote_->setPalette(muted);

  auto* primeBox = group(tr("Prime"), this);
  auto* primeLayout = new QVBoxLayout(primeBox);
  primeLayout->setContentsMargins(0, 4, 0, 0);
  primeLayout->addWidget(prime_);

  auto* samplingBox = group(tr("Sampling"), this);
  auto* form = new QFormLayout(samplingBox);
  form->setContentsMargins(0, 4, 0, 0);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->addRow(tr("&Temperature"), temperature_);
  form->addRow(tr("Top-&k"), topK_);
  form->addRow(tr("Top-&p"), topP_);
  form->addRow(greedy_);
  form->addRow(tr("&Beam width"), beam_);
  form->addRow(beamNote_);
  form->addRow(tr("&Length"), length_);
  form->addRow(tr("&Completions"), completions_);
  auto* seedLabel = new QLabel(tr("&Seed"), samplingBox);
  seedLabel->setBuddy(seed_);  // a row of two widgets gets no buddy by itself
  form->addRow(seedLabel, seedRow);
  form->addRow(tr("Stop &at"), stop_);
  form->addRow(tr("Alternati&ves"), alternatives_);

  auto* clampBox = group(tr("Clamped units"), this);
  auto* clampLayout = new QVBoxLayout(clampBox);
  clampLayout->setContentsMargins(0, 4, 0, 0);
  clampLayout->addWidget(clamps_);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(10);
  layout->addWidget(primeBox);
  layout->addWidget(samplingBox);
  layout->addWidget(clampBox);
  layout->addStretch(1);

  connect(greedy_, &QCheckBox::toggled, this, &SamplingOptionsForm::updateEnabled);
  connect(beam_, &QSpinBox::valueChanged, this, &SamplingOptionsForm::updateEnabled);
  updateEnabled();
}

void SamplingOptionsForm::updateEnabled() {
  const bool beam = beam_->value() > 0;
  const bool drawing = !beam && !greedy_->isChecked();
  temperature_->setEnabled(drawing);
  topK_->setEnabled(drawing);
  topP_->setEnabled(drawing);
  seed_->setEnabled(drawing);
  seedAdvances_->setEnabled(drawing);
  greedy_->setEnabled(!beam);
  completions_->setEnabled(!beam);
  beamNote_->setVisible(beam);
  beamNote_->setText(beam ? (beam_->value() == 1
                                 ? tr("Beam search shows its best beam.")
                                 : tr("Beam search shows its %1 best beams.").arg(beam_->value()))
                          : QString());
}

engine::SamplingOptions SamplingOptionsForm::options() const {
  engine::SamplingOptions o;
  o.prime = prime_->toPlainText().toStdString();
  o.maxLength = length_->value();
  o.temperature = temperature_->value();
  o.topK = topK_->value();
  o.topP = topP_->value();
  o.greedy = greedy_->isChecked();
  o.beamWidth = beam_->value();
  for (const QString& part : stop_->text().split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
    o.stopStrings.push_back(unescapeLineBreaks(part));
  }
  o.completions = completions_->value();
  o.seed = static_cast<uint64_t>(seed_->value());
  o.alternatives = alternatives_->value();
  for (const ClampSetting& clamp : clamps_->clamps()) {
    o.clamps.push_back({static_cast<size_t>(clamp.layer), clamp.unit, clamp.value});
  }
  return o;
}

int SamplingOptionsForm::completionColumns() const {
  return beam_->value() > 0 ? beam_->value() : completions_->value();
}

void SamplingOptionsForm::setModelInfo(const SamplerModelInfo& info) {
  clamps_->setModelInfo(info);
}

void SamplingOptionsForm::setPrime(const QString& prime) {
  prime_->setPlainText(prime);
}
void SamplingOptionsForm::setLength(int symbols) {
  length_->setValue(symbols);
}
void SamplingOptionsForm::setCompletions(int count) {
  completions_->setValue(count);
}
int SamplingOptionsForm::seed() const {
  return seed_->value();
}

bool SamplingOptionsForm::seedAdvances() const {
  return seedAdvances_->isChecked();
}

void SamplingOptionsForm::setSeedAdvances(bool advances) {
  seedAdvances_->setChecked(advances);
}

void SamplingOptionsForm::advanceSeed() {
  seed_->setValue(seed_->value() >= seed_->maximum() ? seed_->minimum() : seed_->value() + 1);
}

void SamplingOptionsForm::setSeed(int seed) {
  seed_->setValue(seed);
}
void SamplingOptionsForm::setTemperature(double temperature) {
  temperature_->setValue(temperature);
}

}  // namespace mrnn::widgets
