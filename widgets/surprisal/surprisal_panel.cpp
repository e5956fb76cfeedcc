#include "widgets/surprisal/surprisal_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/held_out_text.h"
#include "engine/analysis/loaded_model.h"
#include "engine/scoring/scoring_output.h"
#include "engine/scoring/surprisal_difference.h"
#include "engine/scoring/surprisal_recovery.h"
#include "engine/scoring/text_score.h"
#include "widgets/analysis/analysis_job_bar.h"
#include "widgets/analysis/model_slot.h"
#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/export/export_bar.h"
#include "widgets/export/figure_export.h"
#include "widgets/project/project_document.h"
#include "widgets/run_colours.h"
#include "widgets/surprisal/recovery_plot.h"
#include "widgets/surprisal/recovery_table.h"
#include "widgets/surprisal/surprisal_difference_list.h"
#include "widgets/surprisal/surprisal_text_view.h"

#include "widgets/display_format.h"

namespace mrnn::widgets {
namespace {

// A passage most English-trained models know the style of, with line breaks to show.
const char* const kDefaultText =
    "To be, or not to be, that is the question:\n"
    "Whether 'tis nobler in the mind to suffer\n"
    "The slings and arrows of outrageous fortune,\n"
    "Or to take arms against a sea of troubles\n"
    "And by opposing end them.";

constexpr int64_t kAlternatives = 5;

// What the job hands back to the GUI thread.
struct SurprisalResult {
  engine::TextScore score;
  engine::TextScore scoreB;  // the second chosen model's, when there is one
  bool compared = false;
  engine::RecoveryTable recovery;
  bool wordLevel = false;
  int64_t symbols = 0;  // in the whole text the recovery ran on
};

// A model the job uses: where it comes from and how the plot names it.
struct ModelInput {
  ModelSlot* slot = nullptr;
  std::string checkpoint;
  std::string label;
};

// The engine numbers the models it compares; the user knows them by their labels.
std::string withLabels(const std::string& message, const std::vector<ModelInput>& models) {
  std::string out = message;
  for (size_t m = models.size(); m-- > 0;) {
    const std::string key = "model " + std::to_string(m + 1);
    const size_t at = out.find(key);
    if (at != std::string::npos) out.insert(at + key.size(), " (" + models[m].label + ")");
  }
  return out;
}

}  // namespace

SurprisalPanel::SurprisalPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("surprisalPanel"));

  // Models.
  const QStringList chooserNames{QStringLiteral("modelAChooser"), QStringLiteral("model2Chooser"),
                                 QStringLiteral("model3Chooser")};
  for (int i = 0; i < 3; ++i) {
    models_[i] = std::make_unique<ModelSlot>();
    choosers_[i] = new CheckpointChooser(document_, this);
    choosers_[i]->setObjectName(chooserNames[i]);
    if (i > 0) {
      choosers_[i]->setOptional(tr("(none)"));
    }
  }
  choosers_[0]->setToolTip(
      tr("The model whose surprisal colours the text; also the first "
         "curve of the recovery plot"));
  choosers_[1]->setToolTip(
      tr("Optional: a second model for the recovery plot and for the text coloured by "
         "A \u2212 B surprisal (it must share model A's vocabulary)"));
  choosers_[2]->setToolTip(tr("Optional: a third model for the recovery plot"));
  auto* modelsBox = new QGroupBox(tr("Models"), this);
  auto* modelsForm = new QFormLayout(modelsBox);
  modelsForm->addRow(tr("Model A:"), choosers_[0]);
  modelsForm->addRow(tr("Model B:"), choosers_[1]);
  modelsForm->addRow(tr("Model C:"), choosers_[2]);

  // Text.
  source_ = new QComboBox(this);
  source_->setObjectName(QStringLiteral("textSourceCombo"));
  source_->addItem(tr("Text below"), TextBelow);
  source_->addItem(tr("Project validation split"), ValidationSplit);
  source_->addItem(tr("Project test split"), TestSplit);
  source_->addItem(tr("Text file..."), TextFile);
  source_->setToolTip(
      tr("What to score: the text typed below, a held-out split of the open "
         "project's corpus, or a text file (read with model A's vocabulary)"));
  maxSymbols_ = new QSpinBox(this);
  maxSymbols_->setObjectName(QStringLiteral("maxSymbolsSpin"));
  maxSymbols_->setRange(0, 100000000);
  maxSymbols_->setSingleStep(1000);
  maxSymbols_->setGroupSeparatorShown(true);
  maxSymbols_->setSpecialValueText(tr("all"));
  maxSymbols_->setValue(5000);
  maxSymbols_->setToolTip(
      tr("Score the first this many symbols of the split or file (0: all of them). The "
         "coloured text shows at most the first %1.")
          .arg(formatCount(kMaxColouredSymbols)));
  filePath_ = new QLineEdit(this);
  filePath_->setObjectName(QStringLiteral("textFilePath"));
  filePath_->setPlaceholderText(tr("a text file to score"));
  filePath_->setToolTip(tr("Read in the project's corpus format (else detected from the file)"));
  browse_ = new QToolButton(this);
  browse_->setObjectName(QStringLiteral("browseTextFileButton"));
  browse_->setText(tr("Browse..."));
  connect(browse_, &QToolButton::clicked, this, &SurprisalPanel::browseTextFile);
  editor_ = new QPlainTextEdit(QString::fromUtf8(kDefaultText), this);
  editor_->setObjectName(QStringLiteral("surprisalTextEditor"));
  editor_->setToolTip(tr("The text to score with \"Text below\""));
  editor_->setMinimumHeight(editor_->fontMetrics().lineSpacing() * 3 + 10);
  editor_->setMaximumHeight(editor_->fontMetrics().lineSpacing() * 6 + 10);
  auto* textBox = new QGroupBox(tr("Text"), this);
  auto* textLayout = new QGridLayout(textBox);
  textLayout->addWidget(new QLabel(tr("Source:"), this), 0, 0);
  textLayout->addWidget(source_, 0, 1);
  textLayout->addWidget(new QLabel(tr("Max symbols:"), this), 0, 2);
  textLayout->addWidget(maxSymbols_, 0, 3);
  auto* fileRow = new QHBoxLayout;
  fileRow->addWidget(filePath_, 1);
  fileRow->addWidget(browse_);
  textLayout->addLayout(fileRow, 1, 0, 1, 4);
  textLayout->addWidget(editor_, 2, 0, 1, 4);
  textLayout->setColumnStretch(1, 1);
  connect(source_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          &SurprisalPanel::updateSourceControls);
  // Choosing "Text file..." without a file asks for one.
  connect(source_, qOverload<int>(&QComboBox::activated), this, [this](int row) {
    if (source_->itemData(row).toInt() == TextFile && filePath_->text().isEmpty()) {
      browseTextFile();
    }
  });

  // Recovery.
  topPercent_ = new QDoubleSpinBox(this);
  topPercent_->setObjectName(QStringLiteral("topFractionSpin"));
  topPercent_->setRange(0.1, 100.0);
  topPercent_->setDecimals(1);
  topPercent_->setSuffix(QStringLiteral(" %"));
  topPercent_->setValue(10.0);
  topPercent_->setToolTip(
      tr("The surprising positions: this share of the text with the "
         "highest loss, averaged over the models (Krause et al.: 10 %)"));
  offsets_ = new QSpinBox(this);
  offsets_->setObjectName(QStringLiteral("offsetsSpin"));
  offsets_->setRange(0, 50);
  offsets_->setValue(4);
  offsets_->setToolTip(
      tr("K: the mean loss is also shown at +1..+K symbols after each "
         "surprising one"));
  run_ = new QPushButton(tr("Run"), this);
  run_->setObjectName(QStringLiteral("runSurprisalButton"));
  run_->setDefault(true);
  run_->setToolTip(
      tr("Score the text with model A (colours) and every chosen model "
         "(recovery)"));
  connect(run_, &QPushButton::clicked, this, &SurprisalPanel::runAnalysis);
  auto* recoveryBox = new QGroupBox(tr("Recovery"), this);
  auto* recoveryForm = new QFormLayout(recoveryBox);
  recoveryForm->addRow(tr("Surprising:"), topPercent_);
  recoveryForm->addRow(tr("Offsets K:"), offsets_);
  recoveryForm->addRow(run_);

  auto* inputs = new QHBoxLayout;
  inputs->addWidget(modelsBox, 3);
  inputs->addWidget(textBox, 4);
  inputs->addWidget(recoveryBox, 0);

  jobBar_ = new AnalysisJobBar(this);
  connect(jobBar_, &AnalysisJobBar::started, this, [this] { run_->setEnabled(false); });
  connect(jobBar_, &AnalysisJobBar::finished, this, [this](bool ok) {
    run_->setEnabled(true);
    emit analysisFinished(ok);
  });

  // Results: the coloured text above, the recovery plot and its numbers below.
  textView_ = new SurprisalTextView(this);
  textExport_ = new ExportBar(
      QStringLiteral("surprisal-text"),
      [this](const QString& path) { saveWidget(path, textView_); }, [this] { return scoreCsv(); },
      this);
  textExport_->setObjectName(QStringLiteral("textExportBar"));
  differenceList_ = new SurprisalDifferenceList(this);
  connect(differenceList_, &SurprisalDifferenceList::symbolChosen, textView_,
          &SurprisalTextView::revealSymbol);
  differenceBox_ = new QWidget(this);
  differenceBox_->setObjectName(QStringLiteral("surprisalDifferenceBox"));
  auto* differenceLayout = new QVBoxLayout(differenceBox_);
  differenceLayout->setContentsMargins(0, 0, 0, 0);
  auto* differenceTitle = new QLabel(tr("<b>Largest differences, A \u2212 B</b>"), differenceBox_);
  differenceTitle->setToolTip(differenceList_->toolTip());
  differenceLayout->addWidget(differenceTitle);
  differenceLayout->addWidget(differenceList_, 1);
  differenceBox_->setVisible(false);
  textSplitter_ = new QSplitter(Qt::Horizontal, this);
  auto* textSplitter = textSplitter_;
  textSplitter->addWidget(textView_);
  textSplitter->addWidget(differenceBox_);
  textSplitter->setStretchFactor(0, 3);
  textSplitter->setStretchFactor(1, 2);
  textSplitter->setChildrenCollapsible(false);
  auto* textSection = new QWidget(this);
  auto* textSectionLayout = new QVBoxLayout(textSection);
  textSectionLayout->setContentsMargins(0, 0, 0, 0);
  textSectionLayout->addWidget(textSplitter, 1);
  textSectionLayout->addWidget(textExport_, 0, Qt::AlignRight);

  plot_ = new RecoveryPlot(this);
  table_ = new RecoveryTable(this);
  recoveryExport_ = new ExportBar(
      QStringLiteral("surprisal-recovery"), [this](const QString& path) { savePlot(path, plot_); },
      [this] { return recoveryCsv(); }, this);
  recoveryExport_->setObjectName(QStringLiteral("recoveryExportBar"));
  auto* recoverySplitter = new QSplitter(Qt::Horizontal, this);
  recoverySplitter->addWidget(plot_);
  recoverySplitter->addWidget(table_);
  recoverySplitter->setStretchFactor(0, 3);
  recoverySplitter->setStretchFactor(1, 2);
  auto* recoverySection = new QWidget(this);
  auto* recoverySectionLayout = new QVBoxLayout(recoverySection);
  recoverySectionLayout->setContentsMargins(0, 0, 0, 0);
  recoverySectionLayout->addWidget(recoverySplitter, 1);
  recoverySectionLayout->addWidget(recoveryExport_, 0, Qt::AlignRight);

  auto* results = new QSplitter(Qt::Vertical, this);
  results->setObjectName(QStringLiteral("surprisalResultsSplitter"));
  results->addWidget(textSection);
  results->addWidget(recoverySection);
  results->setStretchFactor(0, 1);
  results->setStretchFactor(1, 1);
  results->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(inputs);
  layout->addWidget(jobBar_);
  layout->addWidget(results, 1);
  updateSourceControls();
}

