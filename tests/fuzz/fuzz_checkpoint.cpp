// A checkpoint (engine/training/checkpoint.h): its header, checksum, archive and snapshot.
// An input that starts as a checkpoint does has its header's size and checksum made right
// first, so the fuzzer reaches the archive behind them (as a file made to break the reader
// would); the others exercise the header's own checks. What opens is then loaded as a run
// resumes it (weights and recurrent state into the seed checkpoint's model), so that tensors
// whose bytes lie elsewhere than their archive says are read, not only opened.
#include <torch/torch.h>
#include <yaml-cpp/yaml.h>

#include "engine/config/model_config_parser.h"
#include "engine/config/yaml_reader.h"
#include "engine/models/language_model.h"
#include "engine/training/checkpoint.h"
#include "fuzz_input.h"

namespace {

constexpr size_t kHeaderSize = 32;  // tag, format version, payload size, checksum

// The header's checksum as the format defines it: FNV-1a, 64 bits, over the payload.
uint64_t fnv1a(const uint8_t* data, size_t size) {
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

void putU64(std::string& bytes, size_t at, uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

// The model of the seed corpus's checkpoint (tiny.pt): a character mLSTM of 16 units.
const mrnn::engine::ModelConfig& seedModel() {
  static const mrnn::engine::ModelConfig model = [] {
    mrnn::engine::YamlReader reader("seed model");
    return mrnn::engine::parseModelSection(YAML::Load("input: {level: char, embedding_size: 8}\n"
                                                      "layers: [{type: mlstm, hidden_size: 16}]\n"),
                                           reader);
  }();
  return model;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes = mrnn::fuzz::asText(data, size);
  // Odd final bytes keep the header as it is, so damaged sizes and checksums stay fuzzed too.
  if (size > kHeaderSize && (data[size - 1] & 1) == 0) {
    putU64(bytes, 16, size - kHeaderSize);
    putU64(bytes, 24, fnv1a(data + kHeaderSize, size - kHeaderSize));
  }
  try {
    auto checkpoint = mrnn::engine::Checkpoint::open(mrnn::fuzz::asFile(
        reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "latest.pt"));
    const int64_t symbols = static_cast<int64_t>(checkpoint.vocabulary().size());
    if (symbols > 0 && symbols < 4096) {
      torch::NoGradGuard noGrad;
      mrnn::engine::LanguageModel model(seedModel(), symbols);
      checkpoint.loadModel(model);
      mrnn::engine::ModelState state = model.initialState(4);
      checkpoint.loadState(state, model);
      const auto& snapshot = checkpoint.snapshot();
      if (snapshot.rngState.defined()) snapshot.rngState.sum();  // every byte read
    }
  } catch (const mrnn::engine::CheckpointError&) {
  }
  return 0;
}
