// Files made to break the model readers: pickles nested a hundred thousand deep, tensor
// descriptions with floats, negative or overlapping extents, archives whose storage would
// inflate past what they declare, state dicts of impossible shapes, forged descriptions and
// vocabularies. Each is refused in one sentence naming the file; none crashes.

#include <caffe2/serialize/inline_container.h>
#include <torch/torch.h>

#include <cstring>
#include <filesystem>

#include "engine/config/project_file.h"
#include "engine/interop/import_vocabulary.h"
#include "engine/interop/imported_model.h"
#include "engine/interop/model_export.h"
#include "engine/interop/restricted_unpickler.h"
#include "engine/interop/run_import.h"
#include "engine/interop/torch_file.h"
#include "engine/io/atomic_file.h"
#include "engine/models/language_model.h"
#include "engine/store/run_catalogue.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;
using engine::InteropError;

namespace {

// Pickle pieces (protocol 2), enough to write a state dict by hand.
std::string text(const std::string& s) {  // BINUNICODE
  std::string out = "X";
  const auto n = static_cast<uint32_t>(s.size());
  for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
  return out + s;
}
std::string integer(int32_t value) {  // BININT
  std::string out = "J";
  const auto bits = static_cast<uint32_t>(value);
  for (int i = 0; i < 4; ++i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
  return out;
}
std::string real(double value) {  // BINFLOAT, big-endian
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  std::string out = "G";
  for (int i = 7; i >= 0; --i) out += static_cast<char>((bits >> (8 * i)) & 0xff);
  return out;
}

// {"w": _rebuild_tensor_v2(storage "0" of `numel` floats, offset, sizes, strides, False, {})}.
std::string stateDictPickle(const std::string& storageType, const std::string& numel,
                            const std::string& sizes, const std::string& strides) {
  return std::string("\x80\x02}", 3) + text("w") + "ctorch._utils\n_rebuild_tensor_v2\n(" + "(" +
         text("storage") + "ctorch\n" + storageType + "\n" + text("0") + text("cpu") + numel +
         "tQ" + integer(0) + "(" + sizes + "t(" + strides + "t\x89}tRs.";
}

engine::RestrictedUnpickler onesLoader(const std::string& file) {
  return engine::RestrictedUnpickler(
      file, [](const std::string&, torch::ScalarType type, int64_t numel) {
        return torch::ones({numel}, torch::TensorOptions().dtype(type));
      });
}

// A torch.save-shaped archive of `pickle` and its storages, as PyTorch's writer lays it out.
void writeArchive(const std::string& path, const std::string& pickle,
                  const std::vector<std::pair<std::string, std::string>>& records,
                  uint64_t version = 0) {
  std::string archive;
  caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, size_t size) {
    archive.append(static_cast<const char*>(bytes), size);
    return size;
  });
  if (version > 0) writer.setMinVersion(version);
  writer.writeRecord("data.pkl", pickle.data(), pickle.size());
  for (const auto& [name, bytes] : records) writer.writeRecord(name, bytes.data(), bytes.size());
  writer.writeEndOfFile();
  engine::writeFileAtomically(path, archive);
}

engine::ImportRequest requestFor(const std::string& file, const std::string& vocabulary) {
  engine::ImportRequest request;
  request.file = file;
  request.vocabularyFile = vocabulary;
  return request;
}

}  // namespace

// The defect: 200 KB of lists nested 100,000 deep crashed (a chain of destructors ~174,000
// frames deep); MARK/TUPLE nesting 200,000 deep the same.
MRNN_TEST(pickles_nested_a_hundred_thousand_deep_are_refused_without_a_crash) {
  const auto unpickler = onesLoader("deep.pt");
  const size_t depth = 200'000;
  const std::string lists =
      "\x80\x02" + std::string(depth, '(') + "]" + std::string(depth, 'l') + ".";
  EXPECT_THROWS_WITH(InteropError, unpickler.stateDict(lists), "deep.pt",
                     "no dictionary of tensors");
  const std::string tuples =
      "\x80\x02" + std::string(depth, '(') + ")" + std::string(depth, 't') + ".";
  EXPECT_THROWS_WITH(InteropError, unpickler.stateDict(tuples), "deep.pt");
  // A list inside itself, through the memo: a cycle, released all the same.
  const std::string cycle = std::string("\x80\x02]q\x00h\x00\x61.", 9);
  EXPECT_THROWS_WITH(InteropError, unpickler.stateDict(cycle), "no dictionary of tensors");
}

