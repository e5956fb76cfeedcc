#pragma once

#include <cstdint>

namespace mrnn::engine {

// Raw-float kernels for the single-stream inference path (engine/inference): a row-major
// matrix-vector product and the elementwise functions of the cells, on plain arrays. At batch
// 1 a LibTorch op costs more in dispatch and allocation than the arithmetic, and BLAS sgemv
// is about 4x slower than a hand-written AVX-512 loop at these shapes, hence these.
//
// Every kernel exists for three instruction sets, chosen at run time (__builtin_cpu_supports)
// so that one binary runs on any x86-64 and uses AVX-512 where the CPU has it; non-x86
// builds have the portable version only. The vectorised exp behind sigmoid, tanh and the
// log-softmax is a Cephes-style polynomial, within a few float ulps of std::exp.
enum class KernelIsa { Scalar, Avx2, Avx512 };

const char* kernelIsaName(KernelIsa isa);
// Whether this CPU (and this build) can run `isa`.
bool kernelIsaSupported(KernelIsa isa);
// The instruction set the dispatching functions below use: the best supported one, unless
// setKernelIsa() chose another.
KernelIsa activeKernelIsa();
// For tests and benchmarks; throws std::invalid_argument when `isa` is not supported here.
void setKernelIsa(KernelIsa isa);
void resetKernelIsa();

// One instruction set's kernels, single-threaded; tests call each set directly.
struct KernelSet {
  // y = W x, or y += W x when `accumulate`. W: [rows, cols] row-major.
  void (*gemv)(const float* w, int64_t rows, int64_t cols, const float* x, float* y,
               bool accumulate);
  void (*sigmoid)(float* values, int64_t n);  // in place
  void (*tanh)(float* values, int64_t n);     // in place
  // sum_i exp(values[i] - shift)
  float (*sumExp)(const float* values, int64_t n, float shift);
};
const KernelSet& kernelsFor(KernelIsa isa);

// Below: the active instruction set's kernels.

// How gemv() runs. Neither choice changes a result by a single bit: every row is computed
// by the same instructions whatever the thread or the order.
struct GemvOptions {
  // Rows are split over this many OpenMP threads when the matrix is large enough to repay
  // the fork and join (about 128K weights); pass torch::get_num_threads().
  int threads = 1;
  // Visit the rows from the last block to the first. A stream alternating the direction at
  // every step reads first what it read last the step before, still in the core's L2: a
  // 512-unit mLSTM step reads 5.3 MB of weights, more than the 2 MB L2, and alternating
  // makes ~8% of them hits where a fixed order, as LRU goes, makes none.
  bool reversed = false;
};

// y = W x (+ y).
void gemv(const float* w, int64_t rows, int64_t cols, const float* x, float* y, bool accumulate,
          const GemvOptions& options = {});
void sigmoidInPlace(float* values, int64_t n);
void tanhInPlace(float* values, int64_t n);
// out = values - logsumexp(values); `out` may be `values`.
void logSoftmax(const float* values, float* out, int64_t n);

}  // namespace mrnn::engine
