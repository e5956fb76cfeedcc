// The CUDA kernels library (engine/cuda) against the CPU: the mLSTM window forward and
// backward against the CPU fused window under LibTorch autograd, and every element-wise
// kernel against the CPU row function it mirrors (engine/models/fused_window_kernels.h).
// Without a CUDA device (no GPU, no driver) every test skips and the executable exits 77,
// which CTest reports as skipped, never passed.

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <torch/torch.h>

#include <string>

#include "engine/cuda/cuda_mlstm_window.h"
#include "engine/cuda/cuda_window_kernels.h"
#include "engine/models/fused_mlstm_window.h"
#include "engine/models/fused_window_kernels.h"
#include "test_harness.h"

namespace gpu = mrnn::engine::cuda;
namespace cpu = mrnn::engine;

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

void checkCuda(cudaError_t status, const char* what) {
  EXPECT_MSG(status == cudaSuccess, what << ": " << cudaGetErrorString(status));
}

// A float buffer on the device holding a copy of a CPU tensor (or n uninitialised floats),
// freed with the object.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(int64_t n) : n_(n) {
    checkCuda(cudaMalloc(reinterpret_cast<void**>(&data_), bytes(n > 0 ? n : 1)), "cudaMalloc");
  }
  explicit DeviceBuffer(const torch::Tensor& host) : DeviceBuffer(host.numel()) {
    const auto contiguous = host.to(torch::kFloat).contiguous();
    checkCuda(cudaMemcpy(data_, contiguous.data_ptr<float>(), bytes(n_), cudaMemcpyHostToDevice),
              "upload");
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }

  float* get() const { return data_; }

  torch::Tensor download(torch::IntArrayRef shape) const {
    auto host = torch::empty(shape, torch::kFloat);
    EXPECT_EQ(host.numel(), n_);
    checkCuda(cudaMemcpy(host.data_ptr<float>(), data_, bytes(n_), cudaMemcpyDeviceToHost),
              "download");
    return host;
  }

 private:
  static size_t bytes(int64_t n) { return static_cast<size_t>(n) * sizeof(float); }
  float* data_ = nullptr;
  int64_t n_ = 0;
};

// The stream and cuBLAS handle a test enqueues on, released with the object.
struct GpuContext {
  cudaStream_t stream = nullptr;
  cublasHandle_t blas = nullptr;
  GpuContext() {
    checkCuda(cudaStreamCreate(&stream), "cudaStreamCreate");
    EXPECT_MSG(cublasCreate(&blas) == CUBLAS_STATUS_SUCCESS, "cublasCreate failed");
  }
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;
  ~GpuContext() {
    if (blas) cublasDestroy(blas);
    if (stream) cudaStreamDestroy(stream);
  }
  void finish() const { checkCuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize"); }
};

void expectClose(const torch::Tensor& onGpu, const torch::Tensor& onCpu, const std::string& what,
                 double tolerance = 1e-4) {
  EXPECT_MSG(onGpu.sizes() == onCpu.sizes(), what << ": shapes differ");
  const double scale = onCpu.abs().max().item<double>();
  const double difference = (onGpu - onCpu).abs().max().item<double>();
  EXPECT_MSG(torch::allclose(onGpu, onCpu, tolerance, tolerance * (1.0 + scale)),
             what << " differs by " << difference << " (largest value " << scale << ")");
}

// The CPU fused window under autograd with a loss that weights every output: each step's h
// (by wOut), the final h (by wH) and c (by wC). Those weights are then the gradients that
// reach the outputs, which the CUDA backward takes directly.
struct WindowResult {
  torch::Tensor hs, h, c, dXp, dH0, dC0, dWmh, dWm;
};

WindowResult cpuWindow(const torch::Tensor& xp, const torch::Tensor& h0, const torch::Tensor& c0,
                       const torch::Tensor& wMh, const torch::Tensor& wM, const torch::Tensor& mask,
                       const torch::Tensor& wOut, const torch::Tensor& wH,
                       const torch::Tensor& wC) {
  auto xpL = xp.clone().requires_grad_(true);
  auto h0L = h0.clone().requires_grad_(true);
  auto c0L = c0.clone().requires_grad_(true);
  auto wMhL = wMh.clone().requires_grad_(true);
  auto wML = wM.clone().requires_grad_(true);
  const auto out = cpu::fusedMlstmWindow(xpL, h0L, c0L, wMhL, wML, mask);
  const auto loss = (out.hs * wOut).sum() + (out.h * wH).sum() + (out.c * wC).sum();
  loss.backward();
  return {out.hs.detach(), out.h.detach(), out.c.detach(), xpL.grad(),
          h0L.grad(),      c0L.grad(),     wMhL.grad(),    wML.grad()};
}

WindowResult gpuWindow(const torch::Tensor& xp, const torch::Tensor& h0, const torch::Tensor& c0,
                       const torch::Tensor& wMh, const torch::Tensor& wM, const torch::Tensor& mask,
                       const torch::Tensor& wOut, const torch::Tensor& wH,
                       const torch::Tensor& wC) {
  const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1), M = wMh.size(0);
  const int64_t X = M + 4 * H;
  const gpu::MlstmWindowSizes sizes{T, B, H, M};
  GpuContext context;
  DeviceBuffer xpD(xp), h0D(h0), c0D(c0), wMhD(wMh), wMD(wM);
  DeviceBuffer maskD(mask.defined() ? mask : torch::zeros({1}));
  DeviceBuffer hs(T * B * H), c((T + 1) * B * H), hin(T * B * H), u(T * B * M), m(T * B * M),
      gates(T * B * 4 * H), tanhC(T * B * H);
  gpu::MlstmWindowForwardBuffers forward;
  forward.xp = xpD.get();
  forward.h0 = h0D.get();
  forward.c0 = c0D.get();
  forward.wMh = wMhD.get();
  forward.wM = wMD.get();
  forward.mask = mask.defined() ? maskD.get() : nullptr;
  forward.hs = hs.get();
  forward.c = c.get();
  forward.hin = hin.get();
  forward.u = u.get();
  forward.m = m.get();
  forward.gates = gates.get();
  forward.tanhC = tanhC.get();
  gpu::mlstmWindowForward(sizes, forward, context.blas, context.stream);

