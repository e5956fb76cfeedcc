#pragma once

#include <QWidget>

class QFrame;
class QLabel;
class QPlainTextEdit;
class QTimer;

namespace mrnn::widgets {

class ProjectDocument;

// The project as YAML text: the same model the canvas shows, editable as text. Document
// changes rewrite the text (keeping the cursor's line and column) unless the user has an
// unapplied draft here; the user's edits are parsed after a short pause and on focus-out.
// Text that parses becomes one undoable edit ("Edit YAML"; one step per editing session);
// text that does not leaves the document alone and shows the engine's located error under
// the editor, its line highlighted.
class YamlView : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kDebounceMs = 400;

  explicit YamlView(ProjectDocument& document, QWidget* parent = nullptr);

  QPlainTextEdit* editor() const { return editor_; }
  // "9:7: model.layers[0].rounds: does not apply to cell type 'lstm'"; empty when the text
  // parses.
  QString errorText() const { return errorText_; }
  bool hasError() const { return !errorText_.isEmpty(); }
  // 1-based line of the error; 0 when none or unknown.
  int errorLine() const { return errorLine_; }
  // Parses the editor's text now (what the pause and focus-out do) and applies it if valid.
  // Returns whether the text parsed.
  bool applyNow();
  // Drops the draft and shows the document's text.
  void revert();
  // Text typed here that is not in the document: applied now when it parses; else why it
  // does not (errorText()), for a question before it would be lost. Empty when nothing is.
  QString unappliedDraft();
  // The editor's text when it holds a draft that did not read (errorText() says why), as
  // typed; empty otherwise. Parses nothing: for keeping it against a crash.
  QString failedDraft() const;
  // Puts text kept from an earlier window in the editor as typed: applied when it reads, else
  // shown with its problem.
  void restoreDraft(const QString& text);

 signals:
  // failedDraft() may have changed: a draft failed to read, or went.
  void draftChanged();

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void documentChanged();
  void userEdited();
  // Replaces the editor's text, keeping the cursor's line and column and the scroll.
  void setText(const QString& text);
  void showError(int line, const QString& message);
  void clearError();

  ProjectDocument& document_;
  QPlainTextEdit* editor_ = nullptr;
  QFrame* errorBar_ = nullptr;
  QLabel* errorLabel_ = nullptr;
  QTimer* debounce_ = nullptr;
  QString errorText_;
  int errorLine_ = 0;
  bool settingText_ = false;  // the editor's change signals come from setText, not the user
  bool applying_ = false;     // the document's change signal comes from our own edit
  bool draft_ = false;        // the editor holds text not yet in the document
  int session_ = 0;           // edits of one focus session merge into one undo step
};

}  // namespace mrnn::widgets
