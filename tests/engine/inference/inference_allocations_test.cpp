// A frozen step allocates nothing: this executable counts every operator new while a flag
// is set (LibTorch creates each tensor's TensorImpl with new, so a LibTorch op would count
// too), and the frozen model is stepped with it set.

#include <torch/torch.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "engine/inference/single_stream_model.h"
#include "engine/models/language_model.h"
#include "test_harness.h"

namespace {

std::atomic<bool> counting{false};
std::atomic<long> allocations{0};

void* allocate(std::size_t size, std::size_t alignment) {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1);
  const std::size_t rounded = (size + alignment - 1) / alignment * alignment;
  void* p = alignment <= alignof(std::max_align_t) ? std::malloc(size ? size : 1)
                                                   : std::aligned_alloc(alignment, rounded);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

void* operator new(std::size_t size) {
  return allocate(size, alignof(std::max_align_t));
}
void* operator new(std::size_t size, std::align_val_t alignment) {
  return allocate(size, static_cast<std::size_t>(alignment));
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  std::free(p);
}

using namespace mrnn;

namespace {

long allocationsDuring(engine::SingleStreamModel& frozen, int steps) {
  allocations = 0;
  counting = true;
  for (int t = 0; t < steps; ++t) frozen.step(t % frozen.vocab());
  counting = false;
  return allocations.load();
}

}  // namespace

MRNN_TEST(frozen_steps_allocate_nothing) {
  engine::ModelConfig config;
  config.input.embeddingSize = 16;
  for (engine::CellType type : {engine::CellType::Mlstm, engine::CellType::Mogrifier,
                                engine::CellType::Mmlstm, engine::CellType::Tmgru}) {
    engine::LayerConfig layer;
    layer.type = type;
    layer.hiddenSize = 384;  // large enough for the threaded products
    layer.rank = 8;
    config.layers = {layer, layer};
    engine::LanguageModel model(config, 40);
    model.setClamps({{0, 3, 0.5}});
    model.setOutputMask(1, torch::ones({384}));
    torch::NoGradGuard noGrad;
    model.eval();
    engine::SingleStreamModel frozen(model);
    const int threads = torch::get_num_threads();
    for (int n : {1, 2}) {
      torch::set_num_threads(n);
      frozen.step(1);  // first use of the thread team
      EXPECT_MSG(allocationsDuring(frozen, 50) == 0,
                 engine::cellTypeName(type)
                     << " on " << n << " threads: " << allocations.load() << " allocations");
    }
    torch::set_num_threads(threads);
  }
  // The counter does count: the LibTorch path allocates on every step.
  engine::LanguageModel model(config, 40);
  torch::NoGradGuard noGrad;
  model.eval();
  auto state = model.initialState(1);
  const auto token = torch::full({1, 1}, 2, torch::kLong);
  allocations = 0;
  counting = true;
  model.forward(token, state);
  counting = false;
  EXPECT(allocations.load() > 0);
}
