// The fused windows' products split by columns over threads (engine/kernels/split_sgemm,
// column_split):
// the cuts tile every column of every call once, and the split products equal LibTorch's
// products, alone and in groups, with strides, accumulation and both layouts of B.

#include <torch/torch.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/kernels/blas_gemm.h"
#include "engine/kernels/column_split.h"
#include "engine/kernels/packed_weights.h"
#include "engine/kernels/split_sgemm.h"
#include "engine/kernels/vector_kernels.h"
#include "test_harness.h"

using namespace mrnn;
using engine::SgemmCall;

namespace {

SgemmCall call(bool transposeB, int64_t m, int64_t n, int64_t k) {
  SgemmCall c;
  c.transposeB = transposeB;
  c.m = m;
  c.n = n;
  c.k = k;
  return c;
}

std::vector<engine::ColumnRange> ranges(const std::vector<SgemmCall>& calls) {
  std::vector<engine::ColumnRange> out;
  for (const auto& c : calls) out.push_back({static_cast<double>(c.m * c.k), c.n});
  return out;
}

// The columns each part covers, counted per call and column.
std::vector<std::vector<int>> coverage(const std::vector<SgemmCall>& calls, int parts) {
  std::vector<std::vector<int>> seen;
  for (const auto& c : calls) seen.emplace_back(static_cast<size_t>(c.n), 0);
  const auto r = ranges(calls);
  for (int part = 0; part < parts; ++part) {
    engine::forEachPiece(r.data(), r.size(), part, parts, 16,
                         [&](size_t i, int64_t from, int64_t to) {
                           for (int64_t column = from; column < to; ++column) ++seen[i][column];
                         });
  }
  return seen;
}

}  // namespace

MRNN_TEST(column_cuts_cover_every_column_of_every_product_once) {
  const std::vector<std::vector<SgemmCall>> sets = {
      {call(true, 32, 2048, 512)},
      {call(true, 32, 512, 512), call(true, 32, 512, 512), call(true, 32, 512, 512),
       call(true, 32, 512, 512)},
      {call(false, 32, 1844, 461), call(true, 32, 204, 51)},  // unequal, not multiples of 16
      {call(true, 5, 7, 3), call(false, 1, 1, 1), call(true, 9, 40, 300)},
  };
  for (const auto& calls : sets) {
    for (int parts = 1; parts <= 7; ++parts) {
      const auto seen = coverage(calls, parts);
      for (const auto& columns : seen) {
        for (int times : columns) EXPECT_EQ(times, 1);
      }
    }
  }
  // Four equal gates over two threads: each thread takes two whole gates, not halves of four.
  const auto gates = ranges(sets[1]);
  const auto middle = engine::columnCut(gates.data(), gates.size(), 1, 2, 16);
  EXPECT_EQ(middle.range, size_t{2});
  EXPECT_EQ(middle.column, int64_t{0});
  // One product over two threads: cut near its middle, on a whole block of 16 columns.
  const auto one = ranges(sets[2]);
  const auto half = engine::columnCut(one.data(), 1, 1, 2, 16);
  EXPECT_EQ(half.range, size_t{0});
  EXPECT_EQ(half.column % 16, int64_t{0});
  EXPECT(std::abs(half.column - 1844 / 2) <= 8);
}