  DeviceBuffer dHs(wOut), dh(wH), dc(wC), dXp(T * B * X), dU(T * B * M), dM(B * M), dWmh(M * H),
      dWm(4 * H * M);
  gpu::MlstmWindowBackwardBuffers backward;
  backward.xp = xpD.get();
  backward.wMh = wMhD.get();
  backward.wM = wMD.get();
  backward.mask = forward.mask;
  backward.hin = hin.get();
  backward.u = u.get();
  backward.m = m.get();
  backward.gates = gates.get();
  backward.c = c.get();
  backward.tanhC = tanhC.get();
  backward.dHs = dHs.get();
  backward.dh = dh.get();
  backward.dc = dc.get();
  backward.dXp = dXp.get();
  backward.dU = dU.get();
  backward.dM = dM.get();
  backward.dWmh = dWmh.get();
  backward.dWm = dWm.get();
  gpu::mlstmWindowBackward(sizes, backward, context.blas, context.stream);
  context.finish();

  const auto hsHost = hs.download({T, B, H});
  const auto cHost = c.download({T + 1, B, H});
  return {hsHost,
          hsHost.select(0, T - 1).clone(),
          cHost.select(0, T).clone(),
          dXp.download({T, B, X}),
          dh.download({B, H}),
          dc.download({B, H}),
          dWmh.download({M, H}),
          dWm.download({4 * H, M})};
}

void compareWindow(bool masked) {
  const int64_t T = 7, B = 3, H = 16, M = 24;
  const std::string label = masked ? "mLSTM window, state mask" : "mLSTM window";
  torch::manual_seed(masked ? 23 : 19);
  const auto xp = torch::randn({T, B, M + 4 * H});
  const auto h0 = torch::randn({B, H}) * 0.5;
  const auto c0 = torch::randn({B, H}) * 0.5;
  const auto wMh = torch::randn({M, H}) * 0.3;
  const auto wM = torch::randn({4 * H, M}) * 0.3;
  const auto mask = masked ? (torch::rand({B, H}) > 0.3).to(torch::kFloat) / 0.7 : torch::Tensor();
  const auto wOut = torch::randn({T, B, H});
  const auto wH = torch::randn({B, H}) * 0.5;
  const auto wC = torch::randn({B, H}) * 0.25;
  const auto expected = cpuWindow(xp, h0, c0, wMh, wM, mask, wOut, wH, wC);
  const auto actual = gpuWindow(xp, h0, c0, wMh, wM, mask, wOut, wH, wC);
  expectClose(actual.hs, expected.hs, label + ": outputs");
  expectClose(actual.h, expected.h, label + ": final h");
  expectClose(actual.c, expected.c, label + ": final c");
  expectClose(actual.dXp, expected.dXp, label + ": dxp");
  expectClose(actual.dH0, expected.dH0, label + ": dh0");
  expectClose(actual.dC0, expected.dC0, label + ": dc0");
  expectClose(actual.dWmh, expected.dWmh, label + ": dW_mh");
  expectClose(actual.dWm, expected.dWm, label + ": dW_m");
}

}  // namespace

