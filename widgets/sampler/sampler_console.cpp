#include "widgets/sampler/sampler_console.h"

#include "engine/sampling/sampling_options.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QShortcut>
#include <QSplitter>
#include <QStyle>
#include <QTextEdit>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

#include "widgets/checkpoints/checkpoint_chooser.h"
#include "widgets/panel_shortcut.h"
#include "widgets/project/project_document.h"
#include "widgets/sampler/alternatives_menu.h"
#include "widgets/sampler/clamp_editor.h"
#include "widgets/sampler/completion_view.h"
#include "widgets/sampler/probability_legend.h"
#include "widgets/sampler/sampling_controller.h"
#include "widgets/sampler/sampling_options_form.h"

namespace mrnn::widgets {
namespace {

QLabel* mutedLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  QPalette muted = label->palette();
  muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
  label->setPalette(muted);
  return label;
}

QDateTime modifiedAt(const QString& path) {
  return QFileInfo(path).lastModified();
}

}  // namespace

SamplerConsole::SamplerConsole(ProjectDocument& document, QWidget* parent)
    : QWidget(parent),
      document_(document),
      controller_(new SamplingController(this)),
      clock_(std::make_unique<QElapsedTimer>()) {
  setObjectName(QStringLiteral("samplerConsole"));
  buildUi();

  connect(controller_, &SamplingController::modelLoaded, this, &SamplerConsole::onModelLoaded);
  connect(controller_, &SamplingController::loadFailed, this, &SamplerConsole::onLoadFailed);
  connect(controller_, &SamplingController::symbolGenerated, this, &SamplerConsole::onSymbol);
  connect(controller_, &SamplingController::finished, this, &SamplerConsole::onFinished);
  connect(controller_, &SamplingController::failed, this, &SamplerConsole::onFailed);
  connect(controller_, &SamplingController::busyChanged, this, &SamplerConsole::updateButtons);
  connect(controller_, &SamplingController::loadStarted, this, [this](const QString& source) {
    status_->setText(tr("Loading %1…").arg(QFileInfo(source).fileName()));
  });
  connect(&document_, &ProjectDocument::pathChanged, this, &SamplerConsole::refreshCheckpoints);

  refreshCheckpoints();
  updateButtons();
}

SamplerConsole::~SamplerConsole() = default;

