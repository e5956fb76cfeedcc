// The Slurm executor without a cluster: the experiment file's slurm section, what squeue and
// sbatch print, the jobs file and the tickets, the batch script, the trial's own run folder,
// and the queue's decisions against a stand-in SlurmClient whose "jobs" leave runs in the
// trials' folders as real ones do. tests/cli/experiment_slurm.sh runs a real one-node cluster.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "engine/config/config_error.h"
#include "engine/experiment/experiment_paths.h"
#include "engine/experiment/experiment_plan.h"
#include "engine/experiment/experiment_queue.h"
#include "engine/experiment/slurm_client.h"
#include "engine/experiment/slurm_jobs.h"
#include "engine/experiment/slurm_queue.h"
#include "engine/experiment/slurm_trial.h"
#include "engine/io/atomic_file.h"
#include "engine/store/experiment_ledger.h"
#include "engine/store/run_catalogue.h"
#include "experiment_fixture.h"
#include "store_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ConfigError;
using engine::ExperimentLedger;
using engine::ExperimentPaths;
using engine::SlurmJobState;
using engine::TrialStatus;
using test::ScratchFolder;

namespace {

// The split paths a trial's job must find from its own folder.
const std::string kBase =
    std::string(test::kExperimentBase) + "  valid: held/valid.txt\n  test: /data/test.txt\n";

constexpr const char* kTwoTrials = R"(experiment:
  axes:
    - key: training.optimizer.lr
      values: [0.001, 0.002]
  slots: 1
)";

engine::ExperimentPlan slurmPlanIn(const ScratchFolder& folder, const std::string& experiment) {
  engine::ExperimentPlan plan = test::planIn(folder, experiment, kBase);
  plan.experiment.slurm.pollSeconds = 0;  // the stand-in answers at once
  return plan;
}

// A stand-in for sbatch, squeue and scancel. Each submitted task is pending at the first
// squeue, running at the next and ends at the one after, having done what a trial's job does:
// a run in the trial's own folder (continued when the ticket names one) and an exit status.
class FakeSlurm : public engine::SlurmClient {
 public:
  explicit FakeSlurm(const engine::ExperimentPlan& plan) : plan_(plan) {}

  std::vector<std::vector<std::string>> submissions;
  std::vector<std::string> cancelled;
  // Tasks squeue reports, by id, with the squeue calls each has left in its state.
  std::map<std::string, SlurmJobState> tasks;
  std::map<std::string, int> age;
  // The exit status a task writes (none: killed without one); 0 when not given.
  std::map<std::string, std::optional<int>> exitOf;
  // Tasks that stay running until cancelled.
  bool endless = false;
  // Set (as `mrnn experiment stop` would) once every task runs.
  engine::StopToken* stopWhenRunning = nullptr;
  // sbatch's refusal, when it refuses.
  std::string refusal;
  int queries = 0;

  std::string submit(const std::vector<std::string>& args) override {
    if (!refusal.empty()) throw std::runtime_error(refusal);
    submissions.push_back(args);
    const std::string id = std::to_string(100 + submissions.size());
    std::string array;
    for (const std::string& arg : args) {
      if (arg.rfind("--array=", 0) == 0) array = arg.substr(8);
    }
    for (const std::string& part : splitArray(array)) {
      const std::string task = id + "_" + part;
      tasks[task] = {task, "PENDING", "Priority", "", "0:00"};
      age[task] = 0;
    }
    return id;
  }

  std::map<std::string, SlurmJobState> jobs(const std::string& jobName) override {
    EXPECT_EQ(jobName, engine::slurmJobName(plan_.experiment.name));
    ++queries;
    for (auto& [id, state] : tasks) {
      if (!state.live()) continue;
      const int steps = age[id]++;
      if (steps == 1) state.state = "RUNNING";
      if (steps == 2 && !endless) finish(id, state, exitOf.count(id) ? exitOf[id] : 0);
    }
    bool running = !tasks.empty();
    for (const auto& [id, state] : tasks) running = running && state.state == "RUNNING";
    if (running && stopWhenRunning != nullptr) stopWhenRunning->requestStop();
    return tasks;
  }

