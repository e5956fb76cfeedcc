#include "widgets/run_colours.h"

#include <array>

namespace mrnn::widgets {

QColor runColour(qint64 runId) {
  static const std::array<QColor, 10> palette = {
      QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
      QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
      QColor(0xe3, 0x77, 0xc2), QColor(0x7f, 0x7f, 0x7f), QColor(0xbc, 0xbd, 0x22),
      QColor(0x17, 0xbe, 0xcf)};
  const qint64 index = runId > 0 ? (runId - 1) % static_cast<qint64>(palette.size()) : 0;
  return palette[static_cast<size_t>(index)];
}

QColor modelColour(qint64 runId, int slot) {
  if (runId > 0) return runColour(runId);
  // Near-black and a slate: apart from the runs' ten colours, and from each other.
  static const std::array<QColor, 2> files = {QColor(0x26, 0x26, 0x26), QColor(0x5b, 0x6e, 0x8c)};
  return files[static_cast<size_t>(slot > 0 ? slot : 0) % files.size()];
}

QVector<QColor> modelColours(const QVector<qint64>& runIds) {
  QVector<QColor> colours;
  for (int slot = 0; slot < runIds.size(); ++slot) {
    QColor colour = modelColour(runIds[slot], slot);
    while (colours.contains(colour)) colour = colour.darker(150);
    colours.append(colour);
  }
  return colours;
}

}  // namespace mrnn::widgets
