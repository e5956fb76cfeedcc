// The fused windows' per-step products on their own (docs/performance-history.md, "Every cell
// at hidden 512, both kernel sets: what packed weights changed"): each shape through the BLAS
// with its columns split over the threads, and through weights packed once (the windows'
// road), alternating, best of rounds, in GFLOP/s beside the machine's 2048^3 product on the
// same BLAS and threads.
// usage: mrnn-bench-products [--threads N] [--rows B] [--rounds R]

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "bench/machine_summary.h"
#include "engine/kernels/packed_weights.h"
#include "engine/runtime/blas_kernels.h"

namespace {

struct Shape {
  const char* name;
  int64_t n, k;
  bool transposed;
  int64_t group;  // independent products run together
};

// Seconds per call of `run`, the best of `rounds` timings of `calls` calls after a warm-up.
template <class Run>
double bestSeconds(int rounds, int calls, const Run& run) {
  double best = 1e30;
  for (int round = 0; round < rounds; ++round) {
    for (int i = 0; i < calls / 10; ++i) run();
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) run();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count() / calls);
  }
  return best;
}

int timeProducts(const mrnn::bench::BenchOptions& options) {
  const int threads = static_cast<int>(options.whole("threads", 1));
  const int64_t rows = options.whole("rows", 1);
  const int rounds = static_cast<int>(options.whole("rounds", 1));
  torch::set_num_threads(threads);
  std::printf("%s\n%s; %d threads, %lld rows\n\n", mrnn::bench::machineSummary().c_str(),
              mrnn::engine::blasKernelDescription().c_str(), threads, static_cast<long long>(rows));
  const auto a = torch::randn({2048, 2048}), b = torch::randn({2048, 2048});
  const auto measureCeiling = [&] {
    return 2.0 * 2048 * 2048 * 2048 / bestSeconds(rounds, 5, [&] { a.mm(b).sum().item<float>(); }) /
           1e9;
  };
  // The ceiling is measured before and after the products, and the better kept: the machine's
  // speed drifts within minutes, and a ceiling caught in a slow spell would flatter the rows.
  const double ceilingBefore = measureCeiling();
  std::printf(
      "| product (rows x columns <- depth) | BLAS, columns split | packed | packed / BLAS |\n"
      "| --- | ---: | ---: | ---: |\n");
  const std::vector<Shape> shapes = {
      {"u = h W_mh^T, 512 <- 512", 512, 512, true, 1},
      {"the mLSTM's gates, 2048 <- 512", 2048, 512, true, 1},
      {"dm = dG W_m, 512 <- 2048", 512, 2048, false, 1},
      {"the true mLSTM's four gates, 4 x 512 <- 512", 512, 512, true, 4},
      {"their backward, 4 x 512 <- 512", 512, 512, false, 4},
      {"the Major-Minor's major, 1844 <- 461", 1844, 461, true, 1},
      {"its minor, 204 <- 51", 204, 51, true, 1},
  };
  for (const auto& s : shapes) {
    const auto x = torch::randn({rows, s.k * s.group});
    const auto w = torch::randn({s.group, s.transposed ? s.n : s.k, s.transposed ? s.k : s.n});
    auto out = torch::zeros({rows, s.n * s.group});
    double gflops[2] = {0, 0};
    for (const bool packed : {false, true}) {
      mrnn::engine::setPackedProductsEnabled(packed);
      std::vector<mrnn::engine::PackedWeights> weights;
      for (int64_t g = 0; g < s.group; ++g) {
        weights.emplace_back(w[g].data_ptr<float>(), s.transposed ? s.k : s.n, s.transposed, s.n,
                             s.k, 100 * rows);
      }
      std::vector<mrnn::engine::PackedProduct> products;
      for (int64_t g = 0; g < s.group; ++g) {
        products.push_back({&weights[g], rows, x.data_ptr<float>() + g * s.k, s.k * s.group, false,
                            out.data_ptr<float>() + g * s.n, s.n * s.group});
      }
      const double seconds = bestSeconds(rounds, 1000, [&] {
        mrnn::engine::runPackedProducts(products.data(), products.size(), threads);
      });
      gflops[packed ? 1 : 0] = 2.0 * rows * s.n * s.k * s.group / seconds / 1e9;
    }
    std::printf("| %lld x %s | %.1f | %.1f | %.2f |\n", static_cast<long long>(rows), s.name,
                gflops[0], gflops[1], gflops[1] / gflops[0]);
  }
  const double ceilingAfter = measureCeiling();
  std::printf(
      "\nceiling: a 2048 x 2048 x 2048 torch::mm at %.1f GFLOP/s (%.1f before the products, %.1f "
      "after)\n",
      std::max(ceilingBefore, ceilingAfter), ceilingBefore, ceilingAfter);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  mrnn::engine::relaunchWithBetterBlasKernels(argv);
  return mrnn::bench::runBench(
      argc, argv,
      {{{"threads", "2"}, {"rows", "32"}, {"rounds", "3"}},
       "usage: mrnn-bench-products [--threads N] [--rows B] [--rounds R]\n"
       "The fused windows' per-step products through the BLAS and through packed weights,\n"
       "best of R rounds, beside a 2048^3 product on the same BLAS and threads.\n"},
      timeProducts);
}
