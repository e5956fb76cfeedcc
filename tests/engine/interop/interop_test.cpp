// The file formats models travel in: PyTorch's zip pickle (written here and read back, and
// read as PyTorch itself wrote it) and safetensors; every damaged, foreign or booby-trapped
// file is refused in words.

#include <torch/torch.h>

#include <filesystem>
#include <fstream>

#include "engine/interop/restricted_unpickler.h"
#include "engine/interop/safetensors_file.h"
#include "engine/interop/torch_file.h"
#include "engine/io/atomic_file.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;
using engine::InteropError;

namespace {

const std::string kFiles = MRNN_INTEROP_FILES;

engine::NamedTensors sampleTensors() {
  torch::manual_seed(11);
  return {{"layer1.W_x", torch::randn({8, 3})},
          {"layer1.b", torch::randn({8}, torch::kFloat64)},
          {"steps", torch::arange(5, torch::kInt64)},
          {"transposed", torch::randn({3, 4}).t()}};  // not contiguous: written as it reads
}

void expectSame(const engine::NamedTensors& read, const engine::NamedTensors& written) {
  EXPECT_EQ(read.size(), written.size());
  for (size_t i = 0; i < std::min(read.size(), written.size()); ++i) {
    EXPECT_EQ(read[i].first, written[i].first);
    EXPECT_MSG(read[i].second.scalar_type() == written[i].second.scalar_type(), read[i].first);
    EXPECT_MSG(torch::equal(read[i].second, written[i].second), read[i].first + " differs");
  }
}

// The first `bytes` bytes of `from`, as a new file.
void truncateCopy(const std::string& from, const std::string& to, size_t bytes) {
  const std::string whole = engine::readWholeFile(from);
  engine::writeFileAtomically(to, whole.substr(0, bytes));
}

}  // namespace

MRNN_TEST(torch_state_dict_round_trip_keeps_names_order_types_and_bits) {
  test::ScratchProject scratch("interop_torch");
  const auto tensors = sampleTensors();
  engine::writeTorchStateDict(scratch.file("m.pt"), tensors);
  EXPECT(engine::looksLikeTorchZip(scratch.file("m.pt")));
  expectSame(engine::readTorchStateDict(scratch.file("m.pt")), tensors);
}

MRNN_TEST(reads_a_state_dict_pytorch_saved) {
  // torch.save(model.state_dict()) of an Embedding(5, 3), LSTM(3, 2), Linear(2, 5): an
  // OrderedDict with _metadata, as PyTorch 1.13 writes it.
  const auto tensors = engine::readTorchStateDict(kFiles + "/lstm_state_dict.pt");
  const std::vector<std::string> names = {"encoder.weight", "rnn.weight_ih_l0", "rnn.weight_hh_l0",
                                          "rnn.bias_ih_l0", "rnn.bias_hh_l0",   "decoder.weight",
                                          "decoder.bias"};
  EXPECT_EQ(tensors.size(), names.size());
  for (size_t i = 0; i < std::min(tensors.size(), names.size()); ++i)
    EXPECT_EQ(tensors[i].first, names[i]);
  EXPECT_NEAR(engine::findTensor(tensors, "encoder.weight")->index({1, 2}).item<double>(),
              -1.3682591915130615, 1e-7);
  EXPECT_NEAR(engine::findTensor(tensors, "rnn.weight_hh_l0")->index({7, 1}).item<double>(),
              0.5826319456100464, 1e-7);
  EXPECT_NEAR(engine::findTensor(tensors, "decoder.bias")->index({4}).item<double>(),
              0.07488381862640381, 1e-7);
  EXPECT(engine::findTensor(tensors, "rnn.weight_hh_l0")->sizes() == torch::IntArrayRef({8, 2}));
}

MRNN_TEST(damaged_and_foreign_torch_files_are_refused_in_words) {
  test::ScratchProject scratch("interop_torch_bad");
  EXPECT_THROWS_WITH(InteropError, engine::readTorchStateDict(scratch.file("none.pt")), "none.pt",
                     "does not exist");
  EXPECT_THROWS_WITH(InteropError, engine::readTorchStateDict(kFiles + "/legacy.pt"),
                     "legacy format", "torch.save");
  scratch.write("notes.pt", "these are my notes\n");
  EXPECT_THROWS_WITH(InteropError, engine::readTorchStateDict(scratch.file("notes.pt")), "notes.pt",
                     "is not a PyTorch file");
  engine::writeTorchStateDict(scratch.file("whole.pt"), sampleTensors());
  const auto size = std::filesystem::file_size(scratch.file("whole.pt"));
  for (const size_t keep : {size_t{10}, size_t{size / 2}, size_t{size - 30}}) {
    truncateCopy(scratch.file("whole.pt"), scratch.file("cut.pt"), keep);
    EXPECT_THROWS_WITH(InteropError, engine::readTorchStateDict(scratch.file("cut.pt")), "cut.pt");
  }
}

