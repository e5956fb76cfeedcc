#pragma once

// The GPU windows' operations (engine/cuda/window_ops.h) run on the CPU, for the tests: the
// element-wise steps call the very at(i) the CUDA kernels call, and the products follow
// cublasSgemm's column-major contract, refusing what cuBLAS would refuse (a leading dimension
// shorter than its matrix's rows) and what it leaves undefined (an output overlapping an
// input). So a window's indexing, strides and transpositions are checked without a GPU;
// only the launches and cuBLAS itself are not.

#include "engine/cuda/window_ops.h"

namespace mrnn::test {

class HostWindowOps final : public engine::cuda::WindowOps {
 public:
  void gemm(const engine::cuda::GemmCall& call) override;
  void copy(float* dst, const float* src, int64_t n) override;

  void run(const engine::cuda::MultiplyRows& rows) override { each(rows); }
  void run(const engine::cuda::MultiplyRowsBackward& rows) override { each(rows); }
  void run(const engine::cuda::MaskedCopy& rows) override { each(rows); }
  void run(const engine::cuda::MaskedAccumulate& rows) override { each(rows); }
  void run(const engine::cuda::AddOrCopy& rows) override { each(rows); }
  void run(const engine::cuda::ActivateRows& rows) override { each(rows); }
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

  // How many products and element-wise steps ran: the tests count a window's calls.
  int64_t products() const { return products_; }
  int64_t steps() const { return steps_; }

 private:
  template <class Rows>
  void each(const Rows& rows) {
    ++steps_;
    for (int64_t i = 0, n = rows.count(); i < n; ++i) rows.at(i);
  }

  int64_t products_ = 0;
  int64_t steps_ = 0;
};

}  // namespace mrnn::test
