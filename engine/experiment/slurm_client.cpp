#include "engine/experiment/slurm_client.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "engine/runtime/child_process.h"

namespace mrnn::engine {
namespace {

bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream folders(path != nullptr ? path : "/usr/bin:/bin");
  std::string folder;
  while (std::getline(folders, folder, ':')) {
    const std::string candidate = (folder.empty() ? std::string(".") : folder) + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Runs a Slurm command; a failure throws with the command's own words.
std::string run(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> argv{program};
  argv.insert(argv.end(), args.begin(), args.end());
  const ChildOutcome outcome = runChildProcess(argv);
  if (outcome.exitCode != 0) {
    std::string message = outcome.err.empty() ? outcome.out : outcome.err;
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
      message.pop_back();
    throw std::runtime_error(program + " failed (exit status " + std::to_string(outcome.exitCode) +
                             ")" + (message.empty() ? "" : ": " + message));
  }
  return outcome.out;
}

}  // namespace

bool SlurmClient::available(std::string* missing) {
  for (const char* program : {"sbatch", "squeue", "scancel"}) {
    if (!onPath(program)) {
      if (missing != nullptr) *missing = program;
      return false;
    }
  }
  return true;
}

std::string SlurmClient::submit(const std::vector<std::string>& sbatchArgs) {
  return parseSbatchJobId(run("sbatch", sbatchArgs));
}

std::map<std::string, SlurmJobState> SlurmClient::jobs(const std::string& jobName) {
  return parseSqueue(run("squeue", squeueArguments(jobName)));
}

void SlurmClient::cancel(const std::vector<std::string>& taskIds) {
  if (taskIds.empty()) return;
  run("scancel", taskIds);
}

}  // namespace mrnn::engine
