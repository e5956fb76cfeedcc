#pragma once

// A throwaway project folder with a small corpus, for the training tests.

#include <filesystem>
#include <string>

#include "engine/config/project_file.h"

namespace mrnn::test {

class ScratchProject {
 public:
  // A fresh folder under the temp directory; removed on destruction.
  explicit ScratchProject(const std::string& name);
  ~ScratchProject();
  ScratchProject(const ScratchProject&) = delete;
  ScratchProject& operator=(const ScratchProject&) = delete;

  const std::filesystem::path& folder() const { return folder_; }
  std::string file(const std::string& name) const { return (folder_ / name).string(); }
  void write(const std::string& name, const std::string& contents) const;

  // A char-level project: a small mLSTM (with dropout, so the random generator matters),
  // corpus.txt of `symbols` pseudo-English characters split 90/5/5.
  engine::Project project(int64_t symbols = 20000) const;

 private:
  std::filesystem::path folder_;
};

// Deterministic text with some structure to learn (words from a small lexicon).
std::string syntheticText(int64_t symbols, uint64_t seed = 1);

}  // namespace mrnn::test
