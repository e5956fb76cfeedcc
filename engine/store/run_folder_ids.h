#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// The highest id among the entries named run-<id> in a project's checkpoints folder (folders
// or not), 0 when there are none or the folder cannot be read. A run database moved aside,
// deleted or restored from an older copy counts its ids from an earlier point than the
// folders on disk; a new run's id passes this one, so no run is handed another's folder.
int64_t highestRunFolderId(const std::string& projectFolder);

}  // namespace mrnn::engine
