#pragma once

#include <functional>
#include <string>

namespace mrnn::engine {

// Where a long engine operation is: a fraction in [0, 1] and a short phase in words.
struct JobProgress {
  double fraction = 0.0;
  std::string phase;
};

// The one way engine work says how far it is: the caller decides where it goes (a GUI job's
// event queue, a terminal line, nowhere). Training's richer events carry the same fractions.
using ProgressSink = std::function<void(const JobProgress&)>;

}  // namespace mrnn::engine
