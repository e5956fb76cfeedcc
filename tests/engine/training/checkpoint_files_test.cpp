// Checkpoint files as a user's disk or another program may hand them over: another model or
// vocabulary, cut, corrupt, damaged behind a matching checksum, carrying code, another format
// version, and a full disk while one is written.

#include <sys/resource.h>

#include <csignal>
#include <sstream>

#include <caffe2/serialize/inline_container.h>
#include <torch/torch.h>

#include "engine/io/atomic_file.h"
#include "engine/training/checkpoint.h"
#include "test_harness.h"
#include "training_fixtures.h"
#include "training_runs.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

constexpr size_t kHeader = 32;  // tag, format version, payload size, FNV-1a of the payload

// The bytes of the checkpoint a one-step run of `project` leaves.
std::string oneStepCheckpointBytes(engine::Project& project) {
  project.training.maxSteps = 1;
  return engine::readWholeFile(trainToEnd(project).latestCheckpoint, UINT64_MAX);
}

// `file` (a checkpoint) with its header's payload size and checksum made to agree with its
// payload: damage behind the header that the header's own checks cannot see.
std::string sealed(std::string file) {
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = kHeader; i < file.size(); ++i) {
    hash ^= static_cast<unsigned char>(file[i]);
    hash *= 1099511628211ull;
  }
  const uint64_t payload = file.size() - kHeader;
  for (int i = 0; i < 8; ++i) {
    file[16 + i] = static_cast<char>((payload >> (8 * i)) & 0xff);
    file[24 + i] = static_cast<char>((hash >> (8 * i)) & 0xff);
  }
  return file;
}

}  // namespace

MRNN_TEST(checkpoint_of_another_model_or_vocabulary_is_refused) {
  ScratchProject scratch("mismatch");
  auto project = scratch.project();
  project.training.maxSteps = 2;
  const auto outcome = trainToEnd(project);
  EXPECT_MSG(outcome.finished, outcome.reason);

  // Loading it into another model (an analysis, a warm start) says in one line where the
  // two differ, not the whole model section.
  auto wider = project;
  wider.model.layers[0].hiddenSize = 24;
  auto checkpoint = engine::Checkpoint::open(outcome.latestCheckpoint);
  try {
    checkpoint.checkCompatible(wider.model, checkpoint.vocabulary());
    EXPECT_MSG(false, "another model was accepted");
  } catch (const engine::CheckpointError& error) {
    const std::string message = error.what();
    EXPECT_MSG(
        message.find(
            "another model (`hidden_size: " + std::to_string(project.model.layers[0].hiddenSize) +
            "` in the checkpoint, `hidden_size: 24` in the project)") != std::string::npos &&
            message.find('\n') == std::string::npos,
        message);
  }
  // Numbers as a researcher writes them, not every digit of the stored double.
  auto scaled = project;
  scaled.model.init.recurrentScale = 0.3;
  try {
    checkpoint.checkCompatible(scaled.model, checkpoint.vocabulary());
    EXPECT_MSG(false, "another recurrent scale was accepted");
  } catch (const engine::CheckpointError& error) {
    const std::string message = error.what();
    EXPECT_MSG(message.find("(`recurrent_scale: 0.7` in the checkpoint, `recurrent_scale: 0.3` "
                            "in the project)") != std::string::npos,
               message);
  }

  std::string fewer = syntheticText(5000, 1);
  std::replace(fewer.begin(), fewer.end(), 'a', 'e');  // one symbol fewer
  scratch.write("other.txt", fewer);
  auto otherText = project;
  otherText.data.train = "other.txt";
  const auto vocabulary = trainToEnd(otherText, outcome.latestCheckpoint);
  EXPECT(vocabulary.failed);
  EXPECT_MSG(vocabulary.reason.find("another vocabulary") != std::string::npos, vocabulary.reason);
}