  void cancel(const std::vector<std::string>& ids) override {
    for (const std::string& id : ids) {
      cancelled.push_back(id);
      auto& state = tasks[id];
      // A running trial stops with a checkpoint (exit 3); a pending one never ran.
      if (state.state == "RUNNING") {
        finish(id, state, 3);
      } else {
        state.state = "CANCELLED";
      }
    }
  }

 private:
  static std::vector<std::string> splitArray(const std::string& array) {
    std::vector<std::string> parts;
    const std::string list = array.substr(0, array.find('%'));
    size_t start = 0;
    while (start <= list.size()) {
      const size_t comma = std::min(list.find(',', start), list.size());
      const std::string part = list.substr(start, comma - start);
      const auto dash = part.find('-');
      if (dash == std::string::npos) {
        parts.push_back(part);
      } else {
        for (int64_t n = std::stoll(part.substr(0, dash)); n <= std::stoll(part.substr(dash + 1));
             ++n) {
          parts.push_back(std::to_string(n));
        }
      }
      start = comma + 1;
    }
    return parts;
  }
  static int64_t index(const std::string& id) {
    return std::stoll(id.substr(id.find('_') + 1)) - 1;
  }

  // What `mrnn experiment trial --run-folder` leaves: its run (a new one, or the ticket's),
  // trained to the budget (or stopped half-way), and its exit status.
  void finish(const std::string& id, SlurmJobState& state, std::optional<int> code) {
    const int64_t trial = index(id);
    const std::string& folder = plan_.folder();
    const std::string& name = plan_.experiment.name;
    const std::string ticketPath = ExperimentPaths::slurmTicket(folder, name, trial);
    const auto ticket = engine::parseSlurmTicket(engine::readWholeFile(ticketPath), ticketPath);
    engine::RunCatalogue own(ExperimentPaths::slurmRunFolder(folder, name, trial),
                             engine::RunCatalogue::Access::ReadWrite);
    int64_t run = ticket.run;
    if (run == 0 || !own.store().run(run)) {
      engine::RunRecord record;
      record.name = plan_.trials[static_cast<size_t>(trial)].project.name;
      record.configYaml = engine::projectToYaml(engine::slurmTrialProject(
          plan_.trials[static_cast<size_t>(trial)].project, own.folder()));
      run = own.store().createRun(record);
    }
    const int64_t budget = ticket.budget > 0 ? ticket.budget : 40;
    own.store().updateProgress(run, code == 3 ? budget / 2 : budget, 1.0);
    own.store().setBestValid(
        run, 4.0 - 0.1 * static_cast<double>(trial) - 0.001 * static_cast<double>(budget));
    own.store().setStatus(run, code == 0   ? engine::RunStatus::Finished
                               : code == 3 ? engine::RunStatus::Stopped
                                           : engine::RunStatus::Running);
    if (code) {
      engine::writeFileAtomically(ExperimentPaths::slurmExit(folder, name, trial, id),
                                  std::to_string(*code) + "\n");
    }
    state.state = code == 3 ? "CANCELLED" : code && *code == 0 ? "COMPLETED" : "FAILED";
  }

  const engine::ExperimentPlan& plan_;
};

engine::QueueOptions quickOptions() {
  engine::QueueOptions options;
  options.program = "/opt/mrnn/bin/mrnn";
  options.pollMilliseconds = 1;
  return options;
}

}  // namespace