void SamplerConsole::buildUi() {
  // The checkpoint bar.
  checkpoints_ = new CheckpointChooser(document_, this);
  checkpoints_->comboBox()->setMinimumContentsLength(36);
  checkpoints_->comboBox()->setToolTip(
      tr("The trained model to sample from: the best (by validation) or latest checkpoint of "
         "each of the project's runs, newest run first"));
  connect(checkpoints_, &CheckpointChooser::checkpointChanged, this,
          &SamplerConsole::followSelection);
  connect(checkpoints_, &CheckpointChooser::problem, this, &SamplerConsole::showError);
  auto* refresh = new QToolButton(this);
  refresh->setObjectName(QStringLiteral("refreshCheckpointsButton"));
  refresh->setIcon(style()->standardIcon(QStyle::SP_BrowserReload));
  // F5 is the window's Start; this panel's key works where the panel has the focus.
  QShortcut* refreshKey = addPanelShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_R),
                                           QStringLiteral("refreshCheckpointsShortcut"),
                                           tr("Sampler: look for new runs and checkpoints"));
  connect(refreshKey, &QShortcut::activated, this, &SamplerConsole::refreshCheckpoints);
  refresh->setToolTip(tr("Look for new runs and checkpoints (%1)")
                          .arg(refreshKey->key().toString(QKeySequence::NativeText)));
  connect(refresh, &QToolButton::clicked, this, &SamplerConsole::refreshCheckpoints);
  modelSummary_ = mutedLabel(this);
  modelSummary_->setObjectName(QStringLiteral("modelSummary"));
  modelSummary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* checkpointLabel = new QLabel(tr("&Checkpoint"), this);
  checkpointLabel->setBuddy(checkpoints_->comboBox());
  auto* bar = new QHBoxLayout;
  bar->addWidget(checkpointLabel);
  bar->addWidget(checkpoints_, 2);
  bar->addWidget(refresh);
  bar->addSpacing(12);
  bar->addWidget(modelSummary_, 3);

  // The settings, scrollable, over the two buttons.
  form_ = new SamplingOptionsForm;
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName(QStringLiteral("samplingOptionsScroll"));
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  generate_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("Generate"), this);
  generate_->setObjectName(QStringLiteral("generateButton"));
  generate_->setToolTip(tr("Generate the completions (Ctrl+Return)"));
  generate_->setDefault(true);
  connect(generate_, &QPushButton::clicked, this, &SamplerConsole::generate);
  stop_ = new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"), this);
  stop_->setObjectName(QStringLiteral("stopButton"));
  stop_->setToolTip(tr("Stop generating; what was generated stays (Esc)"));
  connect(stop_, &QPushButton::clicked, this, &SamplerConsole::stop);
  // A clamp changes every completion: it is said where Generate is, not only in its group at
  // the bottom of the settings.
  clampNote_ = new QLabel(this);
  clampNote_->setObjectName(QStringLiteral("clampNote"));
  clampNote_->setWordWrap(true);
  clampNote_->setStyleSheet(QStringLiteral("color: #a35200;"));
  clampNote_->hide();
  connect(form_->clampEditor(), &ClampEditor::changed, this, &SamplerConsole::updateClampNote);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(generate_, 1);
  buttons->addWidget(stop_, 1);
  auto* left = new QWidget(this);
  left->setObjectName(QStringLiteral("samplerSettings"));
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 6, 0);
  leftLayout->addWidget(scroll, 1);
  leftLayout->addWidget(clampNote_);
  leftLayout->addLayout(buttons);

  QShortcut* generateKey =
      addPanelShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_Return),
                       QStringLiteral("generateShortcut"), tr("Sampler: generate"));
  connect(generateKey, &QShortcut::activated, this, &SamplerConsole::generate);
  // The keypad's Enter does the same; the list of keys names Return once.
  auto* generateEnter = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Enter), this);
  generateEnter->setContext(Qt::WidgetWithChildrenShortcut);
  connect(generateEnter, &QShortcut::activated, this, &SamplerConsole::generate);
  QShortcut* stopKey =
      addPanelShortcut(this, QKeySequence(Qt::Key_Escape), QStringLiteral("stopGeneratingShortcut"),
                       tr("Sampler: stop generating"));
  connect(stopKey, &QShortcut::activated, this, &SamplerConsole::stop);

  // The output: legend, message, the completions side by side, status.
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("samplerMessage"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_->hide();
  columns_ = new QSplitter(Qt::Horizontal, this);
  columns_->setObjectName(QStringLiteral("completionColumns"));
  columns_->setChildrenCollapsible(false);
  columns_->setHandleWidth(8);
  status_ = mutedLabel(this);
  status_->setObjectName(QStringLiteral("samplerStatus"));
  auto* legendRow = new QHBoxLayout;
  legendRow->addWidget(new ProbabilityLegend(this));
  legendRow->addStretch(1);
  auto* hint = mutedLabel(this);
  hint->setText(tr("Hover a symbol for its probability · click it for the alternatives"));
  legendRow->addWidget(hint);
  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(6, 0, 0, 0);
  rightLayout->addLayout(legendRow);
  rightLayout->addWidget(message_);
  rightLayout->addWidget(columns_, 1);
  rightLayout->addWidget(status_);

  auto* main = new QSplitter(Qt::Horizontal, this);
  main->setObjectName(QStringLiteral("samplerSplitter"));
  main->addWidget(left);
  main->addWidget(right);
  main->setStretchFactor(0, 0);
  main->setStretchFactor(1, 1);
  main->setChildrenCollapsible(false);
  main->setSizes({300, 800});

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  layout->addLayout(bar);
  layout->addWidget(main, 1);

  setColumnCount(form_->completionColumns());
  status_->setText(tr("Ready"));
}

CompletionView* SamplerConsole::completionView(int column) const {
  return column >= 0 && column < views_.size() ? views_[column] : nullptr;
}

QString SamplerConsole::message() const {
  return message_->isHidden() ? QString() : message_->text();
}

