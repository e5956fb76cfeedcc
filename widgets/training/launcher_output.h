#pragma once

#include <QString>
#include <QStringList>

namespace mrnn::widgets {

// Reading what `mrnn train --nproc N` (the launcher and its ranks) prints, for the monitor
// that started it: the run a line names, and why the run failed in the engine's own words,
// once, however many ranks said it.

// The run a line of `mrnn`'s output names: "run 3, checkpoint ...", "resumed run 3 at step
// 40", "mrnn: rank 0: run 3 failed at step 15: ..."; 0 when it names none.
qint64 runNamedIn(const QString& line);

// The error lines (stderr) as the researcher needs them, one reason a line: a rank's signal
// or exit as the launcher names it ("rank 1 (pid 123) was killed by signal 9 (SIGKILL)"),
// then each distinct reason the ranks gave ("training.batch_size: 15 streams do not split
// evenly over 2 ranks; ..."), without the "mrnn: rank N:" prefixes or the launcher's advice
// for the terminal. A rank's bare exit code is left out when a rank said why. Other output
// (a library's warning) only when nothing else was said: its last lines. Empty when there
// were no lines.
QString launcherFailureText(const QStringList& stderrLines);

}  // namespace mrnn::widgets
