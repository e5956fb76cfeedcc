#pragma once

#include <string>
#include <vector>

#include "command_line.h"

namespace mrnn::app {

// Writes `text` to the file `--<option>` names, as every command writes a file a user names:
// never through a link or over a device, a file the command reads (`inputs`), a project's
// files (`guarded`: its runs, checkpoints, corpora, project file) or a file it did not write
// (recognised by its first lines; --force replaces any regular file); atomically. Throws
// engine::OutputRefused or std::runtime_error naming the path; says "wrote <path>" on `said`.
// `alike`: other texts the command writes (its other formats), whose first lines also mark a
// file as its own.
void writeOutputOption(const CommandLine& args, const std::string& option, const std::string& text,
                       std::ostream& said, const std::vector<std::string>& inputs = {},
                       const std::vector<std::string>& guarded = {},
                       const std::vector<std::string>& alike = {});

}  // namespace mrnn::app
