#include "bench/machine_summary.h"

#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "engine/kernels/vector_kernels.h"

namespace mrnn::bench {
namespace {

// The first /proc/cpuinfo line starting with `key`, after its colon.
std::string cpuinfoField(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos) return line.substr(colon + 1 + (colon + 1 < line.size()));
  }
  return "";
}

}  // namespace

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  if (!(in >> one >> five >> fifteen)) return "?";
  return one + " " + five + " " + fifteen;
}

std::string machineSummary() {
  std::string model = cpuinfoField("model name");
  if (model.empty()) model = cpuinfoField("CPU implementer");  // Arm: no model name
  // "flags" on x86, "Features" on Arm.
  std::string flags = cpuinfoField("flags");
  if (flags.empty()) flags = cpuinfoField("Features");
  std::istringstream words(" " + flags);
  std::vector<std::string> present;
  std::string word;
  const std::vector<std::string> wanted = {"sse4_2",   "avx",         "avx2",        "fma",
                                           "avx512f",  "avx512dq",    "avx512bw",    "avx512vl",
                                           "avx512cd", "avx512_vnni", "avx512_bf16", "avx512_vbmi2",
                                           "asimd",    "sve",         "sve2"};
  while (words >> word) {
    for (const auto& w : wanted) {
      if (word == w) present.push_back(word);
    }
  }
  std::ostringstream out;
  out << "Machine: " << (model.empty() ? "unknown CPU" : model) << ", "
      << std::thread::hardware_concurrency() << " logical CPUs; vector units:";
  for (const auto& p : present) out << " " << p;
  out << "; Highway target: " << mrnn::engine::highwayTarget() << " (runs here:";
  for (const auto& variant : mrnn::engine::kernelVariants()) {
    if (variant.name.rfind("highway:", 0) == 0) out << " " << variant.name.substr(8);
  }
  out << "); load average " << loadAverage();
  return out.str();
}

}  // namespace mrnn::bench
