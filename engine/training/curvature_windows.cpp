#include "engine/training/curvature_windows.h"

#include <torch/csrc/autograd/forward_grad.h>
#include <torch/torch.h>

#include "engine/models/output_loss.h"
#include "engine/models/tangent_mode.h"

#include <map>
#include <mutex>
#include <stdexcept>

namespace mrnn::engine {
namespace {

// LibTorch keeps forward-mode levels per process and refuses a second at once ("nested
// forward mode"): two trainings in one process (ranks on threads in the tests, two runs in
// the workbench) take turns at it.
std::mutex& forwardModeTurn() {
  static std::mutex turn;
  return turn;
}

// Forward-mode differentiation of the model for the scope's lifetime: a dual level, no
// autograd graph, TangentMode (a tangent window in the cells that have one, the per-step loop
// in the others: the fused windows have no forward derivative). Each parameter's tangent is
// its slice of v; leaving the scope drops them.
class TangentScope {
 public:
  TangentScope(const std::vector<torch::Tensor>& parameters, const torch::Tensor& v)
      : turn_(forwardModeTurn()),
        level_(torch::autograd::ForwardADLevel::get_next_idx()),
        mode_(level_) {
    int64_t offset = 0;
    for (const auto& p : parameters) {
      p._set_fw_grad(v.narrow(0, offset, p.numel()).view_as(p), level_, /*is_inplace_op=*/false);
      offset += p.numel();
    }
    if (offset != v.numel()) {
      throw std::invalid_argument("a curvature product's vector has " + std::to_string(v.numel()) +
                                  " entries; the model has " + std::to_string(offset) +
                                  " parameters");
    }
  }
  ~TangentScope() { torch::autograd::ForwardADLevel::release_idx(level_); }
  TangentScope(const TangentScope&) = delete;
  TangentScope& operator=(const TangentScope&) = delete;

  uint64_t level() const { return level_; }
  // The tangent of `dual` (zeros where it has none: it does not depend on the parameters).
  torch::Tensor tangent(const torch::Tensor& dual) const {
    const auto t = dual._fw_grad(level_);
    return t.defined() ? t.detach().clone() : torch::zeros_like(dual.detach());
  }

