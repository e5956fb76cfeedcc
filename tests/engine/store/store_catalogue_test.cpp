// The run catalogue: one writer per run (a lock that dies with its process), runs whose
// process died read "interrupted", checkpoints found in one place, read-only projects read,
// orphaned temporaries cleaned, deleting a run leaves the user's files, and a project identity
// for checkpoints to carry.
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "engine/io/checkpoint_envelope.h"
#include "engine/store/run_catalogue.h"
#include "engine/store/run_paths.h"
#include "store_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using engine::RunCatalogue;
using engine::RunStatus;
using test::ScratchFolder;

namespace {

int64_t addRun(RunCatalogue& catalogue, RunStatus status = RunStatus::Running) {
  engine::RunRecord record;
  record.name = "run";
  record.status = status;
  return catalogue.store().createRun(record);
}

// A checkpoint file whose envelope is whole (its payload is no archive: the catalogue reads only
// the envelope).
const std::string whole = engine::sealCheckpoint("payload");

void touch(const std::string& path, const std::string& contents = "x") {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << contents;
}

// A child process that takes run `runId`'s lock and waits to be killed; returns its pid once
// it holds the lock.
pid_t childHoldingLock(const std::string& folder, int64_t runId) {
  int ready[2];
  if (::pipe(ready) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(ready[0]);
    try {
      engine::RunLock lock =
          engine::RunLock::acquire(engine::RunPaths::writerLock(folder, runId), "run");
      const char byte = 1;
      [[maybe_unused]] const auto written = ::write(ready[1], &byte, 1);
      ::pause();
    } catch (...) {
    }
    ::_exit(1);
  }
  ::close(ready[1]);
  char byte = 0;
  [[maybe_unused]] const auto got = ::read(ready[0], &byte, 1);
  ::close(ready[0]);
  return pid;
}

void killAndReap(pid_t pid) {
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

}  // namespace

MRNN_TEST(a_run_has_one_writer_and_the_refusal_names_the_holder) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  const int64_t id = addRun(catalogue);
  engine::RunLock first = catalogue.lockForWriting(id);
  EXPECT(first.held());
  const auto holder = catalogue.writer(id);
  EXPECT(holder.has_value());
  EXPECT_EQ(holder->pid, static_cast<int64_t>(::getpid()));
  // A second writer, even in the same process (the GUI trains one run while resuming
  // another), is refused by name.
  EXPECT_THROWS_WITH(engine::RunBusyError, catalogue.lockForWriting(id),
                     "run 1 is being written by process " + std::to_string(::getpid()));
  first.release();
  EXPECT(!catalogue.writer(id).has_value());
  EXPECT(catalogue.lockForWriting(id).held());
  // Experiments' queues take the same locks: the refusal speaks of what is locked, not "a run".
  const std::string queueLock = folder.path() + "/queue.lock";
  engine::RunLock queue = engine::RunLock::acquire(queueLock, "experiment 'grid'");
  try {
    engine::RunLock::acquire(queueLock, "experiment 'grid'");
    EXPECT_MSG(false, "a second queue lock was granted");
  } catch (const engine::RunBusyError& error) {
    const std::string message = error.what();
    EXPECT_MSG(message.rfind("experiment 'grid' is being written by process", 0) == 0 &&
                   message.find("a run") == std::string::npos,
               message);
  }
}

MRNN_TEST(the_lock_dies_with_its_process_and_the_run_reads_interrupted) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  const int64_t id = addRun(catalogue);
  const pid_t child = childHoldingLock(folder.path(), id);
  const auto holder = catalogue.writer(id);
  EXPECT(holder.has_value() && holder->pid == child);
  EXPECT_THROWS_WITH(engine::RunBusyError, catalogue.lockForWriting(id),
                     "process " + std::to_string(child));
  EXPECT(catalogue.run(id)->status == RunStatus::Running);
  killAndReap(child);  // kill -9: no handler, no clean-up
  EXPECT(!catalogue.writer(id).has_value());
  const auto run = catalogue.run(id);
  EXPECT(run->status == RunStatus::Interrupted);
  EXPECT(run->reason.find("resume") != std::string::npos);
  EXPECT(catalogue.runs().front().status == RunStatus::Interrupted);
  // The database still says running: "interrupted" is read, never written.
  EXPECT(catalogue.store().run(id)->status == RunStatus::Running);
  EXPECT(catalogue.lockForWriting(id).held());
}

MRNN_TEST(ended_runs_keep_their_status_without_a_writer) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  for (const auto status : {RunStatus::Stopped, RunStatus::Finished, RunStatus::Failed}) {
    const int64_t id = addRun(catalogue, status);
    EXPECT(catalogue.run(id)->status == status);
  }
  EXPECT_THROWS_WITH(engine::StoreError, catalogue.store().setStatus(1, RunStatus::Interrupted),
                     "never stored");
}

