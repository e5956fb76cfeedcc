#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn project set <project.yaml> KEY=VALUE [...]` and `mrnn project unset <project.yaml>
// KEY [...]`: edits a project file as its owner would by hand (only the keys named change;
// comments, order and layout stay), checks the result is a valid project and saves it
// atomically, through a link to the file it names. Keys are written as experiment axes write
// them: "training.optimizer.lr", "model.layers[0].hidden_size". Returns 0, 1 (the file is not
// readable or the result is not a valid project: nothing is written) or 2 (usage).
int runProjectCommand(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
