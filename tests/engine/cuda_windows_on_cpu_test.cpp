// The GPU windows of engine/cuda run on the CPU (HostWindowOps: the kernels' own element
// arithmetic, products under cuBLAS's column-major contract) against the CPU fused windows:
// their indexing, strides, transpositions and buffer use are checked on every machine,
// GPU or not. What only a GPU checks (the launches, cuBLAS itself) is cuda_kernels_test's.

#include <torch/torch.h>

#include <stdexcept>
#include <string>

#include "cuda_window_checks.h"
#include "engine/cuda/gemm_call.h"
#include "host_window_device.h"
#include "host_window_ops.h"
#include "test_harness.h"

namespace gpu = mrnn::engine::cuda;
using mrnn::test::HostWindowDevice;
using mrnn::test::HostWindowOps;
using mrnn::test::kWindowCases;

MRNN_TEST(gpu_mlstm_window_on_the_cpu_equals_the_cpu_fused_window) {
  for (const auto& windowCase : kWindowCases) {
    HostWindowDevice device;
    mrnn::test::checkMlstmWindow(device, windowCase);
  }
}

MRNN_TEST(gpu_lstm_window_on_the_cpu_equals_the_cpu_fused_window) {
  for (const auto& windowCase : kWindowCases) {
    HostWindowDevice device;
    mrnn::test::checkLstmWindow(device, windowCase);
  }
}

MRNN_TEST(gpu_gru_window_on_the_cpu_equals_the_cpu_fused_window) {
  for (const auto& windowCase : kWindowCases) {
    HostWindowDevice device;
    mrnn::test::checkGruWindow(device, windowCase);
  }
}

MRNN_TEST(gpu_mgru_window_on_the_cpu_equals_the_cpu_fused_window) {
  for (const auto& windowCase : kWindowCases) {
    HostWindowDevice device;
    mrnn::test::checkMgruWindow(device, windowCase);
  }
}

MRNN_TEST(gpu_mogrifier_window_on_the_cpu_equals_the_cpu_fused_window) {
  for (const auto& mogrifierCase : mrnn::test::kMogrifierCases) {
    for (const auto& windowCase : kWindowCases) {
      HostWindowDevice device;
      mrnn::test::checkMogrifierWindow(device, windowCase, mogrifierCase);
    }
  }
}

// The mLSTM window's calls are what its header promises: per step two products and three
// element-wise steps each way, plus the c0 copy and the weights' two products: a driver that
// slipped in a per-step call would show here.
MRNN_TEST(gpu_mlstm_window_makes_the_promised_calls) {
  HostWindowDevice device;
  mrnn::test::checkMlstmWindow(device, {false, true});
  constexpr int64_t T = 5;  // the checks' window
  EXPECT_EQ(device.hostOps().products(), 2 * T + 2 * T + 2);
  EXPECT_EQ(device.hostOps().steps(), 1 + 3 * T + 3 * T);
}

// The row-major to column-major mapping against LibTorch's products, every transposition,
// with leading dimensions wider than the rows.
MRNN_TEST(gpu_row_major_products_equal_libtorch) {
  torch::manual_seed(41);
  const int64_t m = 5, n = 7, k = 4, pad = 3;
  for (const bool transposeA : {false, true}) {
    for (const bool transposeB : {false, true}) {
      for (const bool accumulate : {false, true}) {
        const auto aStored = torch::randn({transposeA ? k : m, (transposeA ? m : k) + pad});
        const auto bStored = torch::randn({transposeB ? n : k, (transposeB ? k : n) + pad});
        const auto c0 = torch::randn({m, n + pad});
        const auto a = aStored.narrow(1, 0, transposeA ? m : k);
        const auto b = bStored.narrow(1, 0, transposeB ? k : n);
        const auto opA = transposeA ? a.t() : a;
        const auto opB = transposeB ? b.t() : b;
        auto expected = c0.clone();
        auto block = expected.narrow(1, 0, n);
        block.copy_(accumulate ? block + opA.mm(opB) : opA.mm(opB));
        auto c = c0.clone();
        HostWindowOps ops;
        ops.gemm(gpu::rowMajorGemm(transposeA, transposeB, m, n, k, aStored.data_ptr<float>(),
                                   aStored.size(1), bStored.data_ptr<float>(), bStored.size(1),
                                   accumulate, c.data_ptr<float>(), c.size(1), "test product"));
        EXPECT_MSG(torch::allclose(c, expected, 1e-5, 1e-5),
                   "rowMajorGemm transposeA " << transposeA << " transposeB " << transposeB
                                              << " accumulate " << accumulate);
      }
    }
  }
}

// The emulation refuses what cuBLAS refuses, naming the product: otherwise a window with a
// short leading dimension would pass here and fail on the GPU.
MRNN_TEST(gpu_products_cublas_would_refuse_are_refused) {
  float a[64] = {}, b[64] = {}, c[64] = {};
  HostWindowOps ops;
  auto refused = [&](const gpu::GemmCall& call, const std::string& why) {
    try {
      ops.gemm(call);
    } catch (const std::runtime_error& e) {
      const std::string message = e.what();
      EXPECT_MSG(message.find("bad product") != std::string::npos &&
                     message.find(why) != std::string::npos,
                 message);
      return;
    }
    EXPECT_MSG(false, "a product cuBLAS would refuse (" << why << ") ran");
  };
  // Row-major [2 x 3] times [3 x 4] with a's leading dimension 2 < 3 columns.
  refused(gpu::rowMajorGemm(false, false, 2, 4, 3, a, 2, b, 4, false, c, 4, "bad product"), "ldb");
  refused(gpu::rowMajorGemm(false, false, 2, 4, 3, a, 3, b, 3, false, c, 4, "bad product"), "lda");
  refused(gpu::rowMajorGemm(false, false, 2, 4, 3, a, 3, b, 4, false, c, 3, "bad product"), "ldc");
  refused(gpu::rowMajorGemm(false, false, 2, 4, 3, a, 3, a + 4, 4, false, a + 8, 4, "bad product"),
          "overlaps");
}
