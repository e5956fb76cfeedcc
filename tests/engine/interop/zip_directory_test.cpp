// PyTorch archives are checked before LibTorch opens them: a sound archive (PyTorch's own
// file, the engine's exports and checkpoints) passes, and every cut or damaged one is refused
// in words, so LibTorch's zip reader never meets it (it leaks when it refuses one).

#include <torch/torch.h>

#include <sstream>

#include "engine/interop/torch_file.h"
#include "engine/io/atomic_file.h"
#include "engine/io/zip_directory.h"
#include "engine/io/zip_records.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;

namespace {

const std::string kPytorchFile = std::string(MRNN_INTEROP_FILES) + "/lstm_state_dict.pt";

// The bytes a LibTorch OutputArchive writes: the payload of every checkpoint.
std::string outputArchiveBytes() {
  torch::serialize::OutputArchive archive;
  archive.write("weights", torch::arange(12, torch::kFloat32));
  archive.write("step", c10::IValue(int64_t{7}));
  std::ostringstream bytes;
  archive.save_to(bytes);
  return bytes.str();
}

void putLittle(std::string& bytes, size_t at, uint64_t value, int width) {
  for (int i = 0; i < width; ++i) bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

// CRC-32 (zip's), bit by bit: an independent check of the reader's.
uint32_t crc32Of(const std::string& bytes) {
  uint32_t crc = 0xffffffffu;
  for (const char c : bytes) {
    crc ^= static_cast<unsigned char>(c);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

}  // namespace

MRNN_TEST(a_file_pytorch_wrote_lists_its_files_and_passes) {
  const std::string file = engine::readWholeFile(kPytorchFile);
  const auto entries = engine::readZipDirectory(file.size(), [&](uint64_t offset, size_t length) {
    return file.substr(static_cast<size_t>(offset), length);
  });
  EXPECT_EQ(entries.size(), size_t{9});
  EXPECT_EQ(entries.front().name, std::string("lstm_state_dict/data.pkl"));
  EXPECT_EQ(entries.front().size, uint64_t{735});
  EXPECT_EQ(entries.back().name, std::string("lstm_state_dict/version"));
  EXPECT_EQ(entries.back().localHeaderOffset, uint64_t{1892});
  EXPECT_EQ(engine::torchArchiveFileProblem(kPytorchFile), std::string());
  EXPECT_EQ(engine::torchArchiveProblem(file), std::string());
}

MRNN_TEST(the_engines_own_archives_pass) {
  test::ScratchProject scratch("zip_own");
  EXPECT_EQ(engine::torchArchiveProblem(outputArchiveBytes()), std::string());
  engine::writeTorchStateDict(scratch.file("m.pt"), {{"w", torch::ones({3, 2})}});
  EXPECT_EQ(engine::torchArchiveFileProblem(scratch.file("m.pt")), std::string());
}

MRNN_TEST(every_cut_of_an_archive_is_refused) {
  const std::string whole = outputArchiveBytes();
  for (size_t keep = 0; keep < whole.size(); ++keep) {
    EXPECT_MSG(!engine::torchArchiveProblem(whole.substr(0, keep)).empty(),
               "a cut to " << keep << " of " << whole.size() << " bytes passed");
  }
  EXPECT_EQ(engine::torchArchiveProblem(whole.substr(0, whole.size() / 2)),
            std::string("its zip directory end record is missing (the end of the file is damaged "
                        "or cut off)"));
}

MRNN_TEST(damage_to_the_directory_is_named) {
  const std::string whole = outputArchiveBytes();
  const size_t end = whole.rfind(std::string("PK\x05\x06", 4));
  const size_t locator = whole.rfind(std::string("PK\x06\x07", 4));
  const size_t directory = whole.find(std::string("PK\x01\x02", 4));
  EXPECT(end != std::string::npos && locator != std::string::npos &&
         directory != std::string::npos);

  std::string overwritten = whole;  // the damage the checkpoint tests make
  for (size_t i = whole.size() - 22; i < whole.size(); ++i) overwritten[i] = 'x';
  EXPECT_MSG(
      engine::torchArchiveProblem(overwritten).find("end record is missing") != std::string::npos,
      engine::torchArchiveProblem(overwritten));

  std::string lostRecord = whole;  // the zip64 locator points past its record
  putLittle(lostRecord, locator + 8, whole.size(), 8);
  EXPECT_EQ(engine::torchArchiveProblem(lostRecord),
            std::string("its zip64 directory locator points outside the file"));

  std::string farEntry = whole;  // the first entry's local header beyond the end
  putLittle(farEntry, directory + 42, whole.size(), 4);
  EXPECT_MSG(engine::torchArchiveProblem(farEntry).find("lies beyond the end of the file") !=
                 std::string::npos,
             engine::torchArchiveProblem(farEntry));

  std::string wrongSizes = whole;  // a stored entry whose two sizes differ
  putLittle(wrongSizes, directory + 24,
            1 + (static_cast<unsigned char>(whole[directory + 20]) |
                 static_cast<unsigned char>(whole[directory + 21]) << 8),
            4);
  EXPECT_MSG(engine::torchArchiveProblem(wrongSizes).find("contradict") != std::string::npos,
             engine::torchArchiveProblem(wrongSizes));

  std::string noSignature = whole;  // the directory's first entry header overwritten
  noSignature[directory] = 'Q';
  EXPECT_MSG(engine::torchArchiveProblem(noSignature).find("an entry's header is missing") !=
                 std::string::npos,
             engine::torchArchiveProblem(noSignature));
}

MRNN_TEST(an_archive_without_a_version_record_or_a_folder_is_refused) {
  std::string whole = outputArchiveBytes();
  // Rename every "version" to "versiom", in the directory and the local headers alike.
  std::string renamed = whole;
  for (size_t at = renamed.find("/version"); at != std::string::npos;
       at = renamed.find("/version", at + 1)) {
    renamed[at + 7] = 'm';
  }
  EXPECT_EQ(engine::torchArchiveProblem(renamed), std::string("it has no version record"));
  // The version record's text made a word.
  std::string wordy = whole;
  const size_t directory = wordy.find(std::string("PK\x01\x02", 4));
  size_t versionHeader = std::string::npos;
  for (size_t at = directory; at != std::string::npos;
       at = wordy.find(std::string("PK\x01\x02", 4), at + 1)) {
    const size_t nameLength = static_cast<unsigned char>(wordy[at + 28]);
    if (wordy.compare(at + 46 + nameLength - 8, 8, "/version") == 0) versionHeader = at;
  }
  EXPECT(versionHeader != std::string::npos);
  if (versionHeader != std::string::npos) {
    size_t local = 0;
    for (int i = 0; i < 4; ++i)
      local |= static_cast<size_t>(static_cast<unsigned char>(wordy[versionHeader + 42 + i]))
               << (8 * i);
    const size_t data = local + 30 + static_cast<unsigned char>(wordy[local + 26]) +
                        (static_cast<unsigned char>(wordy[local + 28]) |
                         static_cast<unsigned char>(wordy[local + 29]) << 8);
    wordy[data] = 'v';
    // Its CRC-32 no longer matches: the reader says so first.
    EXPECT_MSG(engine::torchArchiveProblem(wordy).find("checksum") != std::string::npos,
               engine::torchArchiveProblem(wordy));
    // With the directory's CRC-32 made right, the text itself is refused.
    const size_t length = static_cast<unsigned char>(wordy[versionHeader + 24]);
    putLittle(wordy, versionHeader + 16, crc32Of(wordy.substr(data, length)), 4);
    EXPECT_EQ(engine::torchArchiveProblem(wordy),
              std::string("its version record is not a number"));
  }
  EXPECT_EQ(engine::torchArchiveProblem(std::string("PK\x05\x06", 4) + std::string(18, '\0')),
            std::string("its zip archive holds no files"));
}

// Found by fuzzing: LibTorch's zip library finds files by name regardless of case, so of two
// files whose names differ only so, which one it reads is left to its sort; the check read the
// other, passed, and LibTorch's reader then failed and leaked. Such archives are refused.
MRNN_TEST(two_files_of_one_name_in_any_case_are_refused) {
  const std::string file = engine::readWholeFile(kPytorchFile);
  const size_t directory = file.find(std::string("PK\x01\x02", 4));
  const size_t name = file.find("lstm_state_dict/data/1", directory);
  EXPECT(name != std::string::npos);
  if (name == std::string::npos) return;
  std::string same = file;  // the directory names data/1 "DATA/0"
  same.replace(name, 22, "lstm_state_dict/DATA/0");
  EXPECT_EQ(engine::torchArchiveProblem(same),
            std::string("it holds two files named 'lstm_state_dict/DATA/0'"));
  std::string nul = file;  // a NUL inside a name
  nul[name + 16] = '\0';
  EXPECT_EQ(engine::torchArchiveProblem(nul), std::string("a file's name holds a NUL byte"));
}

MRNN_TEST(a_cut_export_is_refused_before_libtorch_reads_it) {
  test::ScratchProject scratch("zip_cut_export");
  engine::writeTorchStateDict(scratch.file("m.pt"), {{"w", torch::ones({30, 20})}});
  const std::string whole = engine::readWholeFile(scratch.file("m.pt"));
  engine::writeFileAtomically(scratch.file("cut.pt"), whole.substr(0, whole.size() - 10));
  EXPECT_THROWS_WITH(engine::InteropError, engine::readTorchStateDict(scratch.file("cut.pt")),
                     "cut.pt", "truncated or damaged", "end record is missing");
}

// torch.save files are read by the engine's own zip reader, never LibTorch's (which leaks on
// many damaged archives it refuses): stored and deflated files alike, every record checked.
MRNN_TEST(a_deflated_copy_of_a_pytorch_file_reads_as_the_stored_one) {
  const std::string deflated = std::string(MRNN_INTEROP_FILES) + "/lstm_state_dict_deflated.pt";
  engine::ZipRecords zip = engine::ZipRecords::inFile(deflated);
  EXPECT_EQ(zip.entries().front().method, uint16_t{8});
  const engine::NamedTensors stored = engine::readTorchStateDict(kPytorchFile);
  const engine::NamedTensors inflated = engine::readTorchStateDict(deflated);
  EXPECT_EQ(stored.size(), inflated.size());
  for (size_t i = 0; i < stored.size() && i < inflated.size(); ++i) {
    EXPECT_EQ(stored[i].first, inflated[i].first);
    EXPECT(torch::equal(stored[i].second, inflated[i].second));
  }
}

MRNN_TEST(the_zip_reader_checks_each_file_against_its_checksum_and_size) {
  test::ScratchProject scratch("zip_records");
  engine::ZipRecords sound = engine::ZipRecords::inFile(kPytorchFile);
  const engine::ZipEntry* pickle = sound.find("lstm_state_dict/data.pkl");
  EXPECT(pickle != nullptr);
  if (pickle == nullptr) return;
  EXPECT_EQ(sound.read(*pickle, 1 << 20).size(), size_t{735});
  EXPECT_THROWS_WITH(std::runtime_error, sound.read(*pickle, 700), "data.pkl",
                     "holds 735 bytes, more than the 700 expected");

  // One byte of the pickle changed: its CRC-32 no longer matches, in words naming the file.
  std::string flipped = engine::readWholeFile(kPytorchFile);
  const size_t proto = flipped.find("\x80\x02");
  EXPECT(proto != std::string::npos);
  flipped[proto + 5] = static_cast<char>(flipped[proto + 5] ^ 0x20);
  engine::writeFileAtomically(scratch.file("flipped.pt"), flipped);
  engine::ZipRecords damaged = engine::ZipRecords::inFile(scratch.file("flipped.pt"));
  EXPECT_THROWS_WITH(std::runtime_error,
                     damaged.read(*damaged.find("lstm_state_dict/data.pkl"), 1 << 20), "data.pkl",
                     "do not match their checksum");
  EXPECT_THROWS_WITH(engine::InteropError, engine::readTorchStateDict(scratch.file("flipped.pt")),
                     "flipped.pt", "truncated or damaged", "checksum");

  // A deflated record whose directory claims more bytes than it inflates to (and the reverse).
  const std::string deflated =
      engine::readWholeFile(std::string(MRNN_INTEROP_FILES) + "/lstm_state_dict_deflated.pt");
  const size_t directory = deflated.find(std::string("PK\x01\x02", 4));
  for (const uint64_t claimed : {uint64_t{736}, uint64_t{734}}) {
    std::string lying = deflated;
    putLittle(lying, directory + 24, claimed, 4);
    engine::writeFileAtomically(scratch.file("lying.pt"), lying);
    engine::ZipRecords zip = engine::ZipRecords::inFile(scratch.file("lying.pt"));
    EXPECT_THROWS_WITH(std::runtime_error, zip.read(zip.entries().front(), 1 << 20),
                       std::string("data.pkl"),
                       "do not inflate to the " + std::to_string(claimed) + " bytes");
  }
}

// Found by fuzzing: an entry whose MS-DOS attributes say "folder" is one LibTorch's zip library
// does not read, leaving the buffer it made for the contents as it was (the version record then
// "read" as whatever bytes were there). No PyTorch marks a file so; such archives are refused.
MRNN_TEST(a_file_marked_as_a_folder_is_refused) {
  const std::string whole = outputArchiveBytes();
  std::string marked = whole;
  size_t versionHeader = std::string::npos;
  for (size_t at = marked.find(std::string("PK\x01\x02", 4)); at != std::string::npos;
       at = marked.find(std::string("PK\x01\x02", 4), at + 1)) {
    const size_t nameLength = static_cast<unsigned char>(marked[at + 28]);
    if (marked.compare(at + 46 + nameLength - 8, 8, "/version") == 0) versionHeader = at;
  }
  EXPECT(versionHeader != std::string::npos);
  if (versionHeader == std::string::npos) return;
  putLittle(marked, versionHeader + 38, 0xff, 4);
  const std::string problem = engine::torchArchiveProblem(marked);
  EXPECT_MSG(problem.find("/version' is marked as a folder") != std::string::npos, problem);
  // A folder entry proper (a name ending in '/') is no file anyone reads: it stays allowed.
  EXPECT_EQ(engine::torchArchiveProblem(whole), std::string());
}
