// The vector kernels, written once with Google Highway: foreach_target.h compiles this file
// for every target Highway knows on this architecture (x86: AVX-512 as "AVX3", AVX2, SSE4,
// SSSE3; Arm: SVE2, SVE, NEON; and a portable fallback), and HWY_DYNAMIC_DISPATCH picks the
// best one the CPU runs. They replaced hand-written AVX2 and AVX-512 files, at least as fast
// here (docs/performance-history.md, "Vector kernels"); the algorithms are theirs: four rows
// per pass in gemv, the Cephes exp behind sigmoid, tanh and the sum of exp. Built with
// MRNN_HIGHWAY.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "engine/kernels/kernels_highway.cpp"
#include <hwy/foreach_target.h>  // must come before highway.h

#include <hwy/highway.h>

#include <algorithm>
#include <cstring>

#include "engine/kernels/kernel_sets.h"

HWY_BEFORE_NAMESPACE();
namespace mrnn::engine {
namespace HWY_NAMESPACE {
namespace {

namespace hn = hwy::HWY_NAMESPACE;
using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

#if HWY_MEM_OPS_MIGHT_FAULT
// y[i] += the last columns [full, cols) of row i, for `count` rows, one by one: on targets
// whose masked loads may fault past an array (HWY_MEM_OPS_MIGHT_FAULT: SSE4, AVX2, NEON).
// Out of line: inlined, GCC vectorises this loop too, and the registers that takes slow down
// the main loop's epilogue.
HWY_NOINLINE void addTails(const float* w, int64_t count, int64_t cols, int64_t full,
                           const float* x, float* y) {
  for (int64_t i = 0; i < count; ++i) {
    float sum = 0.0f;
    for (int64_t k = full; k < cols; ++k) sum += w[i * cols + k] * x[k];
    y[i] += sum;
  }
}
#endif

#if !HWY_HAVE_SCALABLE && HWY_TARGET != HWY_SCALAR
// The lanes of v summed by block: a 128-bit vector whose lane i is the sum of every lane
// of v with index i mod 4.
template <class DF, class VF>
HWY_INLINE hn::Vec<hn::Full128<float>> sumBlocks(DF df, VF v) {
  if constexpr (hn::MaxLanes(DF()) > 4) {
    const hn::Half<DF> dh;
    return sumBlocks(dh, hn::Add(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)));
  } else {
    (void)df;
    return v;
  }
}
#endif

// y[i] = (y[i] +) the sum of the lanes of a<i>, i < 4. With 128-bit blocks (x86, NEON) the
// four sums are transposed into one vector, two interleaves per step, and stored at once:
// fewer instructions than four reductions. Scalable vectors (SVE) and single lanes reduce
// each row on its own.
HWY_INLINE void storeRowSums(D d, V a0, V a1, V a2, V a3, float* y, bool accumulate) {
#if HWY_HAVE_SCALABLE || HWY_TARGET == HWY_SCALAR
  const float s[4] = {hn::GetLane(hn::SumOfLanes(d, a0)), hn::GetLane(hn::SumOfLanes(d, a1)),
                      hn::GetLane(hn::SumOfLanes(d, a2)), hn::GetLane(hn::SumOfLanes(d, a3))};
  for (int i = 0; i < 4; ++i) y[i] = accumulate ? y[i] + s[i] : s[i];
#else
  // In every block: [r0 r1 r0 r1] and [r2 r3 r2 r3], then [r0 r1 r2 r3].
  const V b01 = hn::Add(hn::InterleaveLower(d, a0, a1), hn::InterleaveUpper(d, a0, a1));
  const V b23 = hn::Add(hn::InterleaveLower(d, a2, a3), hn::InterleaveUpper(d, a2, a3));
  const hn::Repartition<uint64_t, D> d64;
  const auto p01 = hn::BitCast(d64, b01), p23 = hn::BitCast(d64, b23);
  const V c = hn::Add(hn::BitCast(d, hn::InterleaveLower(d64, p01, p23)),
                      hn::BitCast(d, hn::InterleaveUpper(d64, p01, p23)));
  const hn::Full128<float> d4;
  auto sums = sumBlocks(d, c);
  if (accumulate) sums = hn::Add(sums, hn::LoadU(d4, y));
  hn::StoreU(sums, d4, y);
#endif
}

// Four rows at a time: x is loaded once per vector of columns for four rows, and the four
// sums are independent chains. The last cols % lanes columns: a masked load where it cannot
// fault (AVX-512, SVE), else one by one (addTails).
void gemvHighway(const float* w, int64_t rows, int64_t cols, const float* x, float* y,
                 bool accumulate) {
  const D d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t full = cols - cols % lanes;
#if !HWY_MEM_OPS_MIGHT_FAULT
  const auto tail = hn::FirstN(d, static_cast<size_t>(cols - full));
#endif
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float* w0 = w + r * cols;
    const float* w1 = w0 + cols;
    const float* w2 = w1 + cols;
    const float* w3 = w2 + cols;
    V a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
    for (int64_t k = 0; k < full; k += lanes) {
      const V xv = hn::LoadU(d, x + k);
      a0 = hn::MulAdd(hn::LoadU(d, w0 + k), xv, a0);
      a1 = hn::MulAdd(hn::LoadU(d, w1 + k), xv, a1);
      a2 = hn::MulAdd(hn::LoadU(d, w2 + k), xv, a2);
      a3 = hn::MulAdd(hn::LoadU(d, w3 + k), xv, a3);
    }
#if HWY_MEM_OPS_MIGHT_FAULT
    storeRowSums(d, a0, a1, a2, a3, y + r, accumulate);
    if (full < cols) addTails(w0, 4, cols, full, x, y + r);
#else
    if (full < cols) {
      const V xv = hn::MaskedLoad(tail, d, x + full);
      a0 = hn::MulAdd(hn::MaskedLoad(tail, d, w0 + full), xv, a0);
      a1 = hn::MulAdd(hn::MaskedLoad(tail, d, w1 + full), xv, a1);
      a2 = hn::MulAdd(hn::MaskedLoad(tail, d, w2 + full), xv, a2);
      a3 = hn::MulAdd(hn::MaskedLoad(tail, d, w3 + full), xv, a3);
    }
    storeRowSums(d, a0, a1, a2, a3, y + r, accumulate);
#endif
  }
  for (; r < rows; ++r) {
    const float* w0 = w + r * cols;
    V a0 = hn::Zero(d);
    for (int64_t k = 0; k < full; k += lanes) {
      a0 = hn::MulAdd(hn::LoadU(d, w0 + k), hn::LoadU(d, x + k), a0);
    }
#if !HWY_MEM_OPS_MIGHT_FAULT
    if (full < cols) {
      a0 = hn::MulAdd(hn::MaskedLoad(tail, d, w0 + full), hn::MaskedLoad(tail, d, x + full), a0);
    }
#endif
    const float s = hn::GetLane(hn::SumOfLanes(d, a0));
    y[r] = accumulate ? y[r] + s : s;
#if HWY_MEM_OPS_MIGHT_FAULT
    if (full < cols) addTails(w0, 1, cols, full, x, y + r);
#endif
  }
}

// exp(x) for x <= 88 (Cephes expf): x = n ln2 + r with |r| <= ln2 / 2, a degree-7
// polynomial for exp(r), scaled by 2^n built in the exponent bits. Below -87.3 the result
// stays at the smallest normal float. Sigmoid and tanh pass -|v| only, so they leave out the
// upper clamp (kNonPositive).
template <bool kNonPositive>
HWY_INLINE V expVector(D d, V x) {
  const V low = hn::Set(d, -87.3f);
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  // x86's max and min return their second operand when either is NaN: in this order a NaN
  // stays NaN, one instruction per bound.
  x = hn::Max(low, x);
  if (!kNonPositive) x = hn::Min(hn::Set(d, 88.0f), x);
#else
  // Arm's max and min (and Highway's portable targets') return the number: comparisons
  // keep the NaN.
  x = hn::IfThenElse(hn::Lt(x, low), low, x);
  if (!kNonPositive) x = hn::IfThenElse(hn::Gt(x, hn::Set(d, 88.0f)), hn::Set(d, 88.0f), x);
#endif
  // n = round(x / ln2), to nearest even, by adding 1.5 * 2^23: the sum's low mantissa bits
  // hold n, which saves both a rounding and a conversion to int (|n| <= 127).
  const V magic = hn::Set(d, 12582912.0f);
  const V shifted = hn::MulAdd(x, hn::Set(d, 1.44269504088896341f), magic);
  const V n = hn::Sub(shifted, magic);
  V r = hn::NegMulAdd(n, hn::Set(d, 0.693359375f), x);
  r = hn::NegMulAdd(n, hn::Set(d, -2.12194440e-4f), r);
  V p = hn::Set(d, 1.9875691500e-4f);
  p = hn::MulAdd(p, r, hn::Set(d, 1.3981999507e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 8.3334519073e-3f));
  p = hn::MulAdd(p, r, hn::Set(d, 4.1665795894e-2f));
  p = hn::MulAdd(p, r, hn::Set(d, 1.6666665459e-1f));
  p = hn::MulAdd(p, r, hn::Set(d, 5.0000001201e-1f));
  p = hn::MulAdd(p, hn::Mul(r, r), hn::Add(r, hn::Set(d, 1.0f)));
  // The bits of `shifted` are those of 1.5 * 2^23 plus n: subtracting them and adding the
  // exponent bias leaves n + 127, the exponent of 2^n.
  const hn::RebindToSigned<D> di;
  const auto exponent = hn::Add(hn::BitCast(di, shifted), hn::Set(di, 127 - 0x4B400000));
  return hn::Mul(p, hn::BitCast(d, hn::ShiftLeft<23>(exponent)));
}

// Function objects rather than lambdas: a lambda does not inherit the target attributes
// HWY_BEFORE_NAMESPACE sets on clang.

// sigmoid(v) = 1 / (1 + e) for v >= 0 and e / (1 + e) below, e = exp(-|v|): no overflow,
// and full relative precision in both tails.
struct Sigmoid {
  HWY_INLINE V operator()(D d, V v) const {
    const V one = hn::Set(d, 1.0f);
    const V e = expVector<true>(d, hn::Or(v, hn::SignBit(d)));  // -|v|
    return hn::Div(hn::IfThenElse(hn::Lt(v, hn::Zero(d)), e, one), hn::Add(one, e));
  }
};

// tanh(v) = sign(v) (1 - e) / (1 + e), e = exp(-2|v|).
struct Tanh {
  HWY_INLINE V operator()(D d, V v) const {
    const V one = hn::Set(d, 1.0f);
    const V e = expVector<true>(d, hn::Mul(hn::Set(d, 2.0f), hn::Or(v, hn::SignBit(d))));
    return hn::CopySignToAbs(hn::Div(hn::Sub(one, e), hn::Add(one, e)), v);
  }
};

// Applies `f` to the last count < lanes values through a zero-padded buffer, so that no
// load or store reaches past the array on any target. Out of line, as addTails.
template <class F>
HWY_NOINLINE void transformTail(float* values, int64_t count, const F& f) {
  const D d;
  HWY_ALIGN float buffer[hn::MaxLanes(D())] = {};
  std::memcpy(buffer, values, static_cast<size_t>(count) * sizeof(float));
  hn::Store(f(d, hn::Load(d, buffer)), d, buffer);
  std::memcpy(values, buffer, static_cast<size_t>(count) * sizeof(float));
}

// Applies `f` in place.
template <class F>
HWY_INLINE void transform(float* values, int64_t n, const F& f) {
  const D d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(f(d, hn::LoadU(d, values + i)), d, values + i);
  if (i < n) transformTail(values + i, n - i, f);
}

void sigmoidHighway(float* values, int64_t n) {
  transform(values, n, Sigmoid());
}

void tanhHighway(float* values, int64_t n) {
  transform(values, n, Tanh());
}

// sum_i exp(values[i] - shift) over count < lanes values, as transformTail.
HWY_NOINLINE float sumExpTail(const float* values, int64_t count, float shift) {
  const D d;
  HWY_ALIGN float buffer[hn::MaxLanes(D())] = {};
  std::memcpy(buffer, values, static_cast<size_t>(count) * sizeof(float));
  const V e = expVector<false>(d, hn::Sub(hn::Load(d, buffer), hn::Set(d, shift)));
  const V used = hn::IfThenElseZero(hn::FirstN(d, static_cast<size_t>(count)), e);
  return hn::GetLane(hn::SumOfLanes(d, used));
}

float sumExpHighway(const float* values, int64_t n, float shift) {
  const D d;
  const auto lanes = static_cast<int64_t>(hn::Lanes(d));
  const V s = hn::Set(d, shift);
  // Two sums: GCC fuses exp's last product into the addition, and one chain of those
  // fused adds (4 cycles each) would bound a vocabulary-sized loop.
  V sum0 = hn::Zero(d), sum1 = hn::Zero(d);
  int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    sum0 = hn::Add(sum0, expVector<false>(d, hn::Sub(hn::LoadU(d, values + i), s)));
    sum1 = hn::Add(sum1, expVector<false>(d, hn::Sub(hn::LoadU(d, values + i + lanes), s)));
  }
  if (i + lanes <= n) {
    sum0 = hn::Add(sum0, expVector<false>(d, hn::Sub(hn::LoadU(d, values + i), s)));
    i += lanes;
  }
  const float total = hn::GetLane(hn::SumOfLanes(d, hn::Add(sum0, sum1)));
  return i < n ? total + sumExpTail(values + i, n - i, shift) : total;
}

