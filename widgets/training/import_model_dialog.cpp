#include "widgets/training/import_model_dialog.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

#include "engine/config/project_file.h"
#include "engine/interop/run_import.h"

#include "widgets/monospace_font.h"
#include "widgets/native_path.h"
#include "widgets/training/background_job.h"

namespace mrnn::widgets {
namespace {

// What the worker hands back: the run, and what the engine made of the file.
struct ImportOutcome {
  engine::ImportedRun run;
  std::string description;
};

engine::InputLevel levelNamed(const QString& name) {
  if (name == QStringLiteral("char")) return engine::InputLevel::Char;
  if (name == QStringLiteral("byte")) return engine::InputLevel::Byte;
  return engine::InputLevel::Word;
}

// The engine's message (one sentence naming the file and the key at fault) as a researcher
// reads it: what went wrong and what to do. The sentence itself stays behind Details; a
// message these cases do not know is shown as it is.
QString problemInWords(const QString& message) {
  static const QRegularExpression sizes(
      QStringLiteral(R"(the vocabulary has (\d+) symbols; .* has (\d+) embedding rows)"));
  const QRegularExpressionMatch size = sizes.match(message);
  if (size.hasMatch()) {
    return ImportModelDialog::tr(
               "The vocabulary does not fit this model: it has %1 symbols where the model's "
               "embedding has %2 rows. Choose the vocabulary the model was trained with, at "
               "the level it read.")
        .arg(size.captured(1), size.captured(2));
  }
  if (message.contains(QStringLiteral("carries no vocabulary"))) {
    return ImportModelDialog::tr(
        "The file does not carry its vocabulary: choose its symbol file or the corpus it was "
        "trained on.");
  }
  if (message.contains(QStringLiteral("holds no recurrent layer")) ||
      message.contains(QStringLiteral("cannot tell")) ||
      message.contains(QStringLiteral("cannot place"))) {
    return ImportModelDialog::tr(
        "The file is not a language model the workbench can read: it reads an embedding, a "
        "torch.nn.LSTM, GRU or RNN and a linear decoder. Details say what the file holds.");
  }
  if (message.contains(QStringLiteral("NaN or infinity"))) {
    return ImportModelDialog::tr(
        "A weight in the file is NaN or infinite: the model was saved after it diverged.");
  }
  const QString firstLine = message.section(QLatin1Char('\n'), 0, 0);
  return ImportModelDialog::tr("The model was not imported: %1").arg(firstLine);
}

}  // namespace

ImportModelDialog::ImportModelDialog(const QString& projectFile, QWidget* parent)
    : QDialog(parent), projectFile_(projectFile) {
  setObjectName(QStringLiteral("importModelDialog"));
  setWindowTitle(tr("Import PyTorch Model"));
  auto* intro = new QLabel(
      tr("A language model trained elsewhere joins this project as a finished run, which the "
         "sampler and the analysis views open. It has no curves: it was not trained here."),
      this);
  intro->setWordWrap(true);

  name_ = new QLineEdit(this);
  name_->setObjectName(QStringLiteral("importRunName"));
  name_->setToolTip(tr("The run's name in the runs table; you can rename it there later"));

  busy_ = new QProgressBar(this);
  busy_->setObjectName(QStringLiteral("importProgress"));
  busy_->setRange(0, 0);  // the engine reports no fraction: a moving bar says it works
  busy_->setTextVisible(false);
  busy_->setVisible(false);

  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_->button(QDialogButtonBox::Ok)->setText(tr("Import"));
  buttons_->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("importButton"));
  connect(buttons_, &QDialogButtonBox::accepted, this, &ImportModelDialog::startImport);
  connect(buttons_, &QDialogButtonBox::rejected, this, &ImportModelDialog::reject);

