#include "widgets/gates/activation_text_view.h"

#include <QAbstractTextDocumentLayout>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QToolTip>

#include <algorithm>

#include "widgets/monospace_font.h"
#include "widgets/visible_symbol.h"

namespace mrnn::widgets {

namespace {

const QChar kLineBreakMark(0x21B5);  // ↵
const QChar kTabMark(0x21E5);        // ⇥

bool isLineBreak(const std::string& symbol) {
  return symbol == "\n" || symbol == "<eos>";
}

// What a symbol shows in the document (never a bare control character, never empty).
QString shownText(const std::string& symbol) {
  if (isLineBreak(symbol)) return QString(kLineBreakMark);
  if (symbol == "\t") return QString(kTabMark);
  if (symbol.empty()) return QStringLiteral("\u2205");
  QString text = QString::fromUtf8(symbol);
  for (QChar& c : text) {
    // Control characters (a byte-level model reads them) as their Unicode pictures.
    if (c.unicode() < 0x20) c = QChar(0x2400 + c.unicode());
    if (c.unicode() == 0x7F) c = QChar(0x2421);
  }
  return text;
}

}  // namespace

ActivationTextView::ActivationTextView(QWidget* parent) : QTextEdit(parent) {
  setObjectName(QStringLiteral("activationTextView"));
  setReadOnly(true);
  setUndoRedoEnabled(false);
  setLineWrapMode(QTextEdit::WidgetWidth);
  QFont fixed = monospaceFont();
  fixed.setPointSizeF(fixed.pointSizeF() * 1.15);
  setFont(fixed);
  setPlaceholderText(tr("The analysed text appears here, coloured by the chosen unit."));
  connect(this, &QTextEdit::selectionChanged, this, [this] {
    const StepRange steps = selectedSteps();
    emit stepSelectionChanged(steps.first, steps.end);
  });
}

bool ActivationTextView::looksLikeWords(const std::vector<std::string>& symbols) {
  return symbolsAreWords(symbols);
}

void ActivationTextView::setSymbols(const std::vector<std::string>& symbols) {
  symbols_ = symbols;
  values_.clear();
  what_.clear();
  spans_.clear();
  spans_.reserve(symbols.size());
  clear();
  const bool words = looksLikeWords(symbols);
  const QTextCharFormat plain;
  QTextCursor cursor(document());
  cursor.beginEditBlock();
  bool lineStart = true;
  for (const std::string& symbol : symbols) {
    if (words && !lineStart) cursor.insertText(QStringLiteral(" "), plain);
    Span span;
    span.begin = cursor.position();
    cursor.insertText(shownText(symbol), plain);
    span.end = cursor.position();
    spans_.push_back(span);
    lineStart = isLineBreak(symbol);
    if (lineStart) cursor.insertBlock();
  }
  cursor.endEditBlock();
  moveCursor(QTextCursor::Start);
}

void ActivationTextView::setValues(const std::vector<float>& values,
                                   const ActivationColourScale& scale, const QString& what) {
  values_ = values;
  scale_ = scale;
  what_ = what;
  // Formats change in place, so the user's selection (perhaps the pattern being looked for)
  // survives a change of unit.
  QTextCursor cursor(document());
  cursor.beginEditBlock();
  for (size_t t = 0; t < spans_.size(); ++t) {
    QTextCharFormat format;
    if (t < values_.size()) {
      format.setBackground(scale_.colour(values_[t]));
      format.setForeground(scale_.textColour(values_[t]));
    } else {
      format.setBackground(QBrush(Qt::NoBrush));
      format.setForeground(palette().text());
    }
    cursor.setPosition(spans_[t].begin);
    cursor.setPosition(spans_[t].end, QTextCursor::KeepAnchor);
    cursor.mergeCharFormat(format);
  }
  cursor.endEditBlock();
}

void ActivationTextView::clearValues() {
  setSymbols(std::vector<std::string>(symbols_));
}

QColor ActivationTextView::backgroundAt(int step) const {
  if (step < 0 || step >= stepCount()) return {};
  QTextCursor cursor(document());
  cursor.setPosition(spans_[static_cast<size_t>(step)].begin + 1);
  const QBrush brush = cursor.charFormat().background();
  return brush.style() == Qt::NoBrush ? QColor() : brush.color();
}

QColor ActivationTextView::foregroundAt(int step) const {
  if (step < 0 || step >= stepCount()) return {};
  QTextCursor cursor(document());
  cursor.setPosition(spans_[static_cast<size_t>(step)].begin + 1);
  const QBrush brush = cursor.charFormat().foreground();
  return brush.style() == Qt::NoBrush ? QColor() : brush.color();
}

QString ActivationTextView::toolTipFor(int step) const {
  if (step < 0 || step >= stepCount()) return QString();
  const QString symbol = visibleSymbol(symbols_[static_cast<size_t>(step)]);
  if (static_cast<size_t>(step) >= values_.size()) {
    return tr("step %1 '%2'").arg(step).arg(symbol);
  }
  return tr("step %1 '%2' · %3 = %4")
      .arg(step)
      .arg(symbol, what_)
      .arg(values_[static_cast<size_t>(step)], 0, 'f', 3);
}

int ActivationTextView::stepOfPosition(int position) const {
  // Spans are in document order: the last one starting at or before `position`.
  const auto after = std::upper_bound(spans_.begin(), spans_.end(), position,
                                      [](int p, const Span& span) { return p < span.begin; });
  if (after == spans_.begin()) return -1;
  const auto found = std::prev(after);
  return position < found->end ? static_cast<int>(found - spans_.begin()) : -1;
}

QRect ActivationTextView::characterRect(int position) const {
  QTextCursor cursor(document());
  cursor.setPosition(position);
  const QRect left = cursorRect(cursor);
  cursor.setPosition(position + 1);
  const QRect right = cursorRect(cursor);
  // At the end of a visual line the next position sits on the following line.
  const int width = right.top() == left.top() && right.left() > left.left()
                        ? right.left() - left.left()
                        : fontMetrics().horizontalAdvance(document()->characterAt(position));
  return {left.left(), left.top(), std::max(width, 1), left.height()};
}

int ActivationTextView::stepAt(const QPoint& viewportPos) const {
  const QPoint documentPos =
      viewportPos + QPoint(horizontalScrollBar()->value(), verticalScrollBar()->value());
  const int hit = document()->documentLayout()->hitTest(documentPos, Qt::FuzzyHit);
  // The hit is a cursor position: the character after it or the one before it.
  for (const int position : {hit, hit - 1}) {
    if (position < 0) continue;
    const int step = stepOfPosition(position);
    if (step >= 0 && characterRect(position).contains(viewportPos)) return step;
  }
  return -1;
}

QRect ActivationTextView::stepRect(int step) const {
  if (step < 0 || step >= stepCount()) return {};
  return characterRect(spans_[static_cast<size_t>(step)].begin);
}

StepRange ActivationTextView::selectedSteps() const {
  const QTextCursor cursor = textCursor();
  StepRange steps{-1, -1};
  if (!cursor.hasSelection()) return steps;
  const int start = cursor.selectionStart();
  const int end = cursor.selectionEnd();
  for (size_t t = 0; t < spans_.size(); ++t) {
    if (spans_[t].end <= start || spans_[t].begin >= end) continue;
    if (steps.first < 0) steps.first = static_cast<int64_t>(t);
    steps.end = static_cast<int64_t>(t) + 1;
  }
  return steps;
}

void ActivationTextView::selectSteps(const StepRange& steps) {
  if (steps.empty() || steps.first < 0 || steps.end > stepCount()) return;
  QTextCursor cursor(document());
  cursor.setPosition(spans_[static_cast<size_t>(steps.first)].begin);
  cursor.setPosition(spans_[static_cast<size_t>(steps.end - 1)].end, QTextCursor::KeepAnchor);
  setTextCursor(cursor);
  ensureCursorVisible();
}

bool ActivationTextView::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int step = stepAt(help->pos());
    if (step >= 0) {
      QToolTip::showText(help->globalPos(), toolTipFor(step), viewport(), stepRect(step));
    } else {
      QToolTip::hideText();
      event->ignore();
    }
    return true;
  }
  return QTextEdit::viewportEvent(event);
}

}  // namespace mrnn::widgets
