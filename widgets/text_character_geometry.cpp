#include "widgets/text_character_geometry.h"

#include <QAbstractTextDocumentLayout>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <algorithm>
#include <cmath>

namespace mrnn::widgets {

QRectF characterRectInDocument(QTextDocument& document, int position) {
  const QTextBlock block = document.findBlock(position);
  if (!block.isValid()) return {};
  const int inBlock = position - block.position();
  if (inBlock < 0 || inBlock >= block.length() - 1) return {};  // the block's separator
  // Asking for the block's rectangle also lays it out.
  const QRectF blockRect = document.documentLayout()->blockBoundingRect(block);
  const QTextLayout* layout = block.layout();
  const QTextLine line = layout ? layout->lineForTextPosition(inBlock) : QTextLine();
  if (!line.isValid()) return {};
  const qreal x1 = line.cursorToX(inBlock);
  const qreal x2 = line.cursorToX(inBlock + 1);
  return QRectF(blockRect.left() + std::min(x1, x2), blockRect.top() + line.y(),
                std::max<qreal>(std::abs(x2 - x1), 1.0), line.height());
}

int characterAtPoint(QTextDocument& document, const QPointF& point) {
  const int hit = document.documentLayout()->hitTest(point, Qt::FuzzyHit);
  if (hit < 0) return -1;
  // The hit is the nearest gap between characters: the character is on either side of it.
  for (const int candidate : {hit, hit - 1}) {
    if (candidate >= 0 && characterRectInDocument(document, candidate).contains(point)) {
      return candidate;
    }
  }
  return -1;
}

}  // namespace mrnn::widgets
