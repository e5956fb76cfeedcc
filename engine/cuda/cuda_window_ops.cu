#include "engine/cuda/cuda_window_ops.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/cuda/cuda_check.h"

namespace mrnn::engine::cuda {

namespace {

// One thread per element with a grid-stride loop, so that any size fits the grid. The
// element-wise work is memory-bound: a plain 256-thread block is as good as any here.
constexpr int kThreads = 256;

int blocksFor(int64_t n) {
  return static_cast<int>(
      std::max<int64_t>(1, std::min<int64_t>((n + kThreads - 1) / kThreads, int64_t{1} << 20)));
}

// Every element-wise step is this kernel over its own struct (window_rows.h), passed by
// value into the kernel's parameters.
template <class Rows>
__global__ void eachElement(Rows rows, int64_t total) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < total;
       i += int64_t{gridDim.x} * blockDim.x) {
    rows.at(i);
  }
}

template <class Rows>
void launch(const Rows& rows, Stream stream, const char* what) {
  const int64_t total = rows.count();
  if (total == 0) return;
  eachElement<<<blocksFor(total), kThreads, 0, stream>>>(rows, total);
  checkCuda(cudaGetLastError(), what);
}

int asInt(int64_t v, const char* what) {
  if (v < 0 || v > int64_t{0x7fffffff}) {
    throw std::runtime_error(std::string(what) + ": a matrix size overflows cuBLAS's int");
  }
  return static_cast<int>(v);
}

}  // namespace

CudaWindowOps::CudaWindowOps(BlasHandle blas, Stream stream, ProductPrecision precision,
                             DeviceBytes bytes)
    : WindowOps(precision), blas_(blas), stream_(stream), bytes_(std::move(bytes)) {
  if (precision == ProductPrecision::Bfloat16 && !bytes_) {
    throw std::runtime_error("window: bfloat16 products need device memory for their operands");
  }
  checkCublas(cublasSetStream(blas_, stream_), "window cublasSetStream");
}

void CudaWindowOps::gemmFloat32(const GemmCall& call) {
  const float alpha = 1.0f;
  checkCublas(cublasSgemm(blas_, call.transposeA ? CUBLAS_OP_T : CUBLAS_OP_N,
                          call.transposeB ? CUBLAS_OP_T : CUBLAS_OP_N, asInt(call.m, call.what),
                          asInt(call.n, call.what), asInt(call.k, call.what), &alpha, call.a,
                          asInt(call.lda, call.what), call.b, asInt(call.ldb, call.what),
                          &call.beta, call.c, asInt(call.ldc, call.what)),
              call.what);
}

void CudaWindowOps::gemmBfloat16(const GemmCall& call, const Bfloat16Bits* a,
                                 const Bfloat16Bits* b) {
  const float alpha = 1.0f;
  checkCublas(cublasGemmEx(blas_, call.transposeA ? CUBLAS_OP_T : CUBLAS_OP_N,
                           call.transposeB ? CUBLAS_OP_T : CUBLAS_OP_N, asInt(call.m, call.what),
                           asInt(call.n, call.what), asInt(call.k, call.what), &alpha, a,
                           CUDA_R_16BF, asInt(call.lda, call.what), b, CUDA_R_16BF,
                           asInt(call.ldb, call.what), &call.beta, call.c, CUDA_R_32F,
                           asInt(call.ldc, call.what), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              call.what);
}

Bfloat16Bits* CudaWindowOps::bfloat16Buffer(int64_t n) {
  void* p = bytes_(static_cast<size_t>(n) * sizeof(Bfloat16Bits));
  if (p == nullptr) throw std::runtime_error("window: no device memory for bfloat16 operands");
  return static_cast<Bfloat16Bits*>(p);
}

void CudaWindowOps::copy(float* dst, const float* src, int64_t n) {
  if (n == 0 || dst == src) return;
  checkCuda(cudaMemcpyAsync(dst, src, static_cast<size_t>(n) * sizeof(float),
                            cudaMemcpyDeviceToDevice, stream_),
            "window copy");
}

void CudaWindowOps::run(const MultiplyRows& rows) {
  launch(rows, stream_, "multiplyRows launch");
}
void CudaWindowOps::run(const MultiplyRowsBackward& rows) {
  launch(rows, stream_, "multiplyRowsBackward launch");
}
void CudaWindowOps::run(const MaskedCopy& rows) {
  if (rows.mask == nullptr && rows.src == rows.dst) return;
  launch(rows, stream_, "maskedCopy launch");
}
void CudaWindowOps::run(const MaskedAccumulate& rows) {
  launch(rows, stream_, "maskedAccumulate launch");
}
void CudaWindowOps::run(const AddOrCopy& rows) {
  launch(rows, stream_, "addOrCopy launch");
}
void CudaWindowOps::run(const ActivateRows& rows) {
  launch(rows, stream_, "activateRows launch");
}
void CudaWindowOps::run(const TanhRowsBackward& rows) {
  launch(rows, stream_, "tanhRowsBackward launch");
}
void CudaWindowOps::run(const LstmRowsForward& rows) {
  launch(rows, stream_, "lstmRowsForward launch");
}
void CudaWindowOps::run(const LstmRowsBackward& rows) {
  launch(rows, stream_, "lstmRowsBackward launch");
}
void CudaWindowOps::run(const GruRowsForward& rows) {
  launch(rows, stream_, "gruRowsForward launch");
}
void CudaWindowOps::run(const GruRowsBackward& rows) {
  launch(rows, stream_, "gruRowsBackward launch");
}
void CudaWindowOps::run(const ResetRowsForward& rows) {
  launch(rows, stream_, "resetRowsForward launch");
}
void CudaWindowOps::run(const ResetRowsBackward& rows) {
  launch(rows, stream_, "resetRowsBackward launch");
}
void CudaWindowOps::run(const Fill& rows) {
  launch(rows, stream_, "fill launch");
}
void CudaWindowOps::run(const ColumnSums& rows) {
  launch(rows, stream_, "columnSums launch");
}
void CudaWindowOps::run(const MogrifyRows& rows) {
  launch(rows, stream_, "mogrifyRows launch");
}
void CudaWindowOps::run(const MogrifyRowsBackward& rows) {
  launch(rows, stream_, "mogrifyRowsBackward launch");
}
void CudaWindowOps::run(const RoundToBfloat16& rows) {
  launch(rows, stream_, "roundToBfloat16 launch");
}

}  // namespace mrnn::engine::cuda
