#include "engine/runtime/busy_core.h"

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace mrnn::engine {

BusyCore::BusyCore(int core) {
  pid_ = ::fork();
  if (pid_ < 0) {
    throw std::runtime_error(std::string("cannot start a process to keep a core busy: ") +
                             std::strerror(errno));
  }
  if (pid_ == 0) {
    // The child of a threaded parent may only do async-signal-safe work: pin, then spin.
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(core, &set);
    ::sched_setaffinity(0, sizeof set, &set);
    volatile unsigned long spins = 0;
    for (;;) spins = spins + 1;
  }
}

BusyCore::~BusyCore() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace mrnn::engine
