// The raw-float kernels of engine/kernels, the portable set and every Highway target this CPU
// runs (AVX-512, AVX2, SSE4, SSSE3 and Highway's own scalar fallback on a recent x86),
// against plain double-precision loops: odd shapes (rows not a multiple of 4, columns not a
// multiple of 4, 8 or 16), exact integer cases, the threaded split, and the elementwise
// functions over their whole range.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "engine/kernels/blas_gemm.h"
#include "engine/kernels/vector_kernels.h"
#include "test_harness.h"

using namespace mrnn;
using engine::KernelIsa;

namespace {

std::vector<KernelIsa> supportedIsas() {
  std::vector<KernelIsa> isas;
  for (KernelIsa isa : {KernelIsa::Scalar, KernelIsa::Highway}) {
    if (engine::kernelIsaSupported(isa)) {
      isas.push_back(isa);
    } else {
      std::printf("INFO   : %s kernels not supported on this CPU, not tested\n",
                  engine::kernelIsaName(isa));
    }
  }
  return isas;
}

// Selects an instruction set for the dispatching functions, restored on exit.
struct IsaScope {
  explicit IsaScope(KernelIsa isa) { engine::setKernelIsa(isa); }
  ~IsaScope() { engine::resetKernelIsa(); }
};

std::vector<float> randomValues(size_t n, std::mt19937& random, float low, float high) {
  std::uniform_real_distribution<float> draw(low, high);
  std::vector<float> values(n);
  for (auto& v : values) v = draw(random);
  return values;
}

const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 1},  {1, 16}, {2, 3},    {3, 17}, {4, 15},  {5, 31},   {6, 8},
    {7, 33}, {9, 64}, {13, 100}, {3, 0},  {64, 64}, {67, 515}, {130, 47}};

}  // namespace

MRNN_TEST(gemv_matches_a_double_reference_on_odd_shapes) {
  std::mt19937 random(11);
  for (const auto& [name, kernels] : engine::kernelVariants()) {
    for (const auto& [rows, cols] : kShapes) {
      const auto w = randomValues(static_cast<size_t>(rows * cols), random, -1.0f, 1.0f);
      const auto x = randomValues(static_cast<size_t>(cols), random, -1.0f, 1.0f);
      const auto y0 = randomValues(static_cast<size_t>(rows), random, -1.0f, 1.0f);
      for (bool accumulate : {false, true}) {
        std::vector<float> y = y0;
        kernels->gemv(w.data(), rows, cols, x.data(), y.data(), accumulate);
        for (int64_t r = 0; r < rows; ++r) {
          double expected = accumulate ? y0[r] : 0.0;
          double scale = std::fabs(expected);
          for (int64_t k = 0; k < cols; ++k) {
            expected += static_cast<double>(w[r * cols + k]) * x[k];
            scale += std::fabs(static_cast<double>(w[r * cols + k]) * x[k]);
          }
          EXPECT_MSG(std::fabs(y[r] - expected) <= 2e-6 * scale + 1e-12,
                     name << " " << rows << "x" << cols << " row " << r
                          << (accumulate ? " accumulating" : "") << ": " << y[r] << " vs "
                          << expected);
        }
      }
    }
  }
}

// Small integers multiply and add exactly in float: every term must be counted exactly once,
// whatever the blocking and the masked tails do.
MRNN_TEST(gemv_is_exact_on_small_integers) {
  std::mt19937 random(5);
  std::uniform_int_distribution<int> draw(-3, 3);
  for (const auto& [name, kernels] : engine::kernelVariants()) {
    for (const auto& [rows, cols] : kShapes) {
      std::vector<float> w(static_cast<size_t>(rows * cols)), x(static_cast<size_t>(cols));
      for (auto& v : w) v = static_cast<float>(draw(random));
      for (auto& v : x) v = static_cast<float>(draw(random));
      std::vector<float> y(static_cast<size_t>(rows), 7.0f);
      kernels->gemv(w.data(), rows, cols, x.data(), y.data(), true);
      for (int64_t r = 0; r < rows; ++r) {
        int64_t expected = 7;
        for (int64_t k = 0; k < cols; ++k) {
          expected += static_cast<int64_t>(w[r * cols + k]) * static_cast<int64_t>(x[k]);
        }
        EXPECT_MSG(y[r] == static_cast<float>(expected), name << " " << rows << "x" << cols
                                                              << " row " << r << ": " << y[r]
                                                              << " vs " << expected);
      }
    }
  }
}

