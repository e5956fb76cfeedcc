#include "engine/runtime/thread_governor.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace mrnn::engine {
namespace {

std::vector<int> allowedCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
    }
  }
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

}  // namespace

int threadsBesideOthers(int processors, double othersBusy) {
  const int free = processors - static_cast<int>(std::lround(std::max(0.0, othersBusy)));
  return std::max(1, std::min(processors, free));
}

ThreadGovernor::ThreadGovernor(double intervalSeconds)
    : cpus_(allowedCpus()), intervalSeconds_(intervalSeconds), last_(read()) {}

ThreadGovernor::Reading ThreadGovernor::read() const {
  Reading reading;
  reading.at = std::chrono::steady_clock::now();
  // cpuN user nice system idle iowait irq softirq steal ...: busy is all but idle and iowait.
  std::ifstream stat("/proc/stat");
  std::string line;
  while (std::getline(stat, line)) {
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 ||
        !std::isdigit(static_cast<unsigned char>(line[3]))) {
      continue;
    }
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    const int cpu = std::stoi(name.substr(3));
    if (std::find(cpus_.begin(), cpus_.end(), cpu) == cpus_.end()) continue;
    double value = 0.0;
    for (int field = 0; fields >> value && field < 8; ++field) {
      if (field != 3 && field != 4) reading.busyTicks += value;
    }
  }
  // /proc/self/stat: utime and stime are fields 14 and 15, after the name in parentheses.
  std::ifstream self("/proc/self/stat");
  std::string all((std::istreambuf_iterator<char>(self)), std::istreambuf_iterator<char>());
  const auto close = all.rfind(')');
  if (close != std::string::npos) {
    std::istringstream fields(all.substr(close + 2));
    std::string field;
    double utime = 0.0;
    double stime = 0.0;
    for (int index = 3; fields >> field; ++index) {
      if (index == 14) utime = std::stod(field);
      if (index == 15) {
        stime = std::stod(field);
        break;
      }
    }
    reading.ownTicks = utime + stime;
  }
  return reading;
}

int ThreadGovernor::decide(const Reading& from, const Reading& to) {
  const double seconds = std::chrono::duration<double>(to.at - from.at).count();
  const double ticksPerSecond = static_cast<double>(::sysconf(_SC_CLK_TCK));
  if (seconds > 0.0 && ticksPerSecond > 0.0) {
    const double others = ((to.busyTicks - from.busyTicks) - (to.ownTicks - from.ownTicks)) /
                          ticksPerSecond / seconds;
    othersBusy_ = std::max(0.0, others);
  }
  return threadsBesideOthers(processors(), othersBusy_);
}

int ThreadGovernor::measure(double seconds) {
  const Reading from = read();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  last_ = read();
  return decide(from, last_);
}

std::optional<int> ThreadGovernor::poll() {
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_.at).count() < intervalSeconds_) return std::nullopt;
  const Reading from = last_;
  last_ = read();
  return decide(from, last_);
}

}  // namespace mrnn::engine
