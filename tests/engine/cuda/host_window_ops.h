#pragma once

// The GPU windows' operations (engine/cuda/window_ops.h) run on the CPU, for the tests: the
// element-wise steps call the very at(i) the CUDA kernels call, and the products follow
// cublasSgemm's column-major contract, refusing what cuBLAS would refuse (a leading dimension
// shorter than its matrix's rows) and what it leaves undefined (an output overlapping an
// input). So a window's indexing, strides and transpositions are checked without a GPU;
// only the launches and cuBLAS itself are not.

#include <memory>
#include <vector>

#include "engine/cuda/window_ops.h"

namespace mrnn::test {

class HostWindowOps final : public engine::cuda::WindowOps {
 public:
  // At Bfloat16 the products read their operands' rounded copies as cublasGemmEx would, and
  // sum in double (cuBLAS in float32: the difference is far below bfloat16's).
  explicit HostWindowOps(
      engine::cuda::ProductPrecision precision = engine::cuda::ProductPrecision::Float32)
      : WindowOps(precision) {}

  void copy(float* dst, const float* src, int64_t n) override;

  void run(const engine::cuda::MultiplyRows& rows) override { each(rows); }
  void run(const engine::cuda::MultiplyRowsBackward& rows) override { each(rows); }
  void run(const engine::cuda::MaskedCopy& rows) override { each(rows); }
  void run(const engine::cuda::MaskedAccumulate& rows) override { each(rows); }
  void run(const engine::cuda::AddOrCopy& rows) override { each(rows); }
  void run(const engine::cuda::ActivateRows& rows) override { each(rows); }
  void run(const engine::cuda::TanhRowsBackward& rows) override { each(rows); }
  void run(const engine::cuda::LstmRowsForward& rows) override { each(rows); }
  void run(const engine::cuda::LstmRowsBackward& rows) override { each(rows); }
  void run(const engine::cuda::GruRowsForward& rows) override { each(rows); }
  void run(const engine::cuda::GruRowsBackward& rows) override { each(rows); }
  void run(const engine::cuda::ResetRowsForward& rows) override { each(rows); }
  void run(const engine::cuda::ResetRowsBackward& rows) override { each(rows); }
  void run(const engine::cuda::Fill& rows) override { each(rows); }
  void run(const engine::cuda::ColumnSums& rows) override { each(rows); }
  void run(const engine::cuda::MogrifyRows& rows) override { each(rows); }
  void run(const engine::cuda::MogrifyRowsBackward& rows) override { each(rows); }
  void run(const engine::cuda::RoundToBfloat16& rows) override {
    ++roundings_;
    rounded_ += rows.n;
    each(rows);
  }

  // How many products and element-wise steps ran: the tests count a window's calls.
  int64_t products() const { return products_; }
  int64_t steps() const { return steps_; }
  // How many operands were rounded to bfloat16, and how many floats in all.
  int64_t roundings() const { return roundings_; }
  int64_t roundedFloats() const { return rounded_; }

 private:
  void gemmFloat32(const engine::cuda::GemmCall& call) override;
  void gemmBfloat16(const engine::cuda::GemmCall& call, const engine::cuda::Bfloat16Bits* a,
                    const engine::cuda::Bfloat16Bits* b) override;
  engine::cuda::Bfloat16Bits* bfloat16Buffer(int64_t n) override;

  template <class Rows>
  void each(const Rows& rows) {
    ++steps_;
    for (int64_t i = 0, n = rows.count(); i < n; ++i) rows.at(i);
  }

  int64_t products_ = 0;
  int64_t steps_ = 0;
  int64_t roundings_ = 0;
  int64_t rounded_ = 0;
  std::vector<std::unique_ptr<std::vector<engine::cuda::Bfloat16Bits>>> bfloat16Buffers_;
};

}  // namespace mrnn::test
