// A checkpoint (engine/training/checkpoint.h): its header, checksum, archive and snapshot, and
// the same header and checksum read in pieces from the file (engine/io/checkpoint_envelope.h).
// An input that starts as a checkpoint does has its header's size and checksum made right
// first, so the fuzzer reaches the archive behind them (as a file made to break the reader
// would); the others exercise the header's own checks. What opens is then loaded as a run
// resumes it (weights and recurrent state into the seed checkpoint's model), so that tensors
// whose bytes lie elsewhere than their archive says are read, not only opened.
#include <torch/torch.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>

#include "engine/config/model_config_parser.h"
#include "engine/config/yaml_reader.h"
#include "engine/io/checkpoint_envelope.h"
#include "engine/io/fnv1a.h"
#include "engine/models/language_model.h"
#include "engine/training/checkpoint.h"
#include "fuzz_input.h"

namespace {

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
  constexpr size_t kHeader = mrnn::engine::kCheckpointHeaderBytes;
  if (size > kHeader && (data[size - 1] & 1) == 0) {
    putU64(bytes, 16, size - kHeader);
    putU64(bytes, 24, mrnn::engine::fnv1a(bytes.data() + kHeader, size - kHeader));
  }
  const std::string file =
      mrnn::fuzz::asFile(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "latest.pt");
  // The run browser's check before a resume reads the file in pieces; it must say what the
  // check of the whole bytes says.
  if (mrnn::engine::checkpointFileProblem(file) !=
      mrnn::engine::checkpointEnvelopeProblem(bytes, file)) {
    std::abort();
  }
  try {
    auto checkpoint = mrnn::engine::Checkpoint::open(file);
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