MRNN_TEST(the_slurm_section_reads_every_key_and_locates_its_problems) {
  const engine::Experiment e = engine::parseExperiment(R"(experiment:
  executor: slurm
  slurm:
    partition: gpu
    time: "1-02:00:00"
    account: lab
    cpus_per_task: 4
    sbatch_args: ["--gres=gpu:1", --mem=8G]
    setup:
      - module load cuda
    poll_seconds: 30
)",
                                                       "e.yaml");
  EXPECT(e.executor == engine::ExecutorKind::Slurm);
  EXPECT_EQ(e.slurm.partition, "gpu");
  EXPECT_EQ(e.slurm.time, "1-02:00:00");
  EXPECT_EQ(e.slurm.account, "lab");
  EXPECT_EQ(e.slurm.cpusPerTask, 4);
  EXPECT_EQ(e.slurm.sbatchArgs.size(), 2u);
  EXPECT_EQ(e.slurm.sbatchArgs[1], "--mem=8G");
  EXPECT_EQ(e.slurm.setup.size(), 1u);
  EXPECT_EQ(e.slurm.pollSeconds, 30);
  // The local executor is the default; the section alone does not change it.
  EXPECT(engine::parseExperiment("experiment:\n  slurm: {partition: x}\n", "e.yaml").executor ==
         engine::ExecutorKind::Local);

  const auto parse = [](const std::string& text) { engine::parseExperiment(text, "e.yaml"); };
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  executor: pbs\n"),
                     "e.yaml:2:", "experiment.executor", "expected 'local' or 'slurm'");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  slurm:\n    partiton: gpu\n"), "e.yaml:3:5",
                     "experiment.slurm.partiton", "unknown key");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  slurm:\n    time: 2 hours\n"),
                     "e.yaml:3:11", "experiment.slurm.time");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  slurm:\n    time: two\n"), "e.yaml:3:11",
                     "experiment.slurm.time", "not a Slurm time limit");
  EXPECT_THROWS_WITH(ConfigError,
                     parse("experiment:\n  slurm:\n    sbatch_args: [--mem=1G, --array=1-9]\n"),
                     "e.yaml:3:29", "experiment.slurm.sbatch_args[1]", "set by the Slurm executor");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  slurm:\n    sbatch_args: [-o/tmp/x]\n"),
                     "experiment.slurm.sbatch_args[0]", "set by the Slurm executor");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  slurm:\n    sbatch_args: [mem=1G]\n"),
                     "experiment.slurm.sbatch_args[0]", "not an sbatch option");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  slurm:\n    cpus_per_task: 0\n"),
                     "experiment.slurm.cpus_per_task");
  EXPECT_THROWS_WITH(ConfigError, parse("experiment:\n  slurm:\n    setup: module load x\n"),
                     "experiment.slurm.setup", "expected a list of shell lines");
}

MRNN_TEST(squeue_lines_are_read_and_only_final_states_are_over) {
  const auto jobs = engine::parseSqueue(
      "1234_1|RUNNING|None|node7|1:02\n"
      "1234_2|PENDING|JobArrayTaskLimit||0:00\n"
      "\n"
      "1234_3|COMPLETING|None|node7|2:00\n"
      "1234_4|COMPLETED|None|node7|2:10\n"
      "1234_5|TIMEOUT|None|node8|10:00\n"
      "1234_6|SOMETHING_NEW|launch failed requeued held||0:00\n");
  EXPECT_EQ(jobs.size(), 6u);
  EXPECT_EQ(jobs.at("1234_1").node, "node7");
  EXPECT(jobs.at("1234_1").live());
  EXPECT(jobs.at("1234_2").live());
  EXPECT(jobs.at("1234_3").live());  // its processes may still write
  EXPECT(!jobs.at("1234_4").live());
  EXPECT(!jobs.at("1234_5").live());
  EXPECT(jobs.at("1234_6").live());  // unknown: never collected under a writer
  EXPECT_EQ(jobs.at("1234_6").reason, "launch failed requeued held");
  EXPECT_EQ(jobs.at("1234_1").describe(), "running on node7 for 1:02");
  EXPECT_EQ(jobs.at("1234_2").describe(), "pending (JobArrayTaskLimit)");
  EXPECT_EQ(jobs.at("1234_4").describe(), "completed");
  EXPECT(engine::parseSqueue("").empty());
  EXPECT_THROWS_WITH(std::runtime_error, engine::parseSqueue("1234_1 RUNNING\n"), "cannot read",
                     "'1234_1 RUNNING'");
  // The format parseSqueue reads is the one it asks for.
  const auto args = engine::squeueArguments("mrnn-e");
  EXPECT(std::find(args.begin(), args.end(), "--format=%i|%T|%r|%N|%M") != args.end());
  EXPECT(std::find(args.begin(), args.end(), "--name=mrnn-e") != args.end());
  EXPECT(std::find(args.begin(), args.end(), "--array") != args.end());
}

