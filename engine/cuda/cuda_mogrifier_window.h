#pragma once

// The Mogrifier LSTM's fused window (engine/models/fused_mogrifier_window.cpp, output gate
// outside) for a GPU. Nothing is hoisted (x is modulated by h_{t-1} before W_x), so per step
// it runs each round's product (two with low-rank rounds) and one element-wise step, then the
// W_x and W_h products and the LSTM update; backward the same in reverse, and every weight's
// gradient (W_x, b, W_h, each round's matrices) as one product over all T x B rows at the
// end. The buffers follow MogrifierWindowLayout (engine/windows/mogrifier_window_layout.h).
// Raw float32 device pointers, row-major, contiguous; enqueued on ops (window_ops.h);
// failures throw.

#include <vector>

#include "engine/cuda/window_ops.h"
#include "engine/windows/mogrifier_window_layout.h"

namespace mrnn::engine::cuda {

// G = 4H below: the gates i f o j.
// The round matrices (full, or left and right) come with the rest.
struct MogrifierWindowWeights : MogrifierRoundMatrices {
  const float* wX = nullptr;  // [G, I]
  const float* b = nullptr;   // [G]
  const float* wH = nullptr;  // [G, H]
};

struct MogrifierWindowForwardBuffers {
  const float* x = nullptr;     // [T, B, I]
  const float* h0 = nullptr;    // [B, H]
  const float* c0 = nullptr;    // [B, H]
  const float* mask = nullptr;  // [B, H] variational mask on h_{t-1}, or null
  float* xR = nullptr;          // out [oddRounds, T, B, I]: x^1, x^3, ...
  float* hR = nullptr;          // out [evenRounds + 1, T, B, H]: h_in, h^2, h^4, ...
  float* sX = nullptr;          // out [oddRounds, T, B, I]: sigmoid(Q^i src)
  float* sH = nullptr;          // out [evenRounds, T, B, H]: sigmoid(R^i src)
  float* z = nullptr;           // out [rounds, T, B, rank]: src right^T (low rank; else null)
  float* gates = nullptr;       // out [T, B, G]: i f o j, activated
  float* c = nullptr;           // out [T + 1, B, H]: c_0 .. c_T
  float* tanhC = nullptr;       // out [T, B, H]
  float* hs = nullptr;          // out [T, B, H]
};

struct MogrifierWindowBackwardBuffers {
  // As forward.
  const float* x = nullptr;
  const float* mask = nullptr;
  // The forward's saved buffers.
  const float* xR = nullptr;
  const float* hR = nullptr;
  const float* sX = nullptr;
  const float* sH = nullptr;
  const float* z = nullptr;
  const float* gates = nullptr;
  const float* c = nullptr;
  const float* tanhC = nullptr;
  const float* dHs = nullptr;  // [T, B, H] or null
  float* dh = nullptr;         // [B, H] in: the final h's gradient; out: h0's
  float* dc = nullptr;         // [B, H] in: the final c's gradient; out: c0's
  float* dX = nullptr;         // out [T, B, I]: x's gradient
  float* dG = nullptr;         // workspace [T, B, G]: the gates' pre-activation gradients
  float* dPreX = nullptr;      // workspace [oddRounds, T, B, I]
  float* dPreH = nullptr;      // workspace [evenRounds, T, B, H]
  float* dZ = nullptr;         // workspace [rounds, T, B, rank] (low rank; else null)
  float* dHCur = nullptr;      // workspace [B, H]
  float* dSrcX = nullptr;      // workspace [B, I] (without zigzag)
  float* dSrcH = nullptr;      // workspace [B, H] (without zigzag)
  float* dWx = nullptr;        // out [G, I]
  float* db = nullptr;         // out [G]
  float* dWh = nullptr;        // out [G, H]
  // Out, round i at i - 1, shaped as the weights: full, or left and right.
  std::vector<float*> dFull, dLeft, dRight;
};

void mogrifierWindowForward(const MogrifierWindowLayout& layout,
                            const MogrifierWindowWeights& weights,
                            const MogrifierWindowForwardBuffers& buffers, WindowOps& ops);

void mogrifierWindowBackward(const MogrifierWindowLayout& layout,
                             const MogrifierWindowWeights& weights,
                             const MogrifierWindowBackwardBuffers& buffers, WindowOps& ops);

}  // namespace mrnn::engine::cuda
