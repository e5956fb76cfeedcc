// The GPU windows of engine/cuda on a GPU against the CPU fused windows under LibTorch
// autograd, at float32 and with bfloat16 products (cublasGemmEx): the checks of
// cuda_window_checks.h, which cuda_windows_on_cpu_test runs on the CPU, here through cuBLAS and the
// kernels. Without a CUDA device (no GPU, no driver) every test skips and the executable exits 77,
// which CTest reports as skipped, never passed.

#include <cuda_runtime.h>

#include <string>

#include "cuda_window_checks.h"
#include "cuda_window_device.h"
#include "test_harness.h"

using mrnn::test::CudaWindowDevice;
using mrnn::test::kPrecisions;
using mrnn::test::kWindowCases;

namespace {

void requireGpu() {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    MRNN_SKIP(std::string("no usable CUDA device: cudaGetDeviceCount failed: ") +
              cudaGetErrorString(status));
  }
  if (count == 0) MRNN_SKIP("no CUDA device: cudaGetDeviceCount returned 0");
}

}  // namespace

MRNN_TEST(cuda_mlstm_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkMlstmWindow);
}

MRNN_TEST(cuda_lstm_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkLstmWindow);
}

MRNN_TEST(cuda_gru_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkGruWindow);
}

MRNN_TEST(cuda_mgru_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkMgruWindow);
}

MRNN_TEST(cuda_true_mlstm_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkTmlstmWindow);
}

MRNN_TEST(cuda_true_mgru_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkTmgruWindow);
}

MRNN_TEST(cuda_rnn_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkRnnWindow);
}

MRNN_TEST(cuda_mrnn_window_equals_the_cpu_fused_window) {
  requireGpu();
  mrnn::test::checkEveryCase<CudaWindowDevice>(mrnn::test::checkMrnnWindow);
}

MRNN_TEST(cuda_mogrifier_window_equals_the_cpu_fused_window) {
  requireGpu();
  for (const auto precision : kPrecisions) {
    for (const auto& mogrifierCase : mrnn::test::kMogrifierCases) {
      for (const auto& windowCase : kWindowCases) {
        CudaWindowDevice device(precision);
        mrnn::test::checkMogrifierWindow(device, windowCase, mogrifierCase);
      }
    }
  }
}
