// Project and experiment YAML edited in place: a change rewrites only the text of the keys it
// changes; comments, key order, blank lines, quoting and number spelling stay byte for byte.

#include <filesystem>
#include <sstream>
#include <vector>

#include "engine/config/config_error.h"
#include "engine/config/project_file.h"
#include "engine/config/project_text.h"
#include "engine/config/yaml_key_path.h"
#include "engine/io/atomic_file.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The lines of `after` that are not lines of `before` at the same place, once both are aligned
// on their common lines (a small LCS: project files are short).
std::vector<std::string> changedLines(const std::string& before, const std::string& after) {
  const auto a = linesOf(before);
  const auto b = linesOf(after);
  std::vector<std::vector<int>> common(a.size() + 1, std::vector<int>(b.size() + 1, 0));
  for (size_t i = a.size(); i-- > 0;) {
    for (size_t j = b.size(); j-- > 0;) {
      common[i][j] =
          a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::vector<std::string> changed;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i;
      ++j;
    } else if (i < a.size() && (j == b.size() || common[i + 1][j] >= common[i][j + 1])) {
      changed.push_back("-" + a[i++]);
    } else {
      changed.push_back("+" + b[j++]);
    }
  }
  return changed;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

const std::string kCommented =
    "# A recipe with comments the owner wrote.\n"
    "name: \"Quoted name\"\n"
    "description: >\n"
    "  A folded description that spans\n"
    "  two lines.\n"
    "\n"
    "model:\n"
    "  input:\n"
    "    level: char\n"
    "    embedding_size: 0       # one-hot\n"
    "  layers:\n"
    "    - type: mrnn\n"
    "      hidden_size: 64\n"
    "      factor_size: 0        # F = H\n"
    "\n"
    "training:\n"
    "  # Hessian-free, as the paper trains it.\n"
    "  bptt: 50\n"
    "  optimizer:\n"
    "    type: hessian_free\n"
    "    lambda: 10              # the paper's starting damping\n"
    "    structural_damping: 0.3\n"
    "  schedule: {type: constant}\n";

}  // namespace

MRNN_TEST(key_paths_read_as_experiment_axes_write_them) {
  const auto path = engine::parseYamlKeyPath("model.layers[0].hidden_size");
  EXPECT_EQ(path.size(), size_t{4});
  EXPECT_EQ(path[2].index, int64_t{0});
  EXPECT_EQ(engine::formatYamlKeyPath(path), std::string("model.layers[0].hidden_size"));
  EXPECT_EQ(engine::formatYamlKeyPath(path, 2), std::string("model.layers"));
  bool refused = false;
  try {
    engine::parseYamlKeyPath("model.layers[x]");
  } catch (const engine::YamlPathError&) {
    refused = true;
  }
  EXPECT(refused);
}

// The defect: one value changed in the composer, Ctrl+S, and every comment was gone, the
// folded description became one quoted string and `lambda: 10` became `lambda: 1e+01`.
MRNN_TEST(an_edit_changes_only_the_edited_line) {
  engine::Project project = engine::parseProject(kCommented);
  project.model.layers[0].hiddenSize = 80;
  const engine::ProjectText edited = engine::editProjectText(kCommented, project);
  EXPECT(!edited.rewrittenWhole);
  const auto changed = changedLines(kCommented, edited.text);
  EXPECT_MSG(changed.size() == 2, joined(changed));
  EXPECT_EQ(changed[0], std::string("-      hidden_size: 64"));
  EXPECT_EQ(changed[1], std::string("+      hidden_size: 80"));
  EXPECT(engine::parseProject(edited.text).model.layers[0].hiddenSize == 80);
}

MRNN_TEST(an_edited_number_keeps_its_comment_and_is_spelt_plainly) {
  engine::Project project = engine::parseProject(kCommented);
  project.training.optimizer.hessianFree.initialLambda = 20;
  const auto edited = engine::editProjectText(kCommented, project);
  const auto changed = changedLines(kCommented, edited.text);
  EXPECT_MSG(changed.size() == 2, joined(changed));
  EXPECT_EQ(changed[1], std::string("+    lambda: 20              # the paper's starting damping"));
}

MRNN_TEST(a_key_the_file_lacks_goes_beside_its_neighbours) {
  engine::Project project = engine::parseProject(kCommented);
  project.training.batchSize = 8;
  project.model.dropout.hidden = 0.25;
  const auto edited = engine::editProjectText(kCommented, project);
  const auto changed = changedLines(kCommented, edited.text);
  EXPECT_MSG(changed.size() == 3, joined(changed));
  EXPECT(edited.text.find("  # Hessian-free, as the paper trains it.\n  batch_size: 8\n"
                          "  bptt: 50\n") != std::string::npos);
  EXPECT(edited.text.find("  dropout:\n    hidden: 0.25\n") != std::string::npos);
  EXPECT(engine::parseProject(edited.text).model.dropout.hidden == 0.25);
}

