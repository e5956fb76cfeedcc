#pragma once

// What the fuzz targets share: the input as a file (the readers under test read paths), and
// the one entry point libFuzzer calls (replay_main.cpp calls it too, where the targets are
// built without libFuzzer).

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace mrnn::fuzz {

// The input written to a file of this process's own, named `name` (its extension can matter:
// .safetensors), and its path.
inline std::string asFile(const uint8_t* data, size_t size, const std::string& name) {
  const std::string folder = "/tmp/mrnn-fuzz-" + std::to_string(::getpid());
  static const bool made = std::filesystem::create_directories(folder);
  (void)made;
  const std::string path = folder + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

inline std::string asText(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace mrnn::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
