// A resumed run whose project's model changed since names what changed, key by key, with both
// values: "layers[0].hidden_size from 64 to 80", not "now mrnn".

#include <yaml-cpp/yaml.h>

#include <chrono>

#include "engine/config/model_changes.h"
#include "engine/config/model_config_parser.h"
#include "engine/config/model_config_writer.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

std::string sectionOf(const std::string& body) {
  engine::ModelConfig model = engine::parseModelText(body);
  YAML::Emitter out;
  engine::emitModelSection(out, model);
  return out.c_str();
}

}  // namespace

MRNN_TEST(a_changed_size_is_named_with_both_values) {
  const std::string before = sectionOf("layers: [{type: mrnn, hidden_size: 64}]\n");
  const std::string after = sectionOf("layers: [{type: mrnn, hidden_size: 80}]\n");
  EXPECT_EQ(engine::modelChangeSummary(before, after),
            std::string("layers[0].hidden_size from 64 to 80"));
  EXPECT_EQ(engine::modelChangeSummary(before, before), std::string());
}

MRNN_TEST(a_layer_added_or_removed_is_named_once) {
  const std::string one = sectionOf("layers: [{type: lstm, hidden_size: 32}]\n");
  const std::string two =
      sectionOf("layers: [{type: lstm, hidden_size: 32}, {type: lstm, hidden_size: 16}]\n");
  EXPECT_EQ(engine::modelChangeSummary(one, two), std::string("layers[1] added"));
  EXPECT_EQ(engine::modelChangeSummary(two, one), std::string("layers[1] removed"));
}

MRNN_TEST(many_changes_are_summed_up_after_the_first_three) {
  const std::string before = "a: 1\nb: 2\nc: 3\nd: 4\ne: 5\n";
  const std::string after = "a: 9\nb: 8\nc: 7\nd: 6\ne: 5\nf: 1\n";
  EXPECT_EQ(engine::modelChangeSummary(before, after),
            std::string("a from 1 to 9, b from 2 to 8, c from 3 to 7, and 2 more"));
  EXPECT_EQ(engine::modelSectionChanges(before, after).back(), std::string("f added (1)"));
  EXPECT_EQ(engine::modelSectionChanges("a: 1\n", "[: bad").size(), size_t{1});
}

// The defect: a few hundred bytes of aliases (a checkpoint's model section made to break it)
// unfold into 10^9 values; the comparison ran out of memory and time walking them. No model
// section holds more than a few thousand: such a text cannot be read, at once.
MRNN_TEST(a_section_of_billions_of_values_by_aliases_is_refused_at_once) {
  std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  for (char name = 'b'; name <= 'i'; ++name) {
    const std::string previous(1, static_cast<char>(name - 1));
    laughs += std::string(1, name) + ": &" + name + " [";
    for (int i = 0; i < 10; ++i) laughs += (i ? ", *" : "*") + previous;
    laughs += "]\n";
  }
  const auto start = std::chrono::steady_clock::now();
  const auto changes = engine::modelSectionChanges(laughs, "layers: [{type: lstm}]\n");
  EXPECT_EQ(changes.size(), size_t{1});
  EXPECT_EQ(changes.front(), std::string("a model section cannot be read"));
  EXPECT(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
}
