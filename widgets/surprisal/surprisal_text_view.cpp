#include "widgets/surprisal/surprisal_text_view.h"

#include <QAbstractTextDocumentLayout>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextEdit>
#include <QTextLayout>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "engine/scoring/surprisal_difference.h"
#include "engine/scoring/text_score.h"
#include "widgets/surprisal/surprisal_legend.h"
#include "widgets/text_character_geometry.h"
#include "widgets/visible_symbol.h"

#include "widgets/display_format.h"

namespace mrnn::widgets {
namespace {

// The symbol's index, stored in the char format of its coloured characters.
constexpr int kSymbolProperty = QTextFormat::UserProperty + 7;
const QChar kSpaceMark(0x00B7);      // ·
const QChar kTabMark(0x21E5);        // ⇥
const QChar kLineBreakMark(0x21B5);  // ↵
// After a · or ⇥: lets lines wrap there, as they would at the space itself.
const QChar kBreakOpportunity(0x200B);

// A lone byte of a multi-byte character (byte-level models) has no glyph of its own.
bool isLoneHighByte(const std::string& text) {
  return text.size() == 1 && static_cast<unsigned char>(text[0]) >= 0x80;
}

QString hexByte(const std::string& text) {
  return QStringLiteral("\\x") +
         QString::number(static_cast<unsigned char>(text[0]), 16).toUpper().rightJustified(2, '0');
}

// How a symbol is named in tooltips (bold, escaped).
QString nameOf(const std::string& text) {
  if (isLoneHighByte(text)) return QStringLiteral("byte ") + hexByte(text);
  const QString shown = visibleSymbol(text);
  return shown.isEmpty() ? QStringLiteral("(empty)") : shown.toHtmlEscaped();
}

QString probabilityText(double p) {
  return p >= 0.01 ? QString::number(p, 'f', 3) : QString::number(p, 'g', 3);
}

}  // namespace

SurprisalTextView::SurprisalTextView(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel(this)),
      colourByCombo_(new QComboBox(this)),
      legend_(new SurprisalLegend(this)),
      text_(new QTextEdit(this)) {
  setObjectName(QStringLiteral("surprisalTextView"));
  summary_->setObjectName(QStringLiteral("surprisalSummary"));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  summary_->setText(tr("Run the analysis to see the text coloured by surprisal."));

  colourByCombo_->setObjectName(QStringLiteral("colourByCombo"));
  colourByCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  colourByCombo_->addItem(tr("bits"), static_cast<int>(ColourBy::Bits));
  colourByCombo_->addItem(tr("rank"), static_cast<int>(ColourBy::Rank));
  colourByCombo_->setToolTip(
      tr("bits: the background grows redder with the symbol's surprisal, -log2 p.\n"
         "rank: GLTR's buckets, where the symbol ranked among the model's predictions.\n"
         "A \u2212 B: model A's bits minus model B's (choose a second model to compare)."));
  connect(colourByCombo_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int row) {
    if (row < 0) return;
    setColourBy(static_cast<ColourBy>(colourByCombo_->itemData(row).toInt()));
  });
  auto* colourLabel = new QLabel(tr("Colour by:"), this);
  colourLabel->setBuddy(colourByCombo_);

  text_->setObjectName(QStringLiteral("surprisalText"));
  text_->setReadOnly(true);
  text_->setUndoRedoEnabled(false);
  text_->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
  text_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  text_->viewport()->installEventFilter(this);
  // A light page whatever the theme: the colour scale starts at white.
  QPalette page = text_->palette();
  page.setColor(QPalette::Base, Qt::white);
  page.setColor(QPalette::Text, QColor(0x1a, 0x1a, 0x1a));
  text_->setPalette(page);

  auto* header = new QHBoxLayout;
  header->setContentsMargins(0, 0, 0, 0);
  header->addWidget(summary_, 1);
  header->addWidget(colourLabel);
  header->addWidget(colourByCombo_);
  header->addSpacing(8);
  header->addWidget(legend_, 0, Qt::AlignVCenter);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(header);
  layout->addWidget(text_, 1);
}

