#pragma once

#include <torch/types.h>

#include <string>

#include "engine/config/model_config.h"
#include "engine/models/probe_recorder.h"

namespace mrnn::engine {

// The LSTM memory update shared by every LSTM-family cell (Krause eqs. 15-16). `pre` holds
// the four gate pre-activations in the order i, f, o, j (j is the candidate h-hat):
//   c = f * c_prev + i * tanh(j);  h = o * tanh(c), or h = tanh(o * c) with the output gate
// inside (Krause §4.1). Records probes i, f, o, j (= tanh(h-hat)), c, h under `prefix`.
struct LstmStep {
  torch::Tensor h;
  torch::Tensor c;
};

LstmStep lstmUpdate(const torch::Tensor& pre, const torch::Tensor& cPrev, OutputGate gate,
                    ProbeRecorder* probes, const std::string& prefix = "");

// Sets the forget-gate slice [H, 2H) of a bias laid out i, f, o, j.
void setForgetBias(torch::Tensor& bias, int64_t hidden, double value);

}  // namespace mrnn::engine
