#pragma once

#include <QDateTime>
#include <QList>
#include <QPoint>
#include <QString>
#include <QWidget>

#include <memory>

#include "engine/sampling/completion.h"
#include "widgets/sampler/sampler_model_info.h"

class QElapsedTimer;
class QLabel;
class QPushButton;
class QSplitter;

namespace mrnn::engine {
struct SamplingOptions;
}

namespace mrnn::widgets {

class AlternativesMenu;
class CheckpointChooser;
class CompletionView;
class ProjectDocument;
class SamplingController;
class SamplingOptionsForm;

// The sampler console: choose one of the project's checkpoints (best or latest of each run),
// prime the model, set temperature, top-k, top-p, greedy, beam width, length, number of
// completions, seed, stop strings and clamped units, and generate. The completions stream in
// side by side, every symbol coloured by its probability; clicking a symbol lists the
// alternatives at that position, and choosing one continues that completion from it.
class SamplerConsole : public QWidget {
  Q_OBJECT

 public:
  explicit SamplerConsole(ProjectDocument& document, QWidget* parent = nullptr);
  ~SamplerConsole() override;

  SamplingController* controller() const { return controller_; }
  SamplingOptionsForm* optionsForm() const { return form_; }
  int completionCount() const { return static_cast<int>(views_.size()); }
  CompletionView* completionView(int column) const;
  // The message shown above the completions (errors in words); empty when none.
  QString message() const;
  QString status() const;
  // What the line over Generate says of clamped units; empty (and hidden) when none is.
  QString clampNote() const;

  // Lists the alternatives at `position` of completion `column` in a popup (at `globalPos`,
  // else under the symbol); choosing one branches. Returns the menu, or nullptr when there
  // is no such symbol.
  AlternativesMenu* showAlternatives(int column, int position, const QPoint& globalPos = {});

 public Q_SLOTS:
  // Re-reads the project's runs and checkpoints (call when a run finishes or saves one); a
  // newer file behind the selected entry is loaded again.
  void refreshCheckpoints();
  void generate();
  void stop();
  // Continues completion `column` from `position` with `symbolId` there.
  void branchFrom(int column, int position, qint64 symbolId);

 Q_SIGNALS:
  // A generation or branch has ended (finished, stopped or failed) and the view is updated.
  void generationEnded();

 private:
  enum class Mode { Idle, Generating, Branching };

  void buildUi();
  void loadSelected();
  // Loads the chosen checkpoint when it changed, or when its file was saved again.
  void followSelection();
  void updateClampNote();
  void setColumnCount(int count);
  void showError(const QString& text);
  void showInfo(const QString& text);
  void clearMessage();
  void updateButtons();

  void onModelLoaded(const SamplerModelInfo& info);
  void onLoadFailed(const QString& message);
  void onSymbol(int completion, const engine::GeneratedSymbol& symbol);
  void onFinished(const QList<engine::Completion>& completions);
  void onFailed(const QString& message);

  ProjectDocument& document_;
  SamplingController* controller_;
  SamplingOptionsForm* form_ = nullptr;
  CheckpointChooser* checkpoints_ = nullptr;
  QLabel* modelSummary_ = nullptr;
  QLabel* clampNote_ = nullptr;  // "2 units clamped: ...", over Generate
  QPushButton* generate_ = nullptr;
  QPushButton* stop_ = nullptr;
  QLabel* message_ = nullptr;
  QSplitter* columns_ = nullptr;
  QLabel* status_ = nullptr;
  QList<CompletionView*> views_;

  Mode mode_ = Mode::Idle;
  int branchColumn_ = -1;
  engine::Completion branchOriginal_;
  // What the columns showed before a generation started: restored if it fails.
  QString previousPrime_;
  QList<engine::Completion> previousCompletions_;
  std::unique_ptr<engine::SamplingOptions> previousOptions_;
  QString previousCheckpoint_;
  // The settings and checkpoint the shown completions came from (branching reuses them).
  std::unique_ptr<engine::SamplingOptions> lastOptions_;
  QString columnsCheckpoint_;
  QString loadedPath_;
  QDateTime loadedModified_;
  bool reloadPending_ = false;
  qint64 symbolsReceived_ = 0;
  std::unique_ptr<QElapsedTimer> clock_;
};

}  // namespace mrnn::widgets
