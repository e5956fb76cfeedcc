#include "widgets/series_style.h"

namespace mrnn::widgets {
namespace {

const QColor kColours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28),
                           QColor(0x2c, 0xa0, 0x2c), QColor(0xff, 0x7f, 0x0e),
                           QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
                           QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
const QCPScatterStyle::ScatterShape kShapes[] = {QCPScatterStyle::ssDisc,
                                                 QCPScatterStyle::ssSquare,
                                                 QCPScatterStyle::ssTriangle,
                                                 QCPScatterStyle::ssDiamond,
                                                 QCPScatterStyle::ssTriangleInverted,
                                                 QCPScatterStyle::ssCrossSquare,
                                                 QCPScatterStyle::ssPlusCircle,
                                                 QCPScatterStyle::ssStar};
constexpr size_t kStyles = sizeof(kColours) / sizeof(kColours[0]);

}  // namespace

QColor seriesColour(size_t index) {
  return kColours[index % kStyles];
}

QCPScatterStyle::ScatterShape seriesShape(size_t index) {
  return kShapes[index % kStyles];
}

}  // namespace mrnn::widgets
