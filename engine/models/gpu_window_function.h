#pragma once

// One LibTorch autograd Function for every cell's GPU window (engine/cuda/cuda_<cell>_window.h),
// written once over the cell's layout (engine/windows/<cell>_window_layout.h): it sizes the
// window from its inputs, allocates the outputs and the gradients by the layout's shapes, hands
// their data to the window, saves what the layout says the backward reads, and returns each
// input's gradient in input order. `Call` runs the window on a device: constructed from the
// first input and the product precision, it has `ops` (a WindowOps); the CUDA glue passes
// DeviceCall (cuda_window_call.h), the tests a host call, so this function is checked on the
// CPU too. No CUDA header here.

#include <torch/csrc/autograd/custom_function.h>
#include <torch/types.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/cuda/window_buffers.h"
#include "engine/cuda/window_ops.h"
#include "engine/models/fused_window.h"
#include "engine/models/window_saving.h"

namespace mrnn::engine {

namespace gpu_window {

// Fills each member of `pointers` with the data of the same member of `tensors` (null for an
// empty one: no mask).
template <typename Tensors, typename Pointers>
void pointTo(Tensors& tensors, Pointers& pointers) {
  forEachSavedPair(tensors, pointers, [](torch::Tensor& t, auto& p) {
    p = t.defined() && t.numel() > 0 ? t.template data_ptr<float>() : nullptr;
  });
}

// A struct of tensors, each allocated by its shape.
template <typename Tensors, typename Shapes>
Tensors allocate(const Shapes& shapes, const torch::TensorOptions& options) {
  Tensors tensors;
  forEachSavedPair(shapes, tensors, [&](const WindowShape& shape, torch::Tensor& t) {
    t = torch::empty(shape, options);
  });
  return tensors;
}

inline std::string shapeText(c10::IntArrayRef shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// The kernels trust these shapes: a wrong one would read past a buffer. The mask may be empty.
template <typename Window>
void checkShapes(const WindowTensors<Window>& in, const typename Window::Sizes& sizes) {
  const auto shapes = Window::inputShapes(sizes);
  int position = 0;
  forEachSavedPair(in, shapes, [&](const torch::Tensor& t, const WindowShape& shape) {
    const bool noMask = &t == &in.mask && t.numel() == 0;
    if (!noMask && t.sizes() != c10::IntArrayRef(shape)) {
      throw std::invalid_argument("GPU window: input " + std::to_string(position) + " is " +
                                  shapeText(t.sizes()) + ", expected " + shapeText(shape));
    }
    ++position;
  });
}

// The window's sizes kept on the autograd context for the backward (they are all int64).
template <typename Sizes>
void keepSizes(torch::autograd::AutogradContext* ctx, const Sizes& sizes) {
  static_assert(std::is_trivially_copyable_v<Sizes> && sizeof(Sizes) % sizeof(int64_t) == 0);
  std::vector<int64_t> values(sizeof(Sizes) / sizeof(int64_t));
  std::memcpy(values.data(), &sizes, sizeof(Sizes));
  ctx->saved_data["sizes"] = values;
}
template <typename Sizes>
Sizes keptSizes(torch::autograd::AutogradContext* ctx) {
  const auto values = ctx->saved_data["sizes"].toIntVector();
  Sizes sizes;
  std::memcpy(static_cast<void*>(&sizes), values.data(), sizeof(Sizes));
  return sizes;
}

// One home for the context key: the forward records its precision and multiplies at it, the
// backward reads it back and multiplies alike.
inline cuda::ProductPrecision keepPrecision(torch::autograd::AutogradContext* ctx, bool bfloat16) {
  ctx->saved_data["bfloat16"] = bfloat16;
  return cuda::precisionOf(bfloat16);
}
inline cuda::ProductPrecision keptPrecision(torch::autograd::AutogradContext* ctx) {
  return cuda::precisionOf(ctx->saved_data["bfloat16"].toBool());
}

// The gradient reaching a final state, into the buffer the backward carries and overwrites.
inline void carryInto(torch::Tensor& buffer, const torch::Tensor& grad) {
  if (grad.defined()) {
    buffer.copy_(grad);
  } else {
    buffer.zero_();
  }
}

}  // namespace gpu_window

template <typename Window, typename Call>
class GpuWindowFunction : public torch::autograd::Function<GpuWindowFunction<Window, Call>> {
 public:
  using AutogradContext = torch::autograd::AutogradContext;
  using variable_list = torch::autograd::variable_list;
  using Sizes = typename Window::Sizes;

