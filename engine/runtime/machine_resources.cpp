#include "engine/runtime/machine_resources.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

namespace mrnn::engine {
namespace {

// MemAvailable from /proc/meminfo in bytes; 0 when absent.
uint64_t systemAvailable() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kilobytes = 0;
  std::string unit;
  while (in >> key >> kilobytes >> unit) {
    if (key == "MemAvailable:") return kilobytes * 1024;
  }
  return 0;
}

// What the cgroup (v2, else v1) still allows; 0 when unlimited or unknown.
uint64_t cgroupRemaining() {
  const auto readNumber = [](const char* path, uint64_t& value) {
    std::ifstream in(path);
    std::string text;
    if (!(in >> text) || text == "max") return false;
    try {
      value = std::stoull(text);
    } catch (const std::exception&) {
      return false;
    }
    return true;
  };
  uint64_t limit = 0, used = 0;
  if (readNumber("/sys/fs/cgroup/memory.max", limit)) {
    readNumber("/sys/fs/cgroup/memory.current", used);
  } else if (readNumber("/sys/fs/cgroup/memory/memory.limit_in_bytes", limit)) {
    readNumber("/sys/fs/cgroup/memory/memory.usage_in_bytes", used);
    if (limit >= (uint64_t{1} << 60)) return 0;  // v1's "unlimited"
  } else {
    return 0;
  }
  return limit > used ? limit - used : 1;
}

}  // namespace

int hardwareThreads() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    const int count = CPU_COUNT(&set);
    if (count > 0) return count;
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int chooseThreadCount(int64_t requested, std::string* note) {
  const int hardware = hardwareThreads();
  if (requested <= 0) return hardware;
  if (requested > hardware) {
    if (note) {
      *note = std::to_string(requested) + " threads asked for; this machine gives the process " +
              std::to_string(hardware) + ", so " + std::to_string(hardware) +
              " are used (more would only share the same cores)";
    }
    return hardware;
  }
  return static_cast<int>(requested);
}

uint64_t availableMemoryBytes() {
  const uint64_t system = systemAvailable();
  const uint64_t cgroup = cgroupRemaining();
  if (system == 0) return cgroup;
  if (cgroup == 0) return system;
  return std::min(system, cgroup);
}

std::string formatBytes(double bytes) {
  static const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  int unit = 0;
  while (bytes >= 1000.0 && unit < 6) {
    bytes /= 1000.0;
    ++unit;
  }
  char text[64];
  std::snprintf(text, sizeof text, unit == 0 || bytes >= 100 ? "%.0f %s" : "%.3g %s", bytes,
                units[unit]);
  return text;
}

void requireMemory(double bytes, const std::string& what, const std::string& advice) {
  const uint64_t available = availableMemoryBytes();
  if (available == 0 || bytes <= static_cast<double>(available)) return;
  throw ResourceError(what + " needs about " + formatBytes(bytes) + "; this machine has " +
                      formatBytes(static_cast<double>(available)) + " available" +
                      (advice.empty() ? "" : ". " + advice));
}

}  // namespace mrnn::engine
