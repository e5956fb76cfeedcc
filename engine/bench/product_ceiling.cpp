#include "engine/bench/product_ceiling.h"

#include <torch/cuda.h>
#include <torch/torch.h>

#include <chrono>
#include <vector>

#include "engine/bench/bench_report.h"

namespace mrnn::engine {

double productCeilingGflops(int64_t size, int repeats, const torch::Device& device,
                            torch::Dtype dtype) {
  torch::NoGradGuard noGrad;
  const auto options = torch::TensorOptions(dtype).device(device);
  const auto a = torch::randn({size, size}, options);
  const auto b = torch::randn({size, size}, options);
  auto c = torch::empty({size, size}, options);
  const auto sync = [&] {
    if (device.is_cuda()) torch::cuda::synchronize();
  };
  const int products = device.is_cuda() ? 10 : 1;
  at::mm_out(c, a, b);  // warm-up: first-touch pages, BLAS thread pool, cuBLAS handle
  sync();
  std::vector<double> rates;
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    for (int j = 0; j < products; ++j) at::mm_out(c, a, b);
    sync();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rates.push_back(2.0 * static_cast<double>(size) * size * size * products / seconds / 1e9);
  }
  return median(rates);
}

}  // namespace mrnn::engine
