#include "trained_project.h"

#include <algorithm>
#include <fstream>
#include <random>
#include <vector>

#include "engine/config/project_file.h"
#include "engine/runtime/stop_token.h"
#include "engine/training/trainer.h"

namespace mrnn::test {
namespace {

void writeFile(const QString& path, const std::string& contents) {
  std::ofstream out(path.toStdString(), std::ios::binary);
  out << contents;
}

}  // namespace

TrainedProject::TrainedProject(const std::string& yaml, const std::string& corpus) {
  if (!dir_.isValid()) {
    error_ = QStringLiteral("cannot create a temporary folder");
    return;
  }
  if (!corpus.empty()) writeFile(dir_.filePath(QStringLiteral("corpus.txt")), corpus);
  writeFile(projectFile(), yaml);
  try {
    engine::StopToken control;
    engine::Trainer trainer(engine::loadProject(projectFile().toStdString()),
                            [](engine::TrainingEvent) {});
    const engine::TrainingOutcome outcome = trainer.run(control);
    if (!outcome.finished) {
      error_ =
          QStringLiteral("training did not finish: %1").arg(QString::fromStdString(outcome.reason));
      return;
    }
    runId_ = outcome.runId;
    best_ = QString::fromStdString(outcome.bestCheckpoint);
    latest_ = QString::fromStdString(outcome.latestCheckpoint);
  } catch (const std::exception& error) {
    error_ = QString::fromStdString(error.what());
  }
}

std::string lexiconText(int symbols, unsigned seed) {
  const std::vector<std::string> words{"the", "cat", "sat", "on",  "a",    "mat",  "and",  "dog",
                                       "ran", "to",  "its", "red", "ball", "then", "slept"};
  std::mt19937 random(seed);
  std::string text;
  while (static_cast<int>(text.size()) < symbols) {
    text += words[random() % words.size()];
    text += (random() % 9 == 0) ? ".\n" : " ";
  }
  text.resize(static_cast<size_t>(symbols));
  return text;
}

std::string tinyProjectYaml(int steps, const std::string& level) {
  const std::string every = std::to_string(std::max(1, steps / 2));
  return "name: sampler test\n"
         "model:\n"
         "  input: {level: " +
         level +
         ", embedding_size: 8}\n"
         "  layers:\n"
         "    - {type: mlstm, hidden_size: 16}\n"
         "data:\n"
         "  train: corpus.txt\n"
         "training:\n"
         "  batch_size: 8\n"
         "  bptt: 20\n"
         "  threads: 1\n"
         "  validate_every: " +
         every +
         "\n"
         "  checkpoint_every: " +
         every +
         "\n"
         "  max_steps: " +
         std::to_string(steps) +
         "\n"
         "  optimizer: {type: adam, lr: 0.02}\n"
         "evaluation: {batch_size: 2, bptt: 20}\n";
}

}  // namespace mrnn::test
