#include "engine/models/fused_lstm_window.h"

#include <torch/torch.h>

#include <algorithm>
#include <vector>

#include "engine/models/fused_window_kernels.h"
#include "engine/models/window_saving.h"
#include "engine/windows/lstm_window_layout.h"

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The blocks of LSTMs side by side in one window (one for the LSTM; the Major-Minor LSTM's
// major and minor): block j has units [offset, offset + size) of h and c and gate columns
// [4 offset, 4 (offset + size)) of a row, ordered i f o j within the block, and its own W_h.
struct Block {
  int64_t offset, size;
};

std::vector<Block> blocksOf(at::TensorList weights) {
  std::vector<Block> blocks;
  int64_t offset = 0;
  for (const auto& w : weights) {
    blocks.push_back({offset, w.size(1)});
    offset += w.size(1);
  }
  return blocks;
}

class LstmWindowFunction : public torch::autograd::Function<LstmWindowFunction> {
 public:
  // weights is a TensorList so that autograd counts each block's W_h as an input of its own.
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& mask, at::TensorList weights) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1);
    const auto blocks = blocksOf(weights);
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window.
    const auto shape = lstmWindowShapes({T, B, H});
    auto hin = torch::empty(shape.hin, options);
    auto gates = torch::empty(shape.gates, options);
    auto c = torch::empty(shape.c, options);
    auto tanhC = torch::empty(shape.tanhC, options);
    auto hs = torch::empty({T, B, H}, options);
    c.select(0, 0).copy_(c0);
    const float* maskData = dataOrNull(mask);
    // xp may be a column block of a wider projection: rows are read through its strides, so
    // no copy of the block is made.
    const float* xpD = xp.data_ptr<float>();
    const int64_t xpStep = xp.stride(0), xpRow = xp.stride(1);
    float* hinD = hin.data_ptr<float>();
    float* gD = gates.data_ptr<float>();
    float* cD = c.data_ptr<float>();
    float* tcD = tanhC.data_ptr<float>();
    float* hsD = hs.data_ptr<float>();
    const float* hPrev = h0.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    std::vector<PackedWeights> wHPacked;
    for (size_t j = 0; j < blocks.size(); ++j) {
      const int64_t n = blocks[j].size;
      wHPacked.emplace_back(weights[j].data_ptr<float>(), n, true, 4 * n, n, T * B);
    }
    std::vector<PackedProduct> products(blocks.size());
    for (int64_t t = 0; t < T; ++t) {
      float* hinT = hinD + t * B * H;
      maskedCopy(hPrev, maskData, hinT, B * H);
      float* gT = gD + t * B * 4 * H;
      copyRows(xpD + t * xpStep, xpRow, gT, 4 * H, B, 4 * H);
      for (size_t j = 0; j < blocks.size(); ++j) {  // += h W_h^T, every block's together
        const auto [o, n] = blocks[j];
        products[j] = {&wHPacked[j], B, hinT + o, H, true, gT + 4 * o, 4 * H};
      }
      fusedProducts(products.data(), products.size());
      float* h = hsD + t * B * H;
      for (const auto& [o, n] : blocks) {
        lstmRowsForward(gT + 4 * o, 4 * H, cD + t * B * H + o, cD + (t + 1) * B * H + o,
                        tcD + t * B * H + o, h + o, B, n, H);
      }
      hPrev = h;
    }
    variable_list saved;
    forEachSaved(LstmWindowSaved<torch::Tensor>{weights[0], mask, hin, gates, c, tanhC},
                 [&](const torch::Tensor& tensor) { saved.push_back(tensor); });
    for (size_t j = 1; j < weights.size(); ++j) saved.push_back(weights[j]);  // more blocks
    ctx->save_for_backward(saved);
    return {hs, hs.select(0, T - 1).clone(), c.select(0, T).clone()};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = savedWindow<LstmWindowSaved<torch::Tensor>>(ctx);
    variable_list weights{saved.wH};
    const auto all = ctx->get_saved_variables();
    for (size_t i = kSavedCount; i < all.size(); ++i) weights.push_back(all[i]);
    const auto blocks = blocksOf(weights);
    const int64_t T = saved.hin.size(0), B = saved.hin.size(1), H = saved.hin.size(2);
    const auto options = saved.hin.options();
    const float* maskData = dataOrNull(saved.mask);
    const torch::Tensor dHs = stepsGradient(grads[0]);
    auto dh = carriedGradient(grads[1], B, H, options);
    auto dc = carriedGradient(grads[2], B, H, options);
    // The gates' pre-activation gradients are the input projection's gradient as they are.
    auto dXp = torch::empty({T, B, 4 * H}, options);
    auto dHin = torch::empty({B, H}, options);
    auto dhStep = torch::empty({B, H}, options);
    const float* gD = saved.gates.data_ptr<float>();
    const float* cD = saved.c.data_ptr<float>();
    const float* tcD = saved.tanhC.data_ptr<float>();
    const float* dOutD = dataOrNull(dHs);
    float* dXpD = dXp.data_ptr<float>();
    float* dHinD = dHin.data_ptr<float>();
    float* dhStepD = dhStep.data_ptr<float>();
    float* dhD = dh.data_ptr<float>();
    float* dcD = dc.data_ptr<float>();
    // The weights packed once for the window's T products (PackedWeights).
    std::vector<PackedWeights> wHPacked;
    for (size_t j = 0; j < blocks.size(); ++j) {
      const int64_t n = blocks[j].size;
      wHPacked.emplace_back(weights[j].data_ptr<float>(), n, false, n, 4 * n, T * B);
    }
    std::vector<PackedProduct> products(blocks.size());
    for (int64_t t = T - 1; t >= 0; --t) {
      addOrCopy(dhD, dOutD ? dOutD + t * B * H : nullptr, dhStepD, B * H);
      float* dG = dXpD + t * B * 4 * H;
      for (size_t j = 0; j < blocks.size(); ++j) {
        const auto [o, n] = blocks[j];
        lstmRowsBackward(gD + t * B * 4 * H + 4 * o, 4 * H, cD + t * B * H + o, tcD + t * B * H + o,
                         dhStepD + o, dcD + o, dG + 4 * o, 4 * H, B, n, H);
        products[j] = {&wHPacked[j], B, dG + 4 * o, 4 * H, false, dHinD + o, H};  // dG W_h
      }
      fusedProducts(products.data(), products.size());
      maskedCopy(dHinD, maskData, dhD, B * H);
    }
    variable_list out{dXp, dh, dc, torch::Tensor()};  // no gradient for the mask
    const auto rows = dXp.view({T * B, 4 * H});
    const auto hinRows = saved.hin.view({T * B, H});
    for (const auto& [o, n] : blocks) {
      out.push_back(rows.narrow(1, 4 * o, 4 * n).t().mm(hinRows.narrow(1, o, n)));
    }
    return out;
  }

 private:
  static constexpr size_t kSavedCount = 6;  // LstmWindowSaved's members
};

}  // namespace

FusedWindowResult fusedBlockLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                       const torch::Tensor& c0,
                                       const std::vector<torch::Tensor>& wH,
                                       const torch::Tensor& mask) {
  std::vector<torch::Tensor> weights;
  for (const auto& w : wH) weights.push_back(w.contiguous());
  const auto out =
      LstmWindowFunction::apply(xp.stride(2) == 1 ? xp : xp.contiguous(), h0.contiguous(),
                                c0.contiguous(), windowMask(mask, h0), at::TensorList(weights));
  return {out[0], out[1], out[2]};
}

FusedWindowResult fusedLstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                  const torch::Tensor& c0, const torch::Tensor& wH,
                                  const torch::Tensor& mask) {
  return fusedBlockLstmWindow(xp, h0, c0, {wH}, mask);
}

}  // namespace mrnn::engine
