#pragma once

#include <cstdint>

namespace torch::nn {
class Module;
}

namespace mrnn::engine {

// The matrix-product work of one symbol, counted from the model's weights: every entry of a
// weight matrix is one multiply-add per symbol in the forward pass (each of the cells' and
// the softmax's matrices is applied once per step; Mogrifier's rounds each have their own
// matrix). The embedding is a lookup and counts nothing; bias vectors, gains and the
// element-wise gate arithmetic are left out (under 2% at the benchmark shapes).
//   forward FLOPs per symbol  = 2 x matrix entries
//   training FLOPs per symbol = 6 x matrix entries (backward: a product for the input
//                               gradient and one for the weight gradient per forward product)
int64_t matrixEntries(const torch::nn::Module& model);

double forwardFlopsPerSymbol(const torch::nn::Module& model);
double trainingFlopsPerSymbol(const torch::nn::Module& model);
// A Gauss-Newton product with its linearisation kept = 10 x matrix entries: forward-mode
// differentiation recomputes the forward (2) and adds the tangent's two products per forward
// product (W ẋ and V x: 4), then the backward through the kept graph (4, as training's).
// 5/3 of a training step's 6.
double curvatureFlopsPerSymbol(const torch::nn::Module& model);

}  // namespace mrnn::engine
