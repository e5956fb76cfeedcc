// What an untrained tanh RNN keeps of a memorisation problem's symbols: orthogonal weights of
// scale 1 with small inputs keep them all for a linear readout; weights that contract keep
// none of them.
#include <stdexcept>

#include "engine/bench/untrained_memory.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

engine::UntrainedMemoryOptions small() {
  engine::UntrainedMemoryOptions o;
  o.problem = engine::SyntheticTask::Memorization5;
  o.length = 30;
  o.hidden = 40;
  o.fitSequences = 600;
  o.testSequences = 300;
  return o;
}

}  // namespace

MRNN_TEST(orthogonal_weights_with_small_inputs_keep_every_symbol) {
  auto o = small();
  o.orthogonal = true;
  o.recurrentScale = 1.0;
  o.inputScale = 0.3;
  const auto m = engine::measureUntrainedMemory(o);
  EXPECT_EQ(m.wrongAt.size(), size_t{5});
  EXPECT_NEAR(m.chance, 0.5, 1e-12);
  EXPECT_MSG(m.sequencesWrong < 0.02, m.sequencesWrong);
  EXPECT(m.readoutNorm > 0.0);
}

MRNN_TEST(contracting_weights_forget_every_symbol) {
  auto o = small();
  o.orthogonal = true;
  o.recurrentScale = 0.5;  // 0.5^20: nothing of the first steps is left after the blanks
  const auto m = engine::measureUntrainedMemory(o);
  for (double wrong : m.wrongAt) EXPECT_MSG(wrong > 0.35, wrong);
  EXPECT(m.sequencesWrong > 0.9);
}

MRNN_TEST(untrained_memory_is_measured_on_memorisation_only) {
  auto o = small();
  o.problem = engine::SyntheticTask::TemporalOrder2;
  bool refused = false;
  try {
    engine::measureUntrainedMemory(o);
  } catch (const std::invalid_argument&) {
    refused = true;
  }
  EXPECT(refused);
}