MRNN_TEST(truncated_corrupt_and_missing_checkpoints_are_refused) {
  ScratchProject scratch("corrupt");
  auto project = scratch.project();
  project.training.maxSteps = 2;
  const auto outcome = trainToEnd(project);
  const std::string bytes = engine::readWholeFile(outcome.latestCheckpoint, UINT64_MAX);
  scratch.write("truncated.pt", bytes.substr(0, bytes.size() / 2));
  EXPECT_THROWS_WITH(engine::CheckpointError,
                     engine::Checkpoint::open(scratch.file("truncated.pt")), "truncated.pt",
                     "is truncated");
  // Flipped bytes in the middle of the tensor data: LibTorch's archive alone accepts these.
  std::string flipped = bytes;
  for (size_t i = flipped.size() / 2; i < flipped.size() / 2 + 16; ++i) {
    flipped[i] = static_cast<char>(~flipped[i]);
  }
  scratch.write("corrupt.pt", flipped);
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("corrupt.pt")),
                     "corrupt.pt", "is corrupt");
  scratch.write("text.pt", "not a checkpoint at all");
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("text.pt")),
                     "text.pt");
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("none.pt")),
                     "none.pt", "does not exist");
  const auto resumed = trainToEnd(project, scratch.file("truncated.pt"));
  EXPECT(resumed.failed);
}

// A payload damaged where LibTorch's reader fails, its header and checksum made to agree:
// the refusal is one line naming the file, never LibTorch's "Exception raised from ...
// frame #0" backtrace.
MRNN_TEST(a_damaged_payload_with_a_matching_checksum_is_refused_in_one_line) {
  ScratchProject scratch("consistent-damage");
  auto project = scratch.project();
  std::string bytes = oneStepCheckpointBytes(project);
  for (size_t i = bytes.size() - 22; i < bytes.size(); ++i) bytes[i] = 'x';  // zip's directory end
  scratch.write("damaged.pt", sealed(bytes));
  std::string message;
  try {
    engine::Checkpoint::open(scratch.file("damaged.pt"));
  } catch (const engine::CheckpointError& error) {
    message = error.what();
  }
  EXPECT_MSG(message.find("damaged.pt") != std::string::npos, message);
  EXPECT_MSG(message.find("corrupt") != std::string::npos, message);
  EXPECT_MSG(message.find("Exception raised from") == std::string::npos, message);
  EXPECT_MSG(message.find("frame #") == std::string::npos, message);
  EXPECT_MSG(message.find('\n') == std::string::npos, message);
  // Resuming it fails the same way, in the run's reason.
  const auto resumed = trainToEnd(project, scratch.file("damaged.pt"));
  EXPECT(resumed.failed);
  EXPECT_MSG(resumed.reason.find("frame #") == std::string::npos, resumed.reason);
}

namespace {

// `bytes` (a checkpoint) with its archive written again by LibTorch's own writer, the file
// `name` inside it replaced by `contents` (and named `newName`, where one is given), and its
// header's size and checksum made right: a file made to pass every check but the one under test.
std::string withArchiveFile(const std::string& bytes, const std::string& name,
                            const std::string& contents, const std::string& newName = "") {
  std::istringstream payload(bytes.substr(kHeader));
  caffe2::serialize::PyTorchStreamReader reader(&payload);
  std::string archive;
  {
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, size_t size) {
      archive.append(static_cast<const char*>(data), size);
      return size;
    });
    for (const std::string& record : reader.getAllRecords()) {
      if (record == ".data/version" || record == "version") continue;  // the writer adds it
      if (record == name) {
        writer.writeRecord(newName.empty() ? record : newName, contents.data(), contents.size());
      } else {
        auto [data, size] = reader.getRecord(record);
        writer.writeRecord(record, data.get(), size);
      }
    }
    writer.writeEndOfFile();
  }
  return sealed(bytes.substr(0, kHeader) + archive);
}

}  // namespace