MRNN_TEST(an_array_lists_trial_numbers_as_ranges_with_the_slots) {
  EXPECT_EQ(engine::slurmArraySpec({1, 2, 3, 5}, 0), "1-3,5");
  EXPECT_EQ(engine::slurmArraySpec({7, 3, 4, 3}, 0), "3-4,7");
  EXPECT_EQ(engine::slurmArraySpec({1, 2, 3, 4}, 2), "1-4%2");
  EXPECT_EQ(engine::slurmArraySpec({1, 2}, 2), "1-2");  // no throttle where all fit
  EXPECT_EQ(engine::slurmArraySpec({9}, 1), "9");
  EXPECT_EQ(engine::slurmTaskId("1234", 2), "1234_3");
  EXPECT_EQ(engine::parseSbatchJobId("1234\n"), "1234");
  EXPECT_EQ(engine::parseSbatchJobId("1234;cluster\n"), "1234");
  EXPECT_EQ(engine::parseSbatchJobId("sbatch: warning: x\n88\n"), "88");
  EXPECT_THROWS_WITH(std::runtime_error, engine::parseSbatchJobId("Submitted\n"), "no job id",
                     "Submitted");
}

MRNN_TEST(the_jobs_file_and_a_ticket_read_back_and_name_their_faults) {
  const engine::SlurmJobs jobs{{0, "12_1"}, {4, "13_5"}};
  EXPECT(engine::parseSlurmJobs(engine::formatSlurmJobs(jobs), "jobs") == jobs);
  EXPECT(engine::parseSlurmJobs("", "jobs").empty());
  EXPECT_THROWS_WITH(std::runtime_error, engine::parseSlurmJobs("1 12_1\n2 12_3\n", "/p/jobs"),
                     "/p/jobs:2:", "'2 12_3'");
  EXPECT_THROWS_WITH(std::runtime_error, engine::parseSlurmJobs("x 12_1\n", "jobs"), "jobs:1:");

  engine::SlurmTicket ticket;
  ticket.fingerprint = "ab12";
  ticket.budget = 200;
  ticket.run = 3;
  ticket.lastRun = 4;
  const auto back = engine::parseSlurmTicket(engine::formatSlurmTicket(ticket), "t");
  EXPECT_EQ(back.fingerprint, "ab12");
  EXPECT_EQ(back.budget, 200);
  EXPECT_EQ(back.run, 3);
  EXPECT_EQ(back.lastRun, 4);
  EXPECT_THROWS_WITH(std::runtime_error,
                     engine::parseSlurmTicket("fingerprint a\nbudget x\n", "/t/ticket"),
                     "/t/ticket:2: budget", "whole number");
  EXPECT_THROWS_WITH(std::runtime_error,
                     engine::parseSlurmTicket("fingerprint a\nbudget 1\nrun 0\n", "t"),
                     "t: last_run: missing");
  EXPECT_THROWS_WITH(std::runtime_error, engine::parseSlurmTicket("colour red\n", "t"),
                     "t:1: colour: unknown key");
  // Numbers past 64 bits are named, not thrown as std::out_of_range from stoll.
  EXPECT_THROWS_WITH(
      std::runtime_error,
      engine::parseSlurmJobs("99999999999999999999 12_99999999999999999999\n", "jobs"), "jobs:1:");
  EXPECT_THROWS_WITH(std::runtime_error,
                     engine::parseSlurmTicket("fingerprint a\nbudget 99999999999999999999\n", "t"),
                     "t:2: budget", "whole number");
}

MRNN_TEST(the_step_a_log_reached_is_its_last_step) {
  EXPECT_EQ(engine::lastLoggedStep("epoch 0.10  step 1  loss 3\nepoch 0.50  step 50  loss 2\n"
                                   "validation at step 60: 3.1 bits/symbol\n"),
            60);
  EXPECT_EQ(engine::lastLoggedStep("resumed run 1 at step 400\n"), 400);
  EXPECT_EQ(engine::lastLoggedStep("training could not start\nmax steps 5\n"), -1);
  EXPECT_EQ(engine::lastLoggedStep(""), -1);
}