// Products with a weight packed into panels (PackedWeights): a fused window multiplies B
// rows (32, say) by the same recurrent weights at each of its T steps, and a BLAS packs the
// weights again for every one of those products (a fifth of a window's time, perf). Packed
// once per window, each step runs this tile alone: R rows by two vectors of C held in 2R
// registers, one row of the panel per k, the rows of A broadcast. The panel slice of
// kPanelDepth rows stays in L1 while every row block of A passes over it.
constexpr int64_t kPanelDepth = 256;
constexpr int kTileRows =
    6;  // 12 accumulators, 2 panel vectors, 1 broadcast: 15 of 16 AVX2 registers

int64_t panelWidthHighway() {
  return 2 * static_cast<int64_t>(hn::Lanes(D()));
}

// C's tile of R rows and one panel's width (+)= a [R, kc] times the panel slice [kc, width].
// Named registers, not arrays: SVE's vectors cannot be array elements.
template <int R>
HWY_INLINE void panelTile(const float* HWY_RESTRICT a, int64_t lda, const float* HWY_RESTRICT p,
                          int64_t kc, float* HWY_RESTRICT c, int64_t ldc, bool load) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  [[maybe_unused]] V c00 = hn::Zero(d), c01 = hn::Zero(d), c10 = hn::Zero(d), c11 = hn::Zero(d),
                     c20 = hn::Zero(d), c21 = hn::Zero(d), c30 = hn::Zero(d), c31 = hn::Zero(d),
                     c40 = hn::Zero(d), c41 = hn::Zero(d), c50 = hn::Zero(d), c51 = hn::Zero(d);
