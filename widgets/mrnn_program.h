#pragma once

#include <QString>

namespace mrnn::widgets {

// The `mrnn` command-line tool the workbench starts for work that runs in processes of its
// own (an experiment's queue, a run trained on several processes): beside the workbench's
// executable (an installation), in the build tree (app/cli/mrnn beside app/gui/), else on
// PATH; empty when there is none.
QString findMrnnProgram();

}  // namespace mrnn::widgets
