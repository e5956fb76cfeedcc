#include "engine/models/lstm_update.h"

#include <torch/torch.h>

namespace mrnn::engine {

LstmStep lstmUpdate(const torch::Tensor& pre, const torch::Tensor& cPrev, OutputGate gate,
                    ProbeRecorder* probes, const std::string& prefix) {
  const auto chunks = pre.chunk(4, 1);
  const auto i = torch::sigmoid(chunks[0]);
  const auto f = torch::sigmoid(chunks[1]);
  const auto o = torch::sigmoid(chunks[2]);
  const auto j = torch::tanh(chunks[3]);
  LstmStep out;
  out.c = f * cPrev + i * j;
  out.h = gate == OutputGate::Outside ? o * torch::tanh(out.c) : torch::tanh(o * out.c);
  if (probes) {
    probes->record(prefix + "i", i);
    probes->record(prefix + "f", f);
    probes->record(prefix + "o", o);
    probes->record(prefix + "j", j);
    probes->record(prefix + "c", out.c);
    probes->record(prefix + "h", out.h);
  }
  return out;
}

void setForgetBias(torch::Tensor& bias, int64_t hidden, double value) {
  torch::NoGradGuard noGrad;
  bias.narrow(0, hidden, hidden).fill_(value);
}

}  // namespace mrnn::engine