 private:
  std::lock_guard<std::mutex> turn_;
  uint64_t level_;
  TangentMode mode_;
  torch::NoGradGuard noGrad_;
};

torch::Tensor flatGradient(const std::vector<torch::Tensor>& parameters,
                           const std::vector<torch::Tensor>& grads) {
  std::vector<torch::Tensor> pieces;
  pieces.reserve(parameters.size());
  for (size_t i = 0; i < parameters.size(); ++i) {
    pieces.push_back(grads[i].defined()
                         ? grads[i].reshape({-1})
                         : torch::zeros({parameters[i].numel()}, parameters[i].options()));
  }
  return torch::cat(pieces);
}

ModelState copyState(const ModelState& state) {
  ModelState out = state;
  for (auto& layer : out.layers) {
    for (auto& part : layer.parts) part = part.detach();
  }
  return out;
}

}  // namespace

CurvatureWindows::CurvatureWindows(LanguageModel& model, std::vector<CurvatureWindow> windows,
                                   double count, std::function<void()> poll)
    : model_(model),
      windows_(std::move(windows)),
      count_(count > 0 ? count : 1.0),
      poll_(std::move(poll)),
      symbols_(model.config().predictsSymbols()) {
  for (size_t i = 0; i < model.layerCount(); ++i)
    tanhLayers_.push_back(model.layer(i).tanhOutput());
}

torch::Tensor CurvatureWindows::maskedLoss(const torch::Tensor& outputs,
                                           const CurvatureWindow& window) const {
  const auto loss = stepLoss(outputs, window.targets, window.targetValues, symbols_);
  return window.mask.defined() ? (loss * window.mask).sum() : loss.sum();
}

torch::Tensor CurvatureWindows::forward(CurvatureWindow& window, WindowMasks& masks,
                                        std::vector<torch::Tensor>* hidden) {
  ModelState state = copyState(window.start);
  masks.rewind();
  return model_.forward(window.inputs, state, nullptr, {&masks, hidden, window.values});
}

void CurvatureWindows::linearise(const std::vector<torch::Tensor>& parameters) {
  std::vector<int64_t> versions;
  for (const auto& p : parameters) versions.push_back(p._version());
  if (!linearised_.empty() && versions == versions_) return;
  linearised_.clear();
  versions_ = versions;
  torch::AutoGradMode gradients(true);  // CG may call in from a no-grad scope
  for (auto& window : windows_) {
    poll();
    Linearised out;
    out.outputs = forward(window, window.masks, &out.hidden);
    linearised_.push_back(std::move(out));
  }
}

torch::Tensor CurvatureWindows::product(const std::vector<torch::Tensor>& parameters,
                                        const torch::Tensor& v, double structural) {
  if (windows_.empty()) return torch::zeros_like(v);
  linearise(parameters);
  // J v for every window: the tangents of the log-probabilities and of each layer's output.
  std::vector<torch::Tensor> outputTangents;
  std::vector<std::vector<torch::Tensor>> hiddenTangents;
  {
    TangentScope scope(parameters, v);
    for (size_t w = 0; w < windows_.size(); ++w) {
      poll();
      auto& window = windows_[w];
      // The kept forward's layer outputs: the tangent windows start from them.
      std::map<const RecurrentCell*, torch::Tensor> known;
      for (size_t l = 0; l < linearised_[w].hidden.size(); ++l) {
        known[&model_.layer(l)] = linearised_[w].hidden[l];
      }
      TangentMode::setKnownOutputs(std::move(known));
      std::vector<torch::Tensor> hidden;
      outputTangents.push_back(scope.tangent(forward(window, window.masks, &hidden)));
      std::vector<torch::Tensor> tangents;
      if (structural != 0.0) {
        for (const auto& h : hidden) tangents.push_back(scope.tangent(h));
      }
      hiddenTangents.push_back(std::move(tangents));
    }
  }
  // Jᵀ (H J v) through the kept graph, all windows in one backward.
  std::vector<torch::Tensor> outputs;
  std::vector<torch::Tensor> weights;
  for (size_t w = 0; w < windows_.size(); ++w) {
    const auto& lin = linearised_[w];
    auto u = lossCurvature(lin.outputs, outputTangents[w], symbols_);
    if (windows_[w].mask.defined()) u = u * windows_[w].mask.unsqueeze(2);
    outputs.push_back(lin.outputs);
    weights.push_back(u / count_);
    for (size_t l = 0; l < hiddenTangents[w].size(); ++l) {
      const auto& h = lin.hidden[l];
      auto d = hiddenTangents[w][l];
      if (tanhLayers_[l]) {
        // D'' = 1/(1 − h²); where h saturated to ±1 its tangent is 0 as well, and so is this.
        const auto slope = 1.0 - h.detach() * h.detach();
        d = torch::where(slope > 0, d / slope, torch::zeros_like(d));
      }
      outputs.push_back(h);
      weights.push_back(d * (structural / count_));
    }
  }
  torch::AutoGradMode gradients(true);
  const auto grads = torch::autograd::grad(outputs, parameters, weights, /*retain_graph=*/true,
                                           /*create_graph=*/false, /*allow_unused=*/true);
  return flatGradient(parameters, grads);
}

torch::Tensor CurvatureWindows::squaredGradients(const std::vector<torch::Tensor>& parameters) {
  torch::AutoGradMode gradients(true);
  int64_t total = 0;
  for (const auto& p : parameters) total += p.numel();
  auto sum = torch::zeros({total}, parameters.front().options().requires_grad(false));
  if (windows_.empty()) return sum;
  const int64_t streams = windows_.front().inputs.size(1);
  for (int64_t row = 0; row < streams; ++row) {
    const auto index = torch::tensor({row}, torch::kLong).to(windows_.front().inputs.device());
    torch::Tensor gradient;
    for (auto& window : windows_) {
      poll();
      const auto rows = [&](const torch::Tensor& t) {
        return t.defined() ? t.index_select(1, index) : torch::Tensor();
      };
      CurvatureWindow one{rows(window.inputs),        rows(window.targets),
                          rows(window.mask),          rows(window.values),
                          rows(window.targetValues),  window.start.rows(index),
                          window.masks.streams(index)};
      const auto outputs = forward(one, one.masks, nullptr);
      const auto grads = torch::autograd::grad({maskedLoss(outputs, one)}, parameters, {},
                                               /*retain_graph=*/false, false, true);
      const auto flat = flatGradient(parameters, grads);
      gradient = gradient.defined() ? gradient + flat : flat;
    }
    sum += gradient * gradient;
  }
  return sum / count_;
}

double CurvatureWindows::loss() {
  torch::NoGradGuard noGrad;
  double total = 0.0;
  for (auto& window : windows_) {
    poll();
    total += maskedLoss(forward(window, window.masks, nullptr), window).item<double>();
  }
  return total / count_;
}

}  // namespace mrnn::engine