// The defect: a float in a stride was read as 0 and imported wrong weights from a file
// torch.load refuses; complex and quantized storages were "code, not data"; a negative
// element count made "fewer than the -1 elements".
MRNN_TEST(tensor_descriptions_that_torch_load_refuses_are_refused) {
  const auto unpickler = onesLoader("forged.pt");
  EXPECT_EQ(unpickler.stateDict(stateDictPickle("FloatStorage", integer(2), integer(2), integer(1)))
                .size(),
            size_t{1});
  EXPECT_THROWS_WITH(
      InteropError,
      unpickler.stateDict(stateDictPickle("FloatStorage", integer(2), integer(2), real(1.0))),
      "forged.pt", "stride is not an integer");
  EXPECT_THROWS_WITH(
      InteropError,
      unpickler.stateDict(stateDictPickle("FloatStorage", integer(2), real(2.0), integer(1))),
      "size is not an integer");
  EXPECT_THROWS_WITH(
      InteropError,
      unpickler.stateDict(stateDictPickle("FloatStorage", integer(-1), integer(2), integer(1))),
      "declares -1 elements");
  EXPECT_THROWS_WITH(InteropError,
                     unpickler.stateDict(stateDictPickle("ComplexFloatStorage", integer(2),
                                                         integer(2), integer(1))),
                     "complex-valued tensor", "torch.ComplexFloatStorage");
  EXPECT_THROWS_WITH(
      InteropError,
      unpickler.stateDict(stateDictPickle("QInt8Storage", integer(2), integer(2), integer(1))),
      "quantized tensor");
  // An expanded view: 1,000,000 elements of one stored float.
  EXPECT_THROWS_WITH(InteropError,
                     unpickler.stateDict(stateDictPickle("FloatStorage", integer(1),
                                                         integer(1'000'000), integer(0))),
                     "overlapping");
  // Sizes whose product overflows 64 bits.
  EXPECT_THROWS_WITH(InteropError,
                     unpickler.stateDict(stateDictPickle(
                         "FloatStorage", integer(2),
                         integer(0x7fffffff) + integer(0x7fffffff) + integer(0x7fffffff),
                         integer(0) + integer(0) + integer(0))),
                     "forged.pt");
}

// The defect: a 4 MB archive whose data/0 inflated to 4 GiB while its pickle declared 168
// floats imported, using 4.5 GB. A record is measured by the directory before it is read.
MRNN_TEST(a_storage_is_never_read_past_what_the_pickle_declares) {
  test::ScratchProject scratch("interop_hostile_bomb");
  const std::string pickle = stateDictPickle("FloatStorage", integer(2), integer(2), integer(1));
  writeArchive(scratch.file("fits.pt"), pickle, {{"data/0", std::string(8, '\0')}});
  EXPECT_EQ(engine::readTorchStateDict(scratch.file("fits.pt")).size(), size_t{1});
  writeArchive(scratch.file("bomb.pt"), pickle, {{"data/0", std::string(1 << 20, '\0')}});
  EXPECT_THROWS_WITH(InteropError, engine::readTorchStateDict(scratch.file("bomb.pt")), "bomb.pt",
                     "1048576 bytes, more than its 2 elements need");
  writeArchive(scratch.file("short.pt"), pickle, {{"data/0", std::string(4, '\0')}});
  EXPECT_THROWS_WITH(InteropError, engine::readTorchStateDict(scratch.file("short.pt")),
                     "fewer than its 2 elements need");
  // A format newer than this LibTorch reads: named, not "[enforce fail at ...]".
  writeArchive(scratch.file("new.pt"), pickle, {{"data/0", std::string(8, '\0')}}, 99);
  EXPECT_THROWS_WITH(InteropError, engine::readTorchStateDict(scratch.file("new.pt")), "new.pt",
                     "format version 99");
}

// The defect: weights of shape [0, 8] crashed the import (SIGFPE); a malformed LSTM was
// called a GRU; shapes that did not fit reached LibTorch ("The size of tensor a ...").
MRNN_TEST(state_dicts_of_impossible_shapes_are_refused_naming_the_tensor) {
  test::ScratchProject scratch("interop_hostile_shapes");
  scratch.write("five.txt", "a\nb\nc\nd\ne\n");
  const auto lm = [&](torch::Tensor wih, torch::Tensor whh, torch::Tensor decoder) {
    engine::writeTorchStateDict(scratch.file("lm.pt"), {{"encoder.weight", torch::ones({5, 3})},
                                                        {"rnn.weight_ih_l0", std::move(wih)},
                                                        {"rnn.weight_hh_l0", std::move(whh)},
                                                        {"decoder.weight", std::move(decoder)},
                                                        {"decoder.bias", torch::zeros({5})}});
    return requestFor(scratch.file("lm.pt"), scratch.file("five.txt"));
  };
  EXPECT_THROWS_WITH(
      InteropError,
      engine::readModelFile(lm(torch::ones({0, 3}), torch::ones({0, 8}), torch::ones({5, 8}))),
      "lm.pt", "rnn.weight_hh_l0", "[0, 8]");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::readModelFile(lm(torch::ones({8, 3}), torch::ones({8, 0}), torch::ones({5, 8}))),
      "no columns");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::readModelFile(lm(torch::ones({24, 3}), torch::ones({32, 8}), torch::ones({5, 8}))),
      "'rnn.weight_ih_l0' has shape [24, 3]", "[32, 3]");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::readModelFile(lm(torch::ones({32, 3}), torch::ones({32, 8}), torch::ones({5, 7}))),
      "'decoder.weight' has shape [5, 7]", "[5, 8]");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::readModelFile(lm(torch::ones({32, 4}), torch::ones({32, 8}), torch::ones({5, 8}))),
      "cannot tell the embedding");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::readModelFile(lm(torch::ones({32}), torch::ones({32, 8}), torch::ones({5, 8}))),
      "are matrices");
  // A GRU is one when both matrices say so.
  EXPECT_THROWS_WITH(
      InteropError,
      engine::readModelFile(lm(torch::ones({32, 3}), torch::ones({24, 8}), torch::ones({5, 8}))),
      "'rnn.weight_hh_l0' has shape [24, 8]", "a GRU 24");
  const auto gru =
      engine::readModelFile(lm(torch::ones({24, 3}), torch::ones({24, 8}), torch::ones({5, 8})));
  EXPECT(gru.model.layers[0].type == engine::CellType::Gru && gru.model.layers[0].resetAfter);
}

