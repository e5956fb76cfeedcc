// Files a command writes for its user (engine/io/output_file.h) and the files it reads whole
// (engine/io/atomic_file.h): a link, device, FIFO, the file being read or a project's own
// files are never replaced; a reader never waits on a FIFO nor reads a device without end.

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "engine/config/project_store_paths.h"
#include "engine/io/atomic_file.h"
#include "engine/io/output_file.h"
#include "test_harness.h"

using namespace mrnn;
namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path folder;
  Scratch() {
    folder = fs::temp_directory_path() / ("mrnn-io-test-" + std::to_string(::getpid()));
    fs::remove_all(folder);
    fs::create_directories(folder);
  }
  ~Scratch() { fs::remove_all(folder); }
  std::string file(const std::string& name, const std::string& contents) const {
    const std::string path = (folder / name).string();
    std::ofstream(path, std::ios::binary) << contents;
    return path;
  }
};

std::string contentsOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The message of the OutputRefused `write` throws, or "" when it wrote.
template <class Write>
std::string refusal(Write write) {
  try {
    write();
  } catch (const engine::OutputRefused& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

MRNN_TEST(an_output_never_replaces_a_link_or_what_it_points_to) {
  Scratch scratch;
  const std::string target = scratch.file("kept.txt", "the user's text");
  const std::string link = (scratch.folder / "link.txt").string();
  fs::create_symlink(target, link);
  const std::string why =
      refusal([&] { engine::writeOutputFile(link, "export", engine::OutputRules()); });
  EXPECT_MSG(contains(why, "symbolic link"), why);
  EXPECT(fs::is_symlink(link));
  EXPECT_EQ(contentsOf(target), std::string("the user's text"));
  // Even the plain atomic write refuses: rename(2) would have replaced the link.
  bool refused = false;
  try {
    engine::writeFileAtomically(link, "x");
  } catch (const std::runtime_error&) {
    refused = true;
  }
  EXPECT(refused && fs::is_symlink(link));
}

MRNN_TEST(an_output_never_replaces_a_device_fifo_or_folder) {
  Scratch scratch;
  EXPECT(contains(refusal([] { engine::checkOutputPath("/dev/null", engine::OutputRules()); }),
                  "not a regular file"));
  const std::string fifo = (scratch.folder / "pipe").string();
  EXPECT(::mkfifo(fifo.c_str(), 0600) == 0);
  EXPECT(contains(refusal([&] { engine::writeOutputFile(fifo, "x", engine::OutputRules()); }),
                  "not a regular file"));
  struct stat status {};
  EXPECT(::lstat(fifo.c_str(), &status) == 0 && S_ISFIFO(status.st_mode));
  EXPECT(contains(
      refusal([&] { engine::checkOutputPath(scratch.folder.string(), engine::OutputRules()); }),
      "folder"));
  EXPECT(!fs::exists(scratch.folder / "pipe.json"));
}

MRNN_TEST(an_output_is_never_the_file_read_nor_a_projects_own) {
  Scratch scratch;
  const std::string project = scratch.file("project.yaml", "name: p\n");
  const std::string database = scratch.file("runs.sqlite", "SQLite format 3");
  fs::create_directories(scratch.folder / "checkpoints" / "run-1");
  const std::string checkpoint = scratch.file("checkpoints/run-1/best.pt", "weights");
  const std::string corpus = scratch.file("corpus.txt", "text");
  engine::OutputRules rules;
  rules.inputs = {checkpoint};
  rules.guarded = {corpus};
  EXPECT(contains(refusal([&] { engine::writeOutputFile(checkpoint, "x", rules); }), "being read"));
  EXPECT(contains(refusal([&] { engine::writeOutputFile(database, "x", {}); }), "run database"));
  EXPECT(contains(refusal([&] { engine::writeOutputFile(database + "-wal", "x", {}); }),
                  "run database"));
  EXPECT(contains(refusal([&] {
                    engine::writeOutputFile((scratch.folder / "checkpoints/new.pt").string(), "x",
                                            {});
                  }),
                  "checkpoints folder"));
  EXPECT(contains(refusal([&] { engine::writeOutputFile(project, "x", {}); }), "YAML"));
  EXPECT(contains(refusal([&] { engine::writeOutputFile(corpus, "x", rules); }), "part of"));
  EXPECT_EQ(contentsOf(checkpoint), std::string("weights"));
  EXPECT_EQ(contentsOf(database), std::string("SQLite format 3"));
  EXPECT_EQ(contentsOf(project), std::string("name: p\n"));
  EXPECT_EQ(contentsOf(corpus), std::string("text"));
  // The same protection through a project's own description of its store.
  engine::Project described;
  described.hasData = true;
  described.data.train = "corpus.txt";
  const auto paths = engine::projectStorePaths(described, project);
  engine::OutputRules guarded;
  guarded.guarded = paths;
  EXPECT(contains(refusal([&] { engine::writeOutputFile(corpus, "x", guarded); }), "part of"));
}

MRNN_TEST(an_existing_file_is_replaced_only_when_the_command_wrote_it_or_is_forced) {
  Scratch scratch;
  const std::string mine = scratch.file("table.csv", "run,name\n1,a\n");
  const std::string theirs = scratch.file("notes.csv", "my own notes\n");
  engine::OutputRules rules;
  const std::string table = "run,name\n2,b\n";
  rules.ownOutput = [&](const std::string& path) { return engine::startsLike(path, table); };
  engine::writeOutputFile(mine, table, rules);
  EXPECT_EQ(contentsOf(mine), table);
  EXPECT(contains(refusal([&] { engine::writeOutputFile(theirs, table, rules); }), "--force"));
  EXPECT_EQ(contentsOf(theirs), std::string("my own notes\n"));
  rules.replaceAny = true;
  engine::writeOutputFile(theirs, table, rules);
  EXPECT_EQ(contentsOf(theirs), table);
  EXPECT(contains(
      refusal([&] { engine::writeOutputFile((scratch.folder / "none/x.csv").string(), "x", {}); }),
      "does not exist"));
}

MRNN_TEST(a_document_is_rewritten_through_its_link) {
  Scratch scratch;
  const std::string real = scratch.file("real.yaml", "name: a\n");
  const std::string link = (scratch.folder / "project.yaml").string();
  fs::create_symlink(real, link);
  engine::rewriteDocument(link, "name: b\n");
  EXPECT(fs::is_symlink(link));
  EXPECT_EQ(contentsOf(real), std::string("name: b\n"));
}

mode_t permissionsOf(const std::string& path) {
  struct stat status {};
  EXPECT(::stat(path.c_str(), &status) == 0);
  return status.st_mode & 07777;
}

// The defect: every save left the file 0644, whatever the user had set (a private 0600 project
// became readable by all) and whatever the umask asked of a new file.
MRNN_TEST(a_rewritten_file_keeps_its_permissions_and_a_new_one_follows_the_umask) {
  Scratch scratch;
  for (const mode_t mode : {mode_t{0600}, mode_t{0664}, mode_t{0640}}) {
    const std::string path = scratch.file("kept.yaml", "name: a\n");
    ::chmod(path.c_str(), mode);
    engine::rewriteDocument(path, "name: b\n");
    EXPECT_EQ(permissionsOf(path), mode);
    EXPECT_EQ(contentsOf(path), std::string("name: b\n"));
    fs::remove(path);
  }
  const mode_t previous = ::umask(077);
  engine::writeFileAtomically((scratch.folder / "new.csv").string(), "x\n");
  ::umask(previous);
  EXPECT_EQ(permissionsOf((scratch.folder / "new.csv").string()), mode_t{0600});
}

// The defect: a project file the user had made read-only was replaced on save, as if writable.
MRNN_TEST(a_read_only_file_is_never_replaced) {
  Scratch scratch;
  const std::string path = scratch.file("locked.yaml", "name: a\n");
  ::chmod(path.c_str(), 0444);
  std::string why;
  try {
    engine::rewriteDocument(path, "name: b\n");
  } catch (const std::runtime_error& error) {
    why = error.what();
  }
  EXPECT_MSG(contains(why, "read-only") && contains(why, path), why);
  EXPECT_EQ(contentsOf(path), std::string("name: a\n"));
  EXPECT_EQ(permissionsOf(path), mode_t{0444});
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(scratch.folder)) ++files;
  EXPECT_EQ(files, size_t{1});
}

// The defect: --vocabulary /dev/zero grew to 22.7 GB; --corpus <fifo> waited forever.
MRNN_TEST(a_whole_file_read_refuses_devices_and_fifos_at_once_and_bounds_size) {
  Scratch scratch;
  const auto started = std::chrono::steady_clock::now();
  const std::string fifo = (scratch.folder / "pipe").string();
  EXPECT(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::string& path : {std::string("/dev/zero"), fifo, scratch.folder.string()}) {
    std::string why;
    try {
      engine::readWholeFile(path);
    } catch (const std::runtime_error& error) {
      why = error.what();
    }
    EXPECT_MSG(contains(why, "it is a") && contains(why, path), why);
  }
  EXPECT(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
  const std::string big = scratch.file("big.txt", std::string(1000, 'x'));
  std::string why;
  try {
    engine::readWholeFile(big, 999);
  } catch (const std::runtime_error& error) {
    why = error.what();
  }
  EXPECT_MSG(contains(why, "1000 bytes, more than the 999"), why);
  EXPECT_EQ(engine::readWholeFile(big, 1000).size(), size_t{1000});
}

// A log's end: the last bytes of a file of any size, all of a small one, a FIFO refused at once.
MRNN_TEST(a_files_tail_is_its_last_bytes_and_no_fifo_is_waited_on) {
  Scratch scratch;
  const std::string log = scratch.file("run.log", std::string(5000, 'x') + "last line\n");
  EXPECT_EQ(engine::readFileTail(log, 10), std::string("last line\n"));
  EXPECT_EQ(engine::readFileTail(log, 1u << 20).size(), size_t{5010});
  const std::string fifo = (scratch.folder / "pipe").string();
  EXPECT(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto started = std::chrono::steady_clock::now();
  std::string why;
  try {
    engine::readFileTail(fifo, 10);
  } catch (const std::runtime_error& error) {
    why = error.what();
  }
  EXPECT_MSG(contains(why, "it is a") && contains(why, fifo), why);
  EXPECT(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}