QString SamplerConsole::status() const {
  return status_->text();
}

void SamplerConsole::setColumnCount(int count) {
  while (views_.size() > count) delete views_.takeLast();
  while (views_.size() < count) {
    auto* view = new CompletionView(static_cast<int>(views_.size()), columns_);
    view->textEdit()->setPlaceholderText(
        tr("Choose a checkpoint, write a prime and press Generate (Ctrl+Return)."));
    const int column = static_cast<int>(views_.size());
    connect(view, &CompletionView::symbolClicked, this,
            [this, column](int position, const QPoint& globalPos) {
              showAlternatives(column, position, globalPos);
            });
    columns_->addWidget(view);
    views_.append(view);
  }
  // Equal widths.
  columns_->setSizes(QList<int>(count, 1000));
}

QString SamplerConsole::clampNote() const {
  return clampNote_->isHidden() ? QString() : clampNote_->text();
}

void SamplerConsole::updateClampNote() {
  const QList<ClampSetting> clamps = form_->clampEditor()->clamps();
  QStringList units;
  for (const ClampSetting& clamp : clamps) {
    units.append(tr("layer %1 unit %2 = %3").arg(clamp.layer).arg(clamp.unit).arg(clamp.value));
  }
  clampNote_->setText((clamps.size() == 1 ? tr("1 unit clamped: %1")
                                          : tr("%1 units clamped: %2").arg(clamps.size()))
                          .arg(units.join(QStringLiteral(", "))));
  clampNote_->setVisible(!clamps.isEmpty());
}

void SamplerConsole::refreshCheckpoints() {
  checkpoints_->refresh();
  followSelection();
}

void SamplerConsole::followSelection() {
  const QString current = checkpoints_->checkpoint();
  if (current.isEmpty()) {
    // Another project, or its runs were deleted: the model shown must not outlive them.
    if (!loadedPath_.isEmpty()) {
      controller_->unloadModel();
      loadedPath_.clear();
      modelSummary_->setText(tr("no model loaded"));
      modelSummary_->setToolTip(QString());
      form_->setModelInfo(SamplerModelInfo());
      status_->setText(tr("No model loaded"));
      updateButtons();
    }
    return;
  }
  // A new selection, or the same file saved again by a run still training.
  if (current != loadedPath_ || modifiedAt(current) > loadedModified_) {
    if (controller_->isBusy() && mode_ != Mode::Idle) {
      reloadPending_ = true;  // not in the middle of someone's generation
    } else {
      loadSelected();
    }
  }
}

void SamplerConsole::loadSelected() {
  reloadPending_ = false;
  const QString path = checkpoints_->checkpoint();
  if (path.isEmpty()) return;
  loadedPath_ = path;
  loadedModified_ = modifiedAt(path);
  controller_->loadCheckpointFile(path);  // stops a running generation first
}

void SamplerConsole::onModelLoaded(const SamplerModelInfo& info) {
  // A load that finished after its project closed (or another file was chosen) is stale.
  if (QFileInfo(info.checkpoint).absoluteFilePath() != QFileInfo(loadedPath_).absoluteFilePath()) {
    if (loadedPath_.isEmpty()) controller_->unloadModel();
    return;
  }
  modelSummary_->setText(info.summary());
  modelSummary_->setToolTip(info.checkpoint);
  form_->setModelInfo(info);
  clearMessage();
  status_->setText(
      info.runId > 0
          ? tr("Loaded run %1: %2").arg(info.runId).arg(QFileInfo(info.checkpoint).fileName())
          : tr("Loaded %1").arg(info.checkpoint));
  updateButtons();
}

void SamplerConsole::onLoadFailed(const QString& message) {
  modelSummary_->setText(tr("no model loaded"));
  modelSummary_->setToolTip(QString());
  form_->setModelInfo(SamplerModelInfo());
  showError(message);
  status_->setText(tr("No model loaded"));
  updateButtons();
}