SurprisalTextView::~SurprisalTextView() = default;

void SurprisalTextView::showScore(const engine::TextScore& score, bool wordLevel,
                                  const QString& note) {
  score_ = std::make_unique<engine::TextScore>(score);
  scoreB_.reset();
  difference_.reset();
  updateColourChoices();
  wordLevel_ = wordLevel;
  note_ = note;
  summary_->setText(summary());
  render();
}

void SurprisalTextView::showComparison(const engine::TextScore& scoreB, const QString& nameA,
                                       const QString& nameB) {
  if (!score_) return;
  auto difference = std::make_unique<engine::SurprisalDifference>(
      engine::surprisalDifference(*score_, scoreB, 50));
  scoreB_ = std::make_unique<engine::TextScore>(scoreB);
  difference_ = std::move(difference);
  nameA_ = nameA;
  nameB_ = nameB;
  updateColourChoices();
  summary_->setText(summary());
  if (colourBy_ == ColourBy::Difference) render();
}

void SurprisalTextView::updateColourChoices() {
  const int row = colourByCombo_->findData(static_cast<int>(ColourBy::Difference));
  if (difference_ && row < 0) {
    colourByCombo_->addItem(tr("A \u2212 B"), static_cast<int>(ColourBy::Difference));
  } else if (!difference_ && row >= 0) {
    // Back to bits first, so the combo never shows a colouring that is gone.
    if (colourBy_ == ColourBy::Difference) setColourBy(ColourBy::Bits);
    colourByCombo_->removeItem(row);
  }
}

void SurprisalTextView::revealSymbol(int index) {
  if (index < 0 || index >= symbolCount()) return;
  const Span& span = spans_[static_cast<size_t>(index)];
  QTextCursor cursor(text_->document());
  cursor.setPosition(span.begin);
  cursor.setPosition(span.end, QTextCursor::KeepAnchor);
  text_->setTextCursor(cursor);
  text_->ensureCursorVisible();
}

void SurprisalTextView::clear() {
  score_.reset();
  scoreB_.reset();
  difference_.reset();
  updateColourChoices();
  note_.clear();
  spans_.clear();
  text_->clear();
  summary_->setText(tr("Run the analysis to see the text coloured by surprisal."));
}

void SurprisalTextView::setColourBy(ColourBy colourBy) {
  if (colourBy == ColourBy::Difference && !difference_) return;  // nothing to compare yet
  legend_->setColourBy(colourBy);
  const int row = colourByCombo_->findData(static_cast<int>(colourBy));
  if (colourByCombo_->currentIndex() != row) colourByCombo_->setCurrentIndex(row);
  if (colourBy == colourBy_) return;
  colourBy_ = colourBy;
  render();
}

QString SurprisalTextView::summary() const {
  if (!score_) return {};
  const auto& s = *score_;
  QString text = tr("%1 symbols (%2 predicted): <b>%3 bits per symbol</b>, %4 bits in all")
                     .arg(formatCount(static_cast<qint64>(s.symbols.size())))
                     .arg(formatCount(s.predictedSymbols))
                     .arg(s.bitsPerSymbol, 0, 'f', 3)
                     .arg(QLocale(QLocale::English).toString(s.totalBits, 'f', 1));
  if (difference_) {
    const double mean = difference_->meanDifference;
    text += tr(" · A \u2212 B: <b>%1%2 bits per symbol</b> (B: %3)")
                .arg(mean > 0   ? QStringLiteral("+")
                     : mean < 0 ? QStringLiteral("\u2212")
                                : QString())
                .arg(std::abs(mean), 0, 'f', 3)
                .arg(nameB_.toHtmlEscaped());
  }
  if (!note_.isEmpty()) text += QStringLiteral(" · ") + note_.toHtmlEscaped();
  return text;
}

