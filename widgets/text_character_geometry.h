#pragma once

#include <QPointF>
#include <QRectF>

class QTextDocument;

namespace mrnn::widgets {

// Where the text views that colour one symbol per character (sampler completions, surprisal)
// find a character on screen, for tooltips and clicks. Coordinates are the document's (add
// the scroll offset to go from a viewport position).

// The rectangle character `position` is drawn in; empty for a block's separator or a
// position outside the text. Lays out the block if it was not yet.
QRectF characterRectInDocument(QTextDocument& document, int position);

// The position of the character whose rectangle contains `point`; -1 when none does.
int characterAtPoint(QTextDocument& document, const QPointF& point);

}  // namespace mrnn::widgets