  // The inputs come as one list, in the order of the layout's Inputs, so that autograd counts
  // each as an input of its own; keep: whether a backward will run; bfloat16: how the products
  // multiply (the backward multiplies alike).
  static variable_list forward(AutogradContext* ctx, at::TensorList inputs, bool keep,
                               bool bfloat16) {
    WindowTensors<Window> in;
    size_t next = 0;
    forEachSaved(in, [&](torch::Tensor& t) { t = inputs[next++]; });
    const auto sizes = Window::sizesOf(in);
    gpu_window::checkShapes<Window>(in, sizes);
    const auto first = inputs[0];
    auto out = gpu_window::allocate<typename Window::template Outputs<torch::Tensor>>(
        Window::outputShapes(sizes), first.options());
    cuda::WindowForwardBuffers<Window> buffers;
    gpu_window::pointTo(in, static_cast<typename Window::template Inputs<const float*>&>(buffers));
    gpu_window::pointTo(out, static_cast<typename Window::template Outputs<float*>&>(buffers));
    {
      Call call(first, gpu_window::keepPrecision(ctx, bfloat16));
      windowForward(sizes, buffers, call.ops);
    }
    gpu_window::keepSizes(ctx, sizes);
    if (keep) saveWindow(ctx, Window::saved(in, out));
    variable_list result{out.hs, out.hs.select(0, sizes.T - 1).clone()};
    if constexpr (Window::kCarriesCell) result.push_back(out.c.select(0, sizes.T).clone());
    return result;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto sizes = gpu_window::keptSizes<Sizes>(ctx);
    auto saved = savedWindow<typename Window::template Saved<torch::Tensor>>(ctx);
    const auto& first = std::get<0>(Window::template Saved<torch::Tensor>::members(saved));
    auto g = gpu_window::allocate<typename Window::template Gradients<torch::Tensor>>(
        Window::gradientShapes(sizes), first.options());
    gpu_window::carryInto(g.dh, grads[1]);
    if constexpr (Window::kCarriesCell) gpu_window::carryInto(g.dc, grads[2]);
    const torch::Tensor dHs = stepsGradient(grads[0]);
    cuda::WindowBackwardBuffers<Window> buffers;
    gpu_window::pointTo(g, static_cast<typename Window::template Gradients<float*>&>(buffers));
    buffers.saved = savedData(saved);
    buffers.dHs = dataOrNull(dHs);
    {
      Call call(first, gpu_window::keptPrecision(ctx));
      windowBackward(sizes, buffers, call.ops);
    }
    variable_list result;
    forEachSaved(Window::inputGradients(g), [&](torch::Tensor& t) { result.push_back(t); });
    result.emplace_back();  // keep
    result.emplace_back();  // bfloat16
    return result;
  }
};

// The window on `given` (the mask an empty or undefined tensor for none): its inputs as the
// kernels read them (float32, contiguous), the backward kept only where one will run.
template <typename Window, typename Call>
FusedWindowResult runGpuWindow(WindowTensors<Window> in, bool bfloat16) {
  in.mask = windowMask(in.mask, in.h0);
  std::vector<torch::Tensor> inputs;
  forEachSaved(in, [&](const torch::Tensor& t) { inputs.push_back(windowInput(t)); });
  const bool keep = windowNeedsBackward(inputs);
  const auto out = GpuWindowFunction<Window, Call>::apply(at::TensorList(inputs), keep, bfloat16);
  return {out[0], out[1], Window::kCarriesCell ? out[2] : torch::Tensor()};
}

}  // namespace mrnn::engine