SurprisalPanel::~SurprisalPanel() {
  // The job uses the model slots: cancel and join it before they go.
  delete jobBar_;
  jobBar_ = nullptr;
}

CheckpointChooser* SurprisalPanel::chooser(int slot) const {
  return slot >= 0 && slot < 3 ? choosers_[slot] : nullptr;
}

const engine::TextScore* SurprisalPanel::score() const {
  return textView_->score();
}

void SurprisalPanel::setText(const QString& text) {
  editor_->setPlainText(text);
}

QString SurprisalPanel::text() const {
  return editor_->toPlainText();
}

void SurprisalPanel::setTextSource(int source) {
  const int row = source_->findData(source);
  if (row >= 0) source_->setCurrentIndex(row);
}

int SurprisalPanel::textSource() const {
  return source_->currentData().toInt();
}

void SurprisalPanel::setTextFile(const QString& path) {
  filePath_->setText(path);
}

void SurprisalPanel::setCheckpoint(const QString& path) {
  choosers_[0]->setCheckpoint(path);
}

void SurprisalPanel::setComparisonCheckpoint(int slot, const QString& path) {
  if (slot < 1 || slot > 2) return;
  if (path.isEmpty()) {
    choosers_[slot]->comboBox()->setCurrentIndex(0);  // the "(none)" entry
  } else {
    choosers_[slot]->setCheckpoint(path);
  }
}

