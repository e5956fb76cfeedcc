#include "experiment_test_project.h"

#include <QDir>

#include "engine/experiment/experiment_spec.h"

#include <fstream>
#include <random>
#include <vector>

namespace mrnn::test {

std::string ExperimentTestProject::corpus(int symbols) {
  const std::vector<std::string> words{"the", "cat", "sat", "on",  "a",    "mat",  "and",  "dog",
                                       "ran", "to",  "its", "red", "ball", "then", "slept"};
  std::mt19937 random(7);
  std::string text;
  while (static_cast<int>(text.size()) < symbols) {
    text += words[random() % words.size()];
    text += (random() % 9 == 0) ? ".\n" : " ";
  }
  text.resize(static_cast<size_t>(symbols));
  return text;
}

void ExperimentTestProject::writeFile(const QString& path, const std::string& text) {
  std::ofstream out(path.toStdString(), std::ios::binary);
  out << text;
}

std::string ExperimentTestProject::problemProject(int layers) {
  std::string list;
  for (int i = 0; i < layers; ++i)
    list += std::string(i ? ", " : "") + "{type: rnn, hidden_size: 8}";
  return "name: base\nmodel:\n"
         "  input: {level: word, embedding_size: 0}\n"
         "  layers: [" +
         list +
         "]\n"
         "data:\n  synthetic: temporal_order_2bit\n"
         "  problem: {length: 20, train: 100, valid: 10, test: 10}\n"
         "training: {max_steps: 40, optimizer: {type: adam}}\n";
}

engine::ExperimentPlan ExperimentTestProject::planIn(const QString& folder,
                                                     const std::string& project,
                                                     const std::string& experiment) {
  const QDir dir(folder);
  writeFile(dir.filePath(QStringLiteral("project.yaml")), project);
  dir.mkpath(QStringLiteral("experiments"));
  const QString file = dir.filePath(QStringLiteral("experiments/e.yaml"));
  writeFile(file, experiment);
  return engine::planExperiment(engine::loadExperiment(file.toStdString()));
}

ExperimentTestProject::ExperimentTestProject(int maxSteps, const std::string& seeds) {
  if (!dir_.isValid()) return;
  writeFile(dir_.filePath(QStringLiteral("corpus.txt")), corpus(12000));
  const std::string every = std::to_string(std::max(1, maxSteps / 2));
  writeFile(projectFile(),
            "name: tiny\n"
            "model:\n"
            "  input: {level: char, embedding_size: 8}\n"
            "  layers:\n"
            "    - {type: mlstm, hidden_size: 16, m_size: 16}\n"
            "training:\n"
            "  batch_size: 4\n"
            "  bptt: 20\n"
            "  max_steps: " +
                std::to_string(maxSteps) +
                "\n"
                "  validate_every: " +
                every +
                "\n"
                "  checkpoint_every: " +
                every +
                "\n"
                "  threads: 1\n"
                "  optimizer: {type: adam, lr: 0.003}\n"
                "data:\n"
                "  train: corpus.txt\n");
  QDir(dir_.path()).mkpath(QStringLiteral("experiments"));
  writeFile(experimentFile(),
            "# The panel keeps this comment.\n"
            "experiment:\n"
            "  description: a 2x2 grid\n"
            "  axes:\n"
            "    - key: model.layers[0].type\n"
            "      cells: [lstm, mlstm]\n"
            "      match_parameters: 3000\n"
            "    - key: training.optimizer.lr\n"
            "      values: [0.001, 0.003]\n"
            "  seeds: " +
                seeds +
                "\n"
                "  references:\n"
                "    - when:\n"
                "        model.layers[0].type: mlstm\n"
                "      metric: valid_bpc\n"
                "      value: 3.5\n"
                "      source: \"made up, Table 0\"\n");
}

}  // namespace mrnn::test
