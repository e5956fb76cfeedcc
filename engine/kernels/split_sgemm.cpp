#include "engine/kernels/split_sgemm.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/kernels/blas_gemm.h"
#include "engine/kernels/column_split.h"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace mrnn::engine {

namespace {

// Below this many multiply-adds per thread, the parallel region's start and end cost more
// than the split saves (measured with the per-step shapes of the fused windows on two cores:
// a 32 x 51 -> 204 product, the Major-Minor LSTM's minor part, is not worth splitting).
constexpr double kLeastWorkPerThread = 256.0 * 1024.0;

// OpenBLAS says how it threads: 0 sequential, 1 its own pthreads, 2 OpenMP. Only the OpenMP
// build runs a product on one thread when it is called inside a parallel region; the others
// would start their own threads under each of ours.
bool blasThreadsThroughOpenMp() {
  using GetParallel = int (*)();
  static const bool openMp = [] {
    const auto function =
        reinterpret_cast<GetParallel>(dlsym(RTLD_DEFAULT, "openblas_get_parallel"));
    return function != nullptr && function() == 2;
  }();
  return openMp;
}

bool enabledByEnvironment() {
  const char* value = std::getenv("MRNN_SPLIT_PRODUCTS");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

std::atomic<bool> enabled{enabledByEnvironment()};

bool runOneAfterAnother(const SgemmCall* calls, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const auto& c = calls[i];
    if (!rawSgemm(c.transposeB, c.m, c.n, c.k, 1.0f, c.a, c.lda, c.b, c.ldb, c.beta, c.c, c.ldc)) {
      return false;
    }
  }
  return true;
}

// Columns [from, to) of one call: B's rows (transposed) or columns, and C's columns.
void runColumns(const SgemmCall& c, int64_t from, int64_t to) {
  const float* b = c.transposeB ? c.b + from * c.ldb : c.b + from;
  rawSgemm(c.transposeB, c.m, to - from, c.k, 1.0f, c.a, c.lda, b, c.ldb, c.beta, c.c + from,
           c.ldc);
}

}  // namespace

bool splitSgemmAvailable() {
  return enabled && rawSgemmAvailable() && blasThreadsThroughOpenMp();
}

void setSplitSgemmEnabled(bool on) {
  enabled = on;
}

bool splitSgemm(const SgemmCall* calls, std::size_t count, int threads) {
  if (!rawSgemmAvailable()) return false;
#ifdef _OPENMP
  std::vector<ColumnRange> ranges(count);
  double total = 0.0;
  bool degenerate = false;
  for (std::size_t i = 0; i < count; ++i) {
    ranges[i] = {static_cast<double>(calls[i].m) * static_cast<double>(calls[i].k), calls[i].n};
    total += ranges[i].workPerColumn * static_cast<double>(calls[i].n);
    degenerate = degenerate || calls[i].m <= 0 || calls[i].n <= 0 || calls[i].k <= 0;
  }
  const int parts =
      static_cast<int>(std::min<double>(threads, std::floor(total / kLeastWorkPerThread)));
  if (parts < 2 || degenerate || omp_in_parallel() || !splitSgemmAvailable()) {
    return runOneAfterAnother(calls, count);
  }
  // Whole blocks of 16 columns: the BLAS kernels' width, so no piece starts mid-block.
#pragma omp parallel num_threads(parts)
  // The team may be smaller than asked for (OMP_THREAD_LIMIT, nesting): cut for the team.
  forEachPiece(ranges.data(), count, omp_get_thread_num(), omp_get_num_threads(), 16,
               [&](std::size_t i, int64_t from, int64_t to) { runColumns(calls[i], from, to); });
  return true;
#else
  (void)threads;
  return runOneAfterAnother(calls, count);
#endif
}

}  // namespace mrnn::engine