MRNN_TEST(the_batch_script_and_sbatch_arguments_carry_every_setting) {
  engine::SlurmSubmission submission;
  submission.program = "/opt/mrnn's/mrnn";
  submission.experimentFile = "/p/experiments/e.yaml";
  submission.projectFolder = "/p";
  submission.logFolder = "/p/experiment-logs/e";
  submission.slurmFolder = "/p/experiment-logs/e/slurm";
  submission.jobName = "mrnn-e";
  submission.threads = 2;
  submission.settings.setup = {"module load torch"};
  const std::string script = engine::slurmJobScript(submission);
  EXPECT_MSG(script.find("module load torch\nn=$SLURM_ARRAY_TASK_ID\n") != std::string::npos,
             script);
  EXPECT_MSG(script.find("exec '/opt/mrnn'\\''s/mrnn' experiment trial '/p/experiments/e.yaml' "
                         "--trial \"$n\" --threads 2") != std::string::npos,
             script);
  EXPECT_MSG(script.find("--run-folder \"$folder\" --exit-file "
                         "\"$folder/exit-${SLURM_ARRAY_JOB_ID}_$n\"") != std::string::npos,
             script);
  EXPECT(script.find("folder='/p/experiment-logs/e/slurm'/trial-$n\n") != std::string::npos);

  auto args = engine::sbatchArguments(submission, "1-4%2", "/p/trial.sh");
  EXPECT_EQ(args.front(), "--parsable");
  EXPECT_EQ(args.back(), "/p/trial.sh");
  const auto has = [&args](const std::string& arg) {
    return std::find(args.begin(), args.end(), arg) != args.end();
  };
  EXPECT(has("--array=1-4%2"));
  EXPECT(has("--job-name=mrnn-e"));
  EXPECT(has("--output=/p/experiment-logs/e/trial-%a.log"));
  EXPECT(has("--open-mode=append"));
  EXPECT(has("--cpus-per-task=2"));  // the trial's threads when the section names none
  EXPECT(!has("--partition="));
  submission.settings.partition = "gpu";
  submission.settings.time = "30";
  submission.settings.account = "lab";
  submission.settings.cpusPerTask = 8;
  submission.settings.sbatchArgs = {"--gres=gpu:1"};
  args = engine::sbatchArguments(submission, "1", "/p/trial.sh");
  EXPECT(has("--partition=gpu"));
  EXPECT(has("--time=30"));
  EXPECT(has("--account=lab"));
  EXPECT(has("--cpus-per-task=8"));
  EXPECT_EQ(args[args.size() - 2], "--gres=gpu:1");
  EXPECT_EQ(args.back(), "/p/trial.sh");
}

MRNN_TEST(a_trial_trains_in_its_own_folder_and_its_run_reads_as_the_projects) {
  ScratchFolder folder;
  const auto plan = slurmPlanIn(folder, kTwoTrials);
  const engine::Project& planned = plan.trials[0].project;
  const engine::Project own = engine::slurmTrialProject(planned, "/scratch/trial-1");
  EXPECT_EQ(own.folder, "/scratch/trial-1");
  // The corpus is where the project said, whatever the folder.
  EXPECT_EQ(own.data.train, folder.file("corpus.txt"));
  EXPECT_EQ(own.data.valid, folder.file("held/valid.txt"));
  EXPECT_EQ(own.data.test, "/data/test.txt");
  // The imported run's config names them as the project does again, and keeps the rest of
  // what the job trained with.
  engine::Project trained = own;
  trained.training.threads = 3;
  const engine::Project imported = engine::parseProject(
      engine::importedTrialConfig(engine::projectToYaml(trained), planned), "config");
  EXPECT_EQ(imported.data.train, "corpus.txt");
  EXPECT_EQ(imported.data.valid, "held/valid.txt");
  EXPECT_EQ(imported.training.threads, 3);

  // The run a job trained: one it started (above the ticket's last run), else the one it
  // continued, else none.
  std::vector<engine::RunRecord> runs(3);
  for (size_t i = 0; i < runs.size(); ++i) runs[i].id = static_cast<int64_t>(i + 1);
  engine::SlurmTicket ticket;
  ticket.lastRun = 2;
  EXPECT_EQ(engine::slurmTrialRun(ticket, runs), 3);
  ticket.lastRun = 3;
  ticket.run = 2;
  EXPECT_EQ(engine::slurmTrialRun(ticket, runs), 2);
  ticket.run = 0;
  EXPECT_EQ(engine::slurmTrialRun(ticket, runs), 0);
  ticket.run = 9;  // gone from the folder
  EXPECT_EQ(engine::slurmTrialRun(ticket, runs), 0);
}