void SurprisalPanel::setMaxSymbols(int symbols) {
  maxSymbols_->setValue(symbols);
}

void SurprisalPanel::setTopFraction(double fraction) {
  topPercent_->setValue(fraction * 100.0);
}

void SurprisalPanel::setOffsets(int offsets) {
  offsets_->setValue(offsets);
}

void SurprisalPanel::refreshCheckpoints() {
  for (auto* chooser : choosers_) chooser->refresh();
}

void SurprisalPanel::updateSourceControls() {
  const int source = textSource();
  editor_->setEnabled(source == TextBelow);
  filePath_->setEnabled(source == TextFile);
  browse_->setEnabled(source == TextFile);
  maxSymbols_->setEnabled(source != TextBelow);
}

void SurprisalPanel::browseTextFile() {
  const QString start =
      filePath_->text().isEmpty() ? document_.folder() : QFileInfo(filePath_->text()).path();
  const QString path = QFileDialog::getOpenFileName(this, tr("Text to score"), start,
                                                    tr("Text files (*.txt *.md);;All files (*)"));
  if (!path.isEmpty()) {
    filePath_->setText(path);
    setTextSource(TextFile);
  }
}

void SurprisalPanel::showScore(const engine::TextScore& score) {
  textView_->showScore(score, wordLevel_, scoreNote_);
  differenceList_->clearDifference();
  differenceBox_->setVisible(false);
  textExport_->setAvailable(true);
}

