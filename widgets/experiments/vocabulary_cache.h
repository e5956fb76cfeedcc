#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/experiment_results.h"
#include "engine/experiment/experiment_spec.h"

namespace mrnn::widgets {

// The vocabulary sizes planExperiment asks for, remembered across plans: the panel plans
// again after every edit, and reading a large corpus for its vocabulary is the slow part. A
// corpus file that changes (its size or time) is read again.
class VocabularyCache {
 public:
  int64_t sizeOf(const engine::Project& project);
  // For planExperiment; valid while this cache lives.
  engine::VocabularySize function() {
    return [this](const engine::Project& project) { return sizeOf(project); };
  }

 private:
  std::map<std::string, int64_t> known_;
};

}  // namespace mrnn::widgets
