#pragma once

// What a CUDA fused window (cuda_*_window.h) asks of a device: matrix products, copies and
// the element-wise steps of window_rows.h, each enqueued in order. CudaWindowOps
// (cuda_window_ops.h) enqueues them on a GPU stream with cuBLAS and kernels; the tests'
// HostWindowOps runs them on the CPU with cuBLAS's argument rules, so the windows' logic is
// checked where no GPU is. No host synchronisation is implied; failures throw
// std::runtime_error.

#include <cstdint>
#include <vector>

#include "engine/cuda/gemm_call.h"
#include "engine/cuda/window_rows.h"

namespace mrnn::engine::cuda {

// How a window's products multiply. Bfloat16 is what bf16 autocast asks for: both operands
// rounded to bfloat16, products accumulated and written in float32 (cublasGemmEx with
// CUBLAS_COMPUTE_32F). The element-wise steps, the states and the saved activations stay
// float32 either way.
enum class ProductPrecision { Float32, Bfloat16 };

inline ProductPrecision precisionOf(bool bfloat16) {
  return bfloat16 ? ProductPrecision::Bfloat16 : ProductPrecision::Float32;
}

class WindowOps {
 public:
  explicit WindowOps(ProductPrecision precision) : precision_(precision) {}
  virtual ~WindowOps() = default;
  WindowOps(const WindowOps&) = delete;
  WindowOps& operator=(const WindowOps&) = delete;

  ProductPrecision precision() const { return precision_; }

  // c = op(a) op(b) (+ beta c) at this precision. At Bfloat16 each operand is rounded into
  // a bfloat16 copy first (one RoundToBfloat16 step), except within a fixed block.
  void gemm(const GemmCall& call);
  // Declares n floats at p unchanged for the rest of the window (its weights): at Bfloat16
  // they are rounded once, at their first product, instead of before every product.
  void holdFixed(const float* p, int64_t n);

  // dst = src over n floats (device to device).
  virtual void copy(float* dst, const float* src, int64_t n) = 0;

  virtual void run(const MultiplyRows& rows) = 0;
  virtual void run(const MultiplyRowsBackward& rows) = 0;
  virtual void run(const MaskedCopy& rows) = 0;
  virtual void run(const MaskedAccumulate& rows) = 0;
  virtual void run(const AddOrCopy& rows) = 0;
  virtual void run(const ActivateRows& rows) = 0;
  virtual void run(const TanhRowsBackward& rows) = 0;
  virtual void run(const LstmRowsForward& rows) = 0;
  virtual void run(const LstmRowsBackward& rows) = 0;
  virtual void run(const GruRowsForward& rows) = 0;
  virtual void run(const GruRowsBackward& rows) = 0;
  virtual void run(const ResetRowsForward& rows) = 0;
  virtual void run(const ResetRowsBackward& rows) = 0;
  virtual void run(const Fill& rows) = 0;
  virtual void run(const ColumnSums& rows) = 0;
  virtual void run(const MogrifyRows& rows) = 0;
  virtual void run(const MogrifyRowsBackward& rows) = 0;
  virtual void run(const RoundToBfloat16& rows) = 0;

 protected:
  virtual void gemmFloat32(const GemmCall& call) = 0;
  // The call's sizes, leading dimensions, beta and c, with a and b read from these bfloat16
  // copies (same layout as call.a and call.b).
  virtual void gemmBfloat16(const GemmCall& call, const Bfloat16Bits* a, const Bfloat16Bits* b) = 0;
  // Device memory for n bfloat16 values, valid until the ops are destroyed and ordered after
  // everything enqueued before this call.
  virtual Bfloat16Bits* bfloat16Buffer(int64_t n) = 0;

 private:
  struct FixedBlock {
    const float* p;
    int64_t n;
    Bfloat16Bits* rounded;  // null until its first product
  };
  struct Staging {
    Bfloat16Bits* p = nullptr;
    int64_t capacity = 0;
  };

  // The bfloat16 copy of the span floats at p: within a fixed block, or rounded into staging.
  const Bfloat16Bits* rounded(const float* p, int64_t span, Staging& staging);

  ProductPrecision precision_;
  std::vector<FixedBlock> fixed_;
  Staging stagingA_, stagingB_;
};

// The floats a column-major [rows x cols] matrix at leading dimension ld spans.
inline int64_t columnMajorSpan(int64_t rows, int64_t cols, int64_t ld) {
  return rows <= 0 || cols <= 0 ? 0 : (cols - 1) * ld + rows;
}

}  // namespace mrnn::engine::cuda
