// The programs' first act (engine/runtime/blas_kernels.h): where OpenBLAS falls back to its
// generic Prescott kernels on a CPU with AVX2 or AVX-512, the process re-executes itself
// with OPENBLAS_CORETYPE set, and then runs the vector kernels. This test's own main does
// what mrnn's and the workbench's do, then checks the kernels it ended up with. Skipped
// (exit 77) where the BLAS is not OpenBLAS or the CPU has no AVX2.

#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/runtime/blas_kernels.h"

int main(int /*argc*/, char** argv) {
  mrnn::engine::relaunchWithBetterBlasKernels(argv);
  // A product through LibTorch, so that its BLAS is loaded and in use, as in mrnn.
  const double product = torch::mm(torch::ones({2, 3}), torch::ones({3, 2})).sum().item<double>();
  if (product != 12.0) {
    std::printf("FAIL!  : a 2x3 by 3x2 product of ones sums to %g, not 12\n", product);
    return 1;
  }
  const std::string core = mrnn::engine::openBlasCoreName();
  const auto cpu = mrnn::engine::detectCpuVectorFeatures();
  std::printf("OpenBLAS core: '%s'; CPU: avx2+fma %d, avx512 %d; %s\n", core.c_str(), cpu.avx2Fma,
              cpu.avx512, mrnn::engine::blasKernelDescription().c_str());
  if (core.empty() || !cpu.avx2Fma) {
    std::printf("SKIP   : not OpenBLAS, or no AVX2 on this CPU\n");
    return 77;
  }
  const char* forced = std::getenv("OPENBLAS_CORETYPE");
  if (forced && !std::getenv("MRNN_BLAS_CORETYPE_SET")) {
    std::printf("SKIP   : OPENBLAS_CORETYPE=%s was set by the user and is kept\n", forced);
    return 77;
  }
  if (mrnn::engine::betterOpenBlasCore(core, cpu)) {
    std::printf("FAIL!  : still on the generic kernels after the relaunch\n");
    return 1;
  }
  std::printf("PASS   : OpenBLAS runs %s kernels\n", core.c_str());
  return 0;
}