  auto* form = new QFormLayout;
  form->addRow(tr("Model &file:"), buildFileRow());
  form->addRow(tr("Run &name:"), name_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(form);
  layout->addWidget(buildVocabularyBox());
  layout->addWidget(buildErrorArea());
  layout->addStretch(1);
  layout->addWidget(busy_);
  layout->addWidget(buttons_);
  setMinimumWidth(560);
  // The project's own level first: a model imported into it must read its text.
  try {
    setLevel(QString::fromStdString(
        engine::inputLevelName(engine::loadProject(toNativePath(projectFile)).model.input.level)));
  } catch (const std::exception&) {
    // An unreadable project says so when the import starts.
  }
  updateForm();
  file_->setFocus();
}

ImportModelDialog::~ImportModelDialog() = default;

QWidget* ImportModelDialog::buildFileRow() {
  auto* row = new QWidget(this);
  file_ = new QLineEdit(row);
  file_->setObjectName(QStringLiteral("importModelFile"));
  file_->setPlaceholderText(tr("a torch.save'd state dict (.pt, .pth) or a .safetensors file"));
  connect(file_, &QLineEdit::textChanged, this, [this] {
    clearError();
    updateForm();
  });
  auto* browse = new QToolButton(row);
  browse->setText(tr("Browse…"));
  browse->setObjectName(QStringLiteral("importModelBrowse"));
  connect(browse, &QToolButton::clicked, this, &ImportModelDialog::chooseModelFile);
  fileNote_ = new QLabel(row);
  fileNote_->setObjectName(QStringLiteral("importFileNote"));
  fileNote_->setWordWrap(true);
  QPalette palette = fileNote_->palette();
  palette.setColor(QPalette::WindowText, QColor(0x60, 0x60, 0x60));
  fileNote_->setPalette(palette);
  auto* line = new QHBoxLayout;
  line->setContentsMargins(0, 0, 0, 0);
  line->addWidget(file_, 1);
  line->addWidget(browse);
  auto* column = new QVBoxLayout(row);
  column->setContentsMargins(0, 0, 0, 0);
  column->addLayout(line);
  column->addWidget(fileNote_);
  return row;
}

QGroupBox* ImportModelDialog::buildVocabularyBox() {
  vocabularyBox_ = new QGroupBox(tr("Vocabulary"), this);
  vocabularyBox_->setObjectName(QStringLiteral("importVocabularyBox"));
  auto* why = new QLabel(tr("A PyTorch model's file does not say which symbol each row of its "
                            "embedding stands for; the file it was numbered from does."),
                         vocabularyBox_);
  why->setWordWrap(true);
  auto* symbols =
      new QRadioButton(tr("&Symbol file: one symbol a line, id = line number"), vocabularyBox_);
  symbols->setObjectName(QStringLiteral("importSymbolFileChoice"));
  auto* corpus = new QRadioButton(
      tr("Training &corpus: ids in order of first appearance (PyTorch's word language model "
         "example)"),
      vocabularyBox_);
  corpus->setObjectName(QStringLiteral("importCorpusChoice"));
  source_ = new QButtonGroup(this);
  source_->addButton(symbols, static_cast<int>(VocabularySource::SymbolFile));
  source_->addButton(corpus, static_cast<int>(VocabularySource::Corpus));
  symbols->setChecked(true);
  vocabulary_ = new QLineEdit(vocabularyBox_);
  vocabulary_->setObjectName(QStringLiteral("importVocabularyFile"));
  connect(vocabulary_, &QLineEdit::textChanged, this, &ImportModelDialog::clearError);
  vocabularyBrowse_ = new QToolButton(vocabularyBox_);
  vocabularyBrowse_->setText(tr("Browse…"));
  connect(vocabularyBrowse_, &QToolButton::clicked, this, &ImportModelDialog::chooseVocabularyFile);
  level_ = new QComboBox(vocabularyBox_);
  level_->setObjectName(QStringLiteral("importLevel"));
  level_->addItem(tr("Words (each line's words, then <eos>)"), QStringLiteral("word"));
  level_->addItem(tr("Characters"), QStringLiteral("char"));
  level_->addItem(tr("Bytes (all 256; no vocabulary file needed)"), QStringLiteral("byte"));
  connect(level_, &QComboBox::currentIndexChanged, this, [this] {
    clearError();
    updateForm();
  });
  auto* fileLine = new QHBoxLayout;
  fileLine->addWidget(vocabulary_, 1);
  fileLine->addWidget(vocabularyBrowse_);
  auto* levelLine = new QHBoxLayout;
  levelLine->addWidget(new QLabel(tr("&Level:"), vocabularyBox_));
  levelLine->addWidget(level_);
  levelLine->addStretch(1);
  qobject_cast<QLabel*>(levelLine->itemAt(0)->widget())->setBuddy(level_);
  auto* layout = new QVBoxLayout(vocabularyBox_);
  layout->addWidget(why);
  layout->addWidget(symbols);
  layout->addWidget(corpus);
  layout->addLayout(fileLine);
  layout->addLayout(levelLine);
  return vocabularyBox_;
}

QWidget* ImportModelDialog::buildErrorArea() {
  errorArea_ = new QWidget(this);
  errorArea_->setObjectName(QStringLiteral("importErrorArea"));
  auto* icon = new QLabel(errorArea_);
  const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
  icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(size, size));
  icon->setAlignment(Qt::AlignTop);
  error_ = new QLabel(errorArea_);
  error_->setObjectName(QStringLiteral("importError"));
  error_->setWordWrap(true);
  error_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette palette = error_->palette();
  palette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
  error_->setPalette(palette);
  detailsButton_ = new QToolButton(errorArea_);
  detailsButton_->setObjectName(QStringLiteral("importDetailsButton"));
  detailsButton_->setText(tr("Details"));
  detailsButton_->setCheckable(true);
  detailsButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  detailsButton_->setArrowType(Qt::RightArrow);
  detailsButton_->setAutoRaise(true);
  details_ = new QPlainTextEdit(errorArea_);
  details_->setObjectName(QStringLiteral("importDetails"));
  details_->setReadOnly(true);
  details_->setFont(monospaceFont());
  details_->setMaximumHeight(90);
  details_->setVisible(false);
  connect(detailsButton_, &QToolButton::toggled, this, [this](bool open) {
    details_->setVisible(open);
    detailsButton_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    growToFit();
  });
  auto* line = new QHBoxLayout;
  line->setContentsMargins(0, 0, 0, 0);
  line->addWidget(icon, 0, Qt::AlignTop);
  line->addWidget(error_, 1);
  auto* layout = new QVBoxLayout(errorArea_);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(line);
  layout->addWidget(detailsButton_, 0, Qt::AlignLeft);
  layout->addWidget(details_);
  errorArea_->setVisible(false);
  return errorArea_;
}

