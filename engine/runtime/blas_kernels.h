#pragma once

#include <optional>
#include <string>

namespace mrnn::engine {

// The CPU features that decide which of OpenBLAS's kernel sets can run here.
struct CpuVectorFeatures {
  bool avx2Fma = false;
  bool avx512 = false;  // F, DQ, BW and VL: what OpenBLAS's SkylakeX kernels use
};

CpuVectorFeatures detectCpuVectorFeatures();

// The name of the kernel set the loaded OpenBLAS chose ("SkylakeX", "Haswell", "Prescott"...),
// or "" when the BLAS in this process is not OpenBLAS.
std::string openBlasCoreName();

// The kernel set to ask OpenBLAS for when it chose its generic SSE3 one ("Prescott") on a CPU
// that runs better ones; nullopt when its own choice stands. OpenBLAS before 0.3.25 falls back
// to Prescott on CPUs it does not know by model number (OpenBLAS issue 4267: Sapphire Rapids,
// generic virtual CPUs), which makes every matrix product 2-3x slower.
std::optional<std::string> betterOpenBlasCore(const std::string& chosen,
                                              const CpuVectorFeatures& cpu);

// Call first in main(). OpenBLAS picks its kernels when it is loaded, before main, and reads
// OPENBLAS_CORETYPE only then; so when betterOpenBlasCore() names a set and the user has not
// set OPENBLAS_CORETYPE, this sets it and re-executes the program with the same arguments.
// Does nothing (and the program goes on as before) where that is not possible.
void relaunchWithBetterBlasKernels(char** argv);

// One line for benchmark and diagnostic output, e.g. "OpenBLAS SkylakeX (set by mrnn)".
std::string blasKernelDescription();

}  // namespace mrnn::engine
