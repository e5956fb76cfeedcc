#include "engine/bench/product_ceiling.h"

#include <torch/torch.h>

#include <chrono>
#include <vector>

#include "engine/bench/bench_report.h"

namespace mrnn::engine {

double productCeilingGflops(int64_t size, int repeats) {
  torch::NoGradGuard noGrad;
  const auto a = torch::randn({size, size});
  const auto b = torch::randn({size, size});
  auto c = torch::empty({size, size});
  at::mm_out(c, a, b);  // warm-up: first-touch pages, BLAS thread pool
  std::vector<double> rates;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    at::mm_out(c, a, b);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rates.push_back(2.0 * static_cast<double>(size) * size * size / seconds / 1e9);
  }
  return median(rates);
}

}  // namespace mrnn::engine
