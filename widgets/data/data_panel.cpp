#include "widgets/data/data_panel.h"
#include "widgets/native_path.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/config/project_file.h"
#include "widgets/data/corpus_scanner.h"
#include "widgets/data/datasets_dialog.h"
#include "widgets/data/symbol_histogram.h"
#include "widgets/monospace_font.h"
#include "widgets/panel_shortcut.h"
#include "widgets/project/project_document.h"
#include "widgets/wrapped_label.h"

#include "widgets/display_format.h"

namespace mrnn::widgets {
namespace {

// Spin-box edits merge into one undo step per control while the user keeps typing.
constexpr int kMergeValidFraction = 0x44410001;
constexpr int kMergeTestFraction = 0x44410002;
constexpr int kMergeMaxSymbols = 0x44410003;
constexpr int kMergeMinCount = 0x44410004;
constexpr int kScanDelayMs = 250;  // settle typing before reading a corpus again

QString formatBytes(qint64 bytes) {
  if (bytes < 1000) return QStringLiteral("%1 B").arg(bytes);
  if (bytes < 1000 * 1000)
    return QStringLiteral("%1 kB").arg(static_cast<double>(bytes) / 1e3, 0, 'f', 1);
  if (bytes < qint64{1000} * 1000 * 1000)
    return QStringLiteral("%1 MB").arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1);
  return QStringLiteral("%1 GB").arg(static_cast<double>(bytes) / 1e9, 0, 'f', 2);
}

// Several training files show as one line, "a; b; c" (the order they are read in).
const QString kFileSeparator = QStringLiteral("; ");

QString trainTip() {
  return QCoreApplication::translate(
      "DataPanel",
      "The training text; the vocabulary comes from it. Several files, separated by ';', are "
      "read in that order as one text. Relative paths start at the project folder.");
}

QString splitText(const engine::DataConfig& data, DataPanel::Split split) {
  switch (split) {
    case DataPanel::Valid:
      return fromNativePath(data.valid);
    case DataPanel::Test:
      return fromNativePath(data.test);
    default: {
      QStringList files;
      for (const std::string& file : engine::trainFiles(data)) files.append(fromNativePath(file));
      return files.join(kFileSeparator);
    }
  }
}

void setSplitPaths(engine::DataConfig& data, DataPanel::Split split, const QStringList& paths) {
  QStringList kept;
  for (const QString& path : paths) {
    if (!path.trimmed().isEmpty()) kept.append(path.trimmed());
  }
  switch (split) {
    case DataPanel::Valid:
      data.valid = kept.isEmpty() ? std::string() : toNativePath(kept.first());
      return;
    case DataPanel::Test:
      data.test = kept.isEmpty() ? std::string() : toNativePath(kept.first());
      return;
    default:
      data.train = kept.isEmpty() ? std::string() : toNativePath(kept.first());
      data.moreTrain.clear();
      for (int i = 1; i < kept.size(); ++i) data.moreTrain.push_back(toNativePath(kept[i]));
  }
}

QTableWidgetItem* cell(const QString& text, bool number) {
  auto* item = new QTableWidgetItem(text);
  item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

DataPanel::DataPanel(ProjectDocument& document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      scanner_(new CorpusScanner(this)),
      scanDelay_(new QTimer(this)) {
  setObjectName(QStringLiteral("dataPanel"));
  scanDelay_->setSingleShot(true);
  scanDelay_->setInterval(kScanDelayMs);
  connect(scanDelay_, &QTimer::timeout, this, &DataPanel::startScan);
  connect(scanner_, &CorpusScanner::finished, this, &DataPanel::showScan);
  buildUi();
  connect(&document_, &ProjectDocument::projectChanged, this, &DataPanel::refreshFromDocument);
  connect(&document_, &ProjectDocument::pathChanged, this, &DataPanel::refreshFromDocument);
  refreshFromDocument();
}

DataPanel::~DataPanel() = default;

void DataPanel::buildUi() {
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setChildrenCollapsible(false);

  auto* left = new QWidget(splitter);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(buildSettings());
  leftLayout->addWidget(buildStatistics(), 1);

  auto* right = new QSplitter(Qt::Vertical, splitter);
  right->setChildrenCollapsible(false);
  histogramBox_ = new QGroupBox(tr("Most frequent symbols in the training split"), right);
  histogram_ = new SymbolHistogram(histogramBox_);
  histogram_->setObjectName(QStringLiteral("symbolHistogram"));
  auto* histogramLayout = new QVBoxLayout(histogramBox_);
  histogramLayout->setContentsMargins(6, 6, 6, 6);
  histogramLayout->addWidget(histogram_);

  auto* previewBox =
      new QGroupBox(tr("Training text as the model reads it (first 2,000 characters)"), right);
  preview_ = new QPlainTextEdit(previewBox);
  preview_->setObjectName(QStringLiteral("preview"));
  preview_->setReadOnly(true);
  preview_->setFont(monospaceFont());
  preview_->setPlaceholderText(tr("The start of the training text appears here."));
  preview_->setToolTip(
      tr("Decoded from the symbol ids, so it shows what the model sees:\n"
         "words joined by spaces at word level, '_' turned into spaces in PTB "
         "character files."));
  auto* previewLayout = new QVBoxLayout(previewBox);
  previewLayout->setContentsMargins(6, 6, 6, 6);
  previewLayout->addWidget(preview_);
  right->addWidget(histogramBox_);
  right->addWidget(previewBox);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);

  splitter->addWidget(left);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({400, 600});

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(splitter);
}

QWidget* DataPanel::buildSettings() {
  auto* box = new QGroupBox(tr("Corpus"), this);
  auto* form = new QFormLayout(box);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

  syntheticNote_ = new WrappedLabel(box);
  syntheticNote_->setObjectName(QStringLiteral("syntheticNote"));
  syntheticNote_->setVisible(false);
  form->addRow(syntheticNote_);

  const QString names[SplitCount] = {tr("&Training:"), tr("&Validation:"), tr("T&est:")};
  const QString objectNames[SplitCount] = {QStringLiteral("trainFile"), QStringLiteral("validFile"),
                                           QStringLiteral("testFile")};
  const QString tips[SplitCount] = {
      trainTip(),
      tr("Optional: a separate validation file. Give both validation and test, or neither (then "
         "they are cut from the end of the training file)."),
      tr("Optional: a separate test file. Give both validation and test, or neither.")};
  for (int i = 0; i < SplitCount; ++i) {
    const auto split = static_cast<Split>(i);
    auto* row = new QWidget(box);
    auto* rowLayout = new QHBoxLayout(row);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->setSpacing(4);
    fileEdits_[i] = new QLineEdit(row);
    fileEdits_[i]->setObjectName(objectNames[i]);
    fileEdits_[i]->setToolTip(tips[i]);
    fileEdits_[i]->setPlaceholderText(i == Train ? tr("a text file")
                                                 : tr("none: split off the end"));
    fileEdits_[i]->setClearButtonEnabled(true);
    browseButtons_[i] = new QToolButton(row);
    browseButtons_[i]->setObjectName(objectNames[i] + QStringLiteral("Browse"));
    browseButtons_[i]->setText(tr("Browse…"));
    browseButtons_[i]->setToolTip(tr("Choose the file"));
    rowLayout->addWidget(fileEdits_[i], 1);
    rowLayout->addWidget(browseButtons_[i]);
    auto* label = new QLabel(names[i], box);
    label->setBuddy(fileEdits_[i]);
    form->addRow(label, row);
    connect(fileEdits_[i], &QLineEdit::editingFinished, this, [this, split] {
      // Typed paths are kept as typed: relative ones start at the project folder.
      const QString text = fileEdits_[split]->text().trimmed();
      const QStringList paths = split == Train ? text.split(QLatin1Char(';')) : QStringList{text};
      editData(editLabel(split), 0,
               [&](engine::DataConfig& data) { setSplitPaths(data, split, paths); });
    });
    connect(browseButtons_[i], &QToolButton::clicked, this, [this, split] { browse(split); });
  }

  format_ = new QComboBox(box);
  format_->setObjectName(QStringLiteral("format"));
  format_->addItem(tr("Automatic (from the file name)"), int(engine::CorpusFormat::Auto));
  format_->addItem(tr("Plain text (UTF-8)"), int(engine::CorpusFormat::Text));
  format_->addItem(tr("PTB characters ('_' is a space)"), int(engine::CorpusFormat::PtbChar));
  format_->addItem(tr("Tokens (PTB / WikiText words)"), int(engine::CorpusFormat::Tokens));
  format_->addItem(tr("Raw bytes (text8, enwik8)"), int(engine::CorpusFormat::Raw));
  format_->setToolTip(
      tr("How the files are read. Automatic: ptb.char.* are PTB characters, ptb.* and "
         "wiki.*.tokens are tokens, anything else plain text."));
  form->addRow(tr("&Format:"), format_);
  connect(format_, &QComboBox::activated, this, [this] {
    const auto format = static_cast<engine::CorpusFormat>(format_->currentData().toInt());
    editData(tr("Set corpus format"), 0, [&](engine::DataConfig& data) { data.format = format; });
  });

  level_ = new QComboBox(box);
  level_->setObjectName(QStringLiteral("level"));
  level_->addItem(tr("Bytes (256 symbols)"), int(engine::InputLevel::Byte));
  level_->addItem(tr("Characters"), int(engine::InputLevel::Char));
  level_->addItem(tr("Words"), int(engine::InputLevel::Word));
  level_->setToolTip(tr("The symbols the model reads and predicts (model.input.level)."));
  form->addRow(tr("&Level:"), level_);
  connect(level_, &QComboBox::activated, this, [this] {
    engine::ModelConfig model = document_.project().model;
    model.input.level = static_cast<engine::InputLevel>(level_->currentData().toInt());
    document_.editModel(model, tr("Set input level"));
  });

  auto* fractions = new QWidget(box);
  auto* fractionsLayout = new QHBoxLayout(fractions);
  fractionsLayout->setContentsMargins(0, 0, 0, 0);
  const auto makeFraction = [&](const QString& name, const QString& prefix) {
    auto* spin = new QDoubleSpinBox(fractions);
    spin->setObjectName(name);
    spin->setRange(0.0, 49.9);
    spin->setDecimals(1);
    spin->setSingleStep(0.5);
    spin->setPrefix(prefix);
    spin->setSuffix(QStringLiteral(" %"));
    spin->setToolTip(
        tr("Without validation and test files, this share of the training file's "
           "symbols is cut from its end (train | valid | test). 0 leaves that "
           "split empty."));
    fractionsLayout->addWidget(spin, 1);
    return spin;
  };
  validFraction_ = makeFraction(QStringLiteral("validFraction"), tr("valid "));
  testFraction_ = makeFraction(QStringLiteral("testFraction"), tr("test "));
  form->addRow(tr("&Held out:"), fractions);
  connect(validFraction_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editData(tr("Set validation share"), kMergeValidFraction,
             [&](engine::DataConfig& data) { data.validFraction = value / 100.0; });
  });
  connect(testFraction_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    editData(tr("Set test share"), kMergeTestFraction,
             [&](engine::DataConfig& data) { data.testFraction = value / 100.0; });
  });