// LibTorch compiles a checkpoint archive's TorchScript source when it loads it, and runs a
// __setstate__ it finds there: a file whose source holds a method is refused before LibTorch
// reads it; the workbench's own archives (attributes only) open as ever.
MRNN_TEST(a_checkpoint_whose_archive_holds_code_is_refused_before_libtorch_reads_it) {
  ScratchProject scratch("script-code");
  auto project = scratch.project();
  const std::string bytes = oneStepCheckpointBytes(project);
  scratch.write("rewritten.pt",
                withArchiveFile(bytes, "constants.pkl", std::string("\x80\x02).", 4)));
  engine::Checkpoint::open(scratch.file("rewritten.pt"));  // the writer's round trip is sound

  std::istringstream payload(bytes.substr(kHeader));
  caffe2::serialize::PyTorchStreamReader reader(&payload);
  auto [data, size] = reader.getRecord("code/__torch__.py");
  const std::string source(static_cast<const char*>(data.get()), size);
  EXPECT(source.find("class Module(Module):") != std::string::npos);
  const std::string method = source +
                             "  def __setstate__(self, state: int) -> None:\n"
                             "    return None\n";
  scratch.write("code.pt", withArchiveFile(bytes, "code/__torch__.py", method));
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("code.pt")),
                     "code.pt", "holds code at line", "not written by the workbench");
  const std::string decorated = source + "  @torch.jit.export\n";
  scratch.write("decorated.pt", withArchiveFile(bytes, "code/__torch__.py", decorated));
  EXPECT_THROWS_WITH(engine::CheckpointError,
                     engine::Checkpoint::open(scratch.file("decorated.pt")), "decorated.pt",
                     "holds code at line");
}

// LibTorch's zip library finds "code/__torch__.py" under any case: the source check does too.
MRNN_TEST(code_under_another_case_of_its_name_is_refused_as_well) {
  ScratchProject scratch("script-code-case");
  auto project = scratch.project();
  const std::string bytes = oneStepCheckpointBytes(project);
  std::istringstream payload(bytes.substr(kHeader));
  caffe2::serialize::PyTorchStreamReader reader(&payload);
  auto [data, size] = reader.getRecord("code/__torch__.py");
  const std::string method = std::string(static_cast<const char*>(data.get()), size) +
                             "  def __setstate__(self, state: int) -> None:\n"
                             "    return None\n";
  scratch.write("shouting.pt",
                withArchiveFile(bytes, "code/__torch__.py", method, "CODE/__torch__.PY"));
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("shouting.pt")),
                     "shouting.pt", "CODE/__torch__.PY", "holds code at line");
}

namespace {

// The checkpoint's data.pkl with the first `from` replaced by `to`, the rest as it was.
std::string withPickleEdit(const std::string& bytes, const std::string& from,
                           const std::string& to) {
  std::istringstream payload(bytes.substr(kHeader));
  caffe2::serialize::PyTorchStreamReader reader(&payload);
  auto [data, size] = reader.getRecord("data.pkl");
  std::string pickle(static_cast<const char*>(data.get()), size);
  const size_t at = pickle.find(from);
  EXPECT_MSG(at != std::string::npos, "the pickle has no such bytes");
  if (at != std::string::npos) pickle.replace(at, from.size(), to);
  return withArchiveFile(bytes, "data.pkl", pickle);
}

// The first storage of a checkpoint's data.pkl: its persistent id from the device string
// ("cpu", then that string's memo) to its element count, and what follows (TUPLE, BINPERSID,
// BINPUT and the memo's number), as bytes of the pickle.
struct FirstStorage {
  std::string id;
  std::string following;
};
FirstStorage firstStorage(const std::string& bytes) {
  std::istringstream payload(bytes.substr(kHeader));
  caffe2::serialize::PyTorchStreamReader reader(&payload);
  auto [data, size] = reader.getRecord("data.pkl");
  const std::string pickle(static_cast<const char*>(data.get()), size);
  const size_t device = pickle.find(std::string("X\x03\0\0\0cpuq", 9));
  EXPECT(device != std::string::npos);
  const size_t count = device + 10;  // past the memo's number
  const size_t countLength = pickle[count] == 'K' ? 2 : pickle[count] == 'M' ? 3 : 5;
  const size_t end = count + countLength;
  EXPECT_EQ(pickle.substr(end, 3), std::string("tQq"));
  return {pickle.substr(device, end - device), pickle.substr(end, 4)};
}

}  // namespace

