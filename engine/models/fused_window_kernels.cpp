#include "engine/models/fused_window_kernels.h"

#include <torch/torch.h>

#include <algorithm>

#include "engine/kernels/packed_weights.h"
#include "engine/kernels/parallel_rows.h"
#include "engine/kernels/vector_kernels.h"

namespace mrnn::engine {

namespace {

// The rows of an element-wise pass, in blocks over LibTorch's threads when it is large enough
// (parallelRows): between a window's products the other threads would otherwise wait.
template <class Row>
void eachRow(int64_t B, int64_t floatsPerRow, const Row& row) {
  parallelRows(B, floatsPerRow, at::get_num_threads(), [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) row(b);
  });
}

}  // namespace

void fusedProducts(const PackedProduct* products, std::size_t count) {
  if (runPackedProducts(products, count, at::get_num_threads())) return;
  // No CBLAS in this process (LibTorch with MKL linked in statically, say): LibTorch's views.
  for (std::size_t i = 0; i < count; ++i) {
    const auto& p = products[i];
    const SgemmCall call = p.weights->call(p.m, p.a, p.lda, p.accumulate, p.c, p.ldc);
    auto* mutableB = const_cast<float*>(call.b);
    const auto A = torch::from_blob(const_cast<float*>(call.a), {call.m, call.k}, {call.lda, 1});
    const auto Bop = call.transposeB
                         ? torch::from_blob(mutableB, {call.n, call.k}, {call.ldb, 1}).t()
                         : torch::from_blob(mutableB, {call.k, call.n}, {call.ldb, 1});
    auto C = torch::from_blob(call.c, {call.m, call.n}, {call.ldc, 1});
    if (p.accumulate) {
      C.addmm_(A, Bop);
    } else {
      at::mm_out(C, A, Bop);
    }
  }
}

void fusedProduct(const PackedWeights& w, int64_t m, const float* a, int64_t lda, bool accumulate,
                  float* out, int64_t ldc) {
  const PackedProduct product{&w, m, a, lda, accumulate, out, ldc};
  fusedProducts(&product, 1);
}

void multiplyRows(const float* a, int64_t ldA, const float* u, int64_t ldU, float* m, int64_t ldM,
                  int64_t B, int64_t n) {
  eachRow(B, n, [&](int64_t b) {
    const float* aRow = a + b * ldA;
    const float* uRow = u + b * ldU;
    float* mRow = m + b * ldM;
    for (int64_t k = 0; k < n; ++k) mRow[k] = aRow[k] * uRow[k];
  });
}

void multiplyRowsBackward(const float* dm, int64_t ldDm, const float* a, int64_t ldA,
                          const float* u, int64_t ldU, float* dA, int64_t ldDA, float* dU,
                          int64_t ldDU, int64_t B, int64_t n) {
  eachRow(B, 2 * n, [&](int64_t b) {
    const float* dmRow = dm + b * ldDm;
    const float* aRow = a + b * ldA;
    const float* uRow = u + b * ldU;
    float* dARow = dA + b * ldDA;
    float* dURow = dU + b * ldDU;
    for (int64_t k = 0; k < n; ++k) {
      dARow[k] = dmRow[k] * uRow[k];
      dURow[k] = dmRow[k] * aRow[k];
    }
  });
}

void copyRows(const float* src, int64_t ldSrc, float* dst, int64_t ldDst, int64_t B, int64_t n) {
  eachRow(B, n,
          [&](int64_t b) { std::copy(src + b * ldSrc, src + b * ldSrc + n, dst + b * ldDst); });
}

void sigmoidRows(float* rows, int64_t ld, int64_t B, int64_t n) {
  eachRow(B, 4 * n, [&](int64_t b) { sigmoidInPlace(rows + b * ld, n); });
}

void tanhRows(float* rows, int64_t ld, int64_t B, int64_t n) {
  eachRow(B, 4 * n, [&](int64_t b) { tanhInPlace(rows + b * ld, n); });
}

void maskedCopy(const float* src, const float* mask, float* dst, int64_t n) {
  if (mask == nullptr) {
    std::copy(src, src + n, dst);
    return;
  }
  for (int64_t k = 0; k < n; ++k) dst[k] = src[k] * mask[k];
}

void addOrCopy(const float* a, const float* b, float* dst, int64_t n) {
  if (b == nullptr) {
    std::copy(a, a + n, dst);
    return;
  }
  for (int64_t k = 0; k < n; ++k) dst[k] = a[k] + b[k];
}

