// Finite-difference gradient checks in double precision: for every cell, autograd's gradient
// of a scalar loss over a short sequence agrees with central differences, for entries of
// every parameter and of the input.

#include <torch/torch.h>

#include "cell_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

// loss = sum_t <h_t, R_t> over a 3-step window from a fixed random state.
torch::Tensor lossOf(engine::RecurrentCell& cell, const torch::Tensor& x, const torch::Tensor& emb,
                     const engine::CellState& start, const torch::Tensor& projection) {
  engine::CellState state = start;
  const auto h = cell.forward(x, emb, state);
  return (h * projection).sum();
}

void checkEntries(const std::string& what, torch::Tensor variable, const torch::Tensor& analytic,
                  const std::function<double()>& loss) {
  const int64_t n = variable.numel();
  const int64_t picks[] = {0, n / 3, n / 2, (2 * n) / 3, n - 1};
  auto flat = variable.view(-1);
  const auto grad = analytic.reshape(-1);
  const double eps = 1e-6;
  for (int64_t index : picks) {
    const double saved = flat[index].item<double>();
    {
      torch::NoGradGuard noGrad;
      flat[index].fill_(saved + eps);
    }
    const double up = loss();
    {
      torch::NoGradGuard noGrad;
      flat[index].fill_(saved - eps);
    }
    const double down = loss();
    {
      torch::NoGradGuard noGrad;
      flat[index].fill_(saved);
    }
    const double numeric = (up - down) / (2 * eps);
    const double exact = grad[index].item<double>();
    EXPECT_MSG(
        std::fabs(numeric - exact) <= 1e-6 * std::max(1.0, std::fabs(exact)),
        what << "[" << index << "]: autograd " << exact << ", finite difference " << numeric);
  }
}

}  // namespace

MRNN_TEST(every_cell_has_correct_gradients) {
  for (const auto& cellCase : allCellCases()) {
    auto cell = makeRandomCell(cellCase.layer, 3);
    const auto options = torch::TensorOptions().dtype(torch::kDouble);
    torch::manual_seed(5);
    auto x = torch::randn({3, 2, kInput}, options).requires_grad_(true);
    const auto emb = torch::randn({3, 2, kEmbedding}, options);
    const auto projection = torch::randn({3, 2, cell->outputSize()}, options);
    engine::CellState start;
    randomState(*cell, 2, 9, start);

    cell->zero_grad();
    lossOf(*cell, x, emb, start, projection).backward();
    auto evaluate = [&] {
      torch::NoGradGuard noGrad;
      return lossOf(*cell, x, emb, start, projection).item<double>();
    };
    for (auto& item : cell->named_parameters()) {
      checkEntries(cellCase.label + " " + item.key(), item.value(), item.value().grad(), evaluate);
    }
    checkEntries(cellCase.label + " input", x, x.grad(), evaluate);
  }
}
