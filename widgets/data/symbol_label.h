#pragma once

#include <QString>
#include <string>

#include "engine/config/model_config.h"

namespace mrnn::widgets {

// A vocabulary symbol as a short axis label a reader can see: a space is "␣", a newline "↵",
// a tab "⇥", other control bytes and non-ASCII bytes (at byte level) "0x1B"; long words are
// shortened with "…". `symbol` holds the symbol's bytes (UTF-8 at char level).
QString symbolLabel(const std::string& symbol, engine::InputLevel level);

// The same symbol spelled out for a tooltip: "space (0x20)", "newline (0x0A)", "'e' (0x65)",
// "'é' (U+00E9)", "word 'the'".
QString symbolDescription(const std::string& symbol, engine::InputLevel level);

}  // namespace mrnn::widgets
