#pragma once

#include <QString>

namespace mrnn::widgets {

// What a recorded probe is, in words, for tooltips and titles: "f" -> "forget gate",
// "major.c" -> "major state: memory cell", "x2" -> "Mogrifier round 2 (input after
// modulation)".
QString probeDescription(const QString& probe);

}  // namespace mrnn::widgets