void ImportModelDialog::setModelFile(const QString& path) {
  file_->setText(QDir::toNativeSeparators(path));
}

void ImportModelDialog::setVocabulary(VocabularySource source, const QString& path) {
  source_->button(static_cast<int>(source))->setChecked(true);
  vocabulary_->setText(QDir::toNativeSeparators(path));
}

void ImportModelDialog::setLevel(const QString& level) {
  const int index = level_->findData(level);
  if (index >= 0) level_->setCurrentIndex(index);
}

void ImportModelDialog::setRunName(const QString& name) {
  name_->setText(name);
}

bool ImportModelDialog::asksForVocabulary() const {
  return kind_ == engine::ModelFileKind::PyTorch || kind_ == engine::ModelFileKind::Unknown;
}

void ImportModelDialog::chooseModelFile() {
  const QString start = file_->text().isEmpty() ? QFileInfo(projectFile_).path() : file_->text();
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Import a PyTorch model"), start,
      tr("Model files (*.pt *.pth *.bin *.safetensors);;All files (*)"));
  if (!path.isEmpty()) setModelFile(path);
}

void ImportModelDialog::chooseVocabularyFile() {
  const bool corpus = source_->checkedId() == static_cast<int>(VocabularySource::Corpus);
  const QString start =
      vocabulary_->text().isEmpty() ? QFileInfo(file_->text()).path() : vocabulary_->text();
  const QString path = QFileDialog::getOpenFileName(
      this, corpus ? tr("The corpus the model was trained on") : tr("The model's symbols"), start,
      tr("Text files (*.txt *.tokens *.vocab);;All files (*)"));
  if (!path.isEmpty()) vocabulary_->setText(QDir::toNativeSeparators(path));
}

void ImportModelDialog::updateForm() {
  const QString path = QDir::fromNativeSeparators(file_->text().trimmed());
  kind_ = engine::modelFileKind(path.toStdString());
  switch (kind_) {
    case engine::ModelFileKind::Missing:
      fileNote_->setText(path.isEmpty() ? QString() : tr("There is no file at this path."));
      break;
    case engine::ModelFileKind::Exported:
      fileNote_->setText(tr("Written by mrnn export: the file carries its model and vocabulary."));
      break;
    case engine::ModelFileKind::PyTorch:
      fileNote_->setText(
          tr("Read as a PyTorch language model (an embedding, a torch.nn.LSTM, GRU "
             "or RNN, a linear decoder), which needs its vocabulary below."));
      break;
    case engine::ModelFileKind::Unknown:
      fileNote_->setText(
          tr("Its header could not be read here; give a vocabulary if the model "
             "needs one, and the import will say."));
      break;
  }
  fileNote_->setVisible(!fileNote_->text().isEmpty());
  const bool reshaped = vocabularyBox_->isVisibleTo(this) != asksForVocabulary();
  vocabularyBox_->setVisible(asksForVocabulary());
  const bool bytes = level_->currentData().toString() == QStringLiteral("byte");
  for (QAbstractButton* button : source_->buttons()) button->setEnabled(!bytes);
  vocabulary_->setEnabled(!bytes);
  vocabularyBrowse_->setEnabled(!bytes);
  name_->setPlaceholderText(path.isEmpty() ? tr("imported <file name>")
                                           : tr("imported %1").arg(QFileInfo(path).fileName()));
  // Fit the section that came or went; typing a path leaves the size the user gave alone.
  if (reshaped) adjustSize();
}

