#pragma once

#include <QWidget>

#include "widgets/surprisal/surprisal_scale.h"

namespace mrnn::widgets {

// The key to the surprisal view's colours: the bits scale from 0 to 8+ with ticks, the four
// rank buckets as swatches, or the A − B scale from −4 to +4 bits.
class SurprisalLegend : public QWidget {
  Q_OBJECT

 public:
  explicit SurprisalLegend(QWidget* parent = nullptr);

  void setColourBy(ColourBy colourBy);
  ColourBy colourBy() const { return colourBy_; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return sizeHint(); }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString tickLabel(int tick) const;

  ColourBy colourBy_ = ColourBy::Bits;
};

}  // namespace mrnn::widgets