// The defect: a key added after one whose comment runs on to the next line went between the
// two, so that the comment's second half read as the new key's (the long-range recipe's
// `recurrent_scale` and an input scale set in the composer).
MRNN_TEST(a_key_added_after_a_comment_that_runs_on_goes_after_the_whole_comment) {
  const std::string text =
      "model:\n"
      "  input: {level: word}\n"
      "  layers:\n"
      "    - type: rnn\n"
      "      hidden_size: 64\n"
      "  init:\n"
      "    seed: 1\n"
      "    recurrent_scale: 1.2    # the release's radius; from T = 100 on,\n"
      "                            # 1.0 (docs/performance.md)\n"
      "  # about the data\n"
      "data:\n"
      "  synthetic: temporal_order_2bit\n";
  engine::Project project = engine::parseProject(text);
  project.model.init.inputScale = 0.3;
  const auto edited = engine::editProjectText(text, project);
  EXPECT(!edited.rewrittenWhole);
  EXPECT_MSG(
      edited.text.find("    recurrent_scale: 1.2    # the release's radius; from T = 100 on,\n"
                       "                            # 1.0 (docs/performance.md)\n"
                       "    input_scale: 0.3\n"
                       "  # about the data\n") != std::string::npos,
      edited.text);
}

// The defect: a value rewritten at another length pushed or pulled the comment after it, out of
// the column it shared with the comments around it and with the comment's own next line.
MRNN_TEST(an_edited_value_keeps_the_comment_after_it_in_its_column) {
  const std::string text =
      "model:\n"
      "  input: {level: word}\n"
      "  layers:\n"
      "    - type: rnn\n"
      "      hidden_size: 640     # wide\n"
      "  init:\n"
      "    seed: 1 # tight\n"
      "    recurrent_scale: 1.2    # the release's radius; from T = 100 on,\n"
      "                            # 1.0 (docs/performance.md)\n"
      "data:\n"
      "  synthetic: temporal_order_2bit\n";
  engine::Project project = engine::parseProject(text);
  project.model.layers[0].hiddenSize = 64;
  project.model.init.seed = 12345;
  project.model.init.recurrentScale = 1.25;
  const auto edited = engine::editProjectText(text, project);
  EXPECT(!edited.rewrittenWhole);
  const auto changed = changedLines(text, edited.text);
  EXPECT_MSG(changed.size() == 6, joined(changed));
  EXPECT_MSG(edited.text.find("      hidden_size: 64      # wide\n") != std::string::npos,
             edited.text);
  // No room: one space, never none.
  EXPECT_MSG(edited.text.find("    seed: 12345 # tight\n") != std::string::npos, edited.text);
  EXPECT_MSG(edited.text.find(
                 "    recurrent_scale: 1.25   # the release's radius; from T = 100 on,\n"
                 "                            # 1.0 (docs/performance.md)\n") != std::string::npos,
             edited.text);
}

// The same for a key that had no value yet: the value goes between the key and its comment,
// and the comment stays where it was.
MRNN_TEST(a_value_given_to_an_empty_key_leaves_its_comment_in_its_column) {
  const std::string text =
      "model:\n"
      "  input: {level: word}\n"
      "  layers:\n"
      "    - {type: rnn, hidden_size: 8}\n"
      "data:\n"
      "  synthetic: temporal_order_2bit\n"
      "training:\n"
      "  max_seconds:          # none yet\n"
      "  batch_size: 10        # small\n";
  const std::string edited =
      engine::setProjectKeys(text, {{"training.max_seconds", "60"}}, "p.yaml");
  EXPECT_MSG(edited.find("  max_seconds: 60       # none yet\n") != std::string::npos, edited);
}

MRNN_TEST(a_changed_optimiser_writes_only_what_its_defaults_do_not_say) {
  engine::Project project = engine::parseProject(kCommented);
  project.training.optimizer.kind = engine::OptimizerKind::Adam;
  project.training.optimizer.learningRate = 0.003;
  const auto edited = engine::editProjectText(kCommented, project);
  EXPECT(!edited.rewrittenWhole);
  EXPECT(edited.text.find("lambda") == std::string::npos);
  EXPECT(edited.text.find("structural_damping") == std::string::npos);
  EXPECT(edited.text.find("    type: adam\n    lr: 0.003\n") != std::string::npos);
  EXPECT(edited.text.find("# Hessian-free, as the paper trains it.") != std::string::npos);
  const auto reread = engine::parseProject(edited.text);
  EXPECT(reread.training.optimizer == project.training.optimizer);
}

