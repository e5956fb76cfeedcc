#pragma once

#include <QColor>
#include <QPoint>
#include <QRect>
#include <QString>
#include <QTextEdit>
#include <string>
#include <vector>

#include "widgets/gates/activation_colour_scale.h"
#include "widgets/gates/unit_pattern.h"

namespace mrnn::widgets {

// The analysed text with each symbol's background coloured by one unit's value at that step,
// as in Karpathy et al.'s cell visualisations. Line breaks stay visible (↵, then a new
// line), tabs show as ⇥; words of a word-level model are set apart by plain spaces. Hovering
// a symbol shows its value; selecting with the mouse marks steps (a pattern to look for).
class ActivationTextView : public QTextEdit {
  Q_OBJECT

 public:
  // Where a step's characters lie in the document: [begin, end).
  struct Span {
    int begin = 0;
    int end = 0;
  };

  explicit ActivationTextView(QWidget* parent = nullptr);

  // Shows `symbols` uncoloured (any earlier colours and selection go).
  void setSymbols(const std::vector<std::string>& symbols);
  // Colours step t by values[t] (`what` names the unit in tooltips: "layer1/f unit 2").
  // Steps beyond `values` stay uncoloured.
  void setValues(const std::vector<float>& values, const ActivationColourScale& scale,
                 const QString& what);
  // Back to the plain text.
  void clearValues();

  int stepCount() const { return static_cast<int>(spans_.size()); }
  Span span(int step) const { return spans_.at(static_cast<size_t>(step)); }
  bool hasValues() const { return !values_.empty(); }
  const ActivationColourScale& scale() const { return scale_; }
  QString description() const { return what_; }
  // The background drawn behind a step (invalid when it has none).
  QColor backgroundAt(int step) const;
  QColor foregroundAt(int step) const;
  QString toolTipFor(int step) const;
  // The step under a point of the viewport; -1 when none.
  int stepAt(const QPoint& viewportPos) const;
  // The rectangle of a step's first character in viewport coordinates.
  QRect stepRect(int step) const;
  // The steps the mouse selection touches ({-1, -1} when nothing is selected).
  StepRange selectedSteps() const;
  void selectSteps(const StepRange& steps);

  // True when the symbols are words (some longer than one character), not characters.
  static bool looksLikeWords(const std::vector<std::string>& symbols);

 signals:
  // The selection changed; first == -1 when it is empty.
  void stepSelectionChanged(qint64 first, qint64 end);

 protected:
  bool viewportEvent(QEvent* event) override;

 private:
  int stepOfPosition(int position) const;
  QRect characterRect(int position) const;

  std::vector<std::string> symbols_;
  std::vector<Span> spans_;
  std::vector<float> values_;
  ActivationColourScale scale_;
  QString what_;
};

}  // namespace mrnn::widgets
