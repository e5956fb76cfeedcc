#pragma once

#include <QColor>
#include <QString>

#include <cstdint>

namespace mrnn::widgets {

// What the background behind each symbol of the surprisal view says.
enum class ColourBy {
  Bits,        // the surprisal in bits, white (0) to deep red (8 or more)
  Rank,        // GLTR's buckets: the model's top choice, top 10, top 100, the rest
  Difference,  // model A's bits minus model B's, blue (A less surprised) to red (A more)
};

// The colours of the surprisal view, its legend and its figures, in one place.
class SurprisalScale {
 public:
  // Where the bits scale saturates: 8 bits is p = 1/256, a byte model's uniform guess.
  static constexpr double kMaxBits = 8.0;

  // A sequential scale through ColorBrewer's Reds at whole bits: 0 is white, 1 bit is
  // #fee0d2, ..., 8 bits and more #67000d.
  static QColor bitsColour(double bits);
  // Where the A − B scale saturates, either way.
  static constexpr double kMaxDifferenceBits = 4.0;
  // A diverging scale through ColorBrewer's RdBu at whole bits: 0 is white, negative
  // differences (A less surprised than B) blue, positive (A more surprised) red.
  static QColor differenceColour(double bits);
  // GLTR's buckets 0..3: rank 1, 2-10, 11-100, above 100.
  static int rankBucket(int64_t rank);
  static QColor rankColour(int64_t rank);
  static QColor bucketColour(int bucket);
  static QString bucketName(int bucket);
  static constexpr int kBuckets = 4;
  // A symbol the model did not predict (the text's first).
  static QColor unpredictedColour();
  // Readable text on `background`: near black on light colours, white on dark ones.
  static QColor textOn(const QColor& background);
  // Whitespace marks (· ↵ ⇥) drawn fainter than text on `background`.
  static QColor markOn(const QColor& background);
};

}  // namespace mrnn::widgets
