#pragma once

// The element-wise steps of the CUDA fused windows, one struct each: its buffers, its
// count() of elements, and at(i), the arithmetic for element i. The CUDA kernels run at(i)
// for every i on the device (cuda_window_ops.cu); the tests run the very same at(i) in a
// host loop (tests/engine/cuda/host_window_ops.h), so the windows' arithmetic and indexing are
// checked on any machine, against the CPU fused windows. Plain C++ with no CUDA header:
// nvcc sees __host__ __device__ on every at(). Each mirrors the CPU row function of the same
// name (engine/models/fused_window_kernels.h). Row strides are in floats; B rows.

#include <cmath>
#include <cstdint>

#include "engine/cuda/bfloat16_bits.h"

#if defined(__CUDACC__)
#define MRNN_WINDOW_ELEMENT __host__ __device__ inline
#else
#define MRNN_WINDOW_ELEMENT inline
#endif

namespace mrnn::engine::cuda {

// Accurate expf/tanhf (no fast-math) on both sides: the windows are checked against the CPU
// float32 path.
MRNN_WINDOW_ELEMENT float sigmoidOf(float x) {
  return 1.0f / (1.0f + expf(-x));
}

// m[b] = a[b] * u[b] for B rows of n: the m-cells' multiplicative intermediate state.
struct MultiplyRows {
  const float* a;
  int64_t ldA;
  const float* u;
  int64_t ldU;
  float* m;
  int64_t ldM;
  int64_t B, n;
  int64_t count() const { return B * n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const {
    const int64_t b = i / n, k = i % n;
    m[b * ldM + k] = a[b * ldA + k] * u[b * ldU + k];
  }
};

// Its backward: given dm, dA = dm * u and dU = dm * a.
struct MultiplyRowsBackward {
  const float* dm;
  int64_t ldDm;
  const float* a;
  int64_t ldA;
  const float* u;
  int64_t ldU;
  float* dA;
  int64_t ldDA;
  float* dU;
  int64_t ldDU;
  int64_t B, n;
  int64_t count() const { return B * n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const {
    const int64_t b = i / n, k = i % n;
    const float g = dm[b * ldDm + k];
    dA[b * ldDA + k] = g * u[b * ldU + k];
    dU[b * ldDU + k] = g * a[b * ldA + k];
  }
};

// dst = src * mask over n floats, or a copy when mask is null; src may be dst.
struct MaskedCopy {
  const float* src;
  const float* mask;
  float* dst;
  int64_t n;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const {
    dst[i] = mask != nullptr ? src[i] * mask[i] : src[i];
  }
};

// dst += src * mask (or += src when mask is null): carries the gradient reaching the masked
// state on to the state itself.
struct MaskedAccumulate {
  const float* src;
  const float* mask;
  float* dst;
  int64_t n;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const {
    dst[i] += mask != nullptr ? src[i] * mask[i] : src[i];
  }
};

// dst = a + b over n floats, or a copy of a when b is null: a carried gradient plus the
// loss's own gradient of this step's output.
struct AddOrCopy {
  const float* a;
  const float* b;
  float* dst;
  int64_t n;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const { dst[i] = b != nullptr ? a[i] + b[i] : a[i]; }
};

// rows = act(rows + extra) on n columns of B rows, act the sigmoid or tanh: a block of gates
// whose recurrent product the window's sgemm wrote alone, the hoisted input projection
// (extra; null for none) joining as the kernel reads, which saves a copy per step.
struct ActivateRows {
  enum class Kind { Sigmoid, Tanh };
  float* rows;
  int64_t ld;
  const float* extra;
  int64_t ldExtra;
  int64_t B, n;
  Kind kind;
  int64_t count() const { return B * n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const {
    const int64_t b = i / n, k = i % n;
    float x = rows[b * ld + k];
    if (extra != nullptr) x += extra[b * ldExtra + k];
    rows[b * ld + k] = kind == Kind::Sigmoid ? sigmoidOf(x) : tanhf(x);
  }
};

// The backward of h = tanh(pre) for the plain and multiplicative RNNs: dPre = (dh + dOut) *
// (1 - h^2), dOut (the loss's own gradient of this step's output) may be null; h, dh and
// dOut [B, H], dPre stride ldD.
struct TanhRowsBackward {
  const float* h;
  const float* dh;
  const float* dOut;
  float* dPre;
  int64_t ldD;
  int64_t B, H;
  int64_t count() const { return B * H; }
  MRNN_WINDOW_ELEMENT void at(int64_t idx) const {
    const int64_t b = idx / H, k = idx % H;
    const float g = dOut != nullptr ? dh[idx] + dOut[idx] : dh[idx];
    dPre[b * ldD + k] = g * (1.0f - h[idx] * h[idx]);
  }
};

// The LSTM update (output gate outside), one thread per (row, unit) reading the unit's four
// gates: gates holds the pre-activations [i f o j] (stride ldGates), plus extra's rows when
// not null (stride ldExtra, 4H used), and is activated in place; c = f * cPrev + i * j,
// tanhC = tanh(c), h = o * tanhC ([B, H] each).
struct LstmRowsForward {
  float* gates;
  int64_t ldGates;
  const float* extra;
  int64_t ldExtra;
  const float* cPrev;
  float* c;
  float* tanhC;
  float* h;
  int64_t B, H;
  int64_t count() const { return B * H; }
  MRNN_WINDOW_ELEMENT void at(int64_t idx) const {
    const int64_t b = idx / H, k = idx % H;
    float* row = gates + b * ldGates;
    float pi = row[k], pf = row[H + k], po = row[2 * H + k], pj = row[3 * H + k];
    if (extra != nullptr) {
      const float* add = extra + b * ldExtra;
      pi += add[k];
      pf += add[H + k];
      po += add[2 * H + k];
      pj += add[3 * H + k];
    }
    const float i = sigmoidOf(pi), f = sigmoidOf(pf), o = sigmoidOf(po), j = tanhf(pj);
    row[k] = i;
    row[H + k] = f;
    row[2 * H + k] = o;
    row[3 * H + k] = j;
    const float cell = f * cPrev[idx] + i * j;
    const float tc = tanhf(cell);
    c[idx] = cell;
    tanhC[idx] = tc;
    h[idx] = o * tc;
  }
};

// Its backward for one step: the gradient reaching h is dh + dOut (dOut, the loss's own
// gradient of this step's output, may be null); dc: in, the gradient reaching c from step
// t+1, out, the gradient reaching cPrev. Writes dGates (stride ldD), the gradients of the
// pre-activations [i f o j].
struct LstmRowsBackward {
  const float* gates;
  int64_t ldGates;
  const float* cPrev;
  const float* tanhC;
  const float* dh;
  const float* dOut;
  float* dc;
  float* dGates;
  int64_t ldD;
  int64_t B, H;
  int64_t count() const { return B * H; }
  MRNN_WINDOW_ELEMENT void at(int64_t idx) const {
    const int64_t b = idx / H, k = idx % H;
    const float* row = gates + b * ldGates;
    float* drow = dGates + b * ldD;
    const float i = row[k], f = row[H + k], o = row[2 * H + k], j = row[3 * H + k];
    const float tc = tanhC[idx];
    const float g = dOut != nullptr ? dh[idx] + dOut[idx] : dh[idx];
    const float dcell = dc[idx] + g * o * (1.0f - tc * tc);
    drow[k] = dcell * j * i * (1.0f - i);
    drow[H + k] = dcell * cPrev[idx] * f * (1.0f - f);
    drow[2 * H + k] = g * tc * o * (1.0f - o);
    drow[3 * H + k] = dcell * i * (1.0f - j * j);
    dc[idx] = dcell * f;
  }
};

// The GRU update (Maupome & Meurs eq. 18): h = (1 - z) * hPrev + z * j, z and j activated
// (strides ldZ, ldJ), hPrev the carried, unmasked state; hPrev, h: [B, H].
struct GruRowsForward {
  const float* z;
  int64_t ldZ;
  const float* j;
  int64_t ldJ;
  const float* hPrev;
  float* h;
  int64_t B, H;
  int64_t count() const { return B * H; }
  MRNN_WINDOW_ELEMENT void at(int64_t idx) const {
    const int64_t b = idx / H, k = idx % H;
    const float zk = z[b * ldZ + k];
    h[idx] = (1.0f - zk) * hPrev[idx] + zk * j[b * ldJ + k];
  }
};

// Its backward for one step: dh, the gradient reaching h (summed over its uses), gives the
// gradients of z's and j's pre-activations (strides ldDz, ldDj) and dhPrev = dh * (1 - z),
// the gradient reaching hPrev through the update alone; dhPrev may be dh.
struct GruRowsBackward {
  const float* z;
  int64_t ldZ;
  const float* j;
  int64_t ldJ;
  const float* hPrev;
  const float* dh;
  float* dZ;
  int64_t ldDz;
  float* dJ;
  int64_t ldDj;
  float* dhPrev;
  int64_t B, H;
  int64_t count() const { return B * H; }
  MRNN_WINDOW_ELEMENT void at(int64_t idx) const {
    const int64_t b = idx / H, k = idx % H;
    const float zk = z[b * ldZ + k], jk = j[b * ldJ + k], g = dh[idx];
    dZ[b * ldDz + k] = g * (jk - hPrev[idx]) * zk * (1.0f - zk);
    dJ[b * ldDj + k] = g * zk * (1.0f - jk * jk);
    dhPrev[idx] = g * (1.0f - zk);
  }
};

// The GRU reset product: out = r * a, r activated (stride ldR), a and out [B, n].
struct ResetRowsForward {
  const float* r;
  int64_t ldR;
  const float* a;
  float* out;
  int64_t B, n;
  int64_t count() const { return B * n; }
  MRNN_WINDOW_ELEMENT void at(int64_t idx) const {
    const int64_t b = idx / n, k = idx % n;
    out[idx] = r[b * ldR + k] * a[idx];
  }
};

// Its backward: given dOut, the gradient reaching r * a, the gradient of r's pre-activation
// dR = dOut * a * r (1 - r) (stride ldDr) and dA = dOut * r; dA may be dOut.
struct ResetRowsBackward {
  const float* r;
  int64_t ldR;
  const float* a;
  const float* dOut;
  float* dR;
  int64_t ldDr;
  float* dA;
  int64_t B, n;
  int64_t count() const { return B * n; }
  MRNN_WINDOW_ELEMENT void at(int64_t idx) const {
    const int64_t b = idx / n, k = idx % n;
    const float rk = r[b * ldR + k], g = dOut[idx];
    dR[b * ldDr + k] = g * a[idx] * rk * (1.0f - rk);
    dA[idx] = g * rk;
  }
};

// dst = value over n floats.
struct Fill {
  float* dst;
  int64_t n;
  float value;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const { dst[i] = value; }
};

// out[k] = the sum of column k over R rows of stride ld, for n columns: a bias's gradient
// over all T x B rows of the window. One thread per column, so consecutive threads read
// consecutive floats of each row.
struct ColumnSums {
  const float* rows;
  int64_t ld;
  int64_t R;
  float* out;
  int64_t n;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t k) const {
    float sum = 0.0f;
    for (int64_t r = 0; r < R; ++r) sum += rows[r * ld + k];
    out[k] = sum;
  }
};

// A Mogrifier round (Melis et al. 2019 eq. 1) over n contiguous floats: s holds the round's
// product Q^i h or R^i x and becomes its sigmoid; out = 2 s * prev, prev the round's x^{i-2}
// or h^{i-2}.
struct MogrifyRows {
  const float* prev;
  float* s;
  float* out;
  int64_t n;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t k) const {
    const float sig = sigmoidOf(s[k]);
    s[k] = sig;
    out[k] = 2.0f * sig * prev[k];
  }
};

// Its backward: dCur, in: the gradient of the round's result; out: that of prev. dPre: the
// gradient of the round's product.
struct MogrifyRowsBackward {
  const float* sig;
  const float* prev;
  float* dCur;
  float* dPre;
  int64_t n;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t k) const {
    const float g = 2.0f * dCur[k];
    dPre[k] = g * prev[k] * sig[k] * (1.0f - sig[k]);
    dCur[k] = g * sig[k];
  }
};

// dst = src rounded to bfloat16, n values: a product's operand at bfloat16 (window_ops.h).
struct RoundToBfloat16 {
  const float* src;
  Bfloat16Bits* dst;
  int64_t n;
  int64_t count() const { return n; }
  MRNN_WINDOW_ELEMENT void at(int64_t i) const { dst[i] = bfloat16Of(src[i]); }
};

}  // namespace mrnn::engine::cuda