MRNN_TEST(the_slurm_queue_submits_one_array_and_collects_each_trial) {
  ScratchFolder folder;
  const auto plan = slurmPlanIn(folder, kTwoTrials);
  FakeSlurm slurm(plan);
  const auto outcome = engine::runSlurmQueue(plan, quickOptions(), slurm);
  EXPECT(outcome == engine::QueueOutcome::AllDone);
  EXPECT_EQ(slurm.submissions.size(), 1u);
  const auto& args = slurm.submissions[0];
  EXPECT(std::find(args.begin(), args.end(), "--array=1-2%1") != args.end());
  EXPECT_EQ(args.back(), ExperimentPaths::slurmScript(folder.path(), "e"));
  // The project's store holds one imported run per trial, and the ledger points at them.
  engine::RunCatalogue catalogue(folder.path());
  const auto runs = catalogue.runs();
  EXPECT_EQ(runs.size(), 2u);
  const ExperimentLedger ledger(folder.path(), ExperimentLedger::Access::ReadOnly);
  for (const auto& row : ledger.trials("e")) {
    EXPECT(row.status == TrialStatus::Done);
    const auto run = catalogue.run(row.runId);
    EXPECT(run.has_value());
    EXPECT_EQ(run->steps, 40);
    EXPECT(run->status == engine::RunStatus::Finished);
    EXPECT(catalogue.store().origin(row.runId).has_value());
    EXPECT_MSG(run->configYaml.find("train: corpus.txt") != std::string::npos, run->configYaml);
  }
  EXPECT(engine::recordedSlurmJobs(folder.path(), "e").empty());
  // Nothing of the trials' jobs went into the project's folder but their own.
  EXPECT(!std::filesystem::exists(folder.file("checkpoints")));
}

MRNN_TEST(a_queue_run_again_leaves_live_jobs_be_and_collects_ended_ones) {
  ScratchFolder folder;
  const auto plan = slurmPlanIn(folder, kTwoTrials);
  // An earlier queue submitted both trials and was killed: the jobs file names their jobs,
  // Slurm still has them, and the ledger says running (trial 2 still queued: the queue died
  // between recording the jobs and marking the trials).
  {
    ExperimentLedger ledger(folder.path());
    engine::syncLedger(plan, ledger, false);
    ledger.setStatus("e", 0, TrialStatus::Running);
    for (int64_t index = 0; index < 2; ++index) {
      std::filesystem::create_directories(
          ExperimentPaths::slurmRunFolder(folder.path(), "e", index));
      engine::SlurmTicket ticket;
      ticket.fingerprint = plan.trials[static_cast<size_t>(index)].fingerprint;
      engine::writeFileAtomically(ExperimentPaths::slurmTicket(folder.path(), "e", index),
                                  engine::formatSlurmTicket(ticket));
    }
    engine::writeFileAtomically(ExperimentPaths::slurmJobs(folder.path(), "e"),
                                engine::formatSlurmJobs({{0, "77_1"}, {1, "77_2"}}));
  }
  FakeSlurm slurm(plan);
  slurm.tasks["77_1"] = {"77_1", "RUNNING", "None", "n1", "5:00"};
  slurm.tasks["77_2"] = {"77_2", "PENDING", "Priority", "", "0:00"};
  slurm.age["77_1"] = 1;
  slurm.age["77_2"] = 0;
  // Trial 2's job is killed without a word (a failed node): it goes on once more.
  slurm.exitOf["77_2"] = std::nullopt;
  std::vector<std::string> lines;
  auto options = quickOptions();
  options.log = [&lines](const std::string& line) { lines.push_back(line); };
  const auto outcome = engine::runSlurmQueue(plan, options, slurm);
  std::string said;
  for (const auto& line : lines) said += line + "\n";
  EXPECT_MSG(outcome == engine::QueueOutcome::AllDone, said);
  // Only the killed trial was submitted again; trial 1 was never resubmitted.
  EXPECT_EQ(slurm.submissions.size(), 1u);
  const auto& args = slurm.submissions[0];
  EXPECT(std::find(args.begin(), args.end(), "--array=2") != args.end());
  bool killed = false;
  for (const auto& line : lines)
    killed = killed || line.find("trial #2 (lr=0.002) was killed") == 0;
  EXPECT(killed);
  // Its second job continued the run its first left (the ticket named it): one run each.
  engine::RunCatalogue catalogue(folder.path());
  EXPECT_EQ(catalogue.runs().size(), 2u);
  engine::RunCatalogue own(ExperimentPaths::slurmRunFolder(folder.path(), "e", 1));
  EXPECT_EQ(own.runs().size(), 1u);
}