  maxSymbols_ = new QSpinBox(box);
  maxSymbols_->setObjectName(QStringLiteral("maxSymbols"));
  maxSymbols_->setRange(0, std::numeric_limits<int>::max());
  maxSymbols_->setSingleStep(100000);
  maxSymbols_->setSpecialValueText(tr("all"));
  maxSymbols_->setGroupSeparatorShown(true);
  maxSymbols_->setToolTip(
      tr("Use only the first N symbols of each split, for quick runs. "
         "'all' (0) uses everything."));
  form->addRow(tr("&Max symbols:"), maxSymbols_);
  connect(maxSymbols_, &QSpinBox::valueChanged, this, [this](int value) {
    editData(tr("Set max symbols"), kMergeMaxSymbols,
             [&](engine::DataConfig& data) { data.maxSymbols = value; });
  });

  minCount_ = new QSpinBox(box);
  minCount_->setObjectName(QStringLiteral("minCount"));
  minCount_->setRange(1, 1000000);
  minCount_->setToolTip(tr("Word level: words seen fewer times in training become <unk>."));
  form->addRow(tr("Min &word count:"), minCount_);
  connect(minCount_, &QSpinBox::valueChanged, this, [this](int value) {
    editData(tr("Set min word count"), kMergeMinCount,
             [&](engine::DataConfig& data) { data.minCount = value; });
  });