// Splitting rows over threads, or visiting them in reverse, leaves every row's arithmetic
// unchanged: bit for bit the same result.
MRNN_TEST(threaded_and_reversed_gemv_equal_one_thread) {
  std::mt19937 random(2);
  for (KernelIsa isa : supportedIsas()) {
    IsaScope scope(isa);
    for (const auto& [rows, cols] : std::vector<std::pair<int64_t, int64_t>>{
             {1030, 517}, {2049, 64}, {512, 512}, {257, 1001}, {37, 19}}) {
      const auto w = randomValues(static_cast<size_t>(rows * cols), random, -1.0f, 1.0f);
      const auto x = randomValues(static_cast<size_t>(cols), random, -1.0f, 1.0f);
      std::vector<float> direct(static_cast<size_t>(rows), 0.5f);
      engine::kernelsFor(isa).gemv(w.data(), rows, cols, x.data(), direct.data(), true);
      for (int threads : {1, 2, 3}) {
        for (bool reversed : {false, true}) {
          std::vector<float> y(static_cast<size_t>(rows), 0.5f);
          engine::gemv(w.data(), rows, cols, x.data(), y.data(), true, {threads, reversed});
          EXPECT_MSG(y == direct, engine::kernelIsaName(isa)
                                      << " " << rows << "x" << cols << ", " << threads << " threads"
                                      << (reversed ? ", reversed" : ""));
        }
      }
    }
  }
}

MRNN_TEST(sigmoid_and_tanh_match_double_over_their_range) {
  std::vector<float> inputs;
  for (float v = -40.0f; v <= 40.0f; v += 0.0371f) inputs.push_back(v);
  for (float v : {0.0f, -0.0f, 1e-8f, -1e-8f, 1e-30f, 0.5f, -0.5f, 87.0f, -87.0f, 88.5f, -88.5f,
                  100.0f, -100.0f, 1e4f, -1e4f}) {
    inputs.push_back(v);
  }
  inputs.push_back(0.25f);  // an odd count: the vector loops end in a masked tail
  for (const auto& [name, kernels] : engine::kernelVariants()) {
    std::vector<float> s = inputs, t = inputs;
    kernels->sigmoid(s.data(), static_cast<int64_t>(s.size()));
    kernels->tanh(t.data(), static_cast<int64_t>(t.size()));
    for (size_t i = 0; i < inputs.size(); ++i) {
      const double v = inputs[i];
      const double sigmoid = 1.0 / (1.0 + std::exp(-v));
      EXPECT_MSG(std::fabs(s[i] - sigmoid) <= 4e-7 * sigmoid + 1e-37,
                 name << " sigmoid(" << v << ") = " << s[i] << " vs " << sigmoid);
      EXPECT_MSG(std::fabs(t[i] - std::tanh(v)) <= 2e-7,
                 name << " tanh(" << v << ") = " << t[i] << " vs " << std::tanh(v));
      EXPECT(std::signbit(t[i]) == std::signbit(inputs[i]) || t[i] == 0.0f);
    }
    std::vector<float> nan = {std::nanf(""), 1.0f};
    kernels->sigmoid(nan.data(), 2);
    EXPECT_MSG(std::isnan(nan[0]), name << " sigmoid(NaN) = " << nan[0]);
    nan = {std::nanf(""), 1.0f};
    kernels->tanh(nan.data(), 2);
    EXPECT_MSG(std::isnan(nan[0]), name << " tanh(NaN) = " << nan[0]);
  }
}

MRNN_TEST(log_softmax_matches_double) {
  std::mt19937 random(8);
  for (KernelIsa isa : supportedIsas()) {
    IsaScope scope(isa);
    for (int64_t n : {1, 7, 16, 129, 1000}) {
      for (float spread : {1.0f, 30.0f}) {
        const auto values = randomValues(static_cast<size_t>(n), random, -spread, spread);
        std::vector<float> out(values.size());
        engine::logSoftmax(values.data(), out.data(), n);
        double top = -1e300, sum = 0.0;
        for (float v : values) top = std::max<double>(top, v);
        for (float v : values) sum += std::exp(v - top);
        for (int64_t i = 0; i < n; ++i) {
          const double expected = values[i] - top - std::log(sum);
          EXPECT_MSG(std::fabs(out[i] - expected) <= 2e-6 * (1.0 + std::fabs(expected)),
                     engine::kernelIsaName(isa)
                         << " n=" << n << " i=" << i << ": " << out[i] << " vs " << expected);
        }
      }
    }
    std::vector<float> inPlace = {1.0f, 2.0f, 3.0f};
    engine::logSoftmax(inPlace.data(), inPlace.data(), 3);
    EXPECT_NEAR(std::exp(inPlace[0]) + std::exp(inPlace[1]) + std::exp(inPlace[2]), 1.0, 1e-6);
  }
}

