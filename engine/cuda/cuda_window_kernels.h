#pragma once

// The element-wise pieces of the CUDA fused windows (cuda_mlstm_window.h), one kernel launch
// each, on device pointers and the caller's stream; no host synchronisation. Each mirrors the
// CPU row function of the same name in engine/models/fused_window_kernels.h, so the two
// paths can be tested against each other row by row. Row strides are in floats.

#include <cstdint>

#include "engine/cuda/cuda_handles.h"

namespace mrnn::engine::cuda {

// m[b] = a[b] * u[b] for B rows of n: the m-cells' multiplicative intermediate state.
void multiplyRows(const float* a, int64_t ldA, const float* u, int64_t ldU, float* m, int64_t ldM,
                  int64_t B, int64_t n, Stream stream);

// Its backward: given dm, writes dA = dm * u and dU = dm * a.
void multiplyRowsBackward(const float* dm, int64_t ldDm, const float* a, int64_t ldA,
                          const float* u, int64_t ldU, float* dA, int64_t ldDA, float* dU,
                          int64_t ldDU, int64_t B, int64_t n, Stream stream);

// dst[k] = src[k] * mask[k] for k < n (src may be dst), or a copy when mask is null.
void maskedCopy(const float* src, const float* mask, float* dst, int64_t n, Stream stream);

// The LSTM update (output gate outside) for B rows, as the CPU lstmRowsForward: gates holds
// the pre-activations [i f o j] (row stride ldGates) and is activated in place;
// c = f * cPrev + i * j, tanhC = tanh(c), h = o * tanhC ([B, H] each). When extra is not
// null, its rows (stride ldExtra, 4H used) are added to the pre-activations first: the
// window's sgemm writes W_m m alone and the hoisted W_x x + b joins here, saving a copy per
// step.
void lstmRowsForward(float* gates, int64_t ldGates, const float* extra, int64_t ldExtra,
                     const float* cPrev, float* c, float* tanhC, float* h, int64_t B, int64_t H,
                     Stream stream);

// Its backward for one step, as the CPU addOrCopy + lstmRowsBackward: the gradient reaching h
// is dh + dOut (dOut, the loss's own gradient of this step's output, may be null); dc: in,
// the gradient reaching c from step t+1, out, the gradient reaching cPrev. Writes dGates
// (row stride ldD), the gradients of the pre-activations [i f o j].
void lstmRowsBackward(const float* gates, int64_t ldGates, const float* cPrev, const float* tanhC,
                      const float* dh, const float* dOut, float* dc, float* dGates, int64_t ldD,
                      int64_t B, int64_t H, Stream stream);

}  // namespace mrnn::engine::cuda