MRNN_TEST(a_new_writer_removes_what_a_killed_writer_left_half_written) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  const int64_t id = addRun(catalogue);
  const std::string runFolder = engine::RunPaths::checkpointFolder(folder.path(), id);
  touch(runFolder + "/latest.pt.tmp-a1B2c3");
  touch(runFolder + "/best.pt.tmp-zzzzzz");
  touch(runFolder + "/latest.pt");
  { engine::RunLock lock = catalogue.lockForWriting(id); }
  EXPECT(!std::filesystem::exists(runFolder + "/latest.pt.tmp-a1B2c3"));
  EXPECT(!std::filesystem::exists(runFolder + "/best.pt.tmp-zzzzzz"));
  EXPECT(std::filesystem::exists(runFolder + "/latest.pt"));
}

MRNN_TEST(checkpoints_are_found_in_one_place) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  const int64_t first = addRun(catalogue, RunStatus::Finished);
  const int64_t second = addRun(catalogue, RunStatus::Stopped);
  const int64_t third = addRun(catalogue, RunStatus::Failed);  // no checkpoint at all
  touch(engine::RunPaths::latest(folder.path(), first), whole);
  touch(engine::RunPaths::best(folder.path(), first), whole);
  touch(engine::RunPaths::latest(folder.path(), second), whole);
  catalogue.store().recordCheckpoint(second, {"latest", "checkpoints/run-2/latest.pt", 40, {}, ""});
  const auto ofFirst = catalogue.checkpoints(first);
  EXPECT_EQ(ofFirst.size(), size_t{2});
  EXPECT_EQ(ofFirst.front().kind, std::string("best"));
  EXPECT(std::filesystem::path(ofFirst.front().path).is_absolute());
  EXPECT_EQ(catalogue.checkpoints(second).front().step, int64_t{40});
  // Analysis: the newest run with a checkpoint, best before latest.
  EXPECT(catalogue.checkpointToAnalyse().find("run-2/latest.pt") != std::string::npos);
  EXPECT(catalogue.checkpointToAnalyse(first).find("run-1/best.pt") != std::string::npos);
  EXPECT_THROWS_WITH(std::runtime_error, catalogue.checkpointToAnalyse(third), "no checkpoint");
  EXPECT_THROWS_WITH(std::runtime_error, catalogue.checkpointToAnalyse(9), "there is no run 9");
  // Resume: the newest unfinished run's latest.
  EXPECT_THROWS_WITH(std::runtime_error, catalogue.checkpointToResume(), "run 3 has no latest");
  EXPECT(catalogue.checkpointToResume(second).find("run-2/latest.pt") != std::string::npos);
  EXPECT_EQ(catalogue.allCheckpoints().size(), size_t{3});
  // A run whose disk filled before its first latest checkpoint: its best is named instead.
  touch(engine::RunPaths::best(folder.path(), third), whole);
  EXPECT_THROWS_WITH(std::runtime_error, catalogue.checkpointToResume(third),
                     "run 3 has no latest checkpoint", "its best checkpoint (step 0) is whole",
                     "run-3/best.pt");
}

// The defect: a run whose latest checkpoint was damaged (a disk error, a copy cut short) was
// resumed from it: training failed to start, and the window offered no other way on, though
// the run's best checkpoint was whole. The damage is found before training starts, and the best
// checkpoint is offered.
MRNN_TEST(a_damaged_latest_checkpoint_is_found_before_resuming_and_the_best_offered) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  const int64_t id = addRun(catalogue, RunStatus::Stopped);
  const std::string latest = engine::RunPaths::latest(folder.path(), id);
  const std::string best = engine::RunPaths::best(folder.path(), id);
  std::string damaged = engine::sealCheckpoint(std::string(4096, 'w'));
  damaged[2000] = 'x';
  touch(latest, damaged);
  touch(best, engine::sealCheckpoint(std::string(4096, 'b')));
  catalogue.store().recordCheckpoint(id, {"best", "checkpoints/run-1/best.pt", 300, 2.5, ""});
  EXPECT_THROWS_WITH(std::runtime_error, catalogue.checkpointToResume(id), "latest.pt", "corrupt",
                     "best checkpoint (step 300) is whole", "run-1/best.pt");
  const engine::ResumePoint point = catalogue.resumePoint(id);
  EXPECT(point.checkpoint.empty());
  EXPECT(point.latestProblem.find("do not match their checksum") != std::string::npos);
  EXPECT(point.best.has_value() && point.best->step == 300);
  // Cut short, or nothing at the name but a folder: the same.
  touch(latest, engine::sealCheckpoint(std::string(4096, 'w')).substr(0, 3000));
  EXPECT(catalogue.resumePoint(id).latestProblem.find("truncated") != std::string::npos);
  std::filesystem::remove(latest);
  std::filesystem::create_directory(latest);
  EXPECT(catalogue.resumePoint(id).best.has_value());
  std::filesystem::remove(latest);
  // Both damaged: nothing is offered.
  touch(best, "not a checkpoint");
  EXPECT(!catalogue.resumePoint(id).best.has_value());
  // Whole again: resumed from as always.
  touch(latest, engine::sealCheckpoint("w"));
  EXPECT_EQ(catalogue.checkpointToResume(id),
            std::filesystem::absolute(latest).lexically_normal().string());
}

