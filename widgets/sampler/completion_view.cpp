#include "widgets/sampler/completion_view.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QFontDatabase>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextEdit>
#include <QTextLayout>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/display_format.h"
#include "widgets/monospace_font.h"
#include "widgets/sampler/probability_scale.h"
#include "widgets/text_character_geometry.h"
#include "widgets/visible_symbol.h"

namespace mrnn::widgets {
namespace {

// The symbol's index in the char format of its coloured characters (tests and tools read it).
constexpr int kSymbolProperty = QTextFormat::UserProperty + 1;
const QChar kLineBreakMark(0x21B5);  // ↵: a generated line break, visible and clickable

// Trailing bytes of `bytes` that begin a UTF-8 character not yet complete (0 to 3).
size_t incompleteUtf8Tail(const std::string& bytes) {
  const size_t size = bytes.size();
  for (size_t back = 1; back <= std::min<size_t>(3, size); ++back) {
    const auto byte = static_cast<unsigned char>(bytes[size - back]);
    if ((byte & 0xC0) == 0x80) continue;  // a continuation byte: look further back
    size_t needed = 0;
    if ((byte & 0xE0) == 0xC0)
      needed = 2;
    else if ((byte & 0xF0) == 0xE0)
      needed = 3;
    else if ((byte & 0xF8) == 0xF0)
      needed = 4;
    return needed > back ? back : 0;
  }
  return 0;
}

}  // namespace

CompletionView::CompletionView(int index, QWidget* parent)
    : QWidget(parent),
      index_(index),
      title_(new QLabel(tr("Completion %1").arg(index + 1), this)),
      stats_(new QLabel(this)),
      text_(new QTextEdit(this)) {
  setObjectName(QStringLiteral("completionView%1").arg(index));
  QFont titleFont = title_->font();
  titleFont.setBold(true);
  title_->setFont(titleFont);
  stats_->setObjectName(QStringLiteral("completionStatistics"));
  QPalette muted = stats_->palette();
  muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
  stats_->setPalette(muted);
  stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  text_->setObjectName(QStringLiteral("completionText"));
  text_->setReadOnly(true);
  text_->setUndoRedoEnabled(false);
  text_->setFont(monospaceFont());
  text_->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  text_->viewport()->setMouseTracking(true);
  text_->viewport()->installEventFilter(this);
  text_->setToolTip(QString());

  // The statistics line is elided to the column's width (full text in its tooltip), so that
  // narrow columns do not push each other apart.
  stats_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  QFont small = stats_->font();
  small.setPointSizeF(small.pointSizeF() * 0.9);
  stats_->setFont(small);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(1);
  layout->addWidget(title_);
  layout->addWidget(stats_);
  layout->addSpacing(2);
  layout->addWidget(text_, 1);
  updateHeader();
}

const engine::GeneratedSymbol& CompletionView::symbol(int index) const {
  return completion_.symbols.at(static_cast<size_t>(index));
}

void CompletionView::start(const QString& prime) {
  prime_ = prime;
  note_.clear();
  completion_ = engine::Completion();
  redraw();
  updateHeader();
}

void CompletionView::appendSymbol(const engine::GeneratedSymbol& symbol) {
  completion_.symbols.push_back(symbol);
  completion_.text += symbol.text;
  completion_.logProbability += symbol.logProbability;
  completion_.stopReason.clear();
  note_.clear();
  // Follow the stream only once the reader has scrolled to its end: when the text first
  // overflows, the view stays where it is, with the prime in sight.
  QScrollBar* bar = text_->verticalScrollBar();
  const bool atEnd = bar->maximum() > 0 && bar->value() >= bar->maximum() - 2;
  render(symbolCount() - 1);
  if (atEnd) bar->setValue(bar->maximum());
  updateHeader();
}

void CompletionView::truncate(int count) {
  count = std::clamp(count, 0, symbolCount());
  completion_.symbols.resize(static_cast<size_t>(count));
  completion_.text.clear();
  completion_.logProbability = 0.0;
  for (const auto& kept : completion_.symbols) {
    completion_.text += kept.text;
    completion_.logProbability += kept.logProbability;
  }
  completion_.stopReason.clear();
  redraw();
  updateHeader();
}

void CompletionView::finish(const engine::Completion& completion) {
  bool same = completion.symbols.size() == completion_.symbols.size();
  for (size_t i = 0; same && i < completion.symbols.size(); ++i) {
    same = completion.symbols[i].id == completion_.symbols[i].id;
  }
  completion_ = completion;
  note_.clear();
  if (!same) redraw();
  updateHeader();
}

void CompletionView::setNote(const QString& note) {
  note_ = note;
  updateHeader();
}

void CompletionView::redraw() {
  text_->clear();
  spans_.clear();
  pendingBytes_.clear();
  QTextCursor cursor(text_->document());
  QTextCharFormat primeFormat;
  primeFormat.setForeground(palette().color(QPalette::PlaceholderText));
  cursor.insertText(prime_, primeFormat);
  for (int i = 0; i < symbolCount(); ++i) render(i);
}

void CompletionView::render(int index) {
  const auto& generated = symbol(index);
  // Byte models may split one character over several symbols: hold the first bytes back
  // until the character is complete, and show it with the symbol that completes it.
  std::string bytes = pendingBytes_ + generated.text;
  const size_t held = incompleteUtf8Tail(bytes);
  pendingBytes_ = bytes.substr(bytes.size() - held);
  bytes.resize(bytes.size() - held);
  const QString shown = QString::fromUtf8(bytes);

  QTextCursor cursor(text_->document());
  cursor.movePosition(QTextCursor::End);
  Span span;
  span.begin = cursor.position();
  // A word's separating space stays plain; a symbol that is all white space is coloured.
  int lead = 0;
  if (!shown.trimmed().isEmpty()) {
    while (lead < shown.size() && shown.at(lead).isSpace() && shown.at(lead) != QLatin1Char('\n')) {
      ++lead;
    }
  }
  QTextCharFormat plain;
  if (lead > 0) cursor.insertText(shown.left(lead), plain);
  span.colourBegin = cursor.position();

  QTextCharFormat coloured;
  coloured.setBackground(ProbabilityScale::background(generated.probability));
  // Dark text on the light scale, also under a dark theme.
  coloured.setForeground(QColor(0x1a, 0x1a, 0x1a));
  coloured.setProperty(kSymbolProperty, index);
  const QString body = shown.mid(lead);
  int lastColoured = cursor.position();
  for (const QChar c : body) {
    if (c == QLatin1Char('\n')) {
      cursor.insertText(QString(kLineBreakMark), coloured);
      lastColoured = cursor.position();
      cursor.insertText(QStringLiteral("\n"), plain);
    } else {
      cursor.insertText(QString(c), coloured);
      lastColoured = cursor.position();
    }
  }
  span.colourEnd = body.isEmpty() ? span.colourBegin : lastColoured;
  span.end = cursor.position();
  spans_.push_back(span);
}

void CompletionView::updateHeader() {
  if (!note_.isEmpty()) {
    header_ = note_;
    stats_->setToolTip(QString());
  } else if (symbolCount() == 0) {
    header_.clear();
    stats_->setToolTip(QString());
  } else {
    header_ = statistics();
    stats_->setToolTip(
        tr("%1\nTotal surprisal %2 bits (-log2 p of the whole completion); bits/symbol "
           "divides it by the symbols generated.")
            .arg(header_)
            .arg(natsToBits(-completion_.logProbability), 0, 'f', 2));
  }
  elideHeader();
}

void CompletionView::elideHeader() {
  const int width = std::max(0, stats_->width());
  stats_->setText(stats_->fontMetrics().elidedText(header_, Qt::ElideRight, width));
}

void CompletionView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  elideHeader();
}

