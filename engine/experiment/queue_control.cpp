#include "engine/experiment/queue_control.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "engine/experiment/experiment_paths.h"

namespace mrnn::engine {

QueueControl::QueueControl(std::string projectFolder, std::string experiment)
    : folder_(std::move(projectFolder)), experiment_(std::move(experiment)) {}

std::optional<LockHolder> QueueControl::holder() const {
  return RunLock::holder(ExperimentPaths::queueLock(folder_, experiment_));
}

bool QueueControl::local(const LockHolder& holder) const {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return holder.host == host;
}

bool QueueControl::signal(int signalNumber, bool group, std::string* problem) const {
  const auto queue = holder();
  const auto fail = [problem](const std::string& why) {
    if (problem != nullptr) *problem = why;
    return false;
  };
  if (!queue) return fail("experiment '" + experiment_ + "' is not running");
  if (!local(*queue)) return fail("its queue runs on " + queue->host + "; control it there");
  const auto pid = static_cast<pid_t>(queue->pid);
  // The whole group only when the queue leads one (the workbench starts it so); from a
  // terminal its group is the shell's job, and only the queue itself is signalled.
  const bool leader = ::getpgid(pid) == pid;
  const int result = group && leader ? ::kill(-pid, signalNumber) : ::kill(pid, signalNumber);
  if (result != 0) return fail("cannot signal " + queue->describe() + ": " + std::strerror(errno));
  if (group && !leader && signalNumber != SIGTERM) {
    // Trials are the queue's children: freeze or wake them with it.
    std::ifstream children("/proc/" + std::to_string(pid) + "/task/" + std::to_string(pid) +
                           "/children");
    pid_t child = 0;
    while (children >> child) ::kill(child, signalNumber);
  }
  return true;
}

bool QueueControl::stop(std::string* problem) const {
  // SIGCONT first: a paused queue must run to act on SIGTERM.
  resume(nullptr);
  return signal(SIGTERM, false, problem);
}

bool QueueControl::pause(std::string* problem) const {
  return signal(SIGSTOP, true, problem);
}

bool QueueControl::resume(std::string* problem) const {
  return signal(SIGCONT, true, problem);
}

bool QueueControl::paused() const {
  const auto queue = holder();
  if (!queue || !local(*queue)) return false;
  std::ifstream stat("/proc/" + std::to_string(queue->pid) + "/stat");
  std::string pid;
  std::string name;
  std::string state;
  stat >> pid;
  // The name is in parentheses and may hold spaces: read up to the closing one.
  std::string word;
  while (stat >> word) {
    if (!word.empty() && word.back() == ')') break;
  }
  stat >> state;
  return state == "T";
}

}  // namespace mrnn::engine