MRNN_TEST(deleting_a_run_is_refused_while_it_is_written) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  const int64_t id = addRun(catalogue);
  touch(engine::RunPaths::latest(folder.path(), id));
  {
    engine::RunLock lock = catalogue.lockForWriting(id);
    EXPECT_THROWS_WITH(engine::RunBusyError, catalogue.deleteRun(id), "being written");
    EXPECT(catalogue.run(id).has_value());
  }
  catalogue.deleteRun(id);
  EXPECT(!catalogue.run(id).has_value());
  EXPECT(!std::filesystem::exists(engine::RunPaths::checkpointFolder(folder.path(), id)));
}

// The defect: deleting a run removed its whole checkpoint folder, a file the user had put
// there (notes, a sample copied beside the checkpoint) with it.
MRNN_TEST(deleting_a_run_removes_only_the_files_the_workbench_wrote) {
  ScratchFolder folder;
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  const int64_t id = addRun(catalogue, RunStatus::Finished);
  const std::string runFolder = engine::RunPaths::checkpointFolder(folder.path(), id);
  touch(engine::RunPaths::latest(folder.path(), id));
  touch(engine::RunPaths::best(folder.path(), id));
  touch(engine::RunPaths::writerLock(folder.path(), id));
  touch(runFolder + "/latest.pt.tmp-a1b2c3d4");
  touch(engine::RunPaths::unwrittenMetrics(folder.path(), id));
  touch(runFolder + "/unwritten-metrics.tsv.tmp-Zz09");
  touch(runFolder + "/notes.txt", "why this run diverged");
  touch(runFolder + "/x.tmp-mine", "not a temporary of ours");
  const std::vector<std::string> kept = catalogue.deleteRun(id);
  EXPECT(!catalogue.run(id).has_value());
  EXPECT_EQ(kept.size(), size_t{2});
  EXPECT_EQ(kept[0], std::string("notes.txt"));
  EXPECT_EQ(kept[1], std::string("x.tmp-mine"));
  EXPECT(std::filesystem::exists(runFolder + "/notes.txt"));
  EXPECT(std::filesystem::exists(runFolder + "/x.tmp-mine"));
  for (const char* gone : {"latest.pt", "best.pt", "writer.lock", "latest.pt.tmp-a1b2c3d4",
                           "unwritten-metrics.tsv", "unwritten-metrics.tsv.tmp-Zz09"}) {
    EXPECT(!std::filesystem::exists(runFolder + "/" + gone));
  }

  // Checkpoints kept on another disk through a link: the run's files there go, the link and
  // the user's files stay.
  ScratchFolder elsewhere;
  const int64_t linked = addRun(catalogue, RunStatus::Finished);
  const std::string linkedFolder = engine::RunPaths::checkpointFolder(folder.path(), linked);
  touch(elsewhere.path() + "/latest.pt");
  touch(elsewhere.path() + "/theirs.txt");
  std::filesystem::create_symlink(elsewhere.path(), linkedFolder);
  EXPECT_EQ(catalogue.deleteRun(linked).size(), size_t{1});
  EXPECT(std::filesystem::is_symlink(linkedFolder));
  EXPECT(!std::filesystem::exists(elsewhere.path() + "/latest.pt"));
  EXPECT(std::filesystem::exists(elsewhere.path() + "/theirs.txt"));
}

MRNN_TEST(every_project_has_its_own_lasting_identity) {
  ScratchFolder a, b;
  std::string idA;
  {
    RunCatalogue catalogue(a.path(), RunCatalogue::Access::ReadWrite);
    idA = catalogue.projectId();
  }
  EXPECT_EQ(idA.size(), size_t{32});
  EXPECT_EQ(RunCatalogue(a.path()).projectId(), idA);  // read back, read-only
  EXPECT(RunCatalogue(b.path(), RunCatalogue::Access::ReadWrite).projectId() != idA);
}

