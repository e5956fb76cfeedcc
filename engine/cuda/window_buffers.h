#pragma once

// The buffers every GPU window (cuda_<cell>_window.h) takes, built from its cell's layout
// (engine/windows/<cell>_window_layout.h, window_saved.h): the forward reads the inputs and
// writes the outputs; the backward reads the forward's saved buffers and the gradient reaching
// every step's h, and writes the gradients. Raw float32 pointers, row-major and contiguous;
// the caller owns every buffer (a LibTorch CUDA tensor's data, cudaMalloc, or host memory in
// the tests). No LibTorch and no CUDA header here.

namespace mrnn::engine::cuda {

template <typename Window>
struct WindowForwardBuffers : Window::template Inputs<const float*>,
                              Window::template Outputs<float*> {};

template <typename Window>
struct WindowBackwardBuffers : Window::template Gradients<float*> {
  typename Window::template Saved<const float*> saved{};  // what the forward wrote or read
  const float* dHs = nullptr;  // [T, B, H]: the gradient reaching every step's h, or null
};

// What a forward with these buffers leaves for the backward.
template <typename Window>
typename Window::template Saved<const float*> savedBy(const WindowForwardBuffers<Window>& f) {
  return Window::saved(f, f);
}

}  // namespace mrnn::engine::cuda