void SurprisalPanel::showComparison(const engine::TextScore& scoreB, const QString& nameA,
                                    const QString& nameB) {
  textView_->showComparison(scoreB, nameA, nameB);
  if (!textView_->difference()) return;
  differenceList_->showDifference(*textView_->score(), *textView_->difference(), nameA, nameB,
                                  wordLevel_);
  differenceBox_->setVisible(true);
  // A box first shown after the splitter was laid out gets no width of its own.
  const QList<int> sizes = textSplitter_->sizes();
  if (sizes.size() == 2 && sizes[1] < differenceList_->minimumSizeHint().width()) {
    const int total = sizes[0] + sizes[1];
    textSplitter_->setSizes({total * 3 / 5, total - total * 3 / 5});
  }
}

void SurprisalPanel::showRecovery(const engine::RecoveryTable& table, const QStringList& labels,
                                  const QVector<QColor>& colours) {
  recovery_ = std::make_unique<engine::RecoveryTable>(table);
  recoveryLabels_ = labels;
  plot_->showRecovery(table, labels, colours);
  table_->showRecovery(table, labels, colours);
  recoveryExport_->setAvailable(true);
}

QByteArray SurprisalPanel::scoreCsv() const {
  if (!score()) return {};
  std::ostringstream out;
  if (const auto* b = textView_->comparisonScore()) {
    engine::writeSurprisalDifferenceCsv(out, *score(), *b);
  } else {
    engine::writeTextScoreCsv(out, *score());
  }
  return QByteArray::fromStdString(out.str());
}

QByteArray SurprisalPanel::recoveryCsv() const {
  if (!recovery_) return {};
  std::vector<std::string> names;
  for (const QString& label : recoveryLabels_) names.push_back(label.toStdString());
  std::ostringstream out;
  engine::writeRecoveryCsv(out, *recovery_, names);
  return QByteArray::fromStdString(out.str());
}

