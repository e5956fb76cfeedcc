#include "engine/models/fused_mlstm_window.h"

#include <torch/torch.h>

#include <cmath>

namespace mrnn::engine {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Raw row-major views: the loops below index [b * stride + k].
struct Rows {
  float* data;
  int64_t stride;
};
Rows rows(const torch::Tensor& t) {
  return {t.data_ptr<float>(), t.stride(0)};
}

class MlstmWindowFunction : public torch::autograd::Function<MlstmWindowFunction> {
 public:
  static variable_list forward(AutogradContext* ctx, const torch::Tensor& xp,
                               const torch::Tensor& h0, const torch::Tensor& c0,
                               const torch::Tensor& wMh, const torch::Tensor& wM,
                               const torch::Tensor& mask) {
    const int64_t T = xp.size(0), B = xp.size(1), H = h0.size(1), M = wMh.size(0);
    const auto options = xp.options();
    // Everything backward needs, one tensor per kind for the window (no per-step tensors).
    auto hin = torch::empty({T, B, H}, options);        // h_{t-1} as it enters W_mh
    auto u = torch::empty({T, B, M}, options);          // W_mh h_{t-1}
    auto m = torch::empty({T, B, M}, options);          // (W_mx x) * u
    auto gates = torch::empty({T, B, 4 * H}, options);  // i f o j, activated
    auto c = torch::empty({T + 1, B, H}, options);      // c_0 .. c_T
    auto tanhC = torch::empty({T, B, H}, options);      // tanh(c_1) .. tanh(c_T)
    auto hs = torch::empty({T, B, H}, options);
    c.select(0, 0).copy_(c0);
    const bool masked = mask.numel() > 0;
    const float* maskData = masked ? mask.data_ptr<float>() : nullptr;
    const auto wMhT = wMh.t();
    const auto wMT = wM.t();
    auto hPrev = h0.contiguous();
    for (int64_t t = 0; t < T; ++t) {
      auto hinT = hin.select(0, t);
      {
        const float* hp = hPrev.data_ptr<float>();
        float* out = hinT.data_ptr<float>();
        for (int64_t k = 0; k < B * H; ++k) out[k] = masked ? hp[k] * maskData[k] : hp[k];
      }
      auto uT = u.select(0, t);
      at::mm_out(uT, hinT, wMhT);
      const auto xpT = xp.select(0, t);
      auto mT = m.select(0, t);
      {
        const Rows x = rows(xpT);
        const float* uu = uT.data_ptr<float>();
        float* mm = mT.data_ptr<float>();
        for (int64_t b = 0; b < B; ++b) {
          for (int64_t k = 0; k < M; ++k) mm[b * M + k] = x.data[b * x.stride + k] * uu[b * M + k];
        }
      }
      auto gT = gates.select(0, t);
      at::addmm_out(gT, xpT.narrow(1, M, 4 * H), mT, wMT);
      // The transcendental functions through LibTorch's vectorised kernels (SLEEF); the
      // products and sums, which they cannot fuse, in one pass over raw floats.
      gT.narrow(1, 0, 3 * H).sigmoid_();
      gT.narrow(1, 3 * H, H).tanh_();
      auto cNext = c.select(0, t + 1);
      {
        const float* g = gT.data_ptr<float>();
        const float* cp = c.select(0, t).data_ptr<float>();
        float* cn = cNext.data_ptr<float>();
        for (int64_t b = 0; b < B; ++b) {
          const float* row = g + b * 4 * H;
          for (int64_t k = 0; k < H; ++k) {
            cn[b * H + k] = row[H + k] * cp[b * H + k] + row[k] * row[3 * H + k];
          }
        }
      }
      auto tcT = tanhC.select(0, t);
      at::tanh_out(tcT, cNext);
      {
        const float* g = gT.data_ptr<float>();
        const float* tc = tcT.data_ptr<float>();
        float* h = hs.select(0, t).data_ptr<float>();
        for (int64_t b = 0; b < B; ++b) {
          for (int64_t k = 0; k < H; ++k) h[b * H + k] = g[b * 4 * H + 2 * H + k] * tc[b * H + k];
        }
      }
      hPrev = hs.select(0, t);
    }
    ctx->save_for_backward({xp, wMh, wM, mask, hin, u, m, gates, c, tanhC});
    auto hT = hs.select(0, T - 1).clone();
    auto cT = c.select(0, T).clone();
    return {hs, hT, cT};
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& xp = saved[0];
    const auto& wMh = saved[1];
    const auto& wM = saved[2];
    const auto& mask = saved[3];
    const auto& hin = saved[4];
    const auto& u = saved[5];
    const auto& m = saved[6];
    const auto& gates = saved[7];
    const auto& c = saved[8];
    const auto& tanhC = saved[9];
    const int64_t T = xp.size(0), B = xp.size(1), H = hin.size(2), M = wMh.size(0);
    const auto options = xp.options();
    const bool masked = mask.numel() > 0;
    const float* maskData = masked ? mask.data_ptr<float>() : nullptr;

    // The gradients flowing into the outputs (undefined where nothing used an output).
    const torch::Tensor dHs = grads[0].defined() ? grads[0].contiguous() : torch::Tensor();
    auto dh = grads[1].defined() ? grads[1].contiguous().clone() : torch::zeros({B, H}, options);
    auto dc = grads[2].defined() ? grads[2].contiguous().clone() : torch::zeros({B, H}, options);

    // The input projections' gradient, written in place: [dXm | dGates] per row, where
    // dGates is the gradient of the gates' pre-activations (no concatenation afterwards).
    auto dXp = torch::empty({T, B, M + 4 * H}, options);
    auto dGates = dXp.narrow(2, M, 4 * H);
    auto dXm = dXp.narrow(2, 0, M);
    auto dU = torch::empty({T, B, M}, options);
    auto dM = torch::empty({B, M}, options);
    auto dHin = torch::empty({B, H}, options);
    float* dhData = dh.data_ptr<float>();
    float* dcData = dc.data_ptr<float>();
    for (int64_t t = T - 1; t >= 0; --t) {
      {
        const float* g = gates.select(0, t).data_ptr<float>();
        const float* cPrev = c.select(0, t).data_ptr<float>();
        const float* tcNow = tanhC.select(0, t).data_ptr<float>();
        const float* dOut = dHs.defined() ? dHs.select(0, t).data_ptr<float>() : nullptr;
        const Rows dg = rows(dGates.select(0, t));
        for (int64_t b = 0; b < B; ++b) {
          const float* row = g + b * 4 * H;
          float* drow = dg.data + b * dg.stride;
          for (int64_t k = 0; k < H; ++k) {
            const int64_t at = b * H + k;
            const float i = row[k], f = row[H + k], o = row[2 * H + k], j = row[3 * H + k];
            const float dhk = dhData[at] + (dOut ? dOut[at] : 0.0f);
            const float tc = tcNow[at];
            const float dcell = dcData[at] + dhk * o * (1.0f - tc * tc);
            drow[k] = dcell * j * i * (1.0f - i);
            drow[H + k] = dcell * cPrev[at] * f * (1.0f - f);
            drow[2 * H + k] = dhk * tc * o * (1.0f - o);
            drow[3 * H + k] = dcell * i * (1.0f - j * j);
            dcData[at] = dcell * f;
          }
        }
      }
      at::mm_out(dM, dGates.select(0, t), wM);
      {
        const Rows x = rows(xp.select(0, t));
        const float* uu = u.select(0, t).data_ptr<float>();
        const float* dm = dM.data_ptr<float>();
        const Rows dx = rows(dXm.select(0, t));
        float* du = dU.select(0, t).data_ptr<float>();
        for (int64_t b = 0; b < B; ++b) {
          for (int64_t k = 0; k < M; ++k) {
            dx.data[b * dx.stride + k] = dm[b * M + k] * uu[b * M + k];
            du[b * M + k] = dm[b * M + k] * x.data[b * x.stride + k];
          }
        }
      }
      at::mm_out(dHin, dU.select(0, t), wMh);
      {
        const float* d = dHin.data_ptr<float>();
        for (int64_t k = 0; k < B * H; ++k) dhData[k] = masked ? d[k] * maskData[k] : d[k];
      }
    }
    // The weights' gradients: one product over all T x B rows each.
    const auto dWm = dXp.view({T * B, M + 4 * H}).narrow(1, M, 4 * H).t().mm(m.view({T * B, M}));
    const auto dWmh = dU.view({T * B, M}).t().mm(hin.view({T * B, H}));
    return {dXp, dh, dc, dWmh, dWm, torch::Tensor()};
  }
};

}  // namespace

bool fusedMlstmApplies(const torch::Tensor& xp, const torch::Tensor& wMh, const torch::Tensor& wM) {
  return xp.device().is_cpu() && xp.scalar_type() == torch::kFloat32 &&
         wMh.scalar_type() == torch::kFloat32 && wM.scalar_type() == torch::kFloat32 &&
         xp.size(0) > 0;
}

FusedWindowResult fusedMlstmWindow(const torch::Tensor& xp, const torch::Tensor& h0,
                                   const torch::Tensor& c0, const torch::Tensor& wMh,
                                   const torch::Tensor& wM, const torch::Tensor& mask) {
  const auto empty = torch::empty({0}, xp.options());
  const auto out = MlstmWindowFunction::apply(
      xp.contiguous(), h0.contiguous(), c0.contiguous(), wMh.contiguous(), wM.contiguous(),
      mask.defined() ? mask.expand_as(h0).contiguous() : empty);
  return {out[0], out[1], out[2]};
}

}  // namespace mrnn::engine
