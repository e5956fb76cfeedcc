#pragma once

#include <cstdint>

#include "engine/config/model_config.h"

namespace mrnn::engine {

// The raw-float counterparts of lstmUpdate() and gruUpdate() (engine/models), for the frozen
// cells. Both keep the torch versions' order of operations.

// pre: the gate pre-activations [4n] in the order i, f, o, j (overwritten by the gates);
// c: c_{t-1} in, c_t out; h: h_t out. c = f * c + i * tanh(j); h = o * tanh(c), or
// tanh(o * c) with the output gate inside.
void lstmFinish(float* pre, float* c, float* h, int64_t n, OutputGate gate);

// h = (1 - z) * h + z * j, in place.
void gruFinish(const float* z, const float* j, float* h, int64_t n);

}  // namespace mrnn::engine
