#pragma once

#include <QRect>
#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

#include "widgets/surprisal/surprisal_scale.h"

class QComboBox;
class QLabel;
class QTextEdit;

namespace mrnn::engine {
struct SurprisalDifference;
struct TextScore;
}  // namespace mrnn::engine

namespace mrnn::widgets {

class SurprisalLegend;

// A scored text as GLTR shows it: every symbol on a background coloured by its surprisal in
// bits (or by its rank among the model's predictions), a tooltip with its probability, bits,
// rank and the top alternatives, and a summary line above. Whitespace symbols stay visible:
// a space as ·, a tab as ⇥, a line break as ↵ (which also breaks the line).
class SurprisalTextView : public QWidget {
  Q_OBJECT

 public:
  explicit SurprisalTextView(QWidget* parent = nullptr);
  ~SurprisalTextView() override;

  // `wordLevel`: the symbols are words, shown with a space between them. `note` follows the
  // summary ("the first 5,000 of 12,000 symbols").
  void showScore(const engine::TextScore& score, bool wordLevel = false,
                 const QString& note = QString());
  void clear();
  // The score shown; null before the first.
  const engine::TextScore* score() const { return score_.get(); }

  // Model B's score of the same symbols (showScore drops it): adds "A − B" to the colours.
  // Throws std::invalid_argument when B scored other symbols.
  void showComparison(const engine::TextScore& scoreB, const QString& nameA, const QString& nameB);
  const engine::TextScore* comparisonScore() const { return scoreB_.get(); }
  const engine::SurprisalDifference* difference() const { return difference_.get(); }
  // Selects symbol `index` in the text and scrolls it into view.
  void revealSymbol(int index);

  void setColourBy(ColourBy colourBy);
  ColourBy colourBy() const { return colourBy_; }

  int symbolCount() const { return static_cast<int>(spans_.size()); }
  // What the document draws for symbol `index`: its background and its characters.
  QColor backgroundAt(int index) const;
  QString shownText(int index) const;
  // The tooltip of symbol `index` (rich text).
  QString toolTipFor(int index) const;
  // The symbol under a point of the text's viewport; -1 for none.
  int symbolAt(const QPoint& viewportPos) const;
  // Where symbol `index`'s first character is, in viewport coordinates.
  QRect symbolRect(int index) const;
  QString summary() const;

  QTextEdit* textEdit() const { return text_; }
  QComboBox* colourByCombo() const { return colourByCombo_; }
  SurprisalLegend* legend() const { return legend_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // A symbol's characters in the document: [begin, end) coloured; a plain separator (a
  // word's space, a line break after ↵) may follow.
  struct Span {
    int begin = 0;
    int end = 0;
  };

  void render();
  void updateColourChoices();
  QColor backgroundFor(int index) const;

  std::unique_ptr<engine::TextScore> score_;
  std::unique_ptr<engine::TextScore> scoreB_;
  std::unique_ptr<engine::SurprisalDifference> difference_;
  QString nameA_;
  QString nameB_;
  bool wordLevel_ = false;
  QString note_;
  ColourBy colourBy_ = ColourBy::Bits;
  std::vector<Span> spans_;
  QLabel* summary_ = nullptr;
  QComboBox* colourByCombo_ = nullptr;
  SurprisalLegend* legend_ = nullptr;
  QTextEdit* text_ = nullptr;
};

}  // namespace mrnn::widgets