  vocabularySource_ = new QComboBox(box);
  vocabularySource_->setObjectName(QStringLiteral("vocabularySource"));
  vocabularySource_->addItem(tr("Automatic (characters: every split; words: training)"),
                             int(engine::VocabularySource::Auto));
  vocabularySource_->addItem(tr("Every split"), int(engine::VocabularySource::All));
  vocabularySource_->addItem(tr("Training split only (strict)"),
                             int(engine::VocabularySource::Train));
  vocabularySource_->addItem(tr("Training split, others as <unk>"),
                             int(engine::VocabularySource::TrainUnk));
  vocabularySource_->setToolTip(
      tr("Where the symbols come from. Every split: a rare character in the held-out text "
         "(a licence, an index) still trains. Strict: such a symbol is an error. <unk>: it "
         "is read as <unk>, and training says how many."));
  form->addRow(tr("Vocabulary fr&om:"), vocabularySource_);
  connect(vocabularySource_, &QComboBox::activated, this, [this] {
    const auto source =
        static_cast<engine::VocabularySource>(vocabularySource_->currentData().toInt());
    editData(tr("Set vocabulary source"), 0,
             [&](engine::DataConfig& data) { data.vocabulary = source; });
  });

  auto* buttons = new QHBoxLayout;
  datasetsButton_ = new QPushButton(tr("&Standard data sets…"), box);
  datasetsButton_->setObjectName(QStringLiteral("datasetsButton"));
  datasetsButton_->setToolTip(
      tr("Download tiny Shakespeare, Penn Treebank, text8, enwik8 or "
         "WikiText and use it in this project"));
  connect(datasetsButton_, &QPushButton::clicked, this, &DataPanel::openDatasets);
  rescanButton_ = new QPushButton(tr("&Rescan"), box);
  rescanButton_->setObjectName(QStringLiteral("rescanButton"));
  // F5 is the window's Start; this panel's key works where the panel has the focus.
  QShortcut* rescanKey =
      addPanelShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_R), QStringLiteral("rescanShortcut"),
                       tr("Data: read the corpus again"));
  connect(rescanKey, &QShortcut::activated, this, &DataPanel::rescan);
  rescanButton_->setToolTip(tr("Read the corpus again, for files changed on disk (%1)")
                                .arg(rescanKey->key().toString(QKeySequence::NativeText)));
  connect(rescanButton_, &QPushButton::clicked, this, &DataPanel::rescan);
  buttons->addWidget(datasetsButton_);
  buttons->addStretch(1);
  buttons->addWidget(rescanButton_);
  form->addRow(buttons);
  return box;
}

