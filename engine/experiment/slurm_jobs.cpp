#include "engine/experiment/slurm_jobs.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <stdexcept>

#include "engine/io/trimmed.h"

namespace mrnn::engine {
namespace {

std::vector<std::string> splitOn(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

// At most 18 digits: the number then fits an int64_t, and stoll cannot throw.
bool allDigits(const std::string& text) {
  return !text.empty() && text.size() <= 18 && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

std::string lowered(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

bool SlurmJobState::live() const {
  for (const char* final : {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL",
                            "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "REVOKED"}) {
    if (state == final) return false;
  }
  return true;
}

std::string SlurmJobState::describe() const {
  std::string text = lowered(state);
  if (state == "PENDING" && !reason.empty() && reason != "None") text += " (" + reason + ")";
  if (state == "RUNNING" || state == "COMPLETING") {
    if (!node.empty()) text += " on " + node;
    if (!elapsed.empty()) text += " for " + elapsed;
  }
  return text;
}

std::vector<std::string> squeueArguments(const std::string& jobName) {
  // --array: one line per task, pending ones too; --states=all: finished tasks while Slurm
  // keeps them (MinJobAge), so that their end is seen even between two polls.
  return {"--noheader", "--array", "--states=all", "--name=" + jobName, "--format=%i|%T|%r|%N|%M"};
}

std::map<std::string, SlurmJobState> parseSqueue(const std::string& text) {
  std::map<std::string, SlurmJobState> jobs;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (trimmed(line).empty()) continue;
    const std::vector<std::string> fields = splitOn(line, '|');
    if (fields.size() != 5 || trimmed(fields[0]).empty() || trimmed(fields[1]).empty()) {
      throw std::runtime_error("squeue printed a line this queue cannot read: '" + line + "'");
    }
    SlurmJobState job;
    job.id = trimmed(fields[0]);
    job.state = trimmed(fields[1]);
    job.reason = trimmed(fields[2]);
    job.node = trimmed(fields[3]);
    job.elapsed = trimmed(fields[4]);
    jobs[job.id] = job;
  }
  return jobs;
}

std::string slurmArraySpec(std::vector<int64_t> trialNumbers, int64_t slots) {
  std::sort(trialNumbers.begin(), trialNumbers.end());
  trialNumbers.erase(std::unique(trialNumbers.begin(), trialNumbers.end()), trialNumbers.end());
  if (trialNumbers.empty()) throw std::invalid_argument("an array of no trials");
  std::string spec;
  for (size_t i = 0; i < trialNumbers.size();) {
    size_t last = i;
    while (last + 1 < trialNumbers.size() && trialNumbers[last + 1] == trialNumbers[last] + 1) {
      ++last;
    }
    if (!spec.empty()) spec += ",";
    spec += std::to_string(trialNumbers[i]);
    if (last > i) spec += "-" + std::to_string(trialNumbers[last]);
    i = last + 1;
  }
  if (slots > 0 && slots < static_cast<int64_t>(trialNumbers.size())) {
    spec += "%" + std::to_string(slots);
  }
  return spec;
}

std::string parseSbatchJobId(const std::string& output) {
  // --parsable prints "<id>" or "<id>;<cluster>", possibly after warnings on lines of their own.
  std::istringstream in(output);
  std::string line;
  std::string id;
  while (std::getline(in, line)) {
    const std::string first = trimmed(line.substr(0, line.find(';')));
    if (allDigits(first)) id = first;
  }
  if (id.empty()) {
    throw std::runtime_error("sbatch printed no job id: '" + trimmed(output) + "'");
  }
  return id;
}

std::string slurmTaskId(const std::string& jobId, int64_t index) {
  return jobId + "_" + std::to_string(index + 1);
}

std::string formatSlurmJobs(const SlurmJobs& jobs) {
  std::string text = "# trial  Slurm job (written by mrnn experiment run; docs/distributed.md)\n";
  for (const auto& [index, id] : jobs) text += std::to_string(index + 1) + " " + id + "\n";
  return text;
}

SlurmJobs parseSlurmJobs(const std::string& text, const std::string& file) {
  SlurmJobs jobs;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    const std::string content = trimmed(line.substr(0, line.find('#')));
    if (content.empty()) continue;
    std::istringstream words(content);
    std::string trial;
    std::string id;
    std::string extra;
    words >> trial >> id >> extra;
    const auto underscore = id.find('_');
    const bool valid = allDigits(trial) && std::stoll(trial) > 0 && extra.empty() &&
                       underscore != std::string::npos && allDigits(id.substr(0, underscore)) &&
                       id.substr(underscore + 1) == trial;
    if (!valid) {
      throw std::runtime_error(file + ":" + std::to_string(number) + ": '" + content +
                               "' is not '<trial number> <job id>_<trial number>'");
    }
    jobs[std::stoll(trial) - 1] = id;
  }
  return jobs;
}

std::string formatSlurmTicket(const SlurmTicket& ticket) {
  return "fingerprint " + ticket.fingerprint + "\nbudget " + std::to_string(ticket.budget) +
         "\nrun " + std::to_string(ticket.run) + "\nlast_run " + std::to_string(ticket.lastRun) +
         "\n";
}

SlurmTicket parseSlurmTicket(const std::string& text, const std::string& file) {
  SlurmTicket ticket;
  bool seen[4] = {false, false, false, false};
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (trimmed(line).empty()) continue;
    std::istringstream words(line);
    std::string key;
    std::string value;
    std::string extra;
    words >> key >> value >> extra;
    const auto fail = [&](const std::string& why) {
      throw std::runtime_error(file + ":" + std::to_string(number) + ": " + key + ": " + why);
    };
    if (!extra.empty() || value.empty()) fail("expected one value, got '" + trimmed(line) + "'");
    if (key == "fingerprint") {
      ticket.fingerprint = value;
      seen[0] = true;
    } else if (key == "budget" || key == "run" || key == "last_run") {
      if (!allDigits(value)) fail("expected a whole number, got '" + value + "'");
      const int slot = key == "budget" ? 1 : key == "run" ? 2 : 3;
      (slot == 1 ? ticket.budget : slot == 2 ? ticket.run : ticket.lastRun) = std::stoll(value);
      seen[slot] = true;
    } else {
      fail("unknown key");
    }
  }
  const char* names[4] = {"fingerprint", "budget", "run", "last_run"};
  for (int i = 0; i < 4; ++i) {
    if (!seen[i]) throw std::runtime_error(file + ": " + names[i] + ": missing");
  }
  return ticket;
}

std::string slurmJobName(const std::string& experiment) {
  return "mrnn-" + experiment;
}

int64_t lastLoggedStep(const std::string& logText) {
  int64_t last = -1;
  const std::string word = "step ";
  for (size_t at = logText.find(word); at != std::string::npos;
       at = logText.find(word, at + word.size())) {
    // A word of its own ("step 5"), not the end of another ("steps 5").
    if (at > 0 && std::isalpha(static_cast<unsigned char>(logText[at - 1]))) continue;
    size_t end = at + word.size();
    while (end < logText.size() && std::isdigit(static_cast<unsigned char>(logText[end]))) ++end;
    if (end == at + word.size() || end - at - word.size() > 18) continue;
    last = std::stoll(logText.substr(at + word.size(), end - at - word.size()));
  }
  return last;
}

std::string shellQuoted(const std::string& word) {
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string slurmJobScript(const SlurmSubmission& submission) {
  std::ostringstream script;
  script
      << "#!/bin/sh\n"
      << "# Written by `mrnn experiment run --executor slurm` (docs/distributed.md): array task\n"
      << "# N trains trial N in its own run folder, which only this job writes.\n";
  for (const std::string& line : submission.settings.setup) script << line << "\n";
  script << "n=$SLURM_ARRAY_TASK_ID\n"
         << "folder=" << shellQuoted(submission.slurmFolder) << "/trial-$n\n"
         << "exec " << shellQuoted(submission.program) << " experiment trial "
         << shellQuoted(submission.experimentFile) << " --trial \"$n\" --threads "
         << submission.threads << " \\\n"
         << "  --run-folder \"$folder\" --exit-file \"$folder/exit-${SLURM_ARRAY_JOB_ID}_$n\"\n";
  return script.str();
}

std::vector<std::string> sbatchArguments(const SlurmSubmission& submission,
                                         const std::string& array, const std::string& script) {
  const SlurmSettings& settings = submission.settings;
  std::vector<std::string> args{
      "--parsable", "--array=" + array, "--job-name=" + submission.jobName,
      "--chdir=" + submission.projectFolder,
      // %a: the task id, which is the trial number; appended, as the local queue's logs are.
      "--output=" + submission.logFolder + "/trial-%a.log", "--open-mode=append", "--ntasks=1",
      "--cpus-per-task=" +
          std::to_string(settings.cpusPerTask > 0 ? settings.cpusPerTask : submission.threads)};
  if (!settings.partition.empty()) args.push_back("--partition=" + settings.partition);
  if (!settings.time.empty()) args.push_back("--time=" + settings.time);
  if (!settings.account.empty()) args.push_back("--account=" + settings.account);
  args.insert(args.end(), settings.sbatchArgs.begin(), settings.sbatchArgs.end());
  args.push_back(script);
  return args;
}

}  // namespace mrnn::engine