void SamplerConsole::generate() {
  if (controller_->isBusy()) return;
  clearMessage();
  if (!controller_->hasModel()) {
    showError(checkpoints_->count() == 0
                  ? tr("No checkpoint yet: train the project to get one, then choose it in "
                       "the Checkpoint list above.")
                  : tr("No model is loaded: choose a checkpoint in the list above."));
    return;
  }
  const engine::SamplingOptions options = form_->options();
  previousCompletions_.clear();
  previousPrime_ = views_.isEmpty() ? QString() : views_.front()->prime();
  for (const auto* view : views_) previousCompletions_.append(view->completion());
  setColumnCount(form_->completionColumns());
  const QString prime = QString::fromStdString(options.prime);
  for (auto* view : views_) {
    view->start(prime);
    if (options.beamWidth > 0) view->setNote(tr("searching beams…"));
  }
  previousOptions_ = std::move(lastOptions_);
  previousCheckpoint_ = columnsCheckpoint_;
  lastOptions_ = std::make_unique<engine::SamplingOptions>(options);
  columnsCheckpoint_ = controller_->modelInfo().checkpoint;
  symbolsReceived_ = 0;
  clock_->start();
  mode_ = Mode::Generating;
  if (!controller_->generate(options)) {
    mode_ = Mode::Idle;
    return;
  }
  const bool drawn = options.beamWidth == 0 && !options.greedy;
  status_->setText(options.beamWidth > 0
                       ? (options.beamWidth == 1 ? tr("Searching the beam…")
                                                 : tr("Searching %1 beams…").arg(options.beamWidth))
                       : tr("Generating with seed %1…").arg(options.seed));
  // The next Generate draws new text; this one stays reproducible from the seed it used.
  if (drawn && form_->seedAdvances()) form_->advanceSeed();
  updateButtons();
}

void SamplerConsole::stop() {
  if (mode_ == Mode::Idle) return;
  controller_->stop();
  status_->setText(tr("Stopping…"));
}

AlternativesMenu* SamplerConsole::showAlternatives(int column, int position,
                                                   const QPoint& globalPos) {
  CompletionView* view = completionView(column);
  if (!view || position < 0 || position >= view->symbolCount()) return nullptr;
  const bool canBranch = mode_ == Mode::Idle && lastOptions_ &&
                         columnsCheckpoint_ == controller_->modelInfo().checkpoint;
  auto* menu = new AlternativesMenu(view->symbol(position), position, canBranch, this);
  connect(menu, &AlternativesMenu::alternativeChosen, this,
          [this, column](int at, qint64 id) { branchFrom(column, at, id); });
  QPoint at = globalPos;
  if (at.isNull()) {
    at = view->textEdit()->viewport()->mapToGlobal(view->symbolRect(position).bottomLeft());
  }
  menu->popup(at);
  return menu;
}

void SamplerConsole::branchFrom(int column, int position, qint64 symbolId) {
  CompletionView* view = completionView(column);
  if (!view || mode_ != Mode::Idle || controller_->isBusy() || !lastOptions_) return;
  if (columnsCheckpoint_ != controller_->modelInfo().checkpoint) {
    showError(tr("These completions came from another checkpoint; generate again to branch."));
    return;
  }
  if (position < 0 || position >= view->symbolCount()) return;
  engine::SamplingOptions options = *lastOptions_;
  options.completions = 1;
  if (options.beamWidth > 0) {
    // One path continues a beam: the most probable symbol at every step, as a beam of one.
    options.beamWidth = 0;
    options.greedy = true;
  }
  clearMessage();
  if (lastOptions_->beamWidth > 0) {
    showInfo(
        tr("A beam continues greedily (the most probable symbol at every step) from the "
           "symbol chosen."));
  }
  branchOriginal_ = view->completion();
  view->truncate(position);
  branchColumn_ = column;
  symbolsReceived_ = 0;
  clock_->start();
  mode_ = Mode::Branching;
  if (!controller_->branch(branchOriginal_, position, symbolId, options)) {
    mode_ = Mode::Idle;
    view->finish(branchOriginal_);
    return;
  }
  status_->setText(
      tr("Continuing completion %1 from position %2…").arg(column + 1).arg(position + 1));
  updateButtons();
}

