#pragma once

#include <QFont>

namespace mrnn::widgets {

// A font whose characters all have one width, for YAML, logs, diffs and sampled text. The
// system's fixed font first; where that resolves to a proportional face (some font packages,
// such as Debian's fonts-urw-base35, take over the "monospace" alias), the first installed
// face among the common monospace families whose glyphs really share one advance.
QFont monospaceFont();

// Whether `font` as it resolves here draws every character with one advance.
bool drawsMonospaced(const QFont& font);

}  // namespace mrnn::widgets
