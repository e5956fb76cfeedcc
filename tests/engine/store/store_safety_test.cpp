// The run database under stress: a second connection, a damaged or foreign file, a folder
// that cannot hold it, and a writer killed in the middle of its work.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/store/run_store.h"
#include "store_fixtures.h"
#include "test_harness.h"

using mrnn::engine::MetricPoint;
using mrnn::engine::RunRecord;
using mrnn::engine::RunStore;
using mrnn::engine::StoreDamagedError;
using mrnn::engine::StoreError;
using mrnn::test::RawDatabase;
using mrnn::test::ScratchFolder;

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

constexpr int kBatchSize = 100;

// One batch: kBatchSize points whose value and epoch carry the batch number.
std::vector<MetricPoint> batch(int64_t number) {
  std::vector<MetricPoint> points;
  for (int i = 0; i < kBatchSize; ++i) {
    const double tag = static_cast<double>(number);
    points.push_back({"train/loss", number * kBatchSize + i, tag, tag, tag});
  }
  return points;
}

// The child: appends batches from `first` on, reporting each commit with one byte, until
// it is killed. Never returns.
[[noreturn]] void appendUntilKilled(const std::string& path, int64_t runId, int64_t first,
                                    int reportFd) {
  try {
    RunStore store(path);
    for (int64_t number = first;; ++number) {
      store.appendMetrics(runId, batch(number));
      store.updateProgress(runId, (number + 1) * kBatchSize, static_cast<double>(number));
      const char tick = 1;
      if (::write(reportFd, &tick, 1) != 1) ::_exit(4);
    }
  } catch (...) {
    ::_exit(3);
  }
}

}  // namespace

MRNN_TEST(store_reader_sees_commits_while_a_writer_holds_the_database) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  RunStore writer(path);
  const int64_t id = writer.createRun(RunRecord{});
  writer.appendMetrics(id, {{"train/loss", 1, 0, 0, 2.0}, {"train/loss", 2, 0, 0, 1.5}});

  // Another process's write transaction, open and uncommitted.
  RawDatabase other(path);
  other.execute("BEGIN IMMEDIATE");
  other.execute("INSERT INTO metrics (run_id, name, step, epoch, wall_s, value) VALUES (" +
                std::to_string(id) + ", 'pending', 3, 0, 0, 1.0)");

  // In rollback-journal mode the reader would wait out busy_timeout (5 s) and fail; in WAL
  // it reads the last committed state at once.
  const auto start = std::chrono::steady_clock::now();
  RunStore reader(path);
  EXPECT_EQ(reader.listRuns().size(), 1u);
  EXPECT_EQ(reader.metrics(id).size(), 2u);
  EXPECT(reader.metricNames(id) == std::vector<std::string>{"train/loss"});
  EXPECT_MSG(secondsSince(start) < 1.0, "reading took " << secondsSince(start) << " s");

  other.execute("COMMIT");
  EXPECT_EQ(reader.metrics(id).size(), 3u);
  EXPECT(reader.metricNames(id) == std::vector<std::string>({"pending", "train/loss"}));
  // And the reader's writes wait for nobody now.
  reader.setBestValid(id, 1.5);
  EXPECT(writer.run(id)->bestValid == 1.5);
}

MRNN_TEST(store_corrupt_file_names_the_path) {
  ScratchFolder folder;
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) % 251);
  folder.write("runs.sqlite", garbage);
  const std::string path = folder.file("runs.sqlite");
  EXPECT_THROWS_WITH(StoreDamagedError, RunStore store(path), path.c_str(),
                     "it is not a run database, nor any SQLite database", "--set-aside");
}

// The defect: SQLite's own words ("database disk image is malformed") were all a user saw of
// a damaged database, in the terminal and the workbench alike, with no word of what to do.
MRNN_TEST(a_damaged_database_is_named_damaged_and_left_as_it_is) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  {
    RunStore store(path);
    for (int run = 0; run < 20; ++run) {
      const int64_t id = store.createRun(RunRecord{});
      store.appendMetrics(id, batch(run));
    }
  }
  const uintmax_t whole = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, whole / 3);
  const auto damaged = [&] {
    RunStore store(path);
    store.listRuns();
    for (const auto& run : store.listRuns()) store.metrics(run.id);
  };
  EXPECT_THROWS_WITH(StoreDamagedError, damaged(), path.c_str(), "it is damaged", "--set-aside");
  EXPECT_EQ(std::filesystem::file_size(path), whole / 3);
}

MRNN_TEST(store_unwritable_folder_names_the_path) {
  // As root, folder permissions do not stop anyone; a regular file as the "folder" does.
  ScratchFolder folder;
  folder.write("not-a-folder", "plain text");
  const std::string path = folder.file("not-a-folder") + "/runs.sqlite";
  EXPECT_THROWS_WITH(StoreError, RunStore store(path), path.c_str(), "cannot open",
                     "its folder is missing, or cannot be read or written");
}

MRNN_TEST(store_refuses_a_newer_schema) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  { RunStore store(path); }
  {
    RawDatabase raw(path);
    raw.execute("PRAGMA user_version = 7");
  }
  EXPECT_THROWS_WITH(StoreError, RunStore store(path), path.c_str(), "schema version 7",
                     "newer than this build");
}