void SamplerConsole::onSymbol(int completion, const engine::GeneratedSymbol& symbol) {
  CompletionView* view = nullptr;
  if (mode_ == Mode::Branching) {
    view = completionView(branchColumn_);
  } else if (mode_ == Mode::Generating) {
    if (completion >= views_.size()) setColumnCount(completion + 1);
    view = views_[completion];
  }
  if (!view) return;
  view->appendSymbol(symbol);
  ++symbolsReceived_;
  if (lastOptions_ && lastOptions_->beamWidth == 0) {
    const qint64 total = mode_ == Mode::Branching
                             ? lastOptions_->maxLength
                             : lastOptions_->maxLength * lastOptions_->completions;
    status_->setText(tr("Generating… %1 of %2 symbols")
                         .arg(QLocale().toString(symbolsReceived_), QLocale().toString(total)));
  }
}

void SamplerConsole::onFinished(const QList<engine::Completion>& completions) {
  const Mode mode = std::exchange(mode_, Mode::Idle);
  const double seconds = clock_->isValid() ? clock_->elapsed() / 1000.0 : 0.0;
  qint64 symbols = 0;
  bool stopped = false;
  if (mode == Mode::Branching) {
    if (CompletionView* view = completionView(branchColumn_); view && !completions.isEmpty()) {
      view->finish(completions.front());
      symbols = view->symbolCount();
      stopped = completions.front().stopReason == "stopped";
    }
  } else if (mode == Mode::Generating) {
    if (completions.size() > views_.size()) setColumnCount(static_cast<int>(completions.size()));
    for (int i = 0; i < views_.size(); ++i) {
      if (i < completions.size()) {
        views_[i]->finish(completions[i]);
        symbols += views_[i]->symbolCount();
        stopped = stopped || completions[i].stopReason == "stopped";
      } else {
        views_[i]->setNote(tr("not generated (stopped)"));
      }
    }
  }
  const QString rate =
      seconds > 0.0 ? tr(" (%1 symbols/s)").arg(symbolsReceived_ / seconds, 0, 'f', 0) : QString();
  status_->setText(
      (stopped ? tr("Stopped: %1 symbols in %2 s%3") : tr("Done: %1 symbols in %2 s%3"))
          .arg(QLocale().toString(symbols))
          .arg(seconds, 0, 'f', 2)
          .arg(rate));
  updateButtons();
  if (reloadPending_) loadSelected();
  Q_EMIT generationEnded();
}

void SamplerConsole::onFailed(const QString& message) {
  const Mode mode = std::exchange(mode_, Mode::Idle);
  if (mode == Mode::Branching) {
    if (CompletionView* view = completionView(branchColumn_)) view->finish(branchOriginal_);
  } else if (mode == Mode::Generating) {
    // Nothing was generated (the prime or a setting was refused): show what was there.
    lastOptions_ = std::move(previousOptions_);
    columnsCheckpoint_ = previousCheckpoint_;
    setColumnCount(std::max(1, static_cast<int>(previousCompletions_.size())));
    for (int i = 0; i < views_.size(); ++i) {
      views_[i]->start(previousPrime_);
      if (i < previousCompletions_.size() && !previousCompletions_[i].symbols.empty()) {
        views_[i]->finish(previousCompletions_[i]);
      }
    }
  }
  showError(message);
  status_->setText(tr("Failed: nothing generated"));
  updateButtons();
  if (reloadPending_) loadSelected();
  Q_EMIT generationEnded();
}

void SamplerConsole::updateButtons() {
  const bool busy = controller_->isBusy();
  generate_->setEnabled(!busy);
  stop_->setEnabled(busy && mode_ != Mode::Idle);
}

void SamplerConsole::showError(const QString& text) {
  message_->setStyleSheet(
      QStringLiteral("QLabel { background: #fdecea; color: #611a15; border: 1px solid #f1b8b3; "
                     "border-radius: 3px; padding: 6px; }"));
  message_->setText(text);
  message_->show();
}

void SamplerConsole::showInfo(const QString& text) {
  message_->setStyleSheet(
      QStringLiteral("QLabel { background: #eaf2fb; color: #123a5f; border: 1px solid #bcd4ee; "
                     "border-radius: 3px; padding: 6px; }"));
  message_->setText(text);
  message_->show();
}

void SamplerConsole::clearMessage() {
  message_->clear();
  message_->hide();
}

}  // namespace mrnn::widgets