// Found by fuzzing: LibTorch's unpickler believes the lengths, storage sizes and tensor views a
// checkpoint's pickle declares: a string of gigabytes is reserved before it is read (4 GB for a
// 66 KB file), and a storage or a view larger than the bytes behind it reads past them. Each is
// refused, naming the pickle and what it declares, before LibTorch reads the archive.
MRNN_TEST(a_pickle_declaring_a_string_longer_than_itself_is_refused) {
  ScratchProject scratch("pickle-string");
  auto project = scratch.project();
  const std::string bytes = oneStepCheckpointBytes(project);
  scratch.write("string.pt", withPickleEdit(bytes, std::string("X\x05\0\0\0magic", 10),
                                            std::string("X\xf0\xff\xff\xffmagic", 10)));
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("string.pt")),
                     "string.pt", "archive/data.pkl", "declares a string of 4294967280 bytes");
}

MRNN_TEST(a_storage_declaring_more_than_its_record_holds_is_refused) {
  ScratchProject scratch("pickle-storage");
  auto project = scratch.project();
  const std::string bytes = oneStepCheckpointBytes(project);
  const FirstStorage storage = firstStorage(bytes);
  const std::string larger = storage.id.substr(0, 10) + "J\xff\xff\xff\x0f";  // BININT
  scratch.write("storage.pt", withPickleEdit(bytes, storage.id, larger));
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("storage.pt")),
                     "storage.pt", "declares 268435455 elements of storage");
}

MRNN_TEST(a_tensor_viewing_past_its_storage_is_refused) {
  ScratchProject scratch("pickle-view");
  auto project = scratch.project();
  const std::string bytes = oneStepCheckpointBytes(project);
  const FirstStorage storage = firstStorage(bytes);
  // The first tensor's storage offset, 0 (BININT1), moved a million elements out (BININT).
  const std::string view = storage.id + storage.following + std::string("K\0", 2);
  scratch.write(
      "view.pt",
      withPickleEdit(bytes, view, storage.id + storage.following + std::string("J\0\0\x10\0", 5)));
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("view.pt")),
                     "view.pt", "views elements past the end of its storage");
}

// Found by fuzzing: a checkpoint whose vocabulary text is damaged (its archive and checksum
// sound) gave LibTorch-free std::invalid_argument from Checkpoint::vocabulary(), which callers
// catching CheckpointError did not expect. It is refused when the checkpoint opens, naming it.
MRNN_TEST(a_checkpoint_with_a_damaged_vocabulary_is_refused_when_it_opens) {
  ScratchProject scratch("damaged-vocabulary");
  auto project = scratch.project();
  const std::string bytes = oneStepCheckpointBytes(project);
  std::istringstream payload(bytes.substr(kHeader));
  caffe2::serialize::PyTorchStreamReader reader(&payload);
  auto [data, size] = reader.getRecord("data.pkl");
  std::string pickle(static_cast<const char*>(data.get()), size);
  const size_t level = pickle.find("mrnn-vocabulary 1 char ");
  EXPECT(level != std::string::npos);
  if (level == std::string::npos) return;
  pickle[level + 18] = '\x01';  // "char" becomes "\x01har": no level
  scratch.write("vocabulary.pt", withArchiveFile(bytes, "data.pkl", pickle));
  EXPECT_THROWS_WITH(engine::CheckpointError,
                     engine::Checkpoint::open(scratch.file("vocabulary.pt")), "vocabulary.pt",
                     "its vocabulary cannot be read", "unknown level");
}