MRNN_TEST(a_version_1_database_gains_an_identity_when_opened_for_writing) {
  ScratchFolder folder;
  const std::string path = engine::RunPaths::database(folder.path());
  {
    test::RawDatabase raw(path);
    raw.execute(
        "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, "
        "model_type TEXT NOT NULL DEFAULT '', parameters INTEGER NOT NULL DEFAULT 0, "
        "config_yaml TEXT NOT NULL DEFAULT '', started_at TEXT NOT NULL, ended_at TEXT, "
        "status TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', duration_s REAL NOT NULL "
        "DEFAULT 0, best_valid REAL, test_result REAL, steps INTEGER NOT NULL DEFAULT 0);"
        "INSERT INTO runs (name, started_at, status) VALUES ('old', '2026-01-01', 'finished');"
        "PRAGMA user_version = 1;");
  }
  EXPECT_EQ(RunCatalogue(folder.path()).projectId(), std::string());  // read-only: unchanged
  RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
  EXPECT_EQ(catalogue.projectId().size(), size_t{32});
  const auto runs = catalogue.runs();
  EXPECT_EQ(runs.size(), size_t{1});
  if (!runs.empty()) EXPECT_EQ(runs.front().name, std::string("old"));
}

MRNN_TEST(a_read_only_project_is_read_without_writing_anything) {
  ScratchFolder folder;
  {
    RunCatalogue catalogue(folder.path(), RunCatalogue::Access::ReadWrite);
    addRun(catalogue, RunStatus::Finished);
    touch(engine::RunPaths::latest(folder.path(), 1));
  }
  const std::string database = engine::RunPaths::database(folder.path());
  const auto before = std::filesystem::last_write_time(database);
  ::chmod(database.c_str(), 0444);
  ::chmod(folder.path().c_str(), 0555);
  // Root ignores permissions: the reading is done by an unprivileged child where it can be.
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
    try {
      const RunCatalogue catalogue(folder.path());
      const bool ok = catalogue.runs().size() == 1 &&
                      catalogue.checkpointToAnalyse().find("latest.pt") != std::string::npos;
      ::_exit(ok ? 0 : 1);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "read-only project: %s\n", error.what());
      ::_exit(2);
    }
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::chmod(folder.path().c_str(), 0755);
  EXPECT(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT(std::filesystem::last_write_time(database) == before);
  EXPECT(!std::filesystem::exists(database + "-wal"));
  // A project never trained: a clear word, and no database made.
  ScratchFolder empty;
  EXPECT_THROWS_WITH(engine::StoreError, RunCatalogue(empty.path()), "no runs yet");
  EXPECT(!RunCatalogue::exists(empty.path()));
}

namespace {

std::string bytesOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

// The defect: another program's SQLite database at a project's runs.sqlite was switched to WAL
// and given the workbench's tables by the first `mrnn train`. It is refused in words, read or
// written, and left byte for byte as it was; the workbench's own databases, older ones
// included, open as before and carry the workbench's mark from then on.
MRNN_TEST(another_programs_database_at_runs_sqlite_is_never_written) {
  const auto foreign = [](const std::string& sql) {
    ScratchFolder folder;
    const std::string path = engine::RunPaths::database(folder.path());
    { test::RawDatabase(path).execute(sql.c_str()); }
    const std::string before = bytesOf(path);
    EXPECT_THROWS_WITH(engine::StoreError,
                       RunCatalogue(folder.path(), RunCatalogue::Access::ReadWrite),
                       "is another program's database");
    EXPECT_THROWS_WITH(engine::StoreError, RunCatalogue(folder.path()),
                       "is another program's database");
    EXPECT(bytesOf(path) == before);
    EXPECT(!std::filesystem::exists(path + "-wal"));
  };
  foreign(
      "CREATE TABLE experiments (id INTEGER, name TEXT); INSERT INTO experiments VALUES (1, 'x');");
  foreign("CREATE TABLE runs (id INTEGER, command TEXT);");  // a runs table, not the workbench's
  foreign("PRAGMA application_id = 42; CREATE TABLE t (x);");

  ScratchFolder ours;
  {
    RunCatalogue catalogue(ours.path(), RunCatalogue::Access::ReadWrite);
    addRun(catalogue, RunStatus::Finished);
  }
  {
    test::RawDatabase raw(engine::RunPaths::database(ours.path()));
    raw.execute("PRAGMA application_id = 0;");  // as a database made before the mark
  }
  EXPECT_EQ(RunCatalogue(ours.path()).runs().size(), size_t{1});
  EXPECT_EQ(RunCatalogue(ours.path(), RunCatalogue::Access::ReadWrite).runs().size(), size_t{1});
}