#define MRNN_TILE_ROW(r, body) \
  if constexpr (R > r) {       \
    body(r, c##r##0, c##r##1)  \
  }
#define MRNN_TILE_ROWS(body) \
  MRNN_TILE_ROW(0, body)     \
  MRNN_TILE_ROW(1, body)     \
  MRNN_TILE_ROW(2, body)     \
  MRNN_TILE_ROW(3, body)     \
  MRNN_TILE_ROW(4, body)     \
  MRNN_TILE_ROW(5, body)
#define MRNN_TILE_LOAD(r, lo, hi) \
  lo = hn::LoadU(d, c + r * ldc); \
  hi = hn::LoadU(d, c + r * ldc + lanes);
#define MRNN_TILE_STEP(r, lo, hi)            \
  {                                          \
    const V x = hn::Set(d, a[r * lda + kk]); \
    lo = hn::MulAdd(x, w0, lo);              \
    hi = hn::MulAdd(x, w1, hi);              \
  }
#define MRNN_TILE_STORE(r, lo, hi) \
  hn::StoreU(lo, d, c + r * ldc);  \
  hn::StoreU(hi, d, c + r * ldc + lanes);
  if (load) {
    MRNN_TILE_ROWS(MRNN_TILE_LOAD)
  }
  for (int64_t kk = 0; kk < kc; ++kk) {
    const V w0 = hn::LoadU(d, p + kk * 2 * lanes);
    const V w1 = hn::LoadU(d, p + kk * 2 * lanes + lanes);
    MRNN_TILE_ROWS(MRNN_TILE_STEP)
  }
  MRNN_TILE_ROWS(MRNN_TILE_STORE)
#undef MRNN_TILE_STORE
#undef MRNN_TILE_STEP
#undef MRNN_TILE_LOAD
#undef MRNN_TILE_ROWS
#undef MRNN_TILE_ROW
}

