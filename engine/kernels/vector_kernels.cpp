#include "engine/kernels/vector_kernels.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/kernels/kernel_sets.h"

namespace mrnn::engine {
namespace {

// Below this many weights a second thread costs more (fork, join, a cold cache on the other
// core) than it saves: a 512 x 512 matrix takes ~12-20 us on one AVX-512 core.
constexpr int64_t kParallelWeights = int64_t{1} << 17;

KernelIsa bestSupported() {
  return kernelIsaSupported(KernelIsa::Highway) ? KernelIsa::Highway : KernelIsa::Scalar;
}

// -1: not chosen yet; read on every call, so one relaxed load.
std::atomic<int> selected{-1};

const KernelSet& active() {
  return kernelsFor(activeKernelIsa());
}

}  // namespace

const char* kernelIsaName(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::Scalar:
      return "scalar";
    case KernelIsa::Highway:
      return "highway";
  }
  return "?";
}

bool kernelIsaSupported(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::Scalar:
      return true;
    case KernelIsa::Highway:
#if defined(MRNN_HAVE_HIGHWAY)
      return true;  // Highway falls back to its portable target itself
#else
      return false;
#endif
  }
  return false;
}

KernelIsa activeKernelIsa() {
  int isa = selected.load(std::memory_order_relaxed);
  if (isa < 0) {
    isa = static_cast<int>(bestSupported());
    selected.store(isa, std::memory_order_relaxed);
  }
  return static_cast<KernelIsa>(isa);
}

void setKernelIsa(KernelIsa isa) {
  if (!kernelIsaSupported(isa)) {
    throw std::invalid_argument(std::string("this CPU or build cannot run the ") +
                                kernelIsaName(isa) + " kernels");
  }
  selected.store(static_cast<int>(isa), std::memory_order_relaxed);
}

void resetKernelIsa() {
  selected.store(static_cast<int>(bestSupported()), std::memory_order_relaxed);
}

const KernelSet& kernelsFor(KernelIsa isa) {
#if defined(MRNN_HAVE_HIGHWAY)
  if (isa == KernelIsa::Highway) return highwayKernels().kernels;
#endif
  (void)isa;
  return scalarKernels();
}

const char* highwayTarget() {
#if defined(MRNN_HAVE_HIGHWAY)
  return highwayTargetName(highwayKernels().target);
#else
  return "none";
#endif
}

std::vector<NamedKernelSet> kernelVariants() {
  std::vector<NamedKernelSet> variants{{kernelIsaName(KernelIsa::Scalar), &scalarKernels()}};
#if defined(MRNN_HAVE_HIGHWAY)
  for (const HighwayKernelSet* set : highwayTargetKernels()) {
    variants.push_back({std::string("highway:") + highwayTargetName(set->target), &set->kernels});
  }
#endif
  return variants;
}

namespace {

// One thread's rows [begin, end), forwards or in reverse order of 16-row blocks (each block
// itself forwards, so the 4-row loop of the kernels still sees whole groups).
void gemvRange(const KernelSet& kernels, const float* w, int64_t begin, int64_t end, int64_t cols,
               const float* x, float* y, bool accumulate, bool reversed) {
  if (!reversed) {
    kernels.gemv(w + begin * cols, end - begin, cols, x, y + begin, accumulate);
    return;
  }
  constexpr int64_t kBlock = 16;
  for (int64_t block = begin + (end - begin - 1) / kBlock * kBlock; block >= begin;
       block -= kBlock) {
    const int64_t rows = std::min(kBlock, end - block);
    kernels.gemv(w + block * cols, rows, cols, x, y + block, accumulate);
  }
}

}  // namespace

void gemv(const float* w, int64_t rows, int64_t cols, const float* x, float* y, bool accumulate,
          const GemvOptions& options) {
  const KernelSet& kernels = active();
  const int64_t parts = std::min<int64_t>(options.threads, rows / 16);
  if (parts <= 1 || rows * cols < kParallelWeights) {
    gemvRange(kernels, w, 0, rows, cols, x, y, accumulate, options.reversed);
    return;
  }
#if defined(_OPENMP)
  // Contiguous blocks of rows, multiples of 4 so that every block runs the 4-row loop.
#pragma omp parallel for num_threads(static_cast <int>(parts)) schedule(static, 1)
  for (int64_t part = 0; part < parts; ++part) {
    const int64_t begin = (rows * part / parts) & ~int64_t{3};
    const int64_t end = part + 1 == parts ? rows : (rows * (part + 1) / parts) & ~int64_t{3};
    gemvRange(kernels, w, begin, end, cols, x, y, accumulate, options.reversed);
  }
#else
  gemvRange(kernels, w, 0, rows, cols, x, y, accumulate, options.reversed);
#endif
}

void sigmoidInPlace(float* values, int64_t n) {
  active().sigmoid(values, n);
}

void tanhInPlace(float* values, int64_t n) {
  active().tanh(values, n);
}

void logSoftmax(const float* values, float* out, int64_t n) {
  if (n <= 0) return;
  const float top = *std::max_element(values, values + n);
  const float shift = top + std::log(active().sumExp(values, n, top));
  for (int64_t i = 0; i < n; ++i) out[i] = values[i] - shift;
}

}  // namespace mrnn::engine
