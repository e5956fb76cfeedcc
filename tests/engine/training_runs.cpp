#include "training_runs.h"

#include "engine/training/checkpoint.h"

namespace mrnn::test {

engine::TrainingOutcome trainToEnd(const engine::Project& project, const std::string& resumeFrom) {
  engine::RunControl control;
  engine::Trainer trainer(project, [](engine::TrainingEvent) {});
  return trainer.run(control, resumeFrom);
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