MRNN_TEST(cuda_mlstm_window_equals_the_cpu_window) {
  requireGpu();
  compareWindow(false);
}

MRNN_TEST(cuda_mlstm_window_with_a_state_mask_equals_the_cpu_window) {
  requireGpu();
  compareWindow(true);
}

// Row strides wider than the rows, and outputs pre-filled alike on both sides, so that a
// kernel writing outside its rows' columns is caught too.
MRNN_TEST(cuda_multiply_rows_equal_the_cpu_rows) {
  requireGpu();
  const int64_t B = 3, n = 24, ldA = n + 5, ldU = n + 2, ldM = n + 3;
  torch::manual_seed(3);
  const auto a = torch::randn({B, ldA}), u = torch::randn({B, ldU}), m0 = torch::randn({B, ldM});
  auto m = m0.clone();
  cpu::multiplyRows(a.data_ptr<float>(), ldA, u.data_ptr<float>(), ldU, m.data_ptr<float>(), ldM, B,
                    n);
  GpuContext context;
  DeviceBuffer aD(a), uD(u), mD(m0);
  gpu::multiplyRows(aD.get(), ldA, uD.get(), ldU, mD.get(), ldM, B, n, context.stream);
  context.finish();
  expectClose(mD.download({B, ldM}), m, "multiplyRows");

  const int64_t ldDm = n + 1, ldDA = n + 4, ldDU = n + 6;
  const auto dm = torch::randn({B, ldDm}), dA0 = torch::randn({B, ldDA}),
             dU0 = torch::randn({B, ldDU});
  auto dA = dA0.clone(), dU = dU0.clone();
  cpu::multiplyRowsBackward(dm.data_ptr<float>(), ldDm, a.data_ptr<float>(), ldA,
                            u.data_ptr<float>(), ldU, dA.data_ptr<float>(), ldDA,
                            dU.data_ptr<float>(), ldDU, B, n);
  DeviceBuffer dmD(dm), dAD(dA0), dUD(dU0);
  gpu::multiplyRowsBackward(dmD.get(), ldDm, aD.get(), ldA, uD.get(), ldU, dAD.get(), ldDA,
                            dUD.get(), ldDU, B, n, context.stream);
  context.finish();
  expectClose(dAD.download({B, ldDA}), dA, "multiplyRowsBackward dA");
  expectClose(dUD.download({B, ldDU}), dU, "multiplyRowsBackward dU");
}

MRNN_TEST(cuda_masked_copy_equals_the_cpu_rows) {
  requireGpu();
  const int64_t n = 3 * 16;
  torch::manual_seed(5);
  const auto src = torch::randn({n});
  const auto mask = (torch::rand({n}) > 0.3).to(torch::kFloat) / 0.7;
  GpuContext context;
  DeviceBuffer srcD(src), maskD(mask), dstD(n);
  for (const bool masked : {true, false}) {
    auto dst = torch::empty({n});
    cpu::maskedCopy(src.data_ptr<float>(), masked ? mask.data_ptr<float>() : nullptr,
                    dst.data_ptr<float>(), n);
    gpu::maskedCopy(srcD.get(), masked ? maskD.get() : nullptr, dstD.get(), n, context.stream);
    context.finish();
    expectClose(dstD.download({n}), dst, masked ? "maskedCopy" : "maskedCopy without a mask");
  }
  // In place, as the window's backward uses it.
  DeviceBuffer inPlace(src);
  gpu::maskedCopy(inPlace.get(), maskD.get(), inPlace.get(), n, context.stream);
  context.finish();
  expectClose(inPlace.download({n}), src * mask, "maskedCopy in place");
}

