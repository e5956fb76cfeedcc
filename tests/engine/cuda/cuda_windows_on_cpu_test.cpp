// The GPU windows of engine/cuda run on the CPU (HostWindowOps: the kernels' own element
// arithmetic, products under cuBLAS's column-major contract) against the CPU fused windows:
// their indexing, strides, transpositions and buffer use are checked on every machine,
// GPU or not. What only a GPU checks (the launches, cuBLAS itself) is cuda_kernels_test's.

#include <torch/torch.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_window_checks.h"
#include "engine/cuda/gemm_call.h"
#include "host_window_device.h"
#include "host_window_ops.h"
#include "test_harness.h"

namespace gpu = mrnn::engine::cuda;
using mrnn::test::HostWindowDevice;
using mrnn::test::HostWindowOps;
using mrnn::test::kPrecisions;
using mrnn::test::kWindowCases;

MRNN_TEST(gpu_mlstm_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkMlstmWindow);
}

MRNN_TEST(gpu_lstm_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkLstmWindow);
}

MRNN_TEST(gpu_gru_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkGruWindow);
}

MRNN_TEST(gpu_mgru_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkMgruWindow);
}

MRNN_TEST(gpu_true_mlstm_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkTmlstmWindow);
}

MRNN_TEST(gpu_true_mgru_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkTmgruWindow);
}

MRNN_TEST(gpu_rnn_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkRnnWindow);
}

MRNN_TEST(gpu_mrnn_window_on_the_cpu_equals_the_cpu_fused_window) {
  mrnn::test::checkEveryCase<HostWindowDevice>(mrnn::test::checkMrnnWindow);
}

