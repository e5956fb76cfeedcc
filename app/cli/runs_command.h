#pragma once

#include <iosfwd>

#include "command_line.h"

namespace mrnn::app {

// `mrnn runs list|show|export ...`: reads <project-folder>/runs.sqlite.
//   mrnn runs list <project-folder>
//   mrnn runs show <project-folder> <run-id>
//   mrnn runs export <project-folder> [<run-id>] --format csv|json [--output FILE]
// Returns the process exit code: 0 done, 1 failed (no database, unknown run, unreadable
// database, unwritable output), 2 usage error. Messages go to `out` and `err`.
int runRunsCommand(const CommandLine& args, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