void panelRows(int64_t rows, const float* a, int64_t lda, const float* p, int64_t kc, float* c,
               int64_t ldc, bool load) {
  switch (rows) {
    case 6:
      return panelTile<6>(a, lda, p, kc, c, ldc, load);
    case 5:
      return panelTile<5>(a, lda, p, kc, c, ldc, load);
    case 4:
      return panelTile<4>(a, lda, p, kc, c, ldc, load);
    case 3:
      return panelTile<3>(a, lda, p, kc, c, ldc, load);
    case 2:
      return panelTile<2>(a, lda, p, kc, c, ldc, load);
    default:
      return panelTile<1>(a, lda, p, kc, c, ldc, load);
  }
}

void panelProductHighway(const PanelProduct& product, int64_t fromPanel, int64_t toPanel) {
  const int64_t width = panelWidthHighway();
  const int64_t m = product.m, n = product.n, k = product.k;
  // The last panel's columns past n go through this buffer, the rest straight into C.
  HWY_ALIGN float edge[kTileRows * 2 * hn::MaxLanes(D())] = {};
  for (int64_t q = fromPanel; q < toPanel; ++q) {
    const int64_t column = q * width;
    const int64_t columns = std::min(width, n - column);
    const float* panel = product.panels + q * k * width;
    if (k == 0 && !product.accumulate) {
      for (int64_t r = 0; r < m; ++r)
        std::fill_n(product.c + r * product.ldc + column, columns, 0.0f);
    }
    for (int64_t k0 = 0; k0 < k; k0 += kPanelDepth) {
      const int64_t kc = std::min(kPanelDepth, k - k0);
      const bool load = product.accumulate || k0 > 0;
      for (int64_t r0 = 0; r0 < m; r0 += kTileRows) {
        const int64_t rows = std::min<int64_t>(kTileRows, m - r0);
        const float* a = product.a + r0 * product.lda + k0;
        float* c = product.c + r0 * product.ldc + column;
        if (columns == width) {
          panelRows(rows, a, product.lda, panel + k0 * width, kc, c, product.ldc, load);
          continue;
        }
        for (int64_t r = 0; r < rows && load; ++r) {
          std::copy_n(c + r * product.ldc, columns, edge + r * width);
        }
        panelRows(rows, a, product.lda, panel + k0 * width, kc, edge, width, load);
        for (int64_t r = 0; r < rows; ++r) {
          std::copy_n(edge + r * width, columns, c + r * product.ldc);
        }
      }
    }
  }
}