MRNN_TEST(the_best_supported_instruction_set_is_active) {
  engine::resetKernelIsa();
  const auto isas = supportedIsas();
  EXPECT(engine::activeKernelIsa() == isas.back());
  engine::setKernelIsa(KernelIsa::Scalar);
  EXPECT(engine::activeKernelIsa() == KernelIsa::Scalar);
  engine::resetKernelIsa();
  if (!engine::kernelIsaSupported(KernelIsa::Highway)) {
    EXPECT_THROWS_WITH(std::invalid_argument, engine::setKernelIsa(KernelIsa::Highway), "highway");
  }
}

// In a Highway build the dispatching set is the best target this CPU runs, and the tests
// above ran every target it runs, the dispatched one first; in any other build there is none.
MRNN_TEST(highway_dispatches_to_its_best_target_and_every_target_is_tested) {
  std::vector<std::string> targets;
  for (const auto& variant : engine::kernelVariants()) {
    if (variant.name.rfind("highway:", 0) == 0) targets.push_back(variant.name.substr(8));
  }
  if (!engine::kernelIsaSupported(KernelIsa::Highway)) {
    EXPECT(targets.empty());
    EXPECT_EQ(std::string(engine::highwayTarget()), std::string("none"));
    MRNN_SKIP("built without Highway (MRNN_HIGHWAY=OFF)");
  }
  std::printf("INFO   : Highway dispatches to %s; targets tested:", engine::highwayTarget());
  for (const auto& target : targets) std::printf(" %s", target.c_str());
  std::printf("\n");
  EXPECT(!targets.empty());
  EXPECT_EQ(targets.front(), std::string(engine::highwayTarget()));
  const auto variants = engine::kernelVariants();
  const auto dispatched = std::find_if(variants.begin(), variants.end(), [](const auto& v) {
    return v.name == std::string("highway:") + engine::highwayTarget();
  });
  EXPECT(dispatched != variants.end());
  EXPECT(dispatched->kernels->gemv == engine::kernelsFor(KernelIsa::Highway).gemv);
#if defined(__x86_64__)
  // Every x86-64 CPU runs at least Highway's SSSE3 or portable target beside its best.
  EXPECT(targets.size() >= 2);
#endif
}

MRNN_TEST(raw_sgemm_equals_torch_mm_with_strides_and_accumulation) {
  if (!engine::rawSgemmAvailable()) MRNN_SKIP("no CBLAS in this process (LibTorch without it)");
  torch::manual_seed(3);
  const int64_t m = 5, n = 7, k = 6, lda = 9, ldc = 11;
  const auto a = torch::randn({m, lda});
  for (bool transposeB : {false, true}) {
    // B is [k, n] or, transposed, [n, k], inside rows of 10 floats.
    const auto b = torch::randn({transposeB ? n : k, 10});
    const auto bOp = transposeB ? b.narrow(1, 0, k).t() : b.narrow(1, 0, n);
    const auto expected = a.narrow(1, 0, k).mm(bOp);
    auto c = torch::full({m, ldc}, 2.0f);
    EXPECT(engine::rawSgemm(transposeB, m, n, k, 1.0f, a.data_ptr<float>(), lda,
                            b.data_ptr<float>(), 10, 0.0f, c.data_ptr<float>(), ldc));
    EXPECT(torch::allclose(c.narrow(1, 0, n), expected, 1e-5, 1e-5));
    EXPECT(torch::equal(c.narrow(1, n, ldc - n), torch::full({m, ldc - n}, 2.0f)));
    EXPECT(engine::rawSgemm(transposeB, m, n, k, 1.0f, a.data_ptr<float>(), lda,
                            b.data_ptr<float>(), 10, 1.0f, c.data_ptr<float>(), ldc));
    EXPECT(torch::allclose(c.narrow(1, 0, n), 2 * expected, 1e-5, 1e-5));
  }
  engine::setRawSgemmEnabled(false);
  float one = 1.0f, out = 0.0f;
  EXPECT(!engine::rawSgemm(false, 1, 1, 1, 1.0f, &one, 1, &one, 1, 0.0f, &out, 1));
  EXPECT(!engine::rawSgemmAvailable());
  engine::setRawSgemmEnabled(true);
  EXPECT_EQ(out, 0.0f);
}
