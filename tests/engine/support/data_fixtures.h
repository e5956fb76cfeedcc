#pragma once

// Helpers for the corpus tests: a throwaway folder of small synthetic corpora, and the
// shared corpora (skipped, never passed, when ../shared/data is absent).

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_harness.h"

namespace mrnn::test {

class DataScratch {
 public:
  explicit DataScratch(const std::string& name)
      : folder_(std::filesystem::temp_directory_path() /
                ("mrnn-data-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(folder_);
    std::filesystem::create_directories(folder_);
  }
  ~DataScratch() {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  DataScratch(const DataScratch&) = delete;
  DataScratch& operator=(const DataScratch&) = delete;

  std::string folder() const { return folder_.string(); }
  std::string path(const std::string& name) const { return (folder_ / name).string(); }
  // Writes `contents` byte for byte and returns the file's path.
  std::string write(const std::string& name, const std::string& contents) const {
    std::ofstream out(folder_ / name, std::ios::binary);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return path(name);
  }

 private:
  std::filesystem::path folder_;
};

// A file of the shared corpora, or a skip when they are not installed next to the project.
inline std::string sharedCorpus(const std::string& relative) {
  const std::filesystem::path file = std::filesystem::path(MRNN_SHARED_DIR) / "data" / relative;
  if (!std::filesystem::exists(file)) MRNN_SKIP("no shared corpus " + file.string());
  return file.string();
}

}  // namespace mrnn::test