MRNN_TEST(cuda_lstm_rows_forward_equal_the_cpu_rows) {
  requireGpu();
  const int64_t B = 3, H = 16, ldGates = 4 * H + 3, ldExtra = 4 * H + 1;
  torch::manual_seed(7);
  const auto gates0 = torch::randn({B, ldGates}) * 2.0;
  const auto extra = torch::randn({B, ldExtra});
  const auto cPrev = torch::randn({B, H});
  GpuContext context;
  for (const bool withExtra : {false, true}) {
    const std::string label = withExtra ? "lstmRowsForward with extra" : "lstmRowsForward";
    // The CPU rows take the summed pre-activations; the kernel adds extra as it reads.
    auto gates = gates0.clone();
    if (withExtra) gates.narrow(1, 0, 4 * H).add_(extra.narrow(1, 0, 4 * H));
    auto c = torch::zeros({B, H}), tanhC = torch::zeros({B, H}), h = torch::zeros({B, H});
    cpu::lstmRowsForward(gates.data_ptr<float>(), ldGates, cPrev.data_ptr<float>(),
                         c.data_ptr<float>(), tanhC.data_ptr<float>(), h.data_ptr<float>(), B, H);
    DeviceBuffer gatesD(gates0), extraD(extra), cPrevD(cPrev), cD(B * H), tanhCD(B * H), hD(B * H);
    gpu::lstmRowsForward(gatesD.get(), ldGates, withExtra ? extraD.get() : nullptr, ldExtra,
                         cPrevD.get(), cD.get(), tanhCD.get(), hD.get(), B, H, context.stream);
    context.finish();
    // Columns past 4H are untouched on both sides (extra was added to the first 4H).
    expectClose(gatesD.download({B, ldGates}), gates, label + ": gates");
    expectClose(cD.download({B, H}), c, label + ": c");
    expectClose(tanhCD.download({B, H}), tanhC, label + ": tanh(c)");
    expectClose(hD.download({B, H}), h, label + ": h");
  }
}

MRNN_TEST(cuda_lstm_rows_backward_equal_the_cpu_rows) {
  requireGpu();
  const int64_t B = 3, H = 16, ldGates = 4 * H + 2, ldD = 4 * H + 5;
  torch::manual_seed(9);
  // Activated gates, as the forward leaves them: sigmoid for i f o, tanh for j.
  auto gates = torch::randn({B, ldGates});
  gates.narrow(1, 0, 3 * H).sigmoid_();
  gates.narrow(1, 3 * H, H).tanh_();
  const auto cPrev = torch::randn({B, H});
  const auto tanhC = torch::randn({B, H}).tanh();
  const auto dh = torch::randn({B, H}), dOut = torch::randn({B, H}), dc0 = torch::randn({B, H});
  const auto dGates0 = torch::randn({B, ldD});
  GpuContext context;
  DeviceBuffer gatesD(gates), cPrevD(cPrev), tanhCD(tanhC), dhD(dh), dOutD(dOut);
  for (const bool withOut : {true, false}) {
    const std::string label = withOut ? "lstmRowsBackward" : "lstmRowsBackward without dOut";
    auto dhStep = torch::empty({B, H});
    cpu::addOrCopy(dh.data_ptr<float>(), withOut ? dOut.data_ptr<float>() : nullptr,
                   dhStep.data_ptr<float>(), B * H);
    auto dc = dc0.clone(), dGates = dGates0.clone();
    cpu::lstmRowsBackward(gates.data_ptr<float>(), ldGates, cPrev.data_ptr<float>(),
                          tanhC.data_ptr<float>(), dhStep.data_ptr<float>(), dc.data_ptr<float>(),
                          dGates.data_ptr<float>(), ldD, B, H);
    DeviceBuffer dcD(dc0), dGatesD(dGates0);
    gpu::lstmRowsBackward(gatesD.get(), ldGates, cPrevD.get(), tanhCD.get(), dhD.get(),
                          withOut ? dOutD.get() : nullptr, dcD.get(), dGatesD.get(), ldD, B, H,
                          context.stream);
    context.finish();
    expectClose(dGatesD.download({B, ldD}), dGates, label + ": dGates");
    expectClose(dcD.download({B, H}), dc, label + ": dc");
  }
}
