#pragma once

// The papers' equations for one example and one time step, written independently of the
// engine: plain loops over weights read by their documented names (docs/cells.md).

#include <map>
#include <string>

#include "engine/config/model_config.h"
#include "reference_math.h"

namespace mrnn::test {

// Weights by parameter name. A batched [G, R, C] tensor is stored as G*R rows of C, so
// rowRange() picks one block.
using Weights = std::map<std::string, Mat>;

struct RefState {
  Vec h;
  Vec c;  // empty for cells without a memory cell
};

struct RefResult {
  RefState state;
  std::map<std::string, Vec> probes;
};

// x: this step's input; embedding: the model input vector (Major-Minor minor LSTM only).
RefResult referenceStep(const engine::LayerConfig& layer, const Weights& w, const Vec& x,
                        const Vec& embedding, const RefState& previous);

}  // namespace mrnn::test
