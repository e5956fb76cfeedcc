#pragma once

#include <QPoint>
#include <QRect>
#include <QString>
#include <QWidget>

#include <string>
#include <vector>

#include "engine/sampling/completion.h"

class QLabel;
class QTextEdit;
class QTextCharFormat;

namespace mrnn::widgets {

// One completion of the sampler console: a header (its number, length, bits per symbol, why
// it ended) over read-only text where the prime is plain and every generated symbol sits on
// a background coloured by its probability (ProbabilityScale). Symbols stream in one by one.
// Hovering a symbol shows its probability; clicking it emits symbolClicked().
class CompletionView : public QWidget {
  Q_OBJECT

 public:
  // Where one symbol landed in the text document: [begin, end) is all it inserted, the
  // coloured characters are [colourBegin, colourEnd) (leading spaces of words stay plain).
  struct Span {
    int begin = 0;
    int colourBegin = 0;
    int colourEnd = 0;
    int end = 0;
  };

  // `index` counts from 0; the header shows it from 1.
  explicit CompletionView(int index, QWidget* parent = nullptr);

  // Clears the view and shows `prime`, ready for symbols.
  void start(const QString& prime);
  void appendSymbol(const engine::GeneratedSymbol& symbol);
  // Keeps the first `count` symbols only (before a branch streams the rest).
  void truncate(int count);
  // The finished completion: its stop reason and log-probability; the text is re-drawn when
  // its symbols are not those shown (beam search streams only its winners).
  void finish(const engine::Completion& completion);
  // A line in the header in place of the statistics ("searching beams…", "not generated").
  void setNote(const QString& note);
  // The header's statistics line in full: "40 symbols · 1.92 bits/symbol · ended: length" (the
  // last part, once finished, says why the completion ended).
  QString statistics() const;

  int index() const { return index_; }
  const engine::Completion& completion() const { return completion_; }
  int symbolCount() const { return static_cast<int>(completion_.symbols.size()); }
  const engine::GeneratedSymbol& symbol(int index) const;
  Span span(int index) const { return spans_.at(static_cast<size_t>(index)); }
  QString prime() const { return prime_; }

  // The symbol under a point of the text's viewport; -1 when none.
  int symbolAt(const QPoint& viewportPos) const;
  // The rectangle of the symbol's first coloured character, in viewport coordinates (empty
  // when it shows no character).
  QRect symbolRect(int index) const;
  QString toolTipFor(int index) const;
  QTextEdit* textEdit() const { return text_; }

 Q_SIGNALS:
  void symbolClicked(int index, const QPoint& globalPos);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void render(int index);  // inserts symbol `index` at the end of the text
  void redraw();
  void updateHeader();
  void elideHeader();
  int symbolAtPosition(int position) const;

  int index_;
  QString prime_;
  QString note_;
  QString header_;  // the statistics line before eliding
  engine::Completion completion_;
  std::vector<Span> spans_;
  std::string pendingBytes_;  // the start of a UTF-8 character split over byte symbols
  QPoint pressPos_;
  QLabel* title_;
  QLabel* stats_;
  QTextEdit* text_;
};

}  // namespace mrnn::widgets
