#include "engine/training/window_objective.h"

#include <torch/torch.h>

#include <cmath>
#include <stdexcept>

#include "engine/devices/autocast_scope.h"
#include "engine/models/output_loss.h"
#include "engine/training/gradient_buckets.h"

namespace mrnn::engine {
namespace {

double countedTargets(const ObjectiveWindow& window, const torch::Tensor& streams = {}) {
  if (!window.mask.defined()) {
    const int64_t columns = streams.defined() ? streams.numel() : window.targets.size(1);
    return static_cast<double>(window.targets.size(0) * columns);
  }
  const auto mask = streams.defined() ? window.mask.index_select(1, streams) : window.mask;
  return mask.sum().item<double>();
}

ModelState detached(const ModelState& state) {
  ModelState out = state;
  out.detach();
  return out;
}

}  // namespace

WindowObjective::WindowObjective(LanguageModel& model, Collective& collective, ModelState start,
                                 std::vector<ObjectiveWindow> windows,
                                 const ObjectiveOptions& options)
    : model_(model), collective_(collective), parameters_(model.parameters()), options_(options) {
  if (windows.empty()) throw std::invalid_argument("an update needs at least one window");
  const auto& shard = options_.shard;
  const int64_t batch = windows.front().inputs.size(1);
  double counted = 0.0;
  for (auto& window : windows) {
    counted += countedTargets(window);
    const auto mine = [&](const torch::Tensor& t) {
      return t.defined() ? t.narrow(1, shard.begin, shard.count) : torch::Tensor();
    };
    Local local;
    local.inputs = mine(window.inputs);
    local.targets = mine(window.targets);
    local.mask = mine(window.mask);
    local.values = mine(window.values);
    local.targetValues = mine(window.targetValues);
    local.freshState = window.freshState;
    windows_.push_back(std::move(local));
  }
  gradientCount_ = std::max(1.0, counted);
  starts_.push_back(detached(start));

  // The curvature share: its windows' streams b with b % stride == 0, whatever the ranks.
  const auto& shape = options_.shape;
  if (shape.curvatureWindows > 0) {
    const int64_t stride = shape.curvatureSequences > 0 ? batch / shape.curvatureSequences : 1;
    const auto device = windows.front().inputs.device();
    std::vector<int64_t> all;
    std::vector<int64_t> mine;
    for (int64_t b = 0; b < batch; b += std::max<int64_t>(1, stride)) {
      all.push_back(b);
      if (b >= shard.begin && b < shard.begin + shard.count) mine.push_back(b - shard.begin);
    }
    const auto allRows = torch::tensor(all, torch::kLong).to(device);
    curvatureRows_ = torch::tensor(mine, torch::kLong).to(device);
    double curvatureCounted = 0.0;
    const size_t windowsUsed = std::min<size_t>(windows.size(), shape.curvatureWindows);
    for (size_t w = 0; w < windowsUsed; ++w)
      curvatureCounted += countedTargets(windows[w], allRows);
    curvatureCount_ = std::max(1.0, curvatureCounted);
  } else {
    curvatureCount_ = gradientCount_;
  }
}

WindowObjective::~WindowObjective() = default;

ModelState WindowObjective::startOf(size_t w) {
  if (windows_[w].freshState) return model_.initialState(windows_[w].inputs.size(1));
  if (w < starts_.size()) return starts_[w];
  throw std::logic_error("a window's start state is asked for before the pass that fixes it");
}

void WindowObjective::recordEnd(size_t w, const ModelState& state) {
  if (firstPassDone_ || starts_.size() != w + 1) return;  // known already
  if (w + 1 < windows_.size()) {
    starts_.push_back(detached(state));
  } else {
    end_ = detached(state);
    firstPassDone_ = true;
  }
}

torch::Tensor WindowObjective::windowLoss(size_t w, ModelState& state) {
  Local& window = windows_[w];
  window.masks.rewind();
  AutocastScope autocast(options_.bf16 && window.inputs.is_cuda());
  const auto outputs =
      model_.forward(window.inputs, state, nullptr, {&window.masks, nullptr, window.values});
  auto loss =
      stepLoss(outputs, window.targets, window.targetValues, model_.config().predictsSymbols());
  // Under bf16 autocast the sums run in float32 at least.
  if (loss.element_size() < 4) loss = loss.to(torch::kFloat);
  const auto sum = window.mask.defined() ? (loss * window.mask).sum() : loss.sum();
  return sum / gradientCount_;
}

void WindowObjective::poll() const {
  if (options_.stop != nullptr && options_.stop->stopRequested()) throw UpdateInterrupted();
}

void WindowObjective::ensureFirstPass() {
  if (firstPassDone_) return;
  torch::NoGradGuard noGrad;
  for (size_t w = 0; w < windows_.size(); ++w) {
    poll();
    ModelState state = startOf(w);
    windowLoss(w, state);
    recordEnd(w, state);
  }
}

double WindowObjective::sumOverRanks(double value) {
  if (collective_.size() == 1) return value;
  auto sum = torch::full({1}, value, torch::kDouble);
  collective_.sum(sum);
  return sum.item<double>();
}

void WindowObjective::zeroGradients() {
  for (auto& p : parameters_) {
    if (p.grad().defined()) {
      p.mutable_grad().detach_();
      p.mutable_grad().zero_();
    }
  }
}

double WindowObjective::loss(DataShare share) {
  if (share == DataShare::Curvature && options_.shape.curvatureWindows > 0) {
    return sumOverRanks(curvature().loss());
  }
  ensureFirstPass();
  torch::NoGradGuard noGrad;
  double total = 0.0;
  for (size_t w = 0; w < windows_.size(); ++w) {
    poll();
    ModelState state = startOf(w);
    total += windowLoss(w, state).item<double>();
  }
  return sumOverRanks(total);
}

double WindowObjective::lossAndGradient() {
  torch::AutoGradMode gradients(true);
  zeroGradients();
  const bool ranks = collective_.size() > 1;
  const bool bucketed = options_.buckets != nullptr && windows_.size() == 1;
  double total = 0.0;
  for (size_t w = 0; w < windows_.size(); ++w) {
    poll();
    ModelState state = startOf(w);
    const auto loss = windowLoss(w, state);
    recordEnd(w, state);
    const double value = loss.item<double>();
    total += value;
    // One process skips the backward of a non-finite loss (the update will not be made);
    // ranks go on, so that every rank takes part in the same sums and reaches the same end.
    if (!std::isfinite(value) && !ranks) return value;
    if (bucketed) options_.buckets->arm();
    loss.backward();
    if (bucketed) options_.buckets->finish();
  }
  if (ranks && !bucketed) {
    std::vector<torch::Tensor> pieces;
    for (auto& p : parameters_) {
      pieces.push_back(p.grad().defined() ? p.grad().reshape({-1})
                                          : torch::zeros_like(p).reshape({-1}));
    }
    auto flat = torch::cat(pieces);
    collective_.sum(flat);
    int64_t offset = 0;
    torch::NoGradGuard noGrad;
    for (auto& p : parameters_) {
      const auto slice = flat.narrow(0, offset, p.numel()).view_as(p);
      if (p.grad().defined()) {
        p.mutable_grad().copy_(slice);
      } else {
        p.mutable_grad() = slice.clone();
      }
      offset += p.numel();
    }
  }
  return sumOverRanks(total);
}

CurvatureWindows& WindowObjective::curvature() {
  if (curvature_) return *curvature_;
  ensureFirstPass();
  std::vector<CurvatureWindow> windows;
  // A rank may hold none of the share's streams: its part of every sum is then zero.
  const size_t used = curvatureRows_.numel() == 0
                          ? 0
                          : std::min<size_t>(windows_.size(), options_.shape.curvatureWindows);
  for (size_t w = 0; w < used; ++w) {
    Local& local = windows_[w];
    const auto rows = [&](const torch::Tensor& t) {
      return t.defined() ? t.index_select(1, curvatureRows_) : torch::Tensor();
    };
    CurvatureWindow window;
    window.inputs = rows(local.inputs);
    window.targets = rows(local.targets);
    window.mask = rows(local.mask);
    window.values = rows(local.values);
    window.targetValues = rows(local.targetValues);
    window.start = startOf(w).rows(curvatureRows_);
    window.masks = local.masks.streams(curvatureRows_);
    windows.push_back(std::move(window));
  }
  curvature_ = std::make_unique<CurvatureWindows>(model_, std::move(windows), curvatureCount_,
                                                  [this] { poll(); });
  return *curvature_;
}

torch::Tensor WindowObjective::curvatureProduct(const torch::Tensor& v, double structural) {
  if (options_.shape.curvatureWindows <= 0) {
    throw std::logic_error("a curvature product on an objective without a curvature share");
  }
  auto product = curvature().product(parameters_, v, structural);
  if (collective_.size() > 1) collective_.sum(product);
  return product;
}

torch::Tensor WindowObjective::squaredGradients() {
  if (options_.shape.curvatureWindows <= 0) {
    throw std::logic_error("squared gradients on an objective without a curvature share");
  }
  auto squares = curvature().squaredGradients(parameters_);
  if (collective_.size() > 1) collective_.sum(squares);
  return squares;
}

ModelState WindowObjective::endState() {
  ensureFirstPass();
  return end_;
}

}  // namespace mrnn::engine
