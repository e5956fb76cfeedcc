#pragma once

#include <ostream>

#include "command_line.h"

namespace mrnn::app {

// mrnn export (<project.yaml> [--run ID | --checkpoint PATH] | CHECKPOINT) --output FILE
//             [--format pt|safetensors]
int runExportCommand(const CommandLine& args, std::ostream& out, std::ostream& err);

// mrnn import FILE --project <project.yaml> [--vocabulary FILE | --corpus FILE] [--level L]
//             [--mapping FILE] [--name NAME]
int runImportCommand(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