MRNN_TEST(gpu_mogrifier_window_on_the_cpu_equals_the_cpu_fused_window) {
  for (const auto precision : kPrecisions) {
    for (const auto& mogrifierCase : mrnn::test::kMogrifierCases) {
      for (const auto& windowCase : kWindowCases) {
        HostWindowDevice device(precision);
        mrnn::test::checkMogrifierWindow(device, windowCase, mogrifierCase);
      }
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
  EXPECT_EQ(device.hostOps().roundings(), 0);
}

// With bfloat16 products each weight is rounded once for the window, not for each of its
// 2T products: per step one rounding per product (the step's activations), the two weight
// gradients round both their operands, and the weights once each.
MRNN_TEST(gpu_mlstm_window_rounds_its_weights_once) {
  HostWindowDevice device(gpu::ProductPrecision::Bfloat16);
  mrnn::test::checkMlstmWindow(device, {false, true});
  constexpr int64_t T = 5, B = 3, H = 8, M = 12;  // the checks' window
  EXPECT_EQ(device.hostOps().products(), 2 * T + 2 * T + 2);
  EXPECT_EQ(device.hostOps().roundings(), 2 * T + 2 * T + 2 * 2 + 2);
  // The floats rounded: the weights once (M x H and 4H x M); per step forward h_in [B x H]
  // and m [B x M]; per step backward dG ([B x 4H] rows of xp's width X) and du [B x M]; for
  // the weight gradients dG and m, du and h_in over all T x B rows.
  const int64_t X = M + 4 * H, TB = T * B;
  const int64_t weights = M * H + 4 * H * M;
  const int64_t forward = T * (B * H + B * M);
  const int64_t backward = T * ((B - 1) * X + 4 * H + B * M);
  const int64_t gradients = (TB - 1) * X + 4 * H + TB * M + TB * M + TB * H;
  EXPECT_EQ(device.hostOps().roundedFloats(), weights + forward + backward + gradients);
}

// bfloat16Of rounds as LibTorch does (to nearest, ties to even), for ordinary values, values
// exactly halfway between two bfloat16s, the largest finite floats, infinities and NaN.
MRNN_TEST(gpu_bfloat16_rounding_equals_libtorch) {
  torch::manual_seed(43);
  std::vector<float> values;
  const auto random = torch::randn({4096}) * torch::exp(torch::randn({4096}) * 8);
  for (int64_t i = 0; i < random.numel(); ++i) values.push_back(random[i].item<float>());
  for (uint32_t kept : {0x3f80u, 0x3f81u, 0xbf80u, 0xbf81u, 0x7f7eu, 0x0001u}) {
    for (uint32_t dropped : {0x7fffu, 0x8000u, 0x8001u, 0x0000u}) {
      const uint32_t bits = (kept << 16) | dropped;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      values.push_back(f);
    }
  }
  values.push_back(std::numeric_limits<float>::max());
  values.push_back(-std::numeric_limits<float>::max());
  values.push_back(std::numeric_limits<float>::infinity());
  values.push_back(-std::numeric_limits<float>::infinity());
  values.push_back(std::numeric_limits<float>::denorm_min());
  values.push_back(0.0f);
  values.push_back(-0.0f);
  const auto expected =
      torch::tensor(values).to(torch::kBFloat16).view(torch::kInt16).to(torch::kInt32) & 0xffff;
  for (size_t i = 0; i < values.size(); ++i) {
    const uint32_t want = static_cast<uint32_t>(expected[static_cast<int64_t>(i)].item<int32_t>());
    const uint32_t got = gpu::bfloat16Of(values[i]);
    EXPECT_MSG(got == want,
               "bfloat16Of(" << values[i] << ") = " << std::hex << got << ", LibTorch " << want);
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_MSG(std::isnan(gpu::floatOf(gpu::bfloat16Of(nan))), "NaN did not stay NaN");
  EXPECT_MSG(gpu::floatOf(gpu::bfloat16Of(1.5f)) == 1.5f, "1.5 is a bfloat16 and must stay");
}

// A product whose operand lies inside a held block reads the block's one rounded copy at the
// operand's offset; anything else is rounded afresh for every product (it may have changed).
MRNN_TEST(gpu_bfloat16_products_round_fixed_blocks_once_and_the_rest_each_time) {
  HostWindowOps ops(gpu::ProductPrecision::Bfloat16);
  // w: [4 x 6] row-major weights, held; x: [2 x 3] activations; out [2 x 4] = x times the
  // transpose of w's columns 1..3 (an operand inside the held block, at an offset).
  std::vector<float> w(24), x(6), out(8);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 1.0f + 1.0f / 256 + 0.37f * i;  // not bfloat16
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.5f + 1.0f / 512 + 0.11f * i;
  ops.holdFixed(w.data(), 24);
  const auto call = [&] {
    ops.gemm(gpu::rowMajorGemm(false, true, 2, 4, 3, x.data(), 3, w.data() + 1, 6, false,
                               out.data(), 4, "test product"));
  };
  const auto expected = [&] {
    const auto r = [](float v) { return gpu::floatOf(gpu::bfloat16Of(v)); };
    std::vector<float> e(8);
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 4; ++j) {
        double sum = 0;
        for (int l = 0; l < 3; ++l) sum += double(r(x[i * 3 + l])) * r(w[j * 6 + 1 + l]);
        e[i * 4 + j] = static_cast<float>(sum);
      }
    }
    return e;
  };
  call();
  EXPECT_EQ(ops.roundings(), 2);  // w's whole block, then x
  auto want = expected();
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(out[i], want[i], 1e-5);
  x[4] = 7.25f;  // the activations change between products; the weights do not
  call();
  EXPECT_EQ(ops.roundings(), 3);  // x again, w's copy reused
  want = expected();
  for (int i = 0; i < 8; ++i) EXPECT_NEAR(out[i], want[i], 1e-5);
  EXPECT_EQ(ops.roundedFloats(), 24 + 2 * 6);

  // At float32 nothing is rounded and the product is the plain one.
  HostWindowOps exact;
  exact.holdFixed(w.data(), 24);
  exact.gemm(gpu::rowMajorGemm(false, true, 2, 4, 3, x.data(), 3, w.data() + 1, 6, false,
                               out.data(), 4, "test product"));
  EXPECT_EQ(exact.roundings(), 0);
  double plain = 0;
  for (int l = 0; l < 3; ++l) plain += double(x[l]) * w[1 + l];
  EXPECT_NEAR(out[0], plain, 1e-5);
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