QString CompletionView::statistics() const {
  const int count = symbolCount();
  QString text = count == 1 ? tr("1 symbol") : tr("%1 symbols").arg(count);
  if (count > 0) {
    const double bits = natsToBits(-completion_.logProbability) / count;
    text += QStringLiteral(" · %1 bits/symbol").arg(bits, 0, 'f', 2);
  }
  if (!completion_.stopReason.empty()) {
    text +=
        QStringLiteral(" · ") + tr("ended: %1").arg(QString::fromStdString(completion_.stopReason));
  }
  return text;
}

int CompletionView::symbolAtPosition(int position) const {
  // Spans are in document order: the last one starting at or before `position`.
  auto it = std::upper_bound(spans_.begin(), spans_.end(), position,
                             [](int p, const Span& s) { return p < s.colourBegin; });
  if (it == spans_.begin()) return -1;
  --it;
  if (position >= it->colourEnd) return -1;
  const int found = static_cast<int>(it - spans_.begin());
  // The plain line break after a ↵ lies inside the range but is no symbol's character.
  if (text_->document()->characterAt(position) == QChar::ParagraphSeparator) return -1;
  return found;
}

int CompletionView::symbolAt(const QPoint& viewportPos) const {
  const QPoint scroll(text_->horizontalScrollBar()->value(), text_->verticalScrollBar()->value());
  const int position = characterAtPoint(*text_->document(), viewportPos + scroll);
  return position < 0 ? -1 : symbolAtPosition(position);
}