MRNN_TEST(stopping_cancels_the_jobs_and_queues_the_trials_again) {
  ScratchFolder folder;
  auto plan = slurmPlanIn(folder, kTwoTrials);
  plan.experiment.slotCount = 0;
  FakeSlurm slurm(plan);
  slurm.endless = true;
  engine::StopToken stop;
  slurm.stopWhenRunning = &stop;
  auto options = quickOptions();
  options.stop = &stop;
  const auto outcome = engine::runSlurmQueue(plan, options, slurm);
  EXPECT(outcome == engine::QueueOutcome::Stopped);
  EXPECT_EQ(slurm.cancelled.size(), 2u);
  const ExperimentLedger ledger(folder.path(), ExperimentLedger::Access::ReadOnly);
  engine::RunCatalogue catalogue(folder.path());
  for (const auto& row : ledger.trials("e")) {
    EXPECT(row.status == TrialStatus::Queued);
    const auto run = catalogue.run(row.runId);
    EXPECT(run.has_value());
    EXPECT(run->status == engine::RunStatus::Stopped);
  }
  EXPECT(engine::recordedSlurmJobs(folder.path(), "e").empty());
}

MRNN_TEST(a_refused_submission_leaves_the_trials_queued) {
  ScratchFolder folder;
  const auto plan = slurmPlanIn(folder, kTwoTrials);
  FakeSlurm slurm(plan);
  slurm.refusal = "sbatch failed (exit status 1): sbatch: error: invalid partition specified: x";
  EXPECT_THROWS_WITH(std::runtime_error, engine::runSlurmQueue(plan, quickOptions(), slurm),
                     "Slurm refused the trials", "invalid partition specified: x");
  const ExperimentLedger ledger(folder.path(), ExperimentLedger::Access::ReadOnly);
  EXPECT_EQ(ledger.trials("e").size(), 2u);
  for (const auto& row : ledger.trials("e")) EXPECT(row.status == TrialStatus::Queued);
  EXPECT(engine::recordedSlurmJobs(folder.path(), "e").empty());
  // Fixed, the queue goes on.
  slurm.refusal.clear();
  EXPECT(engine::runSlurmQueue(plan, quickOptions(), slurm) == engine::QueueOutcome::AllDone);
}

