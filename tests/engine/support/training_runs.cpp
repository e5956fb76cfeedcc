#include "training_runs.h"

#include "engine/training/checkpoint.h"

namespace mrnn::test {

engine::TrainingOutcome trainToEnd(const engine::Project& project, const std::string& resumeFrom,
                                   const engine::RunLength& length) {
  engine::StopToken control;
  engine::Trainer trainer(project, [](engine::TrainingEvent) {});
  return trainer.run(control, resumeFrom, length);
}

std::string firstDifferentWeight(const engine::Project& project, const std::string& a,
                                 const std::string& b) {
  const auto left = loadWeights(project, a);
  const auto right = loadWeights(project, b)->named_parameters();
  for (const auto& item : left->named_parameters()) {
    if (!torch::equal(item.value(), right[item.key()])) return item.key();
  }
  return "";
}

std::unique_ptr<engine::LanguageModel> loadWeights(const engine::Project& project,
                                                   const std::string& path) {
  auto checkpoint = engine::Checkpoint::open(path);
  auto model =
      std::make_unique<engine::LanguageModel>(project.model, checkpoint.vocabulary().size());
  checkpoint.loadModel(*model);
  return model;
}

}  // namespace mrnn::test