MRNN_TEST(split_products_equal_torch_products_alone_and_in_groups) {
  if (!engine::splitSgemmAvailable()) {
    MRNN_SKIP("products are not split in this process (no CBLAS, or a BLAS not built on OpenMP)");
  }
  torch::manual_seed(11);
  // A gate group as the true mLSTM's window lays it out: four products reading column blocks
  // of one row (lda 4k), writing column blocks of another (ldc 4n); and a lone product.
  const int64_t m = 32, n = 200, k = 96;
  const auto a = torch::randn({m, 4 * k + 3});
  for (bool transposeB : {false, true}) {
    for (bool accumulate : {false, true}) {
      const auto b = transposeB ? torch::randn({4, n, k + 5}) : torch::randn({4, k, n + 5});
      auto c = torch::randn({m, 4 * n + 7});
      const auto before = c.clone();
      std::vector<SgemmCall> calls;
      for (int64_t g = 0; g < 4; ++g) {
        auto one = call(transposeB, m, n, k);
        one.a = a.data_ptr<float>() + g * k;
        one.lda = a.size(1);
        one.b = b[g].data_ptr<float>();
        one.ldb = b.size(2);
        one.beta = accumulate ? 1.0f : 0.0f;
        one.c = c.data_ptr<float>() + g * n;
        one.ldc = c.size(1);
        calls.push_back(one);
      }
      for (int threads : {2, 3}) {
        c.copy_(before);
        EXPECT(engine::splitSgemm(calls.data(), calls.size(), threads));
        for (int64_t g = 0; g < 4; ++g) {
          const auto bOp = transposeB ? b[g].narrow(1, 0, k).t() : b[g].narrow(1, 0, n);
          auto expected = a.narrow(1, g * k, k).mm(bOp);
          if (accumulate) expected += before.narrow(1, g * n, n);
          EXPECT(torch::allclose(c.narrow(1, g * n, n), expected, 1e-4, 1e-4));
        }
        // The columns past the four blocks are C's own, untouched.
        EXPECT(torch::equal(c.narrow(1, 4 * n, 7), before.narrow(1, 4 * n, 7)));
        // One product alone, split down its columns.
        c.copy_(before);
        EXPECT(engine::splitSgemm(calls.data() + 1, 1, threads));
        EXPECT(torch::equal(c.narrow(1, 0, n), before.narrow(1, 0, n)));
        const auto bOp = transposeB ? b[1].narrow(1, 0, k).t() : b[1].narrow(1, 0, n);
        auto expected = a.narrow(1, k, k).mm(bOp);
        if (accumulate) expected += before.narrow(1, n, n);
        EXPECT(torch::allclose(c.narrow(1, n, n), expected, 1e-4, 1e-4));
      }
    }
  }
}

MRNN_TEST(split_products_off_run_the_calls_one_after_another_with_the_same_result) {
  if (!engine::rawSgemmAvailable()) MRNN_SKIP("no CBLAS in this process (LibTorch without it)");
  torch::manual_seed(12);
  const auto a = torch::randn({32, 300});
  const auto b = torch::randn({400, 300});
  auto split = torch::zeros({32, 400});
  auto whole = torch::zeros({32, 400});
  auto one = call(true, 32, 400, 300);
  one.a = a.data_ptr<float>();
  one.lda = 300;
  one.b = b.data_ptr<float>();
  one.ldb = 300;
  one.c = split.data_ptr<float>();
  one.ldc = 400;
  EXPECT(engine::splitSgemm(&one, 1, 2));
  engine::setSplitSgemmEnabled(false);
  EXPECT(!engine::splitSgemmAvailable());
  one.c = whole.data_ptr<float>();
  EXPECT(engine::splitSgemm(&one, 1, 2));
  engine::setSplitSgemmEnabled(true);
  EXPECT(torch::allclose(split, whole, 1e-4, 1e-4));  // summed in other blocks
  EXPECT(torch::allclose(whole, a.mm(b.t()), 1e-4, 1e-4));
  // Without a CBLAS nothing runs and the caller is told so.
  engine::setRawSgemmEnabled(false);
  auto untouched = torch::full({32, 400}, 3.0f);
  one.c = untouched.data_ptr<float>();
  EXPECT(!engine::splitSgemm(&one, 1, 2));
  engine::setRawSgemmEnabled(true);
  EXPECT(torch::equal(untouched, torch::full({32, 400}, 3.0f)));
}

namespace {

// op(W) for W [n, k] (transposed) or [k, n], inside rows of ldw floats.
torch::Tensor operand(const torch::Tensor& w, bool transposed, int64_t n, int64_t k) {
  return transposed ? w.narrow(1, 0, k).t() : w.narrow(1, 0, n);
}

}  // namespace

