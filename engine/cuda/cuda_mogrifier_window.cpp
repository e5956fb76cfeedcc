#include "engine/cuda/cuda_mogrifier_window.h"

#include <stdexcept>

namespace mrnn::engine::cuda {

namespace {

constexpr const char* kProduct = "Mogrifier window product";
using Layout = MogrifierWindowLayout;

// pre [B, rows] = src [B, cols] M^T; low rank through z [B, k] = src right^T, kept for the
// left factor's gradient.
void roundForward(const Layout& w, const MogrifierWindowWeights& weights, int64_t i,
                  const float* src, float* z, float* pre, WindowOps& ops) {
  const int64_t rows = w.rows(i), cols = w.cols(i), k = w.rank;
  if (k == 0) {
    ops.gemm(rowMajorGemm(false, true, w.B, rows, cols, src, cols, weights.full[i - 1], cols, false,
                          pre, rows, kProduct));
    return;
  }
  ops.gemm(rowMajorGemm(false, true, w.B, k, cols, src, cols, weights.right[i - 1], cols, false, z,
                        k, kProduct));
  ops.gemm(rowMajorGemm(false, true, w.B, rows, k, z, k, weights.left[i - 1], k, false, pre, rows,
                        kProduct));
}

// dSrc [B, cols] += dPre [B, rows] M; low rank through dz = dPre left, kept for the right
// factor's gradient.
void roundBackward(const Layout& w, const MogrifierWindowWeights& weights, int64_t i,
                   const float* dPre, float* dz, float* dSrc, WindowOps& ops) {
  const int64_t rows = w.rows(i), cols = w.cols(i), k = w.rank;
  if (k == 0) {
    ops.gemm(rowMajorGemm(false, false, w.B, cols, rows, dPre, rows, weights.full[i - 1], cols,
                          true, dSrc, cols, kProduct));
    return;
  }
  ops.gemm(rowMajorGemm(false, false, w.B, k, rows, dPre, rows, weights.left[i - 1], k, false, dz,
                        k, kProduct));
  ops.gemm(rowMajorGemm(false, false, w.B, cols, k, dz, k, weights.right[i - 1], cols, true, dSrc,
                        cols, kProduct));
}

void requireSteps(const Layout& w) {
  if (w.T <= 0) throw std::runtime_error("Mogrifier window: no steps");
}

// Every matrix the products read from the weights (not the bias, which no product reads).
void holdWeights(const Layout& w, const MogrifierWindowWeights& weights, WindowOps& ops) {
  ops.holdFixed(weights.wX, 4 * w.H * w.I);
  ops.holdFixed(weights.wH, 4 * w.H * w.H);
  for (int64_t i = 1; i <= w.rounds; ++i) {
    if (w.rank == 0) {
      ops.holdFixed(weights.full[i - 1], w.rows(i) * w.cols(i));
    } else {
      ops.holdFixed(weights.left[i - 1], w.rows(i) * w.rank);
      ops.holdFixed(weights.right[i - 1], w.rank * w.cols(i));
    }
  }
}

}  // namespace

void mogrifierWindowForward(const Layout& w, const MogrifierWindowWeights& weights,
                            const MogrifierWindowForwardBuffers& buf, WindowOps& ops) {
  requireSteps(w);
  holdWeights(w, weights, ops);
  const int64_t B = w.B, I = w.I, H = w.H, G = 4 * H;
  ops.copy(buf.c, buf.c0, B * H);
  const float* hPrev = buf.h0;
  for (int64_t t = 0; t < w.T; ++t) {
    const float* x0 = buf.x + t * B * I;
    float* hin = w.at(buf.hR, 0, t, H);
    ops.run(MaskedCopy{hPrev, buf.mask, hin, B * H});
    const float* xCur = x0;  // the latest x^i and h^i
    const float* hCur = hin;
    for (int64_t i = 1; i <= w.rounds; ++i) {
      const bool odd = Layout::odd(i);
      const float* src = odd ? (w.zigzag ? hCur : hin) : (w.zigzag ? xCur : x0);
      float* s = odd ? w.at(buf.sX, Layout::slot(i), t, I) : w.at(buf.sH, Layout::slot(i), t, H);
      roundForward(w, weights, i, src, w.rank > 0 ? w.at(buf.z, i - 1, t, w.rank) : nullptr, s,
                   ops);
      float* out = odd ? w.at(buf.xR, Layout::slot(i), t, I) : w.at(buf.hR, i / 2, t, H);
      ops.run(MogrifyRows{odd ? xCur : hCur, s, out, B * w.rows(i)});
      (odd ? xCur : hCur) = out;
    }
    // gates = x W_x^T + h W_h^T; the LSTM step adds the bias (row stride 0: every row) as it
    // reads.
    float* gT = buf.gates + t * B * G;
    ops.gemm(rowMajorGemm(false, true, B, G, I, xCur, I, weights.wX, I, false, gT, G, kProduct));
    ops.gemm(rowMajorGemm(false, true, B, G, H, hCur, H, weights.wH, H, true, gT, G, kProduct));
    float* h = buf.hs + t * B * H;
    ops.run(LstmRowsForward{gT, G, weights.b, 0, buf.c + t * B * H, buf.c + (t + 1) * B * H,
                            buf.tanhC + t * B * H, h, B, H});
    hPrev = h;
  }
}

void mogrifierWindowBackward(const Layout& w, const MogrifierWindowWeights& weights,
                             const MogrifierWindowBackwardBuffers& buf, WindowOps& ops) {
  requireSteps(w);
  holdWeights(w, weights, ops);
  const int64_t T = w.T, B = w.B, I = w.I, H = w.H, G = 4 * H, K = w.rank;
  const bool separateSources = !w.zigzag && w.rounds > 0;
  for (int64_t t = T - 1; t >= 0; --t) {
    const float* dOut = buf.dHs ? buf.dHs + t * B * H : nullptr;
    float* dGT = buf.dG + t * B * G;
    ops.run(LstmRowsBackward{buf.gates + t * B * G, G, buf.c + t * B * H, buf.tanhC + t * B * H,
                             buf.dh, dOut, buf.dc, dGT, G, B, H});
    float* dX = buf.dX + t * B * I;  // the gradient of the latest x^i, built in place
    ops.gemm(rowMajorGemm(false, false, B, I, G, dGT, G, weights.wX, I, false, dX, I,
                          kProduct));  // dG W_x
    ops.gemm(rowMajorGemm(false, false, B, H, G, dGT, G, weights.wH, H, false, buf.dHCur, H,
                          kProduct));  // dG W_h
    if (separateSources) {
      ops.run(Fill{buf.dSrcX, B * I, 0.0f});
      ops.run(Fill{buf.dSrcH, B * H, 0.0f});
    }
    // The rounds last to first: round i's result is read only by later rounds and the LSTM,
    // so its gradient is complete when round i comes.
    const float* x0 = buf.x + t * B * I;
    for (int64_t i = w.rounds; i >= 1; --i) {
      const bool odd = Layout::odd(i);
      const int64_t s = Layout::slot(i);
      const float* sig = odd ? w.at(buf.sX, s, t, I) : w.at(buf.sH, s, t, H);
      const float* prev = odd ? (i > 1 ? w.at(buf.xR, s - 1, t, I) : x0)  // x^{i-2}
                              : w.at(buf.hR, i / 2 - 1, t, H);            // h^{i-2}
      float* dCur = odd ? dX : buf.dHCur;  // in: d(x^i) or d(h^i); out: d(x^{i-2}), d(h^{i-2})
      float* dPre = odd ? w.at(buf.dPreX, s, t, I) : w.at(buf.dPreH, s, t, H);
      ops.run(MogrifyRowsBackward{sig, prev, dCur, dPre, B * w.rows(i)});
      // The source's gradient: h^{i-1} or x^{i-1} is the other chain's current element.
      float* dSrc = odd ? (w.zigzag ? buf.dHCur : buf.dSrcH) : (w.zigzag ? dX : buf.dSrcX);
      roundBackward(w, weights, i, dPre, K > 0 ? w.at(buf.dZ, i - 1, t, K) : nullptr, dSrc, ops);
    }
    if (separateSources) {
      ops.run(MaskedAccumulate{buf.dSrcX, nullptr, dX, B * I});
      ops.run(MaskedAccumulate{buf.dSrcH, nullptr, buf.dHCur, B * H});
    }
    ops.run(MaskedCopy{buf.dHCur, buf.mask, buf.dh, B * H});  // h_in = mask * h_{t-1}
  }

  // The weights' gradients: one product over all T x B rows each.
  const int64_t TB = T * B;
  const float* xFin = w.rounds >= 1 ? w.at(buf.xR, w.oddRounds() - 1, 0, I) : buf.x;
  const float* hFin = w.at(buf.hR, w.evenRounds(), 0, H);
  ops.gemm(rowMajorGemm(true, false, G, I, TB, buf.dG, G, xFin, I, false, buf.dWx, I, kProduct));
  ops.run(ColumnSums{buf.dG, G, TB, buf.db, G});
  ops.gemm(rowMajorGemm(true, false, G, H, TB, buf.dG, G, hFin, H, false, buf.dWh, H, kProduct));
  for (int64_t i = 1; i <= w.rounds; ++i) {
    const bool odd = Layout::odd(i);
    const int64_t s = Layout::slot(i), rows = w.rows(i), cols = w.cols(i);
    const float* src = odd ? w.at(buf.hR, w.zigzag ? (i - 1) / 2 : 0, 0, H)
                           : (w.zigzag ? w.at(buf.xR, (i - 2) / 2, 0, I) : buf.x);
    const float* dPre = odd ? w.at(buf.dPreX, s, 0, I) : w.at(buf.dPreH, s, 0, H);
    if (K == 0) {
      ops.gemm(rowMajorGemm(true, false, rows, cols, TB, dPre, rows, src, cols, false,
                            buf.dFull[i - 1], cols, kProduct));
    } else {
      ops.gemm(rowMajorGemm(true, false, rows, K, TB, dPre, rows, w.at(buf.z, i - 1, 0, K), K,
                            false, buf.dLeft[i - 1], K, kProduct));
      ops.gemm(rowMajorGemm(true, false, K, cols, TB, w.at(buf.dZ, i - 1, 0, K), K, src, cols,
                            false, buf.dRight[i - 1], cols, kProduct));
    }
  }
}

}  // namespace mrnn::engine::cuda
