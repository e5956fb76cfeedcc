#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/kernels/packed_weights.h"

namespace mrnn::engine {

// The pieces every fused window (fused_*_window.cpp) is built from: raw-pointer products and
// the element-wise rows of the LSTM and GRU updates, forward and backward. A fused window
// runs a cell's whole BPTT window as one autograd node: per step only these calls, no tensor
// and no graph node, and the recurrent weights' gradients as one large product at the end.

// out [m, n] = a [m, k] op(W) (+ out when accumulate) for a weight packed once for the
// window (PackedWeights: op(W) is W^T or W, [k, n]), row-major with leading dimensions:
// through the packed panels, else through CBLAS on raw pointers, else through LibTorch on
// views. C's columns are split over LibTorch's threads.
void fusedProduct(const PackedWeights& w, int64_t m, const float* a, int64_t lda, bool accumulate,
                  float* out, int64_t ldc);

// Independent products (none reads what another writes) split over the threads together: the
// true cells' per-gate products, which one by one are each too narrow to keep two threads
// busy.
void fusedProducts(const PackedProduct* products, std::size_t count);

// The multiplicative intermediate state of the m-cells, m = (W_mx x) * (W_mh h), for B rows of
// n: m[b] = a[b] * u[b], each with its own row stride (a is a column block of the projected
// inputs, u the recurrent product).
void multiplyRows(const float* a, int64_t ldA, const float* u, int64_t ldU, float* m, int64_t ldM,
                  int64_t B, int64_t n);

// Its backward: given dm, writes dA = dm * u and dU = dm * a.
void multiplyRowsBackward(const float* dm, int64_t ldDm, const float* a, int64_t ldA,
                          const float* u, int64_t ldU, float* dA, int64_t ldDA, float* dU,
                          int64_t ldDU, int64_t B, int64_t n);

// B rows of n floats from src (row stride ldSrc; 0 repeats one row, a bias) to dst (row
// stride ldDst).
void copyRows(const float* src, int64_t ldSrc, float* dst, int64_t ldDst, int64_t B, int64_t n);

// sigmoid / tanh in place on n floats of each of B rows (row stride ld): one gate block of
// the gate rows.
void sigmoidRows(float* rows, int64_t ld, int64_t B, int64_t n);
void tanhRows(float* rows, int64_t ld, int64_t B, int64_t n);

// dst[k] = src[k] * mask[k] for k < n, or a copy when mask is null.
void maskedCopy(const float* src, const float* mask, float* dst, int64_t n);

// The LSTM update (output gate outside) for B rows: gates holds the pre-activations
// [i f o j] (row stride ldGates, 4H used) and is activated in place; then
// c = f * cPrev + i * j, tanhC = tanh(c), h = o * tanhC. cPrev, c, tanhC, h: B rows of H
// (row stride ldState: H, or wider for one block of LSTMs side by side).
void lstmRowsForward(float* gates, int64_t ldGates, const float* cPrev, float* c, float* tanhC,
                     float* h, int64_t B, int64_t H, int64_t ldState);

// Its backward for one step. dh: the gradient reaching h (already summed over its uses);
// dc: in, the gradient reaching c from step t+1, out, the gradient reaching cPrev.
// dGates (row stride ldD): the gradients of the pre-activations [i f o j]. cPrev, tanhC, dh,
// dc: row stride ldState.
void lstmRowsBackward(const float* gates, int64_t ldGates, const float* cPrev, const float* tanhC,
                      const float* dh, float* dc, float* dGates, int64_t ldD, int64_t B, int64_t H,
                      int64_t ldState);

// dst[k] = a[k] + b[k] where b may be null (then a copy): sums a carried gradient with the
// gradient of an output the loss read directly.
void addOrCopy(const float* a, const float* b, float* dst, int64_t n);

// The GRU update (Maupome & Meurs eq. 18) for B rows: h = (1 - z) * hPrev + z * j, with z
// and j activated (row strides ldZ, ldJ) and hPrev the carried, unmasked state. hPrev, h:
// [B, H].
void gruRowsForward(const float* z, int64_t ldZ, const float* j, int64_t ldJ, const float* hPrev,
                    float* h, int64_t B, int64_t H);

// Its backward for one step. dh: the gradient reaching h (already summed over its uses).
// Writes the gradients of z's and j's pre-activations (row strides ldDz, ldDj) and
// dhPrev = dh * (1 - z), the gradient reaching hPrev through the update alone; dhPrev may be
// dh.
void gruRowsBackward(const float* z, int64_t ldZ, const float* j, int64_t ldJ, const float* hPrev,
                     const float* dh, float* dZ, int64_t ldDz, float* dJ, int64_t ldDj,
                     float* dhPrev, int64_t B, int64_t H);

// The GRU reset product for B rows: out = r * a, with r activated (row stride ldR) and
// a, out: [B, n].
void resetRowsForward(const float* r, int64_t ldR, const float* a, float* out, int64_t B,
                      int64_t n);

// Its backward: given dOut, the gradient reaching r * a, writes the gradient of r's
// pre-activation dR = dOut * a * r (1 - r) (row stride ldDr) and dA = dOut * r; dA may be dOut.
void resetRowsBackward(const float* r, int64_t ldR, const float* a, const float* dOut, float* dR,
                       int64_t ldDr, float* dA, int64_t B, int64_t n);

// dst[k] += src[k] * mask[k] for k < n, or dst[k] += src[k] when mask is null: carries the
// gradient reaching the masked state on to the state itself.
void maskedAccumulate(const float* src, const float* mask, float* dst, int64_t n);

}  // namespace mrnn::engine
