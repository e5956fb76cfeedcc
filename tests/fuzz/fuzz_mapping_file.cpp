// The mapping file of `mrnn import --mapping` (engine/interop/imported_model.h), beside a
// PyTorch LSTM language model of five symbols.
#include <torch/torch.h>

#include <fstream>

#include "engine/interop/imported_model.h"
#include "engine/interop/torch_file.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string model = [] {
    const std::string path = mrnn::fuzz::asFile(nullptr, 0, "lm.pt");
    mrnn::engine::writeTorchStateDict(path, {{"encoder.weight", torch::ones({5, 3})},
                                             {"rnn.weight_ih_l0", torch::ones({8, 3})},
                                             {"rnn.weight_hh_l0", torch::ones({8, 2})},
                                             {"decoder.weight", torch::ones({5, 2})},
                                             {"decoder.bias", torch::ones({5})}});
    std::ofstream(mrnn::fuzz::asFile(nullptr, 0, "five.txt")) << "a\nb\nc\nd\ne\n";
    return path;
  }();
  mrnn::engine::ImportRequest request;
  request.file = model;
  request.vocabularyFile = mrnn::fuzz::asFile(nullptr, 0, "five.txt");
  request.level = mrnn::engine::InputLevel::Char;
  request.mappingFile = mrnn::fuzz::asFile(data, size, "mapping.yaml");
  try {
    mrnn::engine::readModelFile(request);
  } catch (const mrnn::engine::InteropError&) {
  }
  return 0;
}