void SurprisalPanel::runAnalysis() {
  if (jobBar_->isRunning()) return;
  // Everything the job needs is copied here: it must not touch the widgets or the document.
  std::vector<ModelInput> models;
  QStringList labels;
  QVector<qint64> runs;  // for each model its run's colour, as every view draws it
  for (int i = 0; i < 3; ++i) {
    const QString path = choosers_[i]->checkpoint();
    if (i > 0 && path.isEmpty()) continue;
    models.push_back({models_[i].get(), path.toStdString(), choosers_[i]->label().toStdString()});
    runs << choosers_[i]->runId();
    labels << choosers_[i]->label();
  }
  engine::Project project = document_.project();
  // Relative corpus paths are read against the project's folder.
  if (project.folder.empty()) project.folder = document_.folder().toStdString();
  const int source = textSource();
  const std::string text = editor_->toPlainText().toStdString();
  const std::string file = filePath_->text().toStdString();
  const int64_t maxSymbols = maxSymbols_->value();
  engine::RecoveryOptions options;
  options.topFraction = topPercent_->value() / 100.0;
  options.offsets = offsets_->value();
  auto result = std::make_shared<SurprisalResult>();

  auto work = [models, project, source, text, file, maxSymbols, options,
               result](engine::JobContext& job) {
    job.report(0.0, "loading the models");
    std::vector<engine::LoadedModel*> loaded;
    for (const auto& model : models) loaded.push_back(&model.slot->get(model.checkpoint));
    const engine::LoadedModel& a = *loaded.front();
    job.report(0.0, "reading the text");
    std::vector<int64_t> ids;
    switch (source) {
      case TextBelow:
        try {
          ids = a.vocabulary.encode(text);
        } catch (const std::invalid_argument& error) {
          throw std::runtime_error("model A cannot read the text: " + std::string(error.what()));
        }
        break;
      case ValidationSplit:
      case TestSplit:
        ids = engine::splitIds(
            engine::heldOutSplit(project, a.vocabulary, source == TestSplit ? "test" : "valid"),
            maxSymbols);
        break;
      default:
        if (file.empty()) throw std::runtime_error("choose a text file to score");
        ids = engine::splitIds(engine::textFileSplit(project, a.vocabulary, file), maxSymbols);
        break;
    }
    if (ids.size() < 2) {
      throw std::runtime_error("the text has fewer than 2 symbols: nothing to predict");
    }
    result->symbols = static_cast<int64_t>(ids.size());
    result->wordLevel = a.vocabulary.level() == engine::InputLevel::Word;

    // The recovery first (most of the work: 85 % of the bar), then the coloured pass.
    std::vector<engine::LanguageModel*> languageModels;
    std::vector<const engine::Vocabulary*> vocabularies;
    for (auto* model : loaded) {
      languageModels.push_back(model->model.get());
      vocabularies.push_back(&model->vocabulary);
    }
    const bool compare = loaded.size() > 1;
    const double recoveryEnd = compare ? 0.7 : 0.85;
    engine::JobContext recoveryPart = job.part(0.0, recoveryEnd);
    try {
      result->recovery =
          engine::surprisalRecovery(languageModels, vocabularies, ids, options, &recoveryPart);
    } catch (const std::invalid_argument& error) {
      throw std::invalid_argument(withLabels(error.what(), models));
    }
    // Then model A's colours and alternatives on the text's start (still cancellable), and
    // the second model's bits on the same symbols for A − B.
    const std::vector<int64_t> shown(
        ids.begin(), ids.begin() + std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(ids.size()),
                                                            kMaxColouredSymbols));
    const double scoreEnd = compare ? 0.85 : 1.0;
    result->score = engine::scoreSymbols(*a.model, a.vocabulary, shown, &job, 256, kAlternatives,
                                         recoveryEnd, scoreEnd);
    if (compare) {
      const engine::LoadedModel& b = *loaded[1];
      result->scoreB = engine::scoreSymbols(*b.model, b.vocabulary, shown, &job, 256, 0, 0.85, 1.0);
      result->compared = true;
    }
  };

  auto done = [this, result, labels, colours = modelColours(runs)] {
    wordLevel_ = result->wordLevel;
    scoreNote_ = result->symbols > kMaxColouredSymbols
                     ? tr("the first %1 of %2 symbols")
                           .arg(formatCount(kMaxColouredSymbols), formatCount(result->symbols))
                     : QString();
    showScore(result->score);
    if (result->compared) showComparison(result->scoreB, labels.value(0), labels.value(1));
    scoreNote_.clear();
    showRecovery(result->recovery, labels, colours);
  };
  jobBar_->run(tr("Surprisal"), std::move(work), std::move(done));
}

}  // namespace mrnn::widgets