QString ImportModelDialog::formProblem() const {
  const QString path = QDir::fromNativeSeparators(file_->text().trimmed());
  if (path.isEmpty()) return tr("Choose the model file to import.");
  if (kind_ == engine::ModelFileKind::Missing) {
    return tr("There is no model file at %1.").arg(QDir::toNativeSeparators(path));
  }
  if (!asksForVocabulary() || level_->currentData().toString() == QStringLiteral("byte")) {
    return QString();
  }
  const QString vocabulary = vocabulary_->text().trimmed();
  if (vocabulary.isEmpty()) {
    // Unknown: the engine says whether the file needs one.
    if (kind_ == engine::ModelFileKind::Unknown) return QString();
    return tr(
        "This PyTorch file does not carry its vocabulary: choose its symbol file or the "
        "corpus it was trained on (or the byte level, which needs none).");
  }
  if (!QFileInfo(QDir::fromNativeSeparators(vocabulary)).isFile()) {
    return tr("There is no vocabulary file at %1.").arg(vocabulary);
  }
  return QString();
}

bool ImportModelDialog::startImport() {
  if (isImporting()) return false;
  clearError();
  updateForm();
  if (const QString problem = formProblem(); !problem.isEmpty()) {
    showError(problem);
    return false;
  }
  engine::ImportRequest request;
  request.file = toNativePath(QDir::fromNativeSeparators(file_->text().trimmed()));
  if (asksForVocabulary()) {
    request.level = levelNamed(level_->currentData().toString());
    const std::string vocabulary =
        toNativePath(QDir::fromNativeSeparators(vocabulary_->text().trimmed()));
    if (source_->checkedId() == static_cast<int>(VocabularySource::Corpus)) {
      request.corpusFile = vocabulary;
    } else {
      request.vocabularyFile = vocabulary;
    }
  }
  const std::string project = toNativePath(projectFile_);
  const std::string name = name_->text().trimmed().toStdString();
  auto outcome = std::make_shared<ImportOutcome>();
  // Reading a state dict of a large model and writing its checkpoint take seconds.
  job_ = new BackgroundJob(
      [request, project, name, outcome](engine::JobContext&) {
        outcome->run = engine::importModelFile(request, project, name);
        outcome->description = outcome->run.description;
      },
      this);
  const QString file = fromNativePath(request.file);
  connect(job_, &BackgroundJob::succeeded, this, [this, outcome, file] {
    setBusy(false);
    emit imported(outcome->run.runId, QString::fromStdString(outcome->run.name), file,
                  QString::fromStdString(outcome->description));
    accept();
  });
  connect(job_, &BackgroundJob::failed, this, [this](const QString& reason) {
    setBusy(false);
    showError(problemInWords(reason), reason);
  });
  setBusy(true);
  job_->start();
  return true;
}

void ImportModelDialog::setBusy(bool busy) {
  if (!busy && job_) {
    job_->deleteLater();
    job_ = nullptr;
  }
  busy_->setVisible(busy);
  for (QWidget* widget : findChildren<QWidget*>()) {
    if (widget != busy_ && widget != errorArea_ && widget->parentWidget() == this) {
      widget->setEnabled(!busy);
    }
  }
  if (busy) {
    setCursor(Qt::BusyCursor);
  } else {
    unsetCursor();
  }
}

void ImportModelDialog::reject() {
  if (!isImporting()) QDialog::reject();
}

void ImportModelDialog::showError(const QString& words, const QString& details) {
  error_->setText(words);
  details_->setPlainText(details);
  detailsButton_->setVisible(!details.isEmpty());
  detailsButton_->setChecked(false);
  errorArea_->setVisible(true);
  growToFit();
}

void ImportModelDialog::growToFit() {
  // adjustSize() keeps a window within two thirds of the screen, and on a laptop's screen
  // the message would then be squeezed out of the form rather than added below it.
  layout()->activate();
  const QSize wanted = sizeHint();
  resize(std::max(width(), wanted.width()), std::max(height(), wanted.height()));
}

void ImportModelDialog::clearError() {
  if (!errorArea_ || !errorArea_->isVisible()) return;
  errorArea_->setVisible(false);
  error_->clear();
  details_->clear();
  adjustSize();
}

QString ImportModelDialog::errorText() const {
  return errorArea_->isVisible() ? error_->text() : QString();
}

QString ImportModelDialog::errorDetails() const {
  return errorArea_->isVisible() ? details_->toPlainText() : QString();
}

}  // namespace mrnn::widgets