MRNN_TEST(a_description_keeps_its_folded_style) {
  engine::Project project = engine::parseProject(kCommented);
  project.description = "A new description.";
  const auto edited = engine::editProjectText(kCommented, project);
  EXPECT(edited.text.find("description: >-\n  A new description.\n\nmodel:") != std::string::npos);
  EXPECT_EQ(engine::parseProject(edited.text).description, project.description);
  project.name = "Renamed";
  const auto renamed = engine::editProjectText(kCommented, project);
  EXPECT(renamed.text.find("name: \"Renamed\"\n") != std::string::npos);
}

MRNN_TEST(layers_and_list_items_are_added_and_removed_in_place) {
  engine::Project project = engine::parseProject(kCommented);
  engine::LayerConfig second;
  second.type = engine::CellType::Lstm;
  second.hiddenSize = 32;
  project.model.layers.push_back(second);
  const auto added = engine::editProjectText(kCommented, project);
  EXPECT(!added.rewrittenWhole);
  const auto reread = engine::parseProject(added.text);
  EXPECT_EQ(reread.model.layers.size(), size_t{2});
  EXPECT(added.text.find("      factor_size: 0        # F = H\n    - type: lstm\n") !=
         std::string::npos);
  project.model.layers.pop_back();
  const auto removed = engine::editProjectText(added.text, project);
  EXPECT_EQ(removed.text, kCommented);
}

// Back to the old values: the changed lines read as before (a key added for the edit stays,
// with the value in effect; the workbench's undo restores the bytes it kept).
MRNN_TEST(an_edit_reverted_gives_back_the_old_lines) {
  engine::Project project = engine::parseProject(kCommented);
  const engine::Project original = project;
  project.training.bptt = 99;
  project.model.init.seed = 7;
  const auto edited = engine::editProjectText(kCommented, project);
  const auto reverted = engine::editProjectText(edited.text, original).text;
  const auto changed = changedLines(kCommented, reverted);
  EXPECT_MSG(changed.size() == 2, joined(changed));
  EXPECT_EQ(changed[0], std::string("+  init:"));
  EXPECT_EQ(changed[1], std::string("+    seed: 1"));
}

MRNN_TEST(project_set_writes_values_as_typed_and_refuses_what_the_check_refuses) {
  const std::string text = engine::setProjectKeys(
      kCommented, {{"training.optimizer.lambda", "1e-3"}, {"model.layers[0].hidden_size", "96"}},
      "p.yaml");
  const auto changed = changedLines(kCommented, text);
  EXPECT_MSG(changed.size() == 4, joined(changed));
  EXPECT(text.find("    lambda: 1e-3            # the paper") != std::string::npos);
  try {
    engine::setProjectKeys(kCommented, {{"training.optimizer.lr", "0.01"}}, "p.yaml");
    EXPECT_MSG(false, "lr does not apply to Hessian-free");
  } catch (const engine::ConfigError& error) {
    EXPECT_EQ(error.file(), std::string("p.yaml"));
    EXPECT_EQ(error.key(), std::string("training.optimizer.lr"));
  }
  try {
    engine::setProjectKeys(kCommented, {{"model.layers[3].hidden_size", "8"}}, "p.yaml");
    EXPECT_MSG(false, "there is no layer [3]");
  } catch (const engine::ConfigError& error) {
    EXPECT(std::string(error.what()).find("[3]") != std::string::npos);
  }
  try {
    engine::parseKeyAssignment("no-equals-sign");
    EXPECT_MSG(false, "a word without '=' is not an assignment");
  } catch (const engine::ConfigError& error) {
    EXPECT(std::string(error.what()).find("KEY=VALUE") != std::string::npos);
  }
}

