// The fuzz targets' driver where they are built without libFuzzer (the `ci` preset, GCC):
// every input of the given folders and files goes through the target once (the seed corpus and
// the regression inputs), then, with --mutate SECONDS, inputs mutated from them (bits flipped,
// bytes inserted, cut, spliced) for that long. A crash, a sanitizer report or an escaped
// exception ends the process and fails the test; a clean run prints its counts.
// usage: fuzz_<target> [--mutate SECONDS] [--seed N] (FOLDER | FILE)...

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "fuzz_input.h"

namespace {

std::vector<std::string> inputsOf(const std::vector<std::string>& places) {
  std::vector<std::string> files;
  for (const auto& place : places) {
    if (std::filesystem::is_directory(place)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(place)) {
        if (entry.is_regular_file()) files.push_back(entry.path().string());
      }
    } else if (std::filesystem::is_regular_file(place)) {
      files.push_back(place);
    }
  }
  return files;
}

std::string contentsOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

int run(const std::string& input) {
  return LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
}

std::string mutated(const std::string& from, const std::string& other, std::mt19937_64& random) {
  std::string out = from;
  const int edits = 1 + static_cast<int>(random() % 4);
  for (int e = 0; e < edits; ++e) {
    const size_t at = out.empty() ? 0 : random() % out.size();
    switch (random() % 6) {
      case 0:  // a bit flipped
        if (!out.empty()) out[at] = static_cast<char>(out[at] ^ (1 << (random() % 8)));
        break;
      case 1:  // a byte replaced with an interesting one
        if (!out.empty()) {
          const char bytes[] = {0, 1, '\x7f', '\x80', '\xff', '\n', ':', '[', '{', '-', '9'};
          out[at] = bytes[random() % sizeof bytes];
        }
        break;
      case 2:  // bytes inserted
        out.insert(at, std::string(1 + random() % 8, static_cast<char>(random())));
        break;
      case 3:  // a stretch removed
        if (!out.empty()) out.erase(at, 1 + random() % 16);
        break;
      case 4:  // cut short
        out.resize(at);
        break;
      case 5:  // a piece of another input spliced in
        if (!other.empty()) {
          const size_t from2 = random() % other.size();
          out.insert(at, other.substr(from2, 1 + random() % 64));
        }
        break;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 0.0;
  uint64_t seed = 1;
  std::vector<std::string> places;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--mutate") == 0 && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else {
      places.push_back(argv[i]);
    }
  }
  const auto files = inputsOf(places);
  std::vector<std::string> inputs;
  for (const auto& file : files) {
    inputs.push_back(contentsOf(file));
    run(inputs.back());
  }
  std::cout << "replayed " << inputs.size() << " inputs" << std::endl;
  int64_t mutations = 0;
  if (seconds > 0 && !inputs.empty()) {
    std::mt19937_64 random(seed);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
      const std::string& from = inputs[random() % inputs.size()];
      const std::string& other = inputs[random() % inputs.size()];
      run(mutated(from, other, random));
      ++mutations;
    }
    std::cout << "ran " << mutations << " mutated inputs (seed " << seed << ")" << std::endl;
  }
  std::cout << inputs.size() + static_cast<size_t>(mutations) << " passed, 0 failed" << std::endl;
  return 0;
}
