#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrnn::engine {

// Raw-float kernels for the single-stream inference path (engine/inference): a row-major
// matrix-vector product and the elementwise functions of the cells, on plain arrays. At batch
// 1 a LibTorch op costs more in dispatch and allocation than the arithmetic, and BLAS sgemv
// is about 4x slower than a vectorised loop at these shapes, hence these.
//
// Every kernel exists twice: portable loops (Scalar), and one vector source written with
// Google Highway (MRNN_HIGHWAY, on by default), compiled for each target Highway knows
// (AVX-512, AVX2, SSE4, SSSE3 on x86; SVE2, SVE, NEON on Arm) with the best one the CPU runs
// chosen at run time, so one binary runs anywhere and uses AVX-512 where the CPU has it. The
// vectorised exp behind sigmoid, tanh and the log-softmax is a Cephes-style polynomial,
// within a few float ulps of std::exp. Hand-written AVX2 and AVX-512 sets came first and were
// replaced, being no faster (docs/performance-history.md, "Vector kernels").
enum class KernelIsa { Scalar, Highway };

const char* kernelIsaName(KernelIsa isa);
// Whether this CPU (and this build) can run `isa`.
bool kernelIsaSupported(KernelIsa isa);
// The instruction set the dispatching functions below use: the best supported one, unless
// setKernelIsa() chose another.
KernelIsa activeKernelIsa();
// For tests and benchmarks; throws std::invalid_argument when `isa` is not supported here.
void setKernelIsa(KernelIsa isa);
void resetKernelIsa();

// C (+)= A P for a weight packed into panels (PackedWeights, packed_weights.h): C [m, n] and
// A [m, k] row-major with leading dimensions; `panels` holds ceil(n / width) panels, panel q
// being op(W)'s columns [q width, (q + 1) width) as k rows of `width` floats, zero past n.
struct PanelProduct {
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  const float* panels = nullptr;
  float* c = nullptr;
  int64_t ldc = 0;
  bool accumulate = false;
};

// One instruction set's kernels, single-threaded; tests call each set directly.
struct KernelSet {
  // y = W x, or y += W x when `accumulate`. W: [rows, cols] row-major.
  void (*gemv)(const float* w, int64_t rows, int64_t cols, const float* x, float* y,
               bool accumulate);
  void (*sigmoid)(float* values, int64_t n);  // in place
  void (*tanh)(float* values, int64_t n);     // in place
  // sum_i exp(values[i] - shift)
  float (*sumExp)(const float* values, int64_t n, float shift);
  // The packed products: the columns of a panel, and C's columns of panels [from, to).
  // Null in the portable set, whose products go through the BLAS instead.
  int64_t (*panelWidth)();
  void (*panelProduct)(const PanelProduct& product, int64_t fromPanel, int64_t toPanel);
};
const KernelSet& kernelsFor(KernelIsa isa);

// The target Highway's dispatch chose on this CPU ("AVX3" for AVX-512, "AVX2", "NEON", ...),
// or "none" in a build without Highway.
const char* highwayTarget();

// A kernel set under a name, for tests and benchmarks that call the sets directly.
struct NamedKernelSet {
  std::string name;
  const KernelSet* kernels;
};
// Every set this build has and this CPU runs: "scalar", and Highway's set once per target it
// compiled and this CPU runs, best first ("highway:AVX3", "highway:AVX2", "highway:SSE4",
// ...), so that tests cover the targets other machines would choose.
std::vector<NamedKernelSet> kernelVariants();

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