QWidget* DataPanel::buildStatistics() {
  auto* box = new QGroupBox(tr("Statistics"), this);
  auto* layout = new QVBoxLayout(box);

  message_ = new QLabel(box);
  message_->setObjectName(QStringLiteral("dataMessage"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->setVisible(false);
  layout->addWidget(message_);

  statistics_ = new QTableWidget(SplitCount, ColumnCount, box);
  statistics_->setObjectName(QStringLiteral("statisticsTable"));
  statistics_->setHorizontalHeaderLabels({tr("Split"), tr("Symbols"), tr("Words"), tr("File")});
  statistics_->horizontalHeaderItem(WordsColumn)
      ->setToolTip(tr("Whitespace-separated words in the split's text (for bits per word)"));
  statistics_->verticalHeader()->setVisible(false);
  statistics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  statistics_->setSelectionMode(QAbstractItemView::NoSelection);
  statistics_->setFocusPolicy(Qt::NoFocus);
  statistics_->setAlternatingRowColors(true);
  statistics_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  statistics_->horizontalHeader()->setSectionResizeMode(SplitColumn, QHeaderView::ResizeToContents);
  const int rowHeight = statistics_->verticalHeader()->defaultSectionSize();
  statistics_->setFixedHeight(statistics_->horizontalHeader()->sizeHint().height() +
                              SplitCount * rowHeight + 2 * statistics_->frameWidth());
  statistics_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  statistics_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  const QString splitNames[SplitCount] = {tr("Train"), tr("Valid"), tr("Test")};
  for (int row = 0; row < SplitCount; ++row)
    statistics_->setItem(row, SplitColumn, cell(splitNames[row], false));
  layout->addWidget(statistics_);

  vocabulary_ = new QLabel(box);
  vocabulary_->setObjectName(QStringLiteral("vocabularyLabel"));
  vocabulary_->setWordWrap(true);
  layout->addWidget(vocabulary_);
  scanStatus_ = new QLabel(box);
  scanStatus_->setObjectName(QStringLiteral("scanStatus"));
  scanStatus_->setWordWrap(true);
  scanStatus_->setEnabled(false);
  layout->addWidget(scanStatus_);
  layout->addStretch(1);
  return box;
}

void DataPanel::refreshFromDocument() {
  const engine::Project& project = document_.project();
  const engine::DataConfig& data = project.data;
  const bool synthetic = project.hasData && data.synthetic != engine::SyntheticTask::None;
  for (int i = 0; i < SplitCount; ++i) {
    const QSignalBlocker block(fileEdits_[i]);
    const QString text = project.hasData ? splitText(data, static_cast<Split>(i)) : QString();
    if (fileEdits_[i]->text() != text) {
      fileEdits_[i]->setText(text);
      fileEdits_[i]->setCursorPosition(0);  // a long list shows its first file, not its last
    }
    if (i == Train) {
      // Several training files: the tooltip lists them, one a line, in reading order.
      fileEdits_[i]->setToolTip(data.moreTrain.empty()
                                    ? trainTip()
                                    : tr("%1 files, read in this order as one text:\n%2")
                                          .arg(data.moreTrain.size() + 1)
                                          .arg(text.split(kFileSeparator).join(QLatin1Char('\n'))));
    }
    fileEdits_[i]->setEnabled(!synthetic);
    browseButtons_[i]->setEnabled(!synthetic);
  }
  {
    const QSignalBlocker block(format_);
    format_->setCurrentIndex(format_->findData(int(data.format)));
    format_->setEnabled(!synthetic);
  }
  {
    const QSignalBlocker block(level_);
    level_->setCurrentIndex(level_->findData(int(project.model.input.level)));
  }
  const bool separateFiles = !data.valid.empty() || !data.test.empty();
  // Values are set only when they differ, so a box the user is typing in keeps its text.
  for (QDoubleSpinBox* spin : {validFraction_, testFraction_}) {
    const QSignalBlocker block(spin);
    const double percent =
        100.0 * (spin == validFraction_ ? data.validFraction : data.testFraction);
    if (std::abs(spin->value() - percent) > 1e-9) spin->setValue(percent);
    spin->setEnabled(!synthetic && !separateFiles);
  }
  const auto setInteger = [](QSpinBox* spin, int64_t value) {
    const QSignalBlocker block(spin);
    const int clamped =
        static_cast<int>(std::clamp<int64_t>(value, spin->minimum(), spin->maximum()));
    if (spin->value() != clamped) spin->setValue(clamped);
  };
  setInteger(maxSymbols_, data.maxSymbols);
  maxSymbols_->setEnabled(!synthetic);
  {
    const QSignalBlocker block(vocabularySource_);
    vocabularySource_->setCurrentIndex(vocabularySource_->findData(int(data.vocabulary)));
    vocabularySource_->setEnabled(!synthetic &&
                                  project.model.input.level != engine::InputLevel::Byte);
  }
  setInteger(minCount_, data.minCount);
  minCount_->setEnabled(!synthetic && project.model.input.level == engine::InputLevel::Word);
  syntheticNote_->setVisible(synthetic);
  if (synthetic && engine::isLongRangeProblem(data.synthetic)) {
    const engine::ProblemConfig& problem = data.problem;
    syntheticNote_->setText(
        tr("This project generates its data: the long-range problem %1 at T = %2, %3 training, "
           "%4 validation and %5 test sequences (seed %6). The file settings do not apply.")
            .arg(QString::fromStdString(engine::syntheticTaskName(data.synthetic)))
            .arg(problem.length)
            .arg(formatCount(problem.trainSequences), formatCount(problem.validSequences),
                 formatCount(problem.testSequences))
            .arg(problem.seed));
  } else if (synthetic) {
    const engine::CopyTaskConfig& copy = data.copy;
    syntheticNote_->setText(
        tr("This project generates its data: the reverse copy task with %1 tokens, length %2, "
           "%3 / %4 / %5 examples. The file settings do not apply.")
            .arg(formatCount(copy.vocabulary), formatCount(copy.length),
                 formatCount(copy.trainExamples), formatCount(copy.validExamples),
                 formatCount(copy.testExamples)));
  }
  if (scanKey() != lastScanKey_) scheduleScan();
}

QString DataPanel::scanKey() const {
  const engine::Project& project = document_.project();
  if (!project.hasData) return QStringLiteral("none");
  // The data section's YAML plus what else the reader depends on: level and folder.
  engine::Project dataOnly;
  dataOnly.hasData = true;
  dataOnly.data = project.data;
  dataOnly.model.input.level = project.model.input.level;
  return QString::fromStdString(engine::projectToYaml(dataOnly)) + document_.folder();
}

void DataPanel::scheduleScan() {
  scanDelay_->start();
  scanStatus_->setText(tr("Reading the corpus…"));
}

void DataPanel::rescan() {
  lastScanKey_.clear();
  scanDelay_->stop();
  startScan();
}

void DataPanel::startScan() {
  lastScanKey_ = scanKey();
  const engine::Project& project = document_.project();
  const bool noFiles = project.data.synthetic == engine::SyntheticTask::None &&
                       project.data.train.empty() && project.data.valid.empty() &&
                       project.data.test.empty();
  if (!project.hasData || noFiles) {
    scanner_->cancel();
    scan_ = CorpusScanResult();
    clearResults();
    showMessage(tr("No corpus yet: choose a training file, or download one of the standard data "
                   "sets."),
                false);
    scanStatus_->clear();
    document_.setCorpusVocabulary(0);
    emit scanFinished();
    return;
  }
  CorpusScanRequest request;
  request.data = project.data;
  request.level = project.model.input.level;
  request.folder = document_.folder();
  scanStatus_->setText(tr("Reading the corpus…"));
  rescanButton_->setEnabled(false);
  scanner_->scan(request);
}

bool DataPanel::isScanning() const {
  return scanDelay_->isActive() || scanner_->isScanning();
}

void DataPanel::showScan(const CorpusScanResult& result) {
  scan_ = result;
  rescanButton_->setEnabled(true);
  if (!result.ok) {
    clearResults();
    showMessage(tr("Could not read the corpus: %1").arg(result.error), true);
    // In a short dock the reason lies below the form: the dock scrolls to it, once laid out.
    QTimer::singleShot(0, this, [this] {
      for (QWidget* up = parentWidget(); up != nullptr; up = up->parentWidget()) {
        if (auto* area = qobject_cast<QScrollArea*>(up)) {
          area->ensureWidgetVisible(message_);
          return;
        }
      }
    });
    scanStatus_->clear();
    document_.setCorpusVocabulary(0);
    emit scanFinished();
    return;
  }
  showMessage(QString(), false);
  const bool generated = document_.project().data.synthetic != engine::SyntheticTask::None;
  const SplitSummary* splits[SplitCount] = {&result.train, &result.valid, &result.test};
  for (int row = 0; row < SplitCount; ++row) {
    const SplitSummary& split = *splits[row];
    statistics_->setItem(row, SymbolsColumn, cell(formatCount(split.symbols), true));
    statistics_->setItem(row, WordsColumn, cell(formatCount(split.words), true));
    QTableWidgetItem* file = nullptr;
    if (generated) {
      file = cell(tr("generated"), false);
    } else if (split.fileBytes >= 0) {
      file = cell(formatBytes(split.fileBytes), true);
      file->setToolTip(QDir::toNativeSeparators(split.file));
    } else {
      file = cell(tr("end of train file"), false);
      file->setToolTip(tr("Cut from the end of %1").arg(QDir::toNativeSeparators(split.file)));
    }
    if (split.fileBytes < 0)
      file->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    statistics_->setItem(row, FileSizeColumn, file);
    statistics_->item(row, SplitColumn)->setToolTip(QDir::toNativeSeparators(split.file));
  }

  QString vocabulary = tr("Vocabulary: <b>%1</b> symbols").arg(formatCount(result.vocabularySize));
  if (result.symbolsSeen != result.vocabularySize)
    vocabulary += tr(", %1 of them in the training text").arg(formatCount(result.symbolsSeen));
  if (result.level == engine::InputLevel::Word && !generated)
    vocabulary += tr(" (min count %1)").arg(document_.project().data.minCount);
  vocabulary += QStringLiteral("<br>") +
                tr("Unigram entropy: <b>%1</b> bits per symbol").arg(result.unigramBits, 0, 'f', 2);
  if (result.unknownShare >= 0)
    vocabulary += QStringLiteral("<br>") + tr("&lt;unk&gt; tokens: <b>%1%</b> of training")
                                               .arg(100.0 * result.unknownShare, 0, 'f', 2);
  vocabulary_->setText(vocabulary);
  vocabulary_->setToolTip(
      tr("The unigram entropy is what a model that ignores all context would score on the "
         "training text: a floor to beat."));
  scanStatus_->setText(result.seconds < 1.0
                           ? tr("Read in %1 ms.").arg(std::max(1, int(result.seconds * 1000)))
                           : tr("Read in %1 s.").arg(result.seconds, 0, 'f', 1));

  histogram_->setCounts(result.topSymbols, result.train.symbols);
  histogramBox_->setTitle(
      tr("Most frequent symbols in the training split (top %1)").arg(result.topSymbols.size()));
  preview_->setPlainText(result.preview);
  document_.setCorpusVocabulary(result.vocabularySize);
  emit scanFinished();
}

void DataPanel::showMessage(const QString& text, bool isError) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
  // Errors stand out in a tinted frame; hints are plain text.
  message_->setStyleSheet(isError ? QStringLiteral("QLabel { background: #fdecea; color: #8a1c12; "
                                                   "border: 1px solid #f5c2bd; border-radius: 3px; "
                                                   "padding: 6px; }")
                                  : QString());
}

void DataPanel::clearResults() {
  for (int row = 0; row < SplitCount; ++row)
    for (int column = SymbolsColumn; column < ColumnCount; ++column)
      statistics_->setItem(row, column, cell(QStringLiteral("–"), column != FileSizeColumn));
  vocabulary_->clear();
  histogram_->showMessage(tr("No symbols to show."));
  histogramBox_->setTitle(tr("Most frequent symbols in the training split"));
  preview_->clear();
}

QString DataPanel::message() const {
  return message_->isHidden() ? QString() : message_->text();
}

QStringList DataPanel::histogramLabels() const {
  return histogram_->labels();
}

QString DataPanel::previewText() const {
  return preview_->toPlainText();
}

void DataPanel::browse(Split split) {
  const QString current = fileEdits_[split]->text();
  QString start = document_.folder();
  if (!current.isEmpty()) {
    const QString absolute = QFileInfo(current).isAbsolute() || start.isEmpty()
                                 ? current
                                 : QDir(start).absoluteFilePath(current);
    start = QFileInfo(absolute).absolutePath();
  }
  const QString titles[SplitCount] = {tr("Choose the training file"),
                                      tr("Choose the validation file"), tr("Choose the test file")};
  const QString filter = tr("Corpus files (*.txt *.tokens *.raw text8 enwik8);;All files (*)");
  if (split == Train) {
    // Training text may come in several files, read in the order chosen.
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Choose the training file(s)"), start, filter);
    if (!paths.isEmpty()) setSplitFiles(split, paths);
    return;
  }
  const QString path = QFileDialog::getOpenFileName(this, titles[split], start, filter);
  if (!path.isEmpty()) setSplitFile(split, path);
}

QString DataPanel::editLabel(Split split) {
  switch (split) {
    case Valid:
      return tr("Set validation file");
    case Test:
      return tr("Set test file");
    default:
      return tr("Set training file");
  }
}

void DataPanel::setSplitFile(Split split, const QString& path) {
  setSplitFiles(split, {path});
}

void DataPanel::setSplitFiles(Split split, const QStringList& paths) {
  QStringList stored;
  const QString folder = document_.folder();
  for (const QString& path : paths) {
    stored.append(path);
    if (!path.isEmpty() && QFileInfo(path).isAbsolute() && !folder.isEmpty()) {
      // Inside the project folder: relative, so the folder can move with its data.
      const QString relative = QDir(folder).relativeFilePath(QDir::cleanPath(path));
      if (!relative.startsWith(QStringLiteral(".."))) stored.last() = relative;
    }
  }
  editData(editLabel(split), 0,
           [&](engine::DataConfig& data) { setSplitPaths(data, split, stored); });
  refreshFromDocument();  // shows the stored form even when nothing changed
}

void DataPanel::editData(const QString& label, int mergeKey,
                         const std::function<void(engine::DataConfig&)>& change) {
  engine::Project project = document_.project();
  change(project.data);
  // A project without files has no data section (a model-only project stays valid).
  project.hasData = project.data.synthetic != engine::SyntheticTask::None ||
                    !project.data.train.empty() || !project.data.valid.empty() ||
                    !project.data.test.empty();
  document_.edit(project, label, mergeKey);
}

void DataPanel::openDatasets() {
  if (!datasetsDialog_) {
    datasetsDialog_ = new DatasetsDialog(document_, this);
    datasetsDialog_->setAttribute(Qt::WA_DeleteOnClose);
  }
  datasetsDialog_->show();
  datasetsDialog_->raise();
  datasetsDialog_->activateWindow();
}

}  // namespace mrnn::widgets
