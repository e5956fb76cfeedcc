#pragma once

// The CUDA handle types the engine/cuda interfaces take, declared without the CUDA headers so
// that plain C++ (a CPU-only LibTorch build, the tests) can include those interfaces.
// cudaStream_t is CUstream_st* and cublasHandle_t is cublasContext*: these aliases are the
// same types, so a stream or handle from the CUDA headers passes without a cast.
struct CUstream_st;
struct cublasContext;

namespace mrnn::engine::cuda {

using Stream = CUstream_st*;
using BlasHandle = cublasContext*;

}  // namespace mrnn::engine::cuda
