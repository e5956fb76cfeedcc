// The window forward (input projections hoisted) equals repeated single steps, and the rows
// of a batch never influence each other.

#include <torch/torch.h>

#include "cell_fixtures.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;

MRNN_TEST(sequence_forward_equals_repeated_steps) {
  for (const auto& cellCase : allCellCases()) {
    auto cell = makeRandomCell(cellCase.layer, 21);
    torch::manual_seed(4);
    const auto options = torch::TensorOptions().dtype(torch::kDouble);
    const auto x = torch::randn({6, 3, kInput}, options);
    const auto emb = torch::randn({6, 3, kEmbedding}, options);
    engine::CellState windowState;
    randomState(*cell, 3, 8, windowState);
    engine::CellState stepState = windowState;

    const auto window = cell->forward(x, emb, windowState);
    for (int64_t t = 0; t < 6; ++t) {
      const auto h = cell->step(x[t], emb[t], stepState);
      EXPECT_MSG(torch::allclose(window[t], h, 0.0, 1e-12),
                 cellCase.label << ": step " << t << " differs from the window forward");
    }
    for (size_t p = 0; p < windowState.parts.size(); ++p) {
      EXPECT_MSG(torch::allclose(windowState.parts[p], stepState.parts[p], 0.0, 1e-12),
                 cellCase.label << ": final state part " << p << " differs");
    }
  }
}

MRNN_TEST(batch_rows_are_independent) {
  for (const auto& cellCase : allCellCases()) {
    auto cell = makeRandomCell(cellCase.layer, 31);
    torch::manual_seed(6);
    const auto options = torch::TensorOptions().dtype(torch::kDouble);
    const auto x = torch::randn({5, 4, kInput}, options);
    const auto emb = torch::randn({5, 4, kEmbedding}, options);
    engine::CellState batchState;
    randomState(*cell, 4, 2, batchState);
    const engine::CellState start = batchState;
    const auto together = cell->forward(x, emb, batchState);

    for (int64_t b = 0; b < 4; ++b) {
      engine::CellState alone;
      for (const auto& part : start.parts) alone.parts.push_back(part.narrow(0, b, 1).clone());
      const auto single = cell->forward(x.narrow(1, b, 1), emb.narrow(1, b, 1), alone);
      EXPECT_MSG(torch::allclose(together.narrow(1, b, 1), single, 0.0, 1e-12),
                 cellCase.label << ": row " << b << " depends on the other rows");
    }
    // Changing one row's input leaves the other rows' outputs unchanged.
    auto changed = x.clone();
    changed.narrow(1, 0, 1).add_(1.0);
    engine::CellState again = start;
    const auto perturbed = cell->forward(changed, emb, again);
    EXPECT(torch::allclose(perturbed.narrow(1, 1, 3), together.narrow(1, 1, 3), 0.0, 1e-12));
    EXPECT(!torch::allclose(perturbed.narrow(1, 0, 1), together.narrow(1, 0, 1), 0.0, 1e-6));
  }
}
