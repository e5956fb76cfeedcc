#pragma once

// Training a project to the end in the test's own thread, and reading a checkpoint's
// weights back, for the tests that compare runs (resumed, on another device, copied).

#include <memory>
#include <string>

#include "engine/config/project_file.h"
#include "engine/models/language_model.h"
#include "engine/training/trainer.h"

namespace mrnn::test {

// Trains `project` (resuming from `resumeFrom` when given, for `length` where given),
// ignoring the events.
engine::TrainingOutcome trainToEnd(const engine::Project& project,
                                   const std::string& resumeFrom = "",
                                   const engine::RunLength& length = {});

// The first parameter whose weights differ between two checkpoints of the same model
// (`project`'s), or empty when every one is equal to the bit: resumed runs against
// uninterrupted ones.
std::string firstDifferentWeight(const engine::Project& project, const std::string& a,
                                 const std::string& b);

// The weights of the checkpoint at `path`, in the project's model, on the CPU.
std::unique_ptr<engine::LanguageModel> loadWeights(const engine::Project& project,
                                                   const std::string& path);

}  // namespace mrnn::test
