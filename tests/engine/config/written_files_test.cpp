// The ledger of files a tool wrote into a folder it shares with its user
// (engine/io/written_files.h): a file counts as the tool's only while unchanged, and the
// ledger can never name a path outside its folder.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/io/written_files.h"
#include "test_harness.h"

using namespace mrnn;
namespace fs = std::filesystem;

namespace {

struct Folder {
  fs::path path = fs::temp_directory_path() / ("mrnn-written-" + std::to_string(::getpid()));
  Folder() {
    fs::remove_all(path);
    fs::create_directories(path / "sub");
  }
  ~Folder() { fs::remove_all(path); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path / name, std::ios::binary) << text;
  }
};

}  // namespace

MRNN_TEST(a_recorded_file_is_ours_until_changed_and_the_ledger_outlives_the_object) {
  Folder folder;
  folder.write("a.txt", "published");
  folder.write("sub/b.txt", "published too");
  folder.write("users.txt", "the user's own");
  {
    engine::WrittenFiles written(folder.path.string());
    EXPECT(!written.wrote("a.txt"));
    written.record({"a.txt", "sub/b.txt", "missing.txt"});
    EXPECT(written.wrote("a.txt") && written.wrote("sub/b.txt"));
    EXPECT(!written.wrote("missing.txt") && !written.wrote("users.txt"));
  }
  engine::WrittenFiles reread(folder.path.string());
  EXPECT(reread.wrote("a.txt") && reread.wrote("sub/b.txt"));
  folder.write("a.txt", "edited by the user");  // another size: the user's now
  EXPECT(!reread.wrote("a.txt"));
  // Same size, another time: changed all the same.
  struct stat before {};
  EXPECT(::stat((folder.path / "sub/b.txt").c_str(), &before) == 0);
  const struct timespec times[2] = {before.st_atim, {before.st_mtim.tv_sec - 10, 0}};
  EXPECT(::utimensat(AT_FDCWD, (folder.path / "sub/b.txt").c_str(), times, 0) == 0);
  EXPECT(!reread.wrote("sub/b.txt"));
  reread.forget("sub/b.txt");
  engine::WrittenFiles afterForget(folder.path.string());
  EXPECT(!afterForget.wrote("sub/b.txt"));
}

MRNN_TEST(a_ledger_line_naming_a_path_outside_its_folder_is_dropped) {
  const auto entries = engine::WrittenFiles::parse(
      "5 7 fine.txt\n5 7 ../outside.txt\n5 7 /etc/passwd\n5 7 a/../../b\n5 7 sub/..\n"
      "x 7 bad-size\n5 y bad-time\n5 7\n-1 7 negative\n5 7 with space.txt\n\n5 7");
  EXPECT_EQ(entries.size(), size_t{2});
  EXPECT(entries.count("fine.txt") == 1 && entries.count("with space.txt") == 1);
  EXPECT(engine::WrittenFiles::parse(engine::WrittenFiles::format(entries)) == entries);
}

MRNN_TEST(a_damaged_or_foreign_ledger_counts_nothing_as_ours) {
  Folder folder;
  folder.write("a.txt", "published");
  // A ledger that is a folder, then one far too large: neither is read.
  fs::create_directories(folder.path / engine::WrittenFiles::kLedgerName);
  EXPECT(!engine::WrittenFiles(folder.path.string()).wrote("a.txt"));
  fs::remove(folder.path / engine::WrittenFiles::kLedgerName);
  folder.write(engine::WrittenFiles::kLedgerName,
               std::string(engine::WrittenFiles::kMaxLedgerBytes + 1, '\n'));
  EXPECT(!engine::WrittenFiles(folder.path.string()).wrote("a.txt"));
}
