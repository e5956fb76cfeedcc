#pragma once

// Shared by the cell tests: small configurations of every cell (and the variants the papers
// name), built in double precision with every parameter drawn at random, so biases and
// gains are exercised too.

#include <torch/types.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/models/recurrent_cell.h"
#include "reference_cells.h"

namespace mrnn::test {

struct CellCase {
  std::string label;
  engine::LayerConfig layer;
};

constexpr int64_t kInput = 5;      // I
constexpr int64_t kEmbedding = 6;  // the model input width a Major-Minor minor LSTM reads

// Every zoo cell, with I = 5, H = 4 and M = 3 (M != H catches transposed shapes), plus the
// variants: output gate inside, Mogrifier full/low rank, odd/even rounds, no zigzag, r = 0,
// Major-Minor fed by the embedding and by the layer below.
std::vector<CellCase> allCellCases();

// The cell in double precision with parameters ~ N(0, 0.5^2), seeded.
std::shared_ptr<engine::RecurrentCell> makeRandomCell(const engine::LayerConfig& layer,
                                                      uint64_t seed);

// Parameters by name, as reference matrices (leading dimensions folded into rows).
Weights weightsOf(const engine::RecurrentCell& cell);

Vec rowOf(const torch::Tensor& matrix, int64_t row);
torch::Tensor randomState(const engine::RecurrentCell& cell, int64_t batch, uint64_t seed,
                          engine::CellState& state);

}  // namespace mrnn::test