QColor SurprisalTextView::backgroundFor(int index) const {
  const auto& symbol = score_->symbols[static_cast<size_t>(index)];
  if (!symbol.predicted) return SurprisalScale::unpredictedColour();
  switch (colourBy_) {
    case ColourBy::Bits:
      return SurprisalScale::bitsColour(symbol.bits);
    case ColourBy::Rank:
      return SurprisalScale::rankColour(symbol.rank);
    case ColourBy::Difference:
      break;
  }
  return difference_
             ? SurprisalScale::differenceColour(difference_->difference[static_cast<size_t>(index)])
             : SurprisalScale::bitsColour(symbol.bits);
}

void SurprisalTextView::render() {
  text_->clear();
  spans_.clear();
  if (!score_) return;
  QTextCursor cursor(text_->document());
  cursor.beginEditBlock();
  const QTextCharFormat plain;
  bool lineStart = true;
  for (int i = 0; i < static_cast<int>(score_->symbols.size()); ++i) {
    const auto& symbol = score_->symbols[static_cast<size_t>(i)];
    if (wordLevel_ && !lineStart) cursor.insertText(QStringLiteral(" "), plain);
    const QColor background = backgroundFor(i);
    QTextCharFormat coloured;
    coloured.setBackground(background);
    coloured.setForeground(SurprisalScale::textOn(background));
    coloured.setProperty(kSymbolProperty, i);
    QTextCharFormat mark = coloured;
    mark.setForeground(SurprisalScale::markOn(background));

    Span span;
    span.begin = cursor.position();
    lineStart = false;
    if (symbol.text == "<eos>" || (wordLevel_ && symbol.text == "\n")) {
      cursor.insertText(QString(kLineBreakMark), mark);
      cursor.insertText(QStringLiteral("\n"), plain);
      lineStart = true;
    } else if (isLoneHighByte(symbol.text)) {
      cursor.insertText(hexByte(symbol.text), mark);
    } else if (symbol.text.empty()) {
      cursor.insertText(QStringLiteral("\u2205"), mark);  // ∅: nothing to show
    } else {
      for (const QChar c : QString::fromUtf8(symbol.text)) {
        if (c == QLatin1Char('\n')) {
          cursor.insertText(QString(kLineBreakMark), mark);
          cursor.insertText(QStringLiteral("\n"), plain);
          lineStart = true;
        } else if (c == QLatin1Char(' ') || c == QLatin1Char('\t')) {
          cursor.insertText(QString(c == QLatin1Char(' ') ? kSpaceMark : kTabMark), mark);
          cursor.insertText(QString(kBreakOpportunity), plain);
          lineStart = false;
        } else if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
          // Control characters as their Control Pictures glyph (␍ for a carriage return).
          cursor.insertText(QString(QChar(c.unicode() == 0x7f ? 0x2421 : 0x2400 + c.unicode())),
                            mark);
          lineStart = false;
        } else {
          cursor.insertText(QString(c), coloured);
          lineStart = false;
        }
      }
    }
    span.end = cursor.position();
    spans_.push_back(span);
  }
  cursor.endEditBlock();
  text_->moveCursor(QTextCursor::Start);
}

QColor SurprisalTextView::backgroundAt(int index) const {
  if (index < 0 || index >= symbolCount()) return {};
  const QTextBlock block = text_->document()->findBlock(spans_[static_cast<size_t>(index)].begin);
  for (auto it = block.begin(); !it.atEnd(); ++it) {
    const QTextFragment fragment = it.fragment();
    if (fragment.contains(spans_[static_cast<size_t>(index)].begin)) {
      const QBrush brush = fragment.charFormat().background();
      return brush.style() == Qt::NoBrush ? QColor() : brush.color();
    }
  }
  return {};
}

