// Every cell's fused window against the generic per-step loop (fused_window_check.h): the
// same outputs, final state and gradients, on every case of the cell fixtures, with and
// without a state mask and weight normalisation, on every product and kernel path.

#include <torch/torch.h>

#include <string>

#include "cell_fixtures.h"
#include "engine/config/cell_type.h"
#include "engine/kernels/blas_gemm.h"
#include "engine/kernels/vector_kernels.h"
#include "fused_window_check.h"
#include "test_harness.h"

using namespace mrnn;
using namespace mrnn::test;
using engine::CellType;

namespace {

engine::LayerConfig sized(CellType type, int64_t hidden, int64_t m) {
  engine::LayerConfig layer;
  layer.type = type;
  layer.hiddenSize = hidden;
  layer.mSize = m;
  layer.rank = 3;
  return layer;
}

}  // namespace

MRNN_TEST(fused_rnn_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Rnn);
}
MRNN_TEST(fused_mrnn_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Mrnn);
}
MRNN_TEST(fused_lstm_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Lstm);
}
MRNN_TEST(fused_mlstm_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Mlstm);
}
MRNN_TEST(fused_tmlstm_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Tmlstm);
}
MRNN_TEST(fused_gru_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Gru);
}
MRNN_TEST(fused_mgru_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Mgru);
}
MRNN_TEST(fused_tmgru_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Tmgru);
}
MRNN_TEST(fused_mogrifier_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Mogrifier);
}
MRNN_TEST(fused_mmlstm_equals_the_loop) {
  compareFusedWithLoopForType(CellType::Mmlstm);
}
MRNN_TEST(milstm_runs_the_loop) {
  compareFusedWithLoopForType(CellType::Milstm);
}

MRNN_TEST(fused_windows_equal_the_loop_at_larger_sizes) {
  // M != H and sizes past a vector register, so that no stride or block offset hides.
  for (CellType type : engine::allCellTypes()) {
    compareFusedWithLoop(sized(type, 16, 24), true, engine::cellTypeName(type) + " H 16, M 24");
  }
}

MRNN_TEST(fused_windows_equal_the_loop_on_every_product_and_kernel_path) {
  // The windows' products through CBLAS or through LibTorch, their activations through the
  // best vector kernels or the portable ones: the same answers on every path.
  const auto best = engine::activeKernelIsa();
  for (bool raw : {true, false}) {
    for (auto isa : {best, engine::KernelIsa::Scalar}) {
      engine::setRawSgemmEnabled(raw);
      engine::setKernelIsa(isa);
      for (CellType type : engine::allCellTypes()) {
        compareFusedWithLoop(sized(type, 9, 6), true,
                             engine::cellTypeName(type) + ", " +
                                 std::string(raw ? "CBLAS" : "LibTorch") + " products, " +
                                 engine::kernelIsaName(isa) + " kernels");
      }
    }
  }
  engine::setRawSgemmEnabled(true);
  engine::resetKernelIsa();
}

MRNN_TEST(fused_windows_without_autograd_equal_the_loop) {
  // Evaluation runs the windows under NoGradGuard, where they keep one step's buffers only.
  torch::NoGradGuard noGrad;
  for (const auto& [label, layer] : allCellCases()) {
    auto cell = makeRandomCell(layer, 7);
    cell->to(torch::kFloat);
    torch::manual_seed(3);
    const auto x = torch::randn({9, 3, kInput});
    const auto embedding = torch::randn({9, 3, kEmbedding});
    std::vector<torch::Tensor> start;
    for (int p = 0; p < cell->statePartCount(); ++p) {
      start.push_back(torch::randn({3, layer.hiddenSize}));
    }
    std::vector<torch::Tensor> hs;
    std::vector<engine::CellState> ends;
    for (bool fused : {true, false}) {
      cell->setFusedEnabled(fused);
      engine::CellState state;
      for (const auto& part : start) state.parts.push_back(part.clone());
      hs.push_back(cell->forward(x, embedding, state));
      ends.push_back(state);
    }
    EXPECT_MSG(torch::allclose(hs[0], hs[1], 1e-5, 1e-6), label << ": h differs without autograd");
    for (size_t p = 0; p < ends[0].parts.size(); ++p) {
      EXPECT_MSG(torch::allclose(ends[0].parts[p], ends[1].parts[p], 1e-5, 1e-6),
                 label << ": final state part " << p << " differs without autograd");
    }
  }
}

MRNN_TEST(fused_windows_leave_double_precision_to_the_loop) {
  for (CellType type : engine::allCellTypes()) {
    auto cell = makeRandomCell(sized(type, 4, 3), 3);  // double precision
    engine::CellState state = cell->initialState(2, torch::TensorOptions(torch::kDouble));
    const auto hs = cell->forward(torch::randn({3, 2, kInput}, torch::kDouble),
                                  torch::randn({3, 2, kEmbedding}, torch::kDouble), state);
    EXPECT(hs.grad_fn() != nullptr);
    EXPECT_MSG(std::string(hs.grad_fn()->name()).find("WindowFunction") == std::string::npos,
               engine::cellTypeName(type) << " ran a fused window in double precision");
  }
}
