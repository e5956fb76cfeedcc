#include "engine/cuda/cuda_window_kernels.h"

#include <cuda_runtime.h>

#include <algorithm>

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

// Accurate expf/tanhf (no fast-math): the windows are checked against the CPU float32 path.
__device__ inline float sigmoid(float x) {
  return 1.0f / (1.0f + expf(-x));
}

__global__ void multiplyRowsKernel(const float* a, int64_t ldA, const float* u, int64_t ldU,
                                   float* m, int64_t ldM, int64_t B, int64_t n) {
  const int64_t total = B * n;
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < total;
       idx += int64_t{gridDim.x} * blockDim.x) {
    const int64_t b = idx / n, k = idx % n;
    m[b * ldM + k] = a[b * ldA + k] * u[b * ldU + k];
  }
}

__global__ void multiplyRowsBackwardKernel(const float* dm, int64_t ldDm, const float* a,
                                           int64_t ldA, const float* u, int64_t ldU, float* dA,
                                           int64_t ldDA, float* dU, int64_t ldDU, int64_t B,
                                           int64_t n) {
  const int64_t total = B * n;
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < total;
       idx += int64_t{gridDim.x} * blockDim.x) {
    const int64_t b = idx / n, k = idx % n;
    const float g = dm[b * ldDm + k];
    dA[b * ldDA + k] = g * u[b * ldU + k];
    dU[b * ldDU + k] = g * a[b * ldA + k];
  }
}

__global__ void maskKernel(const float* src, const float* mask, float* dst, int64_t n) {
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < n;
       idx += int64_t{gridDim.x} * blockDim.x) {
    dst[idx] = src[idx] * mask[idx];
  }
}

// One thread per (row, unit): it reads the unit's four gates, so the gate block needs no
// second pass.
__global__ void lstmForwardKernel(float* gates, int64_t ldGates, const float* extra,
                                  int64_t ldExtra, const float* cPrev, float* c, float* tanhC,
                                  float* h, int64_t B, int64_t H) {
  const int64_t total = B * H;
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < total;
       idx += int64_t{gridDim.x} * blockDim.x) {
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
    const float i = sigmoid(pi), f = sigmoid(pf), o = sigmoid(po), j = tanhf(pj);
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
}

__global__ void lstmBackwardKernel(const float* gates, int64_t ldGates, const float* cPrev,
                                   const float* tanhC, const float* dh, const float* dOut,
                                   float* dc, float* dGates, int64_t ldD, int64_t B, int64_t H) {
  const int64_t total = B * H;
  for (int64_t idx = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; idx < total;
       idx += int64_t{gridDim.x} * blockDim.x) {
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
}

}  // namespace

void multiplyRows(const float* a, int64_t ldA, const float* u, int64_t ldU, float* m, int64_t ldM,
                  int64_t B, int64_t n, Stream stream) {
  if (B * n == 0) return;
  multiplyRowsKernel<<<blocksFor(B * n), kThreads, 0, stream>>>(a, ldA, u, ldU, m, ldM, B, n);
  checkCuda(cudaGetLastError(), "multiplyRows launch");
}

void multiplyRowsBackward(const float* dm, int64_t ldDm, const float* a, int64_t ldA,
                          const float* u, int64_t ldU, float* dA, int64_t ldDA, float* dU,
                          int64_t ldDU, int64_t B, int64_t n, Stream stream) {
  if (B * n == 0) return;
  multiplyRowsBackwardKernel<<<blocksFor(B * n), kThreads, 0, stream>>>(dm, ldDm, a, ldA, u, ldU,
                                                                        dA, ldDA, dU, ldDU, B, n);
  checkCuda(cudaGetLastError(), "multiplyRowsBackward launch");
}

void maskedCopy(const float* src, const float* mask, float* dst, int64_t n, Stream stream) {
  if (n == 0) return;
  if (mask == nullptr) {
    if (src != dst) {
      checkCuda(cudaMemcpyAsync(dst, src, static_cast<size_t>(n) * sizeof(float),
                                cudaMemcpyDeviceToDevice, stream),
                "maskedCopy copy");
    }
    return;
  }
  maskKernel<<<blocksFor(n), kThreads, 0, stream>>>(src, mask, dst, n);
  checkCuda(cudaGetLastError(), "maskedCopy launch");
}

void lstmRowsForward(float* gates, int64_t ldGates, const float* extra, int64_t ldExtra,
                     const float* cPrev, float* c, float* tanhC, float* h, int64_t B, int64_t H,
                     Stream stream) {
  if (B * H == 0) return;
  lstmForwardKernel<<<blocksFor(B * H), kThreads, 0, stream>>>(gates, ldGates, extra, ldExtra,
                                                               cPrev, c, tanhC, h, B, H);
  checkCuda(cudaGetLastError(), "lstmRowsForward launch");
}

void lstmRowsBackward(const float* gates, int64_t ldGates, const float* cPrev, const float* tanhC,
                      const float* dh, const float* dOut, float* dc, float* dGates, int64_t ldD,
                      int64_t B, int64_t H, Stream stream) {
  if (B * H == 0) return;
  lstmBackwardKernel<<<blocksFor(B * H), kThreads, 0, stream>>>(gates, ldGates, cPrev, tanhC, dh,
                                                                dOut, dc, dGates, ldD, B, H);
  checkCuda(cudaGetLastError(), "lstmRowsBackward launch");
}

}  // namespace mrnn::engine::cuda