QString SurprisalTextView::shownText(int index) const {
  if (index < 0 || index >= symbolCount()) return {};
  const Span& span = spans_[static_cast<size_t>(index)];
  QTextCursor cursor(text_->document());
  cursor.setPosition(span.begin);
  cursor.setPosition(span.end, QTextCursor::KeepAnchor);
  QString shown = cursor.selectedText();
  shown.remove(kBreakOpportunity);
  shown.replace(QChar::ParagraphSeparator, QLatin1Char('\n'));
  return shown;
}

QString SurprisalTextView::toolTipFor(int index) const {
  if (!score_ || index < 0 || index >= symbolCount()) return {};
  const auto& s = score_->symbols[static_cast<size_t>(index)];
  QString tip = tr("<b>%1</b>&nbsp;&nbsp;symbol %2 of %3")
                    .arg(nameOf(s.text), formatCount(index + 1),
                         formatCount(static_cast<qint64>(score_->symbols.size())));
  if (!s.predicted) {
    return tip + tr("<br>Not predicted: nothing came before the text's first symbol.");
  }
  tip += tr("<br>p = %1 &middot; %2 bits &middot; rank %3")
             .arg(probabilityText(s.probability))
             .arg(s.bits, 0, 'f', 2)
             .arg(formatCount(s.rank));
  if (s.rank == 1) tip += tr(" (the model's top choice)");
  if (scoreB_) {
    const double b = scoreB_->symbols[static_cast<size_t>(index)].bits;
    const double d = s.bits - b;
    tip += tr("<br>A (%1): %2 bits &middot; B (%3): %4 bits &middot; A &minus; B: %5%6")
               .arg(nameA_.toHtmlEscaped())
               .arg(s.bits, 0, 'f', 2)
               .arg(nameB_.toHtmlEscaped())
               .arg(b, 0, 'f', 2)
               .arg(d > 0   ? QStringLiteral("+")
                    : d < 0 ? QStringLiteral("&minus;")
                            : QString())
               .arg(std::abs(d), 0, 'f', 2);
  }
  if (s.alternatives.empty()) return tip;
  tip += tr("<br>The model's top %1:").arg(s.alternatives.size());
  tip += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">");
  for (size_t a = 0; a < s.alternatives.size(); ++a) {
    const auto& alternative = s.alternatives[a];
    const bool actual = alternative.id == s.id;
    QString name = nameOf(alternative.text);
    if (actual) name = QStringLiteral("<b>%1</b> &#9664;").arg(name);  // ◀ the actual symbol
    tip += QStringLiteral(
               "<tr><td align=\"right\">%1.&nbsp;</td><td>%2&nbsp;&nbsp;</td>"
               "<td align=\"right\">%3</td></tr>")
               .arg(a + 1)
               .arg(name, probabilityText(alternative.probability));
  }
  return tip + QStringLiteral("</table>");
}

int SurprisalTextView::symbolAt(const QPoint& viewportPos) const {
  const QPoint scroll(text_->horizontalScrollBar()->value(), text_->verticalScrollBar()->value());
  QTextDocument* document = text_->document();
  const int position = characterAtPoint(*document, viewportPos + scroll);
  if (position < 0) return -1;
  QTextCursor cursor(document);
  cursor.setPosition(position + 1);  // charFormat() is the character before the cursor
  const QVariant index = cursor.charFormat().property(kSymbolProperty);
  return index.isValid() ? index.toInt() : -1;
}

QRect SurprisalTextView::symbolRect(int index) const {
  if (index < 0 || index >= symbolCount()) return {};
  const QPoint scroll(text_->horizontalScrollBar()->value(), text_->verticalScrollBar()->value());
  return characterRectInDocument(*text_->document(), spans_[static_cast<size_t>(index)].begin)
      .toAlignedRect()
      .translated(-scroll);
}

bool SurprisalTextView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == text_->viewport() && event->type() == QEvent::ToolTip) {
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
  return QWidget::eventFilter(watched, event);
}

}  // namespace mrnn::widgets