// A checkpoint's recurrent state and generator states are read when a run resumes: damaged
// ones (a layer count that is no number, a generator state of floats) are refused as the
// checkpoint's fault, never as LibTorch's text from deep inside the resume.
MRNN_TEST(damaged_recurrent_or_generator_state_is_refused_naming_the_checkpoint) {
  ScratchProject scratch("state-kinds");
  auto project = scratch.project();
  project.training.maxSteps = 1;
  const auto outcome = trainToEnd(project);
  const std::string bytes = engine::readWholeFile(outcome.latestCheckpoint, UINT64_MAX);
  const std::string layers = "X\x0c" + std::string(3, '\0') + "state_layers";
  const size_t at = bytes.find(layers);
  EXPECT(at != std::string::npos);
  if (at == std::string::npos) return;
  // "state_layers", its memo (BINPUT n), then the count (BININT1 1) made a string.
  const std::string count = bytes.substr(at, layers.size() + 4);
  scratch.write("layers.pt", withPickleEdit(bytes, count,
                                            count.substr(0, layers.size() + 2) + "X\x01" +
                                                std::string(3, '\0') + "a"));
  auto checkpoint = engine::Checkpoint::open(scratch.file("layers.pt"));
  engine::LanguageModel model(project.model, checkpoint.vocabulary().size());
  checkpoint.loadModel(model);
  engine::ModelState state = model.initialState(project.training.batchSize);
  EXPECT_THROWS_WITH(engine::CheckpointError, checkpoint.loadState(state, model), "layers.pt",
                     "recurrent state has no number of layers");

  auto sound = engine::Checkpoint::open(outcome.latestCheckpoint);
  engine::TrainingSnapshot snapshot = sound.snapshot();
  snapshot.rngState = torch::zeros({8}, torch::kFloat32);
  engine::Checkpoint::save(scratch.file("generator.pt"), snapshot, model, nullptr, nullptr);
  EXPECT_THROWS_WITH(engine::CheckpointError,
                     engine::Checkpoint::open(scratch.file("generator.pt")), "generator.pt",
                     "random-number generator state");
}

MRNN_TEST(checkpoint_of_another_format_version_is_refused) {
  ScratchProject scratch("version");
  auto project = scratch.project();
  std::string bytes = oneStepCheckpointBytes(project);
  bytes[8] = 99;  // the little-endian format version follows the 8-byte tag
  scratch.write("future.pt", bytes);
  EXPECT_THROWS_WITH(engine::CheckpointError, engine::Checkpoint::open(scratch.file("future.pt")),
                     "future.pt", "format version 99");
}

MRNN_TEST(full_disk_while_saving_keeps_the_old_checkpoint) {
  ScratchProject scratch("disk");
  auto project = scratch.project();
  project.training.maxSteps = 2;
  const auto outcome = trainToEnd(project);
  auto checkpoint = engine::Checkpoint::open(outcome.latestCheckpoint);
  engine::LanguageModel model(project.model, checkpoint.vocabulary().size());
  checkpoint.loadModel(model);
  const std::string before = engine::readWholeFile(outcome.latestCheckpoint, UINT64_MAX);

  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit tight = saved;
  tight.rlim_cur = 2048;  // far below a checkpoint's size: write() fails as on a full disk
  auto previous = std::signal(SIGXFSZ, SIG_IGN);
  ::setrlimit(RLIMIT_FSIZE, &tight);
  std::string message;
  try {
    engine::Checkpoint::save(outcome.latestCheckpoint, checkpoint.snapshot(), model, nullptr,
                             nullptr);
  } catch (const std::runtime_error& error) {
    message = error.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  EXPECT_MSG(message.find("latest.pt") != std::string::npos, "message: " << message);
  EXPECT(engine::readWholeFile(outcome.latestCheckpoint, UINT64_MAX) == before);
}