MRNN_TEST(an_executor_does_not_take_over_the_others_trials) {
  ScratchFolder folder;
  const auto plan = slurmPlanIn(folder, kTwoTrials);
  FakeSlurm slurm(plan);
  EXPECT(engine::runSlurmQueue(plan, quickOptions(), slurm) == engine::QueueOutcome::AllDone);
  engine::RunCatalogue catalogue(folder.path());
  const ExperimentLedger ledger(folder.path(), ExperimentLedger::Access::ReadOnly);
  EXPECT_THROWS_WITH(
      engine::ExperimentChangedError,
      engine::checkTrialsExecutor(plan, ledger, catalogue.store(), engine::ExecutorKind::Local),
      "trial #1 (lr=0.001) ran with the slurm executor", "--executor slurm", "--replan");
  engine::checkTrialsExecutor(plan, ledger, catalogue.store(), engine::ExecutorKind::Slurm);
}

MRNN_TEST(status_shows_each_job_its_logged_step_and_what_ended_jobs_left) {
  ScratchFolder folder;
  const auto plan = slurmPlanIn(folder, kTwoTrials);
  std::filesystem::create_directories(ExperimentPaths::folder(folder.path(), "e"));
  folder.write("experiment-logs/e/trial-1.log", "epoch 0.1  step 1  loss 3\nepoch 1  step 50\n");
  // Trial 2's job ended and left a run in its folder that no queue collected yet.
  {
    engine::RunCatalogue own(ExperimentPaths::slurmRunFolder(folder.path(), "e", 1),
                             engine::RunCatalogue::Access::ReadWrite);
    engine::RunRecord record;
    record.name = "t";
    const int64_t id = own.store().createRun(record);
    own.store().updateProgress(id, 20, 1.0);
    own.store().setStatus(id, engine::RunStatus::Stopped);
    engine::SlurmTicket ticket;
    ticket.fingerprint = "f";
    engine::writeFileAtomically(ExperimentPaths::slurmTicket(folder.path(), "e", 1),
                                engine::formatSlurmTicket(ticket));
  }
  std::vector<engine::TrialProgress> rows(2);
  for (int64_t i = 0; i < 2; ++i) {
    rows[static_cast<size_t>(i)].trial.trial = i;
    rows[static_cast<size_t>(i)].trial.status = TrialStatus::Running;
    rows[static_cast<size_t>(i)].interrupted = true;  // no local process holds them
  }
  const engine::SlurmJobs jobs{{0, "5_1"}, {1, "5_2"}};
  const std::map<std::string, SlurmJobState> states{
      {"5_1", {"5_1", "RUNNING", "None", "n3", "0:42"}}};
  engine::describeSlurmJobs(plan.folder(), plan.experiment.name, jobs, &states, rows);
  EXPECT_EQ(rows[0].job, "job 5_1: running on n3 for 0:42, step 50 in its log");
  EXPECT(!rows[0].interrupted);
  // The defect: a long training's log, larger than a text file read whole, said no step.
  {
    std::string log;
    const std::string line = "epoch 0.1  step 1  loss 3.0000  bits/sym 4.3000  6520 sym/s\n";
    log.reserve((size_t{65} << 20) + line.size());
    while (log.size() < (size_t{65} << 20)) log += line;
    log += "epoch 9.9  step 90000  loss 1.2\n";
    folder.write("experiment-logs/e/trial-1.log", log);
  }
  std::vector<engine::TrialProgress> again(1);
  again[0].trial.status = TrialStatus::Running;
  engine::describeSlurmJobs(plan.folder(), plan.experiment.name, {{0, "5_1"}}, &states, again);
  EXPECT_EQ(again[0].job, "job 5_1: running on n3 for 0:42, step 90000 in its log");
  EXPECT_MSG(rows[1].job.find("job 5_2: ended, left run 1 of its folder stopped at step 20; "
                              "`mrnn experiment run` collects it") == 0,
             rows[1].job);
  EXPECT(rows[1].interrupted);
  const std::string text = engine::progressText(rows);
  EXPECT_MSG(text.find("Slurm") != std::string::npos, text);
  // squeue failed: nothing is called interrupted on a guess.
  rows[1].interrupted = true;
  engine::describeSlurmJobs(plan.folder(), plan.experiment.name, jobs, nullptr, rows);
  EXPECT(!rows[1].interrupted);
  EXPECT_EQ(rows[1].job.rfind("job 5_2: state unknown (squeue failed)", 0), 0u);
}
