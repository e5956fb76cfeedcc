#include "engine/bench/peer_kernels.h"

#include <strings.h>

#include <sstream>

namespace mrnn::engine {

std::vector<std::string> sameKernelsEnvironment(const std::string& engineCore) {
  if (engineCore.empty()) return {};
  return {"OPENBLAS_CORETYPE=" + engineCore};
}

std::string peerKernelsReport() {
  return "OPENBLAS_VERBOSE=2";
}

std::string openBlasCoreNamed(const std::string& err) {
  std::istringstream lines(err);
  std::string line;
  const std::string prefix = "Core: ";
  std::string core;
  while (std::getline(lines, line)) {
    // The last one: OpenBLAS names the core it was given after the one it detected.
    if (line.compare(0, prefix.size(), prefix) == 0) core = line.substr(prefix.size());
  }
  while (!core.empty() && (core.back() == ' ' || core.back() == '\r')) core.pop_back();
  return core;
}

std::string peerKernelsNote(const std::string& engineCore, const std::set<std::string>& peerCores,
                            bool peerMeasured) {
  if (!peerMeasured || engineCore.empty()) return {};
  const std::string given = " (OPENBLAS_CORETYPE=" + engineCore + " for every subject)";
  if (peerCores.empty()) {
    return "the Python peer's BLAS kernels are unknown: its BLAS named no OpenBLAS core" + given;
  }
  std::string cores;
  bool same = true;
  for (const auto& core : peerCores) {
    cores += (cores.empty() ? "" : ", ") + core;
    same = same && strcasecmp(core.c_str(), engineCore.c_str()) == 0;
  }
  if (same) return "the Python peer ran OpenBLAS " + cores + " kernels, as the engine" + given;
  return "the Python peer ran OpenBLAS " + cores + " kernels, the engine " + engineCore + given +
         ": / peer compares BLAS kernels as well as code";
}

}  // namespace mrnn::engine
