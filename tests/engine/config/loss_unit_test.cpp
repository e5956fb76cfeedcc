// A run's figures are given back in the unit its loss was scored in: bits for symbols, the
// squared error for a real-valued output, read from the project text the run recorded.

#include <cmath>

#include "engine/config/loss_unit.h"
#include "engine/config/project_file.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

engine::Project problemProject(const std::string& problem, const std::string& output) {
  const std::string values = output == "linear" ? ", values: 1" : "";
  return engine::parseProject("name: p\nmodel:\n  input: {level: word, embedding_size: 0" + values +
                                  "}\n"
                                  "  layers: [{type: rnn, hidden_size: 8}]\n  output: {type: " +
                                  output + "}\ndata:\n  synthetic: " + problem +
                                  "\n  problem: {length: 20, train: 100, valid: 10, test: 10}\n"
                                  "training: {max_steps: 1}\n",
                              "p.yaml");
}

}  // namespace

MRNN_TEST(a_recorded_linear_output_reads_as_a_squared_error) {
  const engine::Project addition = problemProject("addition", "linear");
  EXPECT(engine::lossUnitOf(addition) == engine::LossUnit::SquaredError);
  // The scan must keep up with the text the trainer records (projectToYaml).
  EXPECT(engine::recordedLossUnit(engine::projectToYaml(addition)) ==
         engine::LossUnit::SquaredError);
  const engine::Project order = problemProject("temporal_order_2bit", "softmax");
  EXPECT(engine::lossUnitOf(order) == engine::LossUnit::Bits);
  EXPECT(engine::recordedLossUnit(engine::projectToYaml(order)) == engine::LossUnit::Bits);
  EXPECT(engine::recordedLossUnit("") == engine::LossUnit::Bits);
}

MRNN_TEST(a_squared_error_is_given_back_from_its_stored_bits) {
  EXPECT_NEAR(engine::inLossUnit(0.5 / std::log(2.0), engine::LossUnit::SquaredError), 0.5, 1e-12);
  EXPECT_NEAR(engine::inLossUnit(1.25, engine::LossUnit::Bits), 1.25, 1e-12);
  EXPECT_EQ(std::string(engine::lossUnitLabel(engine::LossUnit::SquaredError)), "sq. error");
}

MRNN_TEST(a_column_of_mixed_units_names_each_figures_own) {
  using engine::LossUnit;
  const std::vector<LossUnit> bits{LossUnit::Bits, LossUnit::Bits};
  const std::vector<LossUnit> mixed{LossUnit::Bits, LossUnit::SquaredError};
  EXPECT_EQ(engine::lossColumnTitle("valid", bits), std::string("valid bpc"));
  EXPECT_EQ(engine::lossColumnTitle("valid", {LossUnit::SquaredError}),
            std::string("valid sq. error"));
  EXPECT_EQ(engine::lossColumnTitle("valid", mixed), std::string("valid"));
  EXPECT(engine::allSquaredErrors({LossUnit::SquaredError, LossUnit::SquaredError}));
  EXPECT(!engine::allSquaredErrors(mixed) && !engine::allSquaredErrors(bits));
  EXPECT(!engine::allSquaredErrors({}));
  EXPECT_EQ(engine::lossCellText("0.0200", LossUnit::SquaredError, true),
            std::string("0.0200 sq. error"));
  EXPECT_EQ(engine::lossCellText("1.2000", LossUnit::Bits, false), std::string("1.2000"));
  EXPECT_EQ(engine::lossCellText("-", LossUnit::Bits, true), std::string("-"));
}