void lstmRowsForward(float* gates, int64_t ldGates, const float* cPrev, float* c, float* tanhC,
                     float* h, int64_t B, int64_t H, int64_t ldState) {
  // The activations, the cell update, tanh(c) and h in one pass per row, with the
  // vectorised kernels (engine/kernels): no LibTorch op, no intermediate tensor.
  eachRow(B, 8 * H, [&](int64_t b) {
    float* row = gates + b * ldGates;
    sigmoidInPlace(row, 3 * H);
    tanhInPlace(row + 3 * H, H);
    const int64_t at = b * ldState;
    for (int64_t k = 0; k < H; ++k) {
      c[at + k] = row[H + k] * cPrev[at + k] + row[k] * row[3 * H + k];
      tanhC[at + k] = c[at + k];
    }
    tanhInPlace(tanhC + at, H);
    for (int64_t k = 0; k < H; ++k) h[at + k] = row[2 * H + k] * tanhC[at + k];
  });
}

void lstmRowsBackward(const float* gates, int64_t ldGates, const float* cPrev, const float* tanhC,
                      const float* dh, float* dc, float* dGates, int64_t ldD, int64_t B, int64_t H,
                      int64_t ldState) {
  eachRow(B, 4 * H, [&](int64_t b) {
    const float* row = gates + b * ldGates;
    float* drow = dGates + b * ldD;
    for (int64_t k = 0; k < H; ++k) {
      const int64_t at = b * ldState + k;
      const float i = row[k], f = row[H + k], o = row[2 * H + k], j = row[3 * H + k];
      const float tc = tanhC[at];
      const float dcell = dc[at] + dh[at] * o * (1.0f - tc * tc);
      drow[k] = dcell * j * i * (1.0f - i);
      drow[H + k] = dcell * cPrev[at] * f * (1.0f - f);
      drow[2 * H + k] = dh[at] * tc * o * (1.0f - o);
      drow[3 * H + k] = dcell * i * (1.0f - j * j);
      dc[at] = dcell * f;
    }
  });
}

void gruRowsForward(const float* z, int64_t ldZ, const float* j, int64_t ldJ, const float* hPrev,
                    float* h, int64_t B, int64_t H) {
  eachRow(B, H, [&](int64_t b) {
    const float* zRow = z + b * ldZ;
    const float* jRow = j + b * ldJ;
    const int64_t at = b * H;
    for (int64_t k = 0; k < H; ++k) {
      h[at + k] = (1.0f - zRow[k]) * hPrev[at + k] + zRow[k] * jRow[k];
    }
  });
}

void gruRowsBackward(const float* z, int64_t ldZ, const float* j, int64_t ldJ, const float* hPrev,
                     const float* dh, float* dZ, int64_t ldDz, float* dJ, int64_t ldDj,
                     float* dhPrev, int64_t B, int64_t H) {
  eachRow(B, 2 * H, [&](int64_t b) {
    const float* zRow = z + b * ldZ;
    const float* jRow = j + b * ldJ;
    float* dzRow = dZ + b * ldDz;
    float* djRow = dJ + b * ldDj;
    for (int64_t k = 0; k < H; ++k) {
      const int64_t at = b * H + k;
      const float zk = zRow[k], jk = jRow[k], g = dh[at];
      dzRow[k] = g * (jk - hPrev[at]) * zk * (1.0f - zk);
      djRow[k] = g * zk * (1.0f - jk * jk);
      dhPrev[at] = g * (1.0f - zk);
    }
  });
}

void resetRowsForward(const float* r, int64_t ldR, const float* a, float* out, int64_t B,
                      int64_t n) {
  eachRow(B, n, [&](int64_t b) {
    const float* rRow = r + b * ldR;
    for (int64_t k = 0; k < n; ++k) out[b * n + k] = rRow[k] * a[b * n + k];
  });
}

void resetRowsBackward(const float* r, int64_t ldR, const float* a, const float* dOut, float* dR,
                       int64_t ldDr, float* dA, int64_t B, int64_t n) {
  eachRow(B, 2 * n, [&](int64_t b) {
    const float* rRow = r + b * ldR;
    float* drRow = dR + b * ldDr;
    for (int64_t k = 0; k < n; ++k) {
      const int64_t at = b * n + k;
      const float rk = rRow[k], g = dOut[at];
      drRow[k] = g * a[at] * rk * (1.0f - rk);
      dA[at] = g * rk;
    }
  });
}

void maskedAccumulate(const float* src, const float* mask, float* dst, int64_t n) {
  if (mask == nullptr) {
    for (int64_t k = 0; k < n; ++k) dst[k] += src[k];
    return;
  }
  for (int64_t k = 0; k < n; ++k) dst[k] += src[k] * mask[k];
}

}  // namespace mrnn::engine
