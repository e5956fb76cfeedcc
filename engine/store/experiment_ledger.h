#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace mrnn::engine {

class SqliteStatement;

// Where a trial of an experiment stands. Queued trials wait for a slot (a stopped queue's
// running trials go back to Queued and resume from their checkpoints); Cut trials lost at a
// successive-halving rung.
enum class TrialStatus { Queued, Running, Done, Failed, Cut };
std::string trialStatusName(TrialStatus status);
std::optional<TrialStatus> trialStatusFromName(const std::string& name);

struct TrialRecord {
  std::string experiment;
  int64_t trial = 0;  // the plan's index
  int64_t configuration = 0;
  int64_t seed = 0;
  std::string label;
  std::string fingerprint;  // of the trial's project, to notice a changed experiment
  int64_t parameters = 0;
  int64_t rung = 0;    // successive halving: the rung it trains to
  int64_t budget = 0;  // steps to train to; 0: the project's own end
  TrialStatus status = TrialStatus::Queued;
  std::string reason;  // why it failed or was cut
  int64_t runId = 0;   // 0 until its child created the run
  std::string updatedAt;
};

// The experiments' trial queues, in the project's run database (runs.sqlite, table
// experiment_trials): the queue's whole state, so that a killed queue, GUI or machine loses
// nothing. Its own connection beside RunStore's; every change is one transaction.
class ExperimentLedger {
 public:
  enum class Access { ReadWrite, ReadOnly };
  // ReadOnly reads a database that may lack the table (no experiment ran): no trials.
  // `busyWait`: as setBusyWait, from the opening on (a held database throws StoreBusyError).
  explicit ExperimentLedger(const std::string& projectFolder, Access access = Access::ReadWrite,
                            int busyWait = 5000);
  ~ExperimentLedger();
  ExperimentLedger(const ExperimentLedger&) = delete;
  ExperimentLedger& operator=(const ExperimentLedger&) = delete;

  // How long a write waits for another connection's lock before StoreBusyError (5 s when
  // opened).
  void setBusyWait(int milliseconds);

  // The experiment's trials in index order.
  std::vector<TrialRecord> trials(const std::string& experiment) const;
  std::optional<TrialRecord> trial(const std::string& experiment, int64_t index) const;
  // The trials, of any experiment, whose run is `runId`.
  std::vector<TrialRecord> trialsOfRun(int64_t runId) const;
  // Run `runId` was deleted: its trials have no result now and wait in the queue again
  // (Queued, no run, `reason` saying why), so that results count what exists and the next
  // queue run trains them afresh.
  void forgetRun(int64_t runId, const std::string& reason);
  // Inserts the trial, or replaces the row of the same experiment and index.
  void put(const TrialRecord& trial);
  void setStatus(const std::string& experiment, int64_t index, TrialStatus status,
                 const std::string& reason = "");
  void setRun(const std::string& experiment, int64_t index, int64_t runId);
  void setBudget(const std::string& experiment, int64_t index, int64_t rung, int64_t budget);
  void remove(const std::string& experiment, int64_t index);
  void removeAll(const std::string& experiment);

 private:
  // One UPDATE of a trial (?1 experiment, ?2 index, ?3 now; bindRest binds the rest).
  void update(const std::string& action, const std::string& experiment, int64_t index,
              const char* sql, const std::function<void(SqliteStatement&)>& bindRest);

  std::string path_;
  sqlite3* db_ = nullptr;
  bool hasTable_ = true;
};

}  // namespace mrnn::engine