MRNN_TEST(store_refuses_a_database_another_program_made) {
  // A plain SQLite file with other tables (version 0) is another program's: nothing is added
  // beside them (the catalogue's test checks every byte stays).
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  {
    RawDatabase raw(path);
    raw.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('kept')");
  }
  EXPECT_THROWS_WITH(StoreError, RunStore{path}, "another program's database (its tables: notes)");
  RawDatabase raw(path);
  EXPECT_EQ(raw.scalar("SELECT text FROM notes"), "kept");
  EXPECT_EQ(raw.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'runs'"), "0");
}

MRNN_TEST(store_killed_writer_leaves_a_consistent_database) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  int64_t runId = 0;
  {
    RunStore store(path);
    runId = store.createRun(RunRecord{});
  }
  // Writers in turn, each killed while appending; every batch must be all or nothing. The
  // kill waits a different time after the writer's third report each round: killed at once,
  // the writer is often caught between batches (woken, the parent may preempt it right
  // after its report), which would prove nothing.
  int64_t reported = 0;
  const int wanted = 3;
  for (const int delayMicroseconds : {0, 100, 250, 400, 600, 900, 1300, 2000, 3000, 5000}) {
    int64_t first = 0;
    {
      RunStore store(path);
      first = static_cast<int64_t>(store.metrics(runId).size()) / kBatchSize;
    }
    int pipeFds[2];
    EXPECT(::pipe(pipeFds) == 0);
    const pid_t child = ::fork();
    EXPECT(child >= 0);
    if (child == 0) {
      ::close(pipeFds[0]);
      appendUntilKilled(path, runId, first, pipeFds[1]);
    }
    ::close(pipeFds[1]);
    int seen = 0;
    char ticks[64];
    while (seen < wanted) {
      const ssize_t got = ::read(pipeFds[0], ticks, std::min<size_t>(sizeof ticks, wanted - seen));
      if (got <= 0) break;
      seen += static_cast<int>(got);
    }
    ::usleep(static_cast<useconds_t>(delayMicroseconds));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    // Ticks written before the kill landed still count as commits.
    ssize_t got = 0;
    while ((got = ::read(pipeFds[0], ticks, sizeof ticks)) > 0) seen += static_cast<int>(got);
    ::close(pipeFds[0]);
    EXPECT_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
               "child ended with status " << status);
    EXPECT_MSG(seen >= wanted, "the writer committed only " << seen << " batches");
    reported += seen;

    RunStore store(path);
    EXPECT_EQ(store.integrityCheck(), "ok");
    std::map<int64_t, int> sizes;
    for (const auto& point : store.metrics(runId, "train/loss")) {
      const auto number = static_cast<int64_t>(point.value);
      EXPECT_EQ(point.step / kBatchSize, number);
      ++sizes[number];
    }
    const auto batches = static_cast<int64_t>(sizes.size());
    // Every committed (reported) batch is there; at most one more committed unreported.
    EXPECT_MSG(batches >= reported && batches <= reported + 1,
               batches << " batches stored, " << reported << " reported");
    int64_t expected = 0;
    for (const auto& [number, size] : sizes) {
      EXPECT_EQ(number, expected++);
      EXPECT_MSG(size == kBatchSize, "batch " << number << " has " << size << " points");
    }
    reported = batches;
  }
}

// A database moved aside (damaged), deleted, or restored from an older copy begins its ids
// again while the runs it knew keep their checkpoint folders: a new run must not be handed
// a folder that holds another run's checkpoints, or its first save replaces them.
MRNN_TEST(a_new_run_passes_the_checkpoint_folders_an_earlier_database_left) {
  ScratchFolder folder;
  std::filesystem::create_directories(folder.file("checkpoints/run-1"));
  folder.write("checkpoints/run-1/latest.pt", "an earlier run's checkpoint");
  std::filesystem::create_directories(folder.file("checkpoints/run-7"));
  folder.write("checkpoints/run-12", "a file, not a folder, at a run's name");
  std::filesystem::create_directories(folder.file("checkpoints/run-x3"));
  std::filesystem::create_directories(folder.file("checkpoints/run-99999999999999999999999"));
  RunStore store(folder.file("runs.sqlite"));
  EXPECT_EQ(store.createRun(RunRecord{}), 13);
  EXPECT_EQ(store.createRun(RunRecord{}), 14);
  // Ids already past every folder go on from the database's own count.
  std::filesystem::create_directories(folder.file("checkpoints/run-3"));
  EXPECT_EQ(store.createRun(RunRecord{}), 15);
  store.deleteRun(15);
  EXPECT_EQ(store.createRun(RunRecord{}), 16);
}

// The defect: a disk that filled while a project's first run created its database left an empty
// runs.sqlite behind, which every later reader refused as "its runs were lost" until the user
// deleted it. Now a database this store began and could not set up is removed again.
MRNN_TEST(a_database_that_could_not_be_begun_is_not_left_behind) {
  ScratchFolder folder;
  const std::string path = folder.file("runs.sqlite");
  // A full disk, as the kernel says it to one process: writes past one byte fail (EFBIG).
  struct rlimit before {};
  ::getrlimit(RLIMIT_FSIZE, &before);
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGXFSZ, &ignore, &previous);
  struct rlimit tiny = before;
  tiny.rlim_cur = 1;
  ::setrlimit(RLIMIT_FSIZE, &tiny);
  bool refused = false;
  try {
    RunStore store(path);
  } catch (const StoreError&) {
    refused = true;
  }
  ::setrlimit(RLIMIT_FSIZE, &before);
  ::sigaction(SIGXFSZ, &previous, nullptr);
  EXPECT(refused);
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    EXPECT_MSG(!std::filesystem::exists(path + suffix), path + suffix + " was left behind");
  }
  // The disk free again, the project's first run begins its database.
  RunStore again(path);
  EXPECT(again.listRuns().empty());
}
