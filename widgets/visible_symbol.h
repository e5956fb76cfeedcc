#pragma once

#include <QString>

#include <string>

namespace mrnn::widgets {

// How a symbol reads in menus and tooltips: line breaks (and <eos>) as ↵, tabs as ⇥, and a
// symbol that is only spaces as ␣ marks.
QString visibleSymbol(const std::string& text);

}  // namespace mrnn::widgets