// The defect: a project saved by an editor that starts its files with a byte-order mark (and
// Windows line ends) could not be edited at all: "a key whose ':' is not on its line".
MRNN_TEST(a_file_with_a_byte_order_mark_and_windows_line_ends_is_edited_in_place) {
  std::string windows;
  for (const char c : kCommented) windows += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const std::string marked = "\xEF\xBB\xBF" + windows;
  const std::string text = engine::setProjectKeys(
      marked, {{"training.optimizer.lambda", "20"}, {"name", "Renamed"}}, "p.yaml");
  EXPECT_EQ(text.substr(0, 3), std::string("\xEF\xBB\xBF"));
  EXPECT(text.find("name: \"Renamed\"\r\n") != std::string::npos);  // quoted as it was
  EXPECT(text.find("    lambda: 20              # the paper's starting damping\r\n") !=
         std::string::npos);
  EXPECT_EQ(text.size() + 4, marked.size());  // "Quoted name" to "Renamed": nothing else
  engine::Project project = engine::parseProject(marked);
  project.model.layers[0].hiddenSize = 80;
  const engine::ProjectText edited = engine::editProjectText(marked, project);
  EXPECT(!edited.rewrittenWhole);
  EXPECT(edited.text.find("      hidden_size: 80\r\n") != std::string::npos);
  EXPECT_EQ(edited.text.substr(0, 3), std::string("\xEF\xBB\xBF"));
}

// Every recipe the project ships keeps every byte but the edited value's.
MRNN_TEST(every_shipped_recipe_keeps_its_comments_through_a_set_and_an_edit) {
  int checked = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(MRNN_PROJECTS_DIR)) {
    if (entry.path().filename() != "project.yaml") continue;
    const std::string file = entry.path().string();
    const std::string text = engine::readWholeFile(file);
    const std::string set =
        engine::setProjectKeys(text, {{"training.seed", "4242"}, {"evaluation.bptt", "77"}}, file);
    const auto changed = changedLines(text, set);
    for (const auto& line : changed) {
      EXPECT_MSG(line.find("seed") != std::string::npos || line.find("bptt") != std::string::npos ||
                     line == "+evaluation:" || line == "+training:",
                 file << " changed " << line);
    }
    EXPECT_MSG(changed.size() <= 6, file << ":\n" << joined(changed));
    engine::Project project = engine::parseProject(text, file);
    project.training.seed = 4242;
    project.model.layers.front().hiddenSize += 8;
    const auto edited = engine::editProjectText(text, project);
    EXPECT_MSG(!edited.rewrittenWhole, file);
    const auto reread = engine::parseProject(edited.text, file);
    EXPECT_EQ(engine::projectToYaml(reread), engine::projectToYaml(project));
    EXPECT_MSG(changedLines(text, edited.text).size() <= 6,
               file << ":\n"
                    << joined(changedLines(text, edited.text)));
    ++checked;
  }
  EXPECT(checked >= 10);
}

MRNN_TEST(an_experiment_file_is_edited_in_place_too) {
  const std::string text =
      "# Learning rate against size.\n"
      "experiment:\n"
      "  description: lr by size   # short\n"
      "  axes:\n"
      "    # the rate first\n"
      "    - key: training.optimizer.lr\n"
      "      values: [0.001, 0.003]\n"
      "  seeds: [1, 2]\n";
  const std::string target =
      "experiment:\n"
      "  description: lr by size\n"
      "  axes:\n"
      "    - key: training.optimizer.lr\n"
      "      values: [0.001, 0.003, 0.01]\n"
      "  seeds: [1, 2, 3]\n"
      "  slots: 2\n";
  const std::string edited = engine::editYamlTextToMatch(text, target);
  const auto changed = changedLines(text, edited);
  EXPECT_MSG(changed.size() == 5, joined(changed));
  EXPECT(edited.find("# the rate first\n") != std::string::npos);
  EXPECT(edited.find("values: [0.001, 0.003, 0.01]\n") != std::string::npos);
  EXPECT(edited.find("  slots: 2\n") != std::string::npos);
}

// The defect: an item replaced inside a flow list gained a space before it ("[64,  256]"),
// so an edit left marks in lines it did not mean to change the look of.
MRNN_TEST(an_item_replaced_in_a_flow_list_keeps_its_spacing) {
  EXPECT_EQ(engine::editYamlTextToMatch("a: [64, 128]  # sizes\n", "a: [64, 256]\n"),
            std::string("a: [64, 256]  # sizes\n"));
  EXPECT_EQ(
      engine::editYamlTextToMatch("a: {values: [64, 128, 3]}\n", "a: {values: [8, 256, 3]}\n"),
      std::string("a: {values: [8, 256, 3]}\n"));
  EXPECT_EQ(engine::editYamlTextToMatch("a: [[1, 2], [3]]\n", "a: [[1, 5], [4]]\n"),
            std::string("a: [[1, 5], [4]]\n"));
  // A key with nothing after its colon still gets the space a value needs.
  EXPECT_EQ(engine::editYamlTextToMatch("a: {b:, c: 1}\n", "a: {b: 2, c: 1}\n"),
            std::string("a: {b: 2, c: 1}\n"));
}
