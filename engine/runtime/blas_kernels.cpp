#include "engine/runtime/blas_kernels.h"

#include <dlfcn.h>
#include <unistd.h>

#include <strings.h>
#include <cstdlib>

#include <cstring>

namespace mrnn::engine {

namespace {

// Set beside OPENBLAS_CORETYPE when we set it, so a second start neither loops nor
// mistakes our choice for the user's.
constexpr const char* kRelaunchMarker = "MRNN_BLAS_CORETYPE_SET";

}  // namespace

CpuVectorFeatures detectCpuVectorFeatures() {
  CpuVectorFeatures cpu;
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  cpu.avx2Fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  cpu.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
#endif
  return cpu;
}

std::string openBlasCoreName() {
  // Looked up rather than linked: LibTorch may come with another BLAS (MKL, or none on GPU
  // machines), and then there is nothing to ask.
  using CoreNameFunction = char* (*)();
  const auto function =
      reinterpret_cast<CoreNameFunction>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  if (!function) return {};
  const char* name = function();
  return name ? std::string(name) : std::string();
}

std::optional<std::string> betterOpenBlasCore(const std::string& chosen,
                                              const CpuVectorFeatures& cpu) {
  if (strcasecmp(chosen.c_str(), "prescott") != 0) return std::nullopt;
  if (cpu.avx512) return std::string("SkylakeX");
  if (cpu.avx2Fma) return std::string("Haswell");
  return std::nullopt;
}

void relaunchWithBetterBlasKernels(char** argv) {
  if (!argv || !argv[0] || std::getenv("OPENBLAS_CORETYPE") || std::getenv(kRelaunchMarker)) {
    return;
  }
  const auto better = betterOpenBlasCore(openBlasCoreName(), detectCpuVectorFeatures());
  if (!better) return;
  setenv("OPENBLAS_CORETYPE", better->c_str(), 1);
  setenv(kRelaunchMarker, better->c_str(), 1);
  // By the program's own path: a process started as /proc/self/exe is named "exe" (its
  // /proc comm), and that name is what a run's lock tells another writer of its holder.
  char self[4096] = {};
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  execv(length > 0 ? self : "/proc/self/exe", argv);
  // exec failed (no /proc): carry on with the kernels we have; children still benefit.
}

std::string blasKernelDescription() {
  const std::string core = openBlasCoreName();
  if (core.empty()) return "not OpenBLAS";
  std::string text = "OpenBLAS " + core;
  const char* marker = std::getenv(kRelaunchMarker);
  const char* requested = std::getenv("OPENBLAS_CORETYPE");
  if (marker && requested && std::strcmp(marker, requested) == 0) {
    text += " (OPENBLAS_CORETYPE set by mrnn: its own detection chose Prescott)";
  } else if (requested) {
    text += std::string(" (OPENBLAS_CORETYPE=") + requested + ")";
  }
  return text;
}

}  // namespace mrnn::engine