MRNN_TEST(every_panel_kernel_equals_torch_at_odd_shapes) {
  torch::manual_seed(13);
  int kernels = 0;
  for (const auto& variant : engine::kernelVariants()) {
    if (variant.kernels->panelProduct == nullptr) continue;  // the portable set: the BLAS's
    ++kernels;
    const int64_t width = variant.kernels->panelWidth();
    EXPECT(width >= 2);
    for (int64_t m : {1, 5, 6, 7, 32}) {
      for (int64_t n : {int64_t{1}, width - 1, width, width + 1, 3 * width + 5}) {
        if (n < 1) continue;
        for (int64_t k : {1, 3, 255, 256, 257, 600}) {
          for (bool transposed : {false, true}) {
            const int64_t ldw = (transposed ? k : n) + 3;
            const auto w = torch::randn({transposed ? n : k, ldw});
            const int64_t panels = (n + width - 1) / width;
            std::vector<float> packed(static_cast<size_t>(panels * k * width), -7.0f);
            engine::packPanels(w.data_ptr<float>(), ldw, transposed, n, k, width, packed.data());
            const auto a = torch::randn({m, k + 2});
            auto c = torch::randn({m, n + 4});
            const auto before = c.clone();
            const auto expected = a.narrow(1, 0, k).mm(operand(w, transposed, n, k));
            for (bool accumulate : {false, true}) {
              c.copy_(before);
              engine::PanelProduct p{m,
                                     n,
                                     k,
                                     a.data_ptr<float>(),
                                     k + 2,
                                     packed.data(),
                                     c.data_ptr<float>(),
                                     n + 4,
                                     accumulate};
              // In two calls, as two threads would run it: every panel once.
              variant.kernels->panelProduct(p, 0, panels / 2);
              variant.kernels->panelProduct(p, panels / 2, panels);
              const auto want = accumulate ? expected + before.narrow(1, 0, n) : expected;
              EXPECT_MSG(torch::allclose(c.narrow(1, 0, n), want, 1e-4, 1e-4),
                         variant.name << " m " << m << " n " << n << " k " << k << " transposed "
                                      << transposed << " accumulate " << accumulate);
              EXPECT(torch::equal(c.narrow(1, n, 4), before.narrow(1, n, 4)));
            }
          }
        }
      }
    }
  }
  if (kernels == 0) MRNN_SKIP("no vector kernels in this build (MRNN_HIGHWAY=OFF)");
}

MRNN_TEST(packed_products_equal_torch_alone_in_groups_and_when_not_packed) {
  if (!engine::rawSgemmAvailable()) MRNN_SKIP("no CBLAS in this process (LibTorch without it)");
  torch::manual_seed(14);
  const int64_t m = 32, n = 200, k = 96;
  const auto a = torch::randn({m, 4 * k});
  for (bool transposed : {false, true}) {
    const auto w = transposed ? torch::randn({4, n, k}) : torch::randn({4, k, n});
    // Packed (a window's worth of rows to come), and not (one step's rows: the BLAS's road).
    for (int64_t rowsToCome : {int64_t{3200}, int64_t{32}}) {
      std::vector<engine::PackedWeights> gates;
      for (int64_t g = 0; g < 4; ++g) {
        gates.emplace_back(w[g].data_ptr<float>(), transposed ? k : n, transposed, n, k,
                           rowsToCome);
      }
      const bool vectors = engine::kernelsFor(engine::activeKernelIsa()).panelProduct != nullptr;
      EXPECT_EQ(gates[0].packed(),
                rowsToCome >= engine::PackedWeights::kLeastRowsToPack && vectors);
      for (int threads : {1, 2, 3}) {
        auto c = torch::randn({m, 4 * n + 5});
        const auto before = c.clone();
        std::vector<engine::PackedProduct> products;
        for (int64_t g = 0; g < 4; ++g) {
          products.push_back({&gates[g], m, a.data_ptr<float>() + g * k, 4 * k, g % 2 == 1,
                              c.data_ptr<float>() + g * n, 4 * n + 5});
        }
        EXPECT(engine::runPackedProducts(products.data(), products.size(), threads));
        for (int64_t g = 0; g < 4; ++g) {
          auto expected = a.narrow(1, g * k, k).mm(operand(w[g], transposed, n, k));
          if (g % 2 == 1) expected += before.narrow(1, g * n, n);
          EXPECT_MSG(torch::allclose(c.narrow(1, g * n, n), expected, 1e-4, 1e-4),
                     "gate " << g << " threads " << threads << " rows " << rowsToCome);
        }
        EXPECT(torch::equal(c.narrow(1, 4 * n, 5), before.narrow(1, 4 * n, 5)));
      }
    }
  }
  // Turned off, nothing is packed and the products still come out right.
  engine::setPackedProductsEnabled(false);
  const auto w = torch::randn({n, k});
  const engine::PackedWeights off(w.data_ptr<float>(), k, true, n, k, 3200);
  engine::setPackedProductsEnabled(true);
  EXPECT(!off.packed());
  auto c = torch::zeros({m, n});
  const engine::PackedProduct product{
      &off, m, a.data_ptr<float>(), 4 * k, false, c.data_ptr<float>(), n};
  EXPECT(engine::runPackedProducts(&product, 1, 2));
  EXPECT(torch::allclose(c, a.narrow(1, 0, k).mm(w.t()), 1e-4, 1e-4));
}