MRNN_TEST(a_pickle_that_names_code_is_refused_and_never_run) {
  // pickle protocol 2 for os.system("touch trapped"): GLOBAL, a string, TUPLE1, REDUCE.
  const std::string pickle = std::string(
      "\x80\x02"
      "cos\nsystem\nq\x00X\x0c\x00\x00\x00touch trappedq\x01\x85q\x02R.",
      40);
  const engine::RestrictedUnpickler unpickler(
      "trap.pt", [](const std::string&, torch::ScalarType, int64_t) -> torch::Tensor {
        throw std::logic_error("no storage should be asked for");
      });
  EXPECT_THROWS_WITH(InteropError, unpickler.stateDict(pickle), "trap.pt", "os.system",
                     "code, not data", "pickle byte 2");
  EXPECT(!std::filesystem::exists("trapped"));
  EXPECT_THROWS_WITH(InteropError, unpickler.stateDict(std::string("\x80\x02}q\x00", 5)),
                     "ends before its STOP");
  EXPECT_THROWS_WITH(InteropError, unpickler.stateDict(std::string("\x80\x02K\x05.", 5)),
                     "no dictionary of tensors");
}

MRNN_TEST(safetensors_round_trip_keeps_metadata_and_bits) {
  test::ScratchProject scratch("interop_safetensors");
  engine::SafetensorsContent content{sampleTensors(), {{"mrnn", "{\"a\": \"\\u00e9\\n\"}"}}};
  engine::writeSafetensors(scratch.file("m.safetensors"), content);
  const auto read = engine::readSafetensors(scratch.file("m.safetensors"));
  std::map<std::string, torch::Tensor> byName(read.tensors.begin(), read.tensors.end());
  for (const auto& [name, tensor] : content.tensors) {
    EXPECT_MSG(byName.count(name) && torch::equal(byName[name], tensor), name);
  }
  EXPECT_EQ(read.metadata.at("mrnn"), content.metadata.at("mrnn"));
  // The data starts 8-byte aligned, as the format asks.
  const std::string file = engine::readWholeFile(scratch.file("m.safetensors"));
  EXPECT_EQ(static_cast<unsigned char>(file[0]) % 8, 0);
}

MRNN_TEST(damaged_safetensors_files_are_refused_in_words) {
  test::ScratchProject scratch("interop_safetensors_bad");
  engine::writeSafetensors(scratch.file("m.safetensors"), {sampleTensors(), {}});
  const std::string file = engine::readWholeFile(scratch.file("m.safetensors"));
  truncateCopy(scratch.file("m.safetensors"), scratch.file("cut.safetensors"), file.size() - 4);
  EXPECT_THROWS_WITH(InteropError, engine::readSafetensors(scratch.file("cut.safetensors")),
                     "cut.safetensors", "truncated");
  truncateCopy(scratch.file("m.safetensors"), scratch.file("short.safetensors"), 5);
  EXPECT_THROWS_WITH(InteropError, engine::readSafetensors(scratch.file("short.safetensors")),
                     "5 bytes long");
  const auto header = [](const std::string& json) {
    std::string bytes(8, '\0');
    bytes[0] = static_cast<char>(json.size());
    return bytes + json + std::string(64, '\0');
  };
  scratch.write("huge.safetensors", std::string("\xff\xff\xff\xff\xff\xff\xff\x7f", 8) + "{}");
  EXPECT_THROWS_WITH(InteropError, engine::readSafetensors(scratch.file("huge.safetensors")),
                     "header claims");
  scratch.write("json.safetensors", header("{\"a\": [1, 2"));
  EXPECT_THROWS_WITH(InteropError, engine::readSafetensors(scratch.file("json.safetensors")),
                     "not valid JSON");
  scratch.write("overlap.safetensors",
                header("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                       "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}"));
  EXPECT_THROWS_WITH(InteropError, engine::readSafetensors(scratch.file("overlap.safetensors")),
                     "overlap");
  scratch.write("dtype.safetensors",
                header("{\"a\":{\"dtype\":\"F8_E4M3\",\"shape\":[2],\"data_offsets\":[0,2]}}"));
  EXPECT_THROWS_WITH(InteropError, engine::readSafetensors(scratch.file("dtype.safetensors")),
                     "tensor 'a' has dtype F8_E4M3");
  scratch.write("shape.safetensors",
                header("{\"a\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}"));
  EXPECT_THROWS_WITH(InteropError, engine::readSafetensors(scratch.file("shape.safetensors")),
                     "tensor 'a' has 8 bytes for shape [3]");
}
