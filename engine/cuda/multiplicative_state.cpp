#include "engine/cuda/multiplicative_state.h"

namespace mrnn::engine::cuda {

void multiplicativeStateForward(const MultiplicativeState& s, const float* hPrev, const float* xpT,
                                float* hinT, float* uT, float* mT, WindowOps& ops) {
  ops.run(MaskedCopy{hPrev, s.mask, hinT, s.B * s.H});
  multiplicativeProduct(s, hinT, xpT, uT, mT, ops);
}

void multiplicativeProduct(const MultiplicativeState& s, const float* hinT, const float* xpT,
                           float* uT, float* mT, WindowOps& ops) {
  ops.gemm(rowMajorGemm(false, true, s.B, s.M, s.H, hinT, s.H, s.wMh, s.H, false, uT, s.M,
                        s.what));  // u = hin W_mh^T
  ops.run(MultiplyRows{xpT, s.X, uT, s.M, mT, s.M, s.B, s.M});
}

void multiplicativeStateBackward(const MultiplicativeState& s, const float* dm, const float* xpT,
                                 const float* uT, float* dXpT, float* dUT, float* dHin,
                                 WindowOps& ops, bool accumulate) {
  ops.run(MultiplyRowsBackward{dm, s.M, xpT, s.X, uT, s.M, dXpT, s.X, dUT, s.M, s.B, s.M});
  ops.gemm(rowMajorGemm(false, false, s.B, s.H, s.M, dUT, s.M, s.wMh, s.H, accumulate, dHin, s.H,
                        s.what));  // d hin (+)= du W_mh
}

void multiplicativeWeightGradient(const MultiplicativeState& s, int64_t rows, const float* dU,
                                  const float* hin, float* dWmh, WindowOps& ops) {
  ops.gemm(rowMajorGemm(true, false, s.M, s.H, rows, dU, s.M, hin, s.H, false, dWmh, s.H,
                        s.what));  // dW_mh = dU^T hin
}

}  // namespace mrnn::engine::cuda
