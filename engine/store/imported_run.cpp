#include "engine/store/imported_run.h"

namespace mrnn::engine {

bool isImportedRun(const RunRecord& run) {
  // Steps too: a trained run's reason is free text, and a failure could begin with the words.
  return run.steps == 0 && run.reason.rfind(kImportedReasonPrefix, 0) == 0;
}

std::string importedRunSource(const RunRecord& run) {
  if (!isImportedRun(run)) return std::string();
  return run.reason.substr(std::char_traits<char>::length(kImportedReasonPrefix));
}

}  // namespace mrnn::engine
