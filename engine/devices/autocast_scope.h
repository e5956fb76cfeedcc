#pragma once

namespace mrnn::engine {

// bf16 autocast on CUDA for the scope's lifetime (LibTorch 1.13 and 2.x spell it
// differently; the difference stays in autocast_scope.cpp). Does nothing when disabled.
class AutocastScope {
 public:
  explicit AutocastScope(bool enabled);
  // Whether this thread autocasts CUDA work to bfloat16 now: the fused GPU windows then
  // multiply at bfloat16 as autocast would, keeping their states in float32.
  static bool bfloat16OnCuda();
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool enabled_;
};

}  // namespace mrnn::engine