QRect CompletionView::symbolRect(int index) const {
  if (index < 0 || index >= static_cast<int>(spans_.size())) return {};
  const Span& s = spans_[static_cast<size_t>(index)];
  if (s.colourEnd <= s.colourBegin) return {};
  const QPoint scroll(text_->horizontalScrollBar()->value(), text_->verticalScrollBar()->value());
  return characterRectInDocument(*text_->document(), s.colourBegin)
      .toAlignedRect()
      .translated(-scroll);
}

QString CompletionView::toolTipFor(int index) const {
  const auto& s = symbol(index);
  // Surprisal in bits, the unit of every other view.
  QString tip = tr("<b>%1</b> at position %2<br>probability %3, surprisal %4 bits")
                    .arg(visibleSymbol(s.text).toHtmlEscaped())
                    .arg(index + 1)
                    .arg(ProbabilityScale::percent(s.probability))
                    .arg(natsToBits(-s.logProbability), 0, 'f', 3);
  for (size_t rank = 0; rank < s.alternatives.size(); ++rank) {
    if (s.alternatives[rank].id == s.id) {
      tip += tr("<br>rank %1 of the %2 most probable").arg(rank + 1).arg(s.alternatives.size());
      break;
    }
  }
  tip += tr("<br><i>Click for the alternatives at this position.</i>");
  return tip;
}

bool CompletionView::eventFilter(QObject* watched, QEvent* event) {
  if (watched != text_->viewport()) return QWidget::eventFilter(watched, event);
  switch (event->type()) {
    case QEvent::ToolTip: {
      auto* help = static_cast<QHelpEvent*>(event);
      const int found = symbolAt(help->pos());
      if (found >= 0) {
        QToolTip::showText(help->globalPos(), toolTipFor(found), text_->viewport(),
                           symbolRect(found));
      } else {
        QToolTip::hideText();
      }
      return true;
    }
    case QEvent::MouseMove: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      if (mouse->buttons() == Qt::NoButton) {
        text_->viewport()->setCursor(
            symbolAt(mouse->position().toPoint()) >= 0 ? Qt::PointingHandCursor : Qt::IBeamCursor);
      }
      break;
    }
    case QEvent::MouseButtonPress:
      pressPos_ = static_cast<QMouseEvent*>(event)->position().toPoint();
      break;
    case QEvent::MouseButtonRelease: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      const QPoint pos = mouse->position().toPoint();
      // A click, not the end of a selection drag.
      if (mouse->button() == Qt::LeftButton &&
          (pos - pressPos_).manhattanLength() < QApplication::startDragDistance()) {
        const int found = symbolAt(pos);
        if (found >= 0) Q_EMIT symbolClicked(found, text_->viewport()->mapToGlobal(pos));
      }
      break;
    }
    default:
      break;
  }
  return QWidget::eventFilter(watched, event);
}

}  // namespace mrnn::widgets