const HighwayKernelSet kSet{{gemvHighway, sigmoidHighway, tanhHighway, sumExpHighway,
                             panelWidthHighway, panelProductHighway},
                            HWY_TARGET};

}  // namespace

const HighwayKernelSet* targetKernels() {
  return &kSet;
}

}  // namespace HWY_NAMESPACE
}  // namespace mrnn::engine
HWY_AFTER_NAMESPACE();

#if HWY_ONCE

#include <algorithm>

namespace mrnn::engine {

// A table of targetKernels, one entry per compiled target; HWY_DYNAMIC_DISPATCH indexes
// it with the best target this CPU supports.
HWY_EXPORT(targetKernels);

const HighwayKernelSet& highwayKernels() {
  static const HighwayKernelSet& chosen = *HWY_DYNAMIC_DISPATCH(targetKernels)();
  return chosen;
}

std::vector<const HighwayKernelSet*> highwayTargetKernels() {
  // Every non-empty entry of the dispatch table, best target first (the first entry, which
  // chooses and then calls, returns the best target's set too: duplicates are dropped).
  const int64_t supported = hwy::SupportedTargets();
  std::vector<const HighwayKernelSet*> sets;
  for (const auto entry : HWY_DISPATCH_TABLE(targetKernels)) {
    if (entry == nullptr) continue;
    const HighwayKernelSet* set = entry();
    const bool seen = std::any_of(sets.begin(), sets.end(), [&](const HighwayKernelSet* s) {
      return s->target == set->target;
    });
    if (!seen && (supported & set->target) != 0) sets.push_back(set);
  }
  return sets;
}

const char* highwayTargetName(int64_t target) {
  return hwy::TargetName(target);
}

}  // namespace mrnn::engine

#endif  // HWY_ONCE
