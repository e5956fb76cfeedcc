#pragma once

#include <string>
#include <vector>

namespace mrnn::engine {

// The keys two model sections (as modelSectionYaml writes them) set otherwise, each as a
// researcher reads it: "layers[0].hidden_size from 64 to 80", "layers[1] added",
// "output.tie_embeddings removed (was true)", in the order of the sections' own text.
// Text that is no YAML gives one entry saying so.
std::vector<std::string> modelSectionChanges(const std::string& before, const std::string& after);

// The first `shown` of those changes joined by ", " ("and 3 more" where there are more).
std::string modelChangeSummary(const std::string& before, const std::string& after,
                               size_t shown = 3);

}  // namespace mrnn::engine