// The defect: a mapping file with a key twice took the last; a value that was a list gave
// "bad conversion" with no key.
MRNN_TEST(a_mapping_file_says_which_key_is_wrong) {
  test::ScratchProject scratch("interop_hostile_mapping");
  scratch.write("five.txt", "a\nb\nc\nd\ne\n");
  engine::ImportRequest request =
      requestFor(std::string(MRNN_INTEROP_FILES) + "/lstm_state_dict.pt", scratch.file("five.txt"));
  scratch.write("twice.yaml", "embedding: encoder.weight\nembedding: decoder.weight\n");
  request.mappingFile = scratch.file("twice.yaml");
  EXPECT_THROWS_WITH(InteropError, engine::readModelFile(request), "twice.yaml':2",
                     "'embedding' appears twice");
  scratch.write("list.yaml", "rnn: [a, b]\n");
  request.mappingFile = scratch.file("list.yaml");
  EXPECT_THROWS_WITH(InteropError, engine::readModelFile(request), "list.yaml':1",
                     "rnn:", "name of a tensor");
  request.mappingFile = "/dev/zero";
  EXPECT_THROWS_WITH(InteropError, engine::readModelFile(request), "/dev/zero", "a device");
}

// The defect: a char-level vocabulary took a leading BOM into its first symbol, lines of
// several characters, invalid UTF-8 and a 10-million-character line as one symbol.
MRNN_TEST(a_character_vocabulary_names_one_character_a_line) {
  test::ScratchProject scratch("interop_hostile_vocabulary");
  const auto read = [&](const std::string& name, const std::string& contents) {
    scratch.write(name, contents);
    return engine::vocabularyFromSymbolFile(scratch.file(name), engine::InputLevel::Char);
  };
  const auto bom = read("bom.txt",
                        "\xEF\xBB\xBF"
                        "a\nb\n<unk>\n");
  EXPECT_EQ(bom.symbol(0), std::string("a"));
  EXPECT_EQ(bom.size(), int64_t{3});
  EXPECT_THROWS_WITH(InteropError, read("wide.txt", "a\nbc\n"), "wide.txt':2", "'bc' is 2",
                     "one character a line");
  EXPECT_THROWS_WITH(InteropError, read("bad.txt", "a\n\xff\xfe\n"), "bad.txt':2", "not UTF-8");
  EXPECT_THROWS_WITH(InteropError, read("long.txt", std::string(10'000'000, 'x')), "long.txt':1",
                     "10000000 bytes");
  EXPECT_THROWS_WITH(InteropError,
                     engine::vocabularyFromSymbolFile("/dev/zero", engine::InputLevel::Char),
                     "/dev/zero", "a device");
  scratch.write("words.txt", "the cat\n");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::vocabularyFromSymbolFile(scratch.file("words.txt"), engine::InputLevel::Word),
      "holds a space");
}

// The defect: a forged FILE.pt.json beside an export turned a char model into a word-level
// run inside a char project.
MRNN_TEST(a_model_of_another_level_is_not_imported_into_a_project) {
  test::ScratchProject scratch("interop_hostile_level");
  engine::Project project = scratch.project(200);
  engine::saveProject(project, scratch.file("project.yaml"));
  scratch.write("five.txt", "the\ncat\n\\n\n<unk>\n<eos>\n");
  engine::ImportRequest request =
      requestFor(std::string(MRNN_INTEROP_FILES) + "/lstm_state_dict.pt", scratch.file("five.txt"));
  const auto words = engine::readModelFile(request);  // a word-level model
  EXPECT_THROWS_WITH(InteropError,
                     engine::importAsRun(scratch.file("project.yaml"), words, request.file, "w"),
                     "word-level model", "char level");
  EXPECT(!std::filesystem::exists(scratch.file("runs.sqlite")) ||
         engine::RunCatalogue(scratch.folder().string()).runs().empty());
}
