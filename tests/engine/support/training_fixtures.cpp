#include "training_fixtures.h"

#include <unistd.h>

#include <fstream>
#include <random>
#include <vector>

namespace mrnn::test {

ScratchProject::ScratchProject(const std::string& name)
    : folder_(std::filesystem::temp_directory_path() /
              ("mrnn-" + name + "-" + std::to_string(::getpid()))) {
  std::filesystem::remove_all(folder_);
  std::filesystem::create_directories(folder_);
}

ScratchProject::~ScratchProject() {
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

void ScratchProject::write(const std::string& name, const std::string& contents) const {
  std::ofstream out(folder_ / name, std::ios::binary);
  out << contents;
}

std::string syntheticText(int64_t symbols, uint64_t seed) {
  const std::vector<std::string> words{"the", "cat", "sat", "on",  "a",    "mat",  "and",  "dog",
                                       "ran", "to",  "its", "red", "ball", "then", "slept"};
  std::mt19937_64 random(seed);
  std::string text;
  while (static_cast<int64_t>(text.size()) < symbols) {
    text += words[random() % words.size()];
    text += (random() % 9 == 0) ? ".\n" : " ";
  }
  text.resize(static_cast<size_t>(symbols));
  return text;
}

engine::Project ScratchProject::project(int64_t symbols) const {
  write("corpus.txt", syntheticText(symbols));
  const std::string yaml =
      "name: scratch\n"
      "model:\n"
      "  input: {level: char, embedding_size: 8}\n"
      "  layers:\n"
      "    - {type: mlstm, hidden_size: 16}\n"
      "  dropout: {embedding: 0.1, hidden: 0.0, output: 0.1}\n"
      "data:\n"
      "  train: corpus.txt\n"
      "training:\n"
      "  batch_size: 4\n"
      "  bptt: 12\n"
      "  random_bptt: true\n"
      "  threads: 1\n"
      "  validate_every: 5\n"
      "  checkpoint_every: 4\n"
      "  max_steps: 12\n"
      "  optimizer: {type: adam, lr: 0.01}\n"
      "evaluation: {batch_size: 2, bptt: 20}\n";
  write("project.yaml", yaml);
  return engine::loadProject(file("project.yaml"));
}

}  // namespace mrnn::test
