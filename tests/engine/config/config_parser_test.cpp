// Project and model YAML: every kind of bad input gives a clear error naming the file, the
// line and the key; good files round-trip; saves are atomic.

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/config/config_error.h"
#include "engine/config/model_check.h"
#include "engine/config/project_file.h"
#include "engine/io/atomic_file.h"
#include "test_harness.h"

using namespace mrnn;
using engine::ConfigError;

namespace {

// A valid project whose model section can be amended line by line.
std::string project(const std::string& layers, const std::string& extra = "") {
  return "name: test\n"
         "model:\n"
         "  input:\n"
         "    level: char\n"
         "    embedding_size: 16\n"
         "  layers:\n" +
         layers + extra;
}

const std::string kLstm = "    - type: lstm\n      hidden_size: 32\n";

ConfigError errorOf(const std::string& text) {
  try {
    engine::parseProject(text, "p.yaml");
  } catch (const ConfigError& error) {
    return error;
  }
  ::mrnn::test::fail(__FILE__, __LINE__, "no ConfigError for:\n" + text);
}

std::filesystem::path scratchDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("mrnn-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace

MRNN_TEST(valid_project_parses) {
  const auto p = engine::parseProject(project(kLstm), "p.yaml");
  EXPECT_EQ(p.name, std::string("test"));
  EXPECT_EQ(p.model.layers.size(), size_t{1});
  EXPECT(p.model.layers[0].type == engine::CellType::Lstm);
  EXPECT_EQ(p.model.layers[0].hiddenSize, int64_t{32});
  EXPECT_EQ(p.model.input.embeddingSize, int64_t{16});
}

MRNN_TEST(yaml_syntax_error_names_the_line) {
  const auto e = errorOf("name: test\nmodel:\n  layers: [\n    {type: lstm\n");
  EXPECT(std::string(e.what()).find("p.yaml:") == 0);
  EXPECT(std::string(e.what()).find("YAML syntax error") != std::string::npos);
  EXPECT(e.line() >= 3);
}

MRNN_TEST(unknown_top_level_key) {
  const auto e = errorOf("name: x\nmodle:\n  layers: []\n");
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.key(), std::string("modle"));
  EXPECT(std::string(e.what()).find("unknown key") != std::string::npos);
}

// yaml-cpp keeps the first of two equal keys; a second value must not vanish silently.
MRNN_TEST(a_repeated_key_is_an_error_at_its_second_line) {
  auto e = errorOf(project("    - type: lstm\n      hidden_size: 32\n      hidden_size: 64\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].hidden_size"));
  EXPECT_EQ(e.line(), 9);
  EXPECT(std::string(e.what()).find("twice") != std::string::npos);
  EXPECT(std::string(e.what()).find("line 8") != std::string::npos);
  e = errorOf(project(kLstm, "name: again\n"));
  EXPECT_EQ(e.key(), std::string("name"));
  e = errorOf(project(kLstm, "training:\n  bptt: 10\n  bptt: 20\n"));
  EXPECT_EQ(e.key(), std::string("training.bptt"));
}

MRNN_TEST(unknown_model_key_lists_the_known_ones) {
  const auto e = errorOf(project(kLstm, "  outputs:\n    type: softmax\n"));
  EXPECT_EQ(e.key(), std::string("model.outputs"));
  EXPECT_EQ(e.line(), 9);
  EXPECT(std::string(e.what()).find("'output'") != std::string::npos);
}

MRNN_TEST(unknown_cell_type_lists_the_zoo) {
  const auto e = errorOf(project("    - type: lstmm\n      hidden_size: 32\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].type"));
  EXPECT_EQ(e.line(), 7);
  EXPECT(std::string(e.what()).find("'mogrifier'") != std::string::npos);
}

MRNN_TEST(key_that_does_not_apply_to_the_cell) {
  const auto e = errorOf(project("    - type: lstm\n      hidden_size: 32\n      rounds: 5\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].rounds"));
  EXPECT_EQ(e.line(), 9);
  EXPECT(std::string(e.what()).find("does not apply to cell type 'lstm'") != std::string::npos);
}

MRNN_TEST(reset_after_is_the_grus_alone_and_round_trips) {
  const auto parsed = engine::parseProject(
      project("    - type: gru\n      hidden_size: 8\n      reset_after: true\n"));
  EXPECT(parsed.model.layers[0].resetAfter);
  EXPECT(engine::parseProject(engine::projectToYaml(parsed)).model.layers[0].resetAfter);
  // Off is the default and is not written.
  const auto plain = engine::parseProject(project("    - type: gru\n      hidden_size: 8\n"));
  EXPECT(!plain.model.layers[0].resetAfter);
  EXPECT(engine::projectToYaml(plain).find("reset_after") == std::string::npos);
  const auto e =
      errorOf(project("    - type: lstm\n      hidden_size: 8\n      reset_after: true\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].reset_after"));
  EXPECT(std::string(e.what()).find("does not apply to cell type 'lstm'") != std::string::npos);
}

MRNN_TEST(misspelt_layer_key) {
  const auto e = errorOf(project("    - type: mlstm\n      hiden_size: 32\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].hiden_size"));
  EXPECT(std::string(e.what()).find("unknown layer key") != std::string::npos);
}

MRNN_TEST(wrong_type_of_value) {
  const auto e = errorOf(project("    - type: lstm\n      hidden_size: big\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].hidden_size"));
  EXPECT_EQ(e.line(), 8);
  EXPECT(std::string(e.what()).find("expected an integer, got 'big'") != std::string::npos);
  const auto list = errorOf(project("    - type: lstm\n      hidden_size: [1, 2]\n"));
  EXPECT(std::string(list.what()).find("expected an integer") != std::string::npos);
  const auto flag = errorOf(project(kLstm + "      weight_norm: maybe\n"));
  EXPECT(std::string(flag.what()).find("expected true or false") != std::string::npos);
}

MRNN_TEST(values_out_of_range) {
  const auto zero = errorOf(project("    - type: lstm\n      hidden_size: 0\n"));
  EXPECT(std::string(zero.what()).find("out of range") != std::string::npos);
  const auto dropout = errorOf(project(kLstm, "  dropout:\n    hidden: 1.5\n"));
  EXPECT_EQ(dropout.key(), std::string("model.dropout.hidden"));
  EXPECT_EQ(dropout.line(), 10);
  const auto share =
      errorOf(project("    - type: mmlstm\n      hidden_size: 8\n      major_share: 0\n"));
  EXPECT_EQ(share.key(), std::string("model.layers[0].major_share"));
}

MRNN_TEST(bad_choice_value) {
  const auto e = errorOf(project(kLstm + "      output_gate: middle\n"));
  EXPECT(std::string(e.what()).find("'middle' is not allowed; expected 'outside' or 'inside'") !=
         std::string::npos);
}

MRNN_TEST(missing_or_empty_layers) {
  const auto missing = errorOf("model:\n  input:\n    level: byte\n");
  EXPECT_EQ(missing.key(), std::string("model.layers"));
  EXPECT(std::string(missing.what()).find("missing") != std::string::npos);
  const auto empty = errorOf("model:\n  layers: []\n");
  EXPECT(std::string(empty.what()).find("non-empty list") != std::string::npos);
  const auto scalar = errorOf("model:\n  layers:\n    - lstm\n");
  EXPECT_EQ(scalar.key(), std::string("model.layers[0]"));
}

MRNN_TEST(non_scalar_key_is_a_located_error) {
  const auto e = errorOf(project("    - type: lstm\n      ? [hidden_size]\n      : 32\n"));
  EXPECT(std::string(e.what()).find("p.yaml:") == 0);
}

MRNN_TEST(missing_model_section_and_empty_file) {
  EXPECT(std::string(errorOf("name: x\n").what()).find("needs a 'model:' section") !=
         std::string::npos);
  EXPECT(std::string(errorOf("").what()).find("empty") != std::string::npos);
}

MRNN_TEST(tied_embeddings_with_mismatched_sizes_point_at_the_key) {
  const auto e = errorOf(project(kLstm, "  output:\n    tie_embeddings: true\n"));
  EXPECT_EQ(e.key(), std::string("model.output.tie_embeddings"));
  EXPECT_EQ(e.line(), 10);
  EXPECT(std::string(e.what()).find("last layer's width (32)") != std::string::npos);
  EXPECT(std::string(e.what()).find("embedding size (16)") != std::string::npos);
}

MRNN_TEST(tied_embeddings_need_an_embedding) {
  const auto e = errorOf("model:\n  input:\n    level: char\n  layers:\n" + kLstm +
                         "  output:\n    tie_embeddings: true\n");
  EXPECT(std::string(e.what()).find("one-hot") != std::string::npos);
}

MRNN_TEST(mogrifier_rank_must_be_below_the_widths) {
  const auto e = errorOf(project("    - type: mogrifier\n      hidden_size: 32\n      rank: 16\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].rank"));
  EXPECT_EQ(e.line(), 9);
  EXPECT(std::string(e.what()).find("min(input width, hidden size) = 16") != std::string::npos);
}

MRNN_TEST(byte_level_vocabulary_is_256) {
  const auto e =
      errorOf("model:\n  input:\n    level: byte\n    vocab_size: 100\n  layers:\n" + kLstm);
  EXPECT_EQ(e.key(), std::string("model.input.vocab_size"));
  EXPECT(std::string(e.what()).find("256") != std::string::npos);
}

MRNN_TEST(mos_keys_need_mos) {
  const auto e = errorOf(project(kLstm, "  output:\n    type: softmax\n    mixtures: 5\n"));
  EXPECT(std::string(e.what()).find("only to type: mos") != std::string::npos);
}

MRNN_TEST(sparse_initialisation_and_its_connections) {
  const auto sparse = engine::parseProject(
      project(kLstm, "  init:\n    recurrent: sparse\n    sparse_connections: 12\n"), "p.yaml");
  EXPECT(sparse.model.init.recurrent == engine::RecurrentInit::Sparse);
  EXPECT_EQ(sparse.model.init.sparseConnections, int64_t{12});
  EXPECT(engine::projectToYaml(sparse).find("sparse_connections: 12") != std::string::npos);
  // The count means nothing for another initialisation: said, not ignored.
  const auto e = errorOf(project(kLstm, "  init:\n    sparse_connections: 12\n"));
  EXPECT_EQ(e.key(), std::string("model.init.sparse_connections"));
  EXPECT(std::string(e.what()).find("applies to recurrent: sparse only") != std::string::npos);
  // A model without it writes none (checkpoints compare the model section as text).
  const auto plain = engine::parseProject(project(kLstm), "p.yaml");
  EXPECT(engine::projectToYaml(plain).find("sparse_connections") == std::string::npos);
}

MRNN_TEST(input_scale_round_trips_and_is_written_only_when_set) {
  const auto scaled =
      engine::parseProject(project(kLstm, "  init:\n    input_scale: 0.3\n"), "p.yaml");
  EXPECT_EQ(scaled.model.init.inputScale, 0.3);
  EXPECT(engine::projectToYaml(scaled).find("input_scale: 0.3") != std::string::npos);
  const auto e = errorOf(project(kLstm, "  init:\n    input_scale: -1\n"));
  EXPECT_EQ(e.key(), std::string("model.init.input_scale"));
  // The usual scale writes nothing: a checkpoint's stored model section from before the key
  // is still the project's.
  const auto plain = engine::parseProject(project(kLstm), "p.yaml");
  EXPECT_EQ(plain.model.init.inputScale, 1.0);
  EXPECT(engine::projectToYaml(plain).find("input_scale") == std::string::npos);
}

// Stopping when solved belongs to the long-range problems: a corpus is never solved.
MRNN_TEST(stop_when_solved_is_a_problems_key_and_round_trips) {
  const std::string word = "name: test\nmodel:\n  input:\n    level: word\n  layers:\n" + kLstm;
  const std::string training = "training:\n  stop_when_solved: true\n";
  const auto problem =
      engine::parseProject(word + "data:\n  synthetic: temporal_order_2bit\n" + training, "p.yaml");
  EXPECT(problem.training.stopWhenSolved);
  const std::string text = engine::projectToYaml(problem);
  EXPECT(text.find("stop_when_solved: true") != std::string::npos);
  EXPECT(engine::parseProject(text, "p.yaml").training == problem.training);
  const auto corpus = errorOf(word + "data:\n  train: a.txt\n" + training);
  EXPECT_EQ(corpus.key(), std::string("training.stop_when_solved"));
  EXPECT_MSG(std::string(corpus.what()).find("only a long-range problem") != std::string::npos,
             corpus.what());
  // Too few validation sequences to tell a solved problem from a lucky validation.
  const auto few = errorOf(
      word + "data:\n  synthetic: temporal_order_2bit\n  problem: {valid: 100}\n" + training);
  EXPECT_EQ(few.key(), std::string("training.stop_when_solved"));
  EXPECT_MSG(
      std::string(few.what()).find("100 validation sequences cannot show a problem solved") !=
          std::string::npos,
      few.what());
  // Off is the default and is not written.
  const auto plain =
      engine::parseProject(word + "data:\n  synthetic: random_permutation\n", "p.yaml");
  EXPECT(!plain.training.stopWhenSolved);
  EXPECT(engine::projectToYaml(plain).find("stop_when_solved") == std::string::npos);
}

// Real inputs and a linear output belong to the addition problem, and it needs them.
MRNN_TEST(the_addition_problem_needs_real_inputs_and_a_linear_output) {
  const std::string word = "name: test\nmodel:\n  input:\n    level: word\n";
  const std::string layers = "  layers:\n" + kLstm;
  const std::string data = "data:\n  synthetic: addition\n  problem: {length: 50}\n";
  const auto ok = engine::parseProject(
      word + "    values: 1\n" + layers + "  output: {type: linear}\n" + data, "p.yaml");
  EXPECT(ok.model.output.kind == engine::OutputKind::Linear);
  EXPECT_EQ(ok.data.problem.length, int64_t{50});
  const auto missing = errorOf(word + layers + data);
  EXPECT_EQ(missing.key(), std::string("model.input.values"));
  EXPECT(std::string(missing.what()).find("model.output.type: linear") != std::string::npos);
  const auto elsewhere = errorOf(word + layers + "  output: {type: linear}\n" +
                                 "data:\n  synthetic: temporal_order_2bit\n");
  EXPECT_EQ(elsewhere.key(), std::string("model.output.type"));
  EXPECT_MSG(std::string(elsewhere.what())
                     .find("belong to the addition, multiplication and xor "
                           "problems") != std::string::npos,
             elsewhere.what());
  // Multiplication as addition; XOR reads bits and answers with a symbol.
  const std::string product = "data:\n  synthetic: multiplication\n  problem: {length: 50}\n";
  EXPECT(engine::parseProject(
             word + "    values: 1\n" + layers + "  output: {type: linear}\n" + product, "p.yaml")
             .data.synthetic == engine::SyntheticTask::Multiplication);
  EXPECT_EQ(errorOf(word + layers + product).key(), std::string("model.input.values"));
  const std::string xorData = "data:\n  synthetic: xor\n  problem: {length: 50}\n";
  EXPECT(
      engine::parseProject(word + "    values: 1\n" + layers + xorData, "p.yaml").data.synthetic ==
      engine::SyntheticTask::Xor);
  const auto xorLinear =
      errorOf(word + "    values: 1\n" + layers + "  output: {type: linear}\n" + xorData);
  EXPECT_EQ(xorLinear.key(), std::string("model.output.type"));
  EXPECT_MSG(std::string(xorLinear.what()).find("predicts the symbol 0 or 1") != std::string::npos,
             xorLinear.what());
  EXPECT_EQ(errorOf(word + layers + xorData).key(), std::string("model.input.values"));
  const auto sizeOnSoftmax = errorOf(project(kLstm, "  output:\n    type: softmax\n    size: 2\n"));
  EXPECT(std::string(sizeOnSoftmax.what()).find("applies only to type: linear") !=
         std::string::npos);
}

MRNN_TEST(a_problem_section_needs_a_problem) {
  const std::string word = "name: test\nmodel:\n  input:\n    level: word\n  layers:\n" + kLstm;
  const auto copy = errorOf(word + "data:\n  synthetic: reverse_copy\n  problem: {length: 50}\n");
  EXPECT_EQ(copy.key(), std::string("data.problem"));
  const auto files = errorOf(word + "data:\n  train: a.txt\n  problem: {length: 50}\n");
  EXPECT_EQ(files.key(), std::string("data.problem"));
  const auto copyOnProblem =
      errorOf(word + "data:\n  synthetic: random_permutation\n  copy: {length: 5}\n");
  EXPECT_EQ(copyOnProblem.key(), std::string("data.copy"));
  // A T too short for the problem is said at its line, not when a run starts (it once reached
  // the user as "data: data.problem.length: ..." from the run).
  const auto tooShort =
      errorOf(word + "data:\n  synthetic: temporal_order_3bit\n  problem: {length: 10}\n");
  EXPECT_EQ(tooShort.key(), std::string("data.problem.length"));
  EXPECT_MSG(
      std::string(tooShort.what()).find("temporal_order_3bit needs T of at least 20; got 10") !=
          std::string::npos,
      tooShort.what());
  EXPECT_EQ(tooShort.line(), 10);
  const auto round = engine::parseProject(
      word +
          "data:\n  synthetic: memorization_20bit\n  problem: {length: 60, train: 500,"
          " valid: 40, test: 30, seed: 9}\n",
      "p.yaml");
  const auto again = engine::parseProject(engine::projectToYaml(round), "p.yaml");
  EXPECT(again.data.synthetic == engine::SyntheticTask::Memorization20);
  EXPECT_EQ(again.data.problem.trainSequences, int64_t{500});
  EXPECT_EQ(again.data.problem.testSequences, int64_t{30});
  EXPECT_EQ(again.data.problem.seed, uint64_t{9});
}

MRNN_TEST(missing_file_is_named) {
  EXPECT_THROWS_WITH(ConfigError, engine::loadProject("/nonexistent/project.yaml"),
                     "/nonexistent/project.yaml", "No such file");
  // Once: the message said "p: cannot open 'p': No such file or directory".
  const auto once = [](const std::string& message, const std::string& path) {
    const size_t first = message.find(path);
    return first != std::string::npos && message.find(path, first + 1) == std::string::npos;
  };
  for (const char* path : {"/nonexistent/project.yaml", "/tmp"}) {
    try {
      engine::loadProject(path);
      EXPECT_MSG(false, path << " was read");
    } catch (const ConfigError& error) {
      EXPECT_MSG(once(error.what(), path), error.what());
    }
  }
}

MRNN_TEST(check_model_reports_for_the_composer) {
  engine::ModelConfig config;
  config.input.embeddingSize = 8;
  engine::LayerConfig layer;
  layer.type = engine::CellType::Mogrifier;
  layer.hiddenSize = 16;
  layer.rank = 8;
  config.layers = {layer};
  const auto problems = engine::checkModel(config, 50);
  EXPECT_EQ(problems.size(), size_t{1});
  EXPECT_EQ(problems[0].layer, 0);
  EXPECT_EQ(problems[0].key, std::string("layers[0].rank"));
  config.layers[0].rank = 4;
  EXPECT(engine::checkModel(config, 50).empty());
}

MRNN_TEST(round_trip_through_yaml) {
  auto p = engine::parseProject(
      project("    - type: mogrifier\n      hidden_size: 32\n      rounds: 4\n      rank: 3\n"
              "      zigzag: false\n      weight_norm: true\n"
              "    - type: mmlstm\n      hidden_size: 16\n      major_share: 0.75\n"
              "      minor_input: below\n      weight_drop: 0.25\n"
              "    - type: mrnn\n      hidden_size: 16\n      factor_size: 24\n",
              "  output:\n    type: mos\n    mixtures: 3\n    tie_embeddings: true\n"
              "  dropout:\n    embedding: 0.1\n    state: 0.2\n"
              "  init:\n    seed: 9\n    recurrent: uniform\n    forget_bias: 1.5\n"),
      "p.yaml");
  const std::string once = engine::projectToYaml(p);
  const auto again = engine::parseProject(once, "again.yaml");
  EXPECT_EQ(engine::projectToYaml(again), once);
  EXPECT_EQ(again.model.layers[0].rounds, 4);
  EXPECT(!again.model.layers[0].zigzag);
  EXPECT(again.model.layers[1].minorInput == engine::MinorInput::Below);
  EXPECT_EQ(again.model.layers[2].mSize, int64_t{24});
  EXPECT_EQ(again.model.init.seed, uint64_t{9});
  EXPECT(again.model.output.tieEmbeddings);
}

MRNN_TEST(save_is_atomic_and_leaves_no_temporary) {
  const auto dir = scratchDir("save");
  const auto path = (dir / "project.yaml").string();
  auto p = engine::parseProject(project(kLstm), "p.yaml");
  engine::saveProject(p, path);
  p.name = "renamed";
  engine::saveProject(p, path);
  EXPECT_EQ(engine::loadProject(path).name, std::string("renamed"));
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.is_regular_file();
  EXPECT_EQ(files, size_t{1});
  std::filesystem::remove_all(dir);
}

MRNN_TEST(save_into_unwritable_folder_fails_clearly_and_keeps_the_old_file) {
  if (::geteuid() == 0) {
    // root ignores directory permissions; use a path whose parent is a file instead.
    const auto dir = scratchDir("unwritable");
    std::ofstream(dir / "file") << "x";
    const auto bad = (dir / "file" / "project.yaml").string();
    EXPECT_THROWS_WITH(std::runtime_error, engine::writeFileAtomically(bad, "y"), bad);
    std::filesystem::remove_all(dir);
    return;
  }
  const auto dir = scratchDir("readonly");
  const auto path = (dir / "project.yaml").string();
  engine::writeFileAtomically(path, "old");
  ::chmod(dir.c_str(), 0555);
  EXPECT_THROWS_WITH(std::runtime_error, engine::writeFileAtomically(path, "new"), path);
  ::chmod(dir.c_str(), 0755);
  EXPECT_EQ(engine::readWholeFile(path), std::string("old"));
  std::filesystem::remove_all(dir);
}

MRNN_TEST(failed_write_is_reported_and_keeps_the_old_file) {
  // A file-size limit makes write() fail part-way, as a full disk does: the error names the
  // file, the old contents survive and no temporary is left behind.
  const auto dir = scratchDir("full");
  const auto path = (dir / "project.yaml").string();
  engine::writeFileAtomically(path, "old contents");
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit tight = saved;
  tight.rlim_cur = 4096;
  auto previous = std::signal(SIGXFSZ, SIG_IGN);
  ::setrlimit(RLIMIT_FSIZE, &tight);
  bool threw = false;
  std::string message;
  try {
    engine::writeFileAtomically(path, std::string(1 << 16, 'x'));
  } catch (const std::runtime_error& error) {
    threw = true;
    message = error.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous);
  EXPECT(threw);
  EXPECT_MSG(message.find(path) != std::string::npos, message);
  EXPECT_EQ(engine::readWholeFile(path), std::string("old contents"));
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    files += entry.is_regular_file();
  EXPECT_EQ(files, size_t{1});
  std::filesystem::remove_all(dir);
}

MRNN_TEST(every_project_template_parses) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(MRNN_PROJECTS_DIR)) {
    if (entry.path().filename() != "project.yaml") continue;
    const auto p = engine::loadProject(entry.path().string());
    EXPECT_MSG(!p.name.empty(), entry.path() << " has no name");
    ++count;
  }
  EXPECT(count >= 3);
}

MRNN_TEST(training_device_names_a_gpu_by_number) {
  for (const std::string device : {"cpu", "cuda", "cuda:0", "cuda:3"}) {
    const auto p =
        engine::parseProject(project(kLstm, "training:\n  device: " + device + "\n"), "p.yaml");
    EXPECT_EQ(p.training.device, device);
  }
  for (const std::string device : {"gpu", "cuda:", "cuda:x", "CUDA", "cuda:-1"}) {
    const auto e = errorOf(project(kLstm, "training:\n  device: \"" + device + "\"\n"));
    const std::string text = e.what();
    EXPECT_MSG(text.find("training.device") != std::string::npos, text);
    EXPECT_MSG(text.find("'" + device + "'") != std::string::npos, text);
    EXPECT_MSG(text.find("cuda:N") != std::string::npos, text);
  }
  // bf16 is a GPU setting, on any GPU.
  const auto p =
      engine::parseProject(project(kLstm, "training:\n  device: cuda:1\n  bf16: true\n"), "p.yaml");
  EXPECT(p.training.bf16);
  const auto e = errorOf(project(kLstm, "training:\n  device: cpu\n  bf16: true\n"));
  EXPECT_MSG(std::string(e.what()).find("bf16") != std::string::npos, e.what());
}

// The defect: `optimizer: {type: adam, lr: 0.01, lr: 5}` was accepted and the first won.
MRNN_TEST(a_key_repeated_inside_a_flow_mapping_is_an_error) {
  auto e = errorOf(project(kLstm, "training:\n  optimizer: {type: adam, lr: 0.01, lr: 5}\n"));
  EXPECT_EQ(e.key(), std::string("training.optimizer.lr"));
  EXPECT_EQ(e.line(), 10);
  EXPECT(std::string(e.what()).find("twice") != std::string::npos);
  e = errorOf(project("    - {type: lstm, hidden_size: 8, hidden_size: 9}\n"));
  EXPECT_EQ(e.key(), std::string("model.layers[0].hidden_size"));
}

// The defect (a fuzzer's): an alias inside its own anchor, `&hf {..., damping: *hf}`, made
// the repeated-key check keep a longer key path per level until memory ran out.
MRNN_TEST(an_alias_inside_its_own_anchor_is_refused_at_once) {
  const auto started = std::chrono::steady_clock::now();
  const auto e =
      errorOf(project(kLstm, "training:\n  optimizer: &hf {type: hessian_free, damping: *hf}\n"));
  EXPECT_MSG(std::string(e.what()).find("an alias inside its own anchor") != std::string::npos,
             e.what());
  EXPECT(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}

// The defect: `lambda: 1e-308` was "expected a number"; it is one, below a double's normal
// range.
MRNN_TEST(numbers_beyond_a_doubles_range_are_named_as_numbers) {
  const std::string hf = "training:\n  optimizer: {type: hessian_free, lambda: ";
  const auto tiny = engine::parseProject(project(kLstm, hf + "1e-308}\n"), "p.yaml");
  EXPECT(tiny.training.optimizer.hessianFree.initialLambda > 0.0);
  auto e = errorOf(project(kLstm, hf + "1e-400}\n"));
  EXPECT_MSG(std::string(e.what()).find("must be above 0") != std::string::npos, e.what());
  e = errorOf(project(kLstm, hf + "1e400}\n"));
  EXPECT_MSG(std::string(e.what()).find("out of range") != std::string::npos, e.what());
  EXPECT(std::string(e.what()).find("expected a number") == std::string::npos);
}

// The defect: gradient_windows: 1048576 was accepted and a step ignored SIGTERM for minutes.
MRNN_TEST(a_hessian_free_step_asks_for_what_one_step_can_do) {
  const std::string hf = "training:\n  optimizer: {type: hessian_free, gradient_windows: ";
  auto e = errorOf(project(kLstm, hf + "1048576}\n"));
  EXPECT_EQ(e.key(), std::string("training.optimizer.gradient_windows"));
  EXPECT_MSG(std::string(e.what()).find("1 to 1024") != std::string::npos, e.what());
  e = errorOf(project(kLstm,
                      "training:\n  batch_size: 1024\n  bptt: 1000\n"
                      "  optimizer: {type: hessian_free, gradient_windows: 100}\n"));
  EXPECT_EQ(e.key(), std::string("training.optimizer.gradient_windows"));
  EXPECT_MSG(std::string(e.what()).find("one Hessian-free step would read") != std::string::npos,
             e.what());
  e = errorOf(project(kLstm,
                      "training:\n  optimizer: {type: hessian_free, "
                      "cg_max_iterations: 100000}\n"));
  EXPECT_EQ(e.key(), std::string("training.optimizer.cg_max_iterations"));
  // λ's floor: read, written and compared; never above λ's start.
  const auto floored = engine::parseProject(
      project(kLstm, "training:\n  optimizer: {type: hessian_free, lambda: 1, min_lambda: 0.01}\n"),
      "p.yaml");
  EXPECT_NEAR(floored.training.optimizer.hessianFree.minLambda, 0.01, 0.0);
  EXPECT(engine::parseProject(engine::projectToYaml(floored), "p.yaml").training ==
         floored.training);
  auto plain = floored;
  plain.training.optimizer.hessianFree.minLambda = 0.0;
  EXPECT(!(plain.training == floored.training));
  e = errorOf(
      project(kLstm, "training:\n  optimizer: {type: hessian_free, lambda: 1, min_lambda: 2}\n"));
  EXPECT_EQ(e.key(), std::string("training.optimizer.min_lambda"));
  EXPECT_MSG(std::string(e.what()).find("must not exceed lambda") != std::string::npos, e.what());
}

// The defect: a problem of length 16,777,216 was accepted and failed in LibTorch's allocator
// ("[enforce fail at alloc_cpu.cpp:75] ... can't allocate memory").
MRNN_TEST(a_long_range_problem_asks_for_what_memory_holds) {
  const std::string word =
      "name: p\nmodel:\n  input: {level: word, embedding_size: 8}\n"
      "  layers:\n    - {type: rnn, hidden_size: 8}\n";
  auto e =
      errorOf(word + "data:\n  synthetic: temporal_order_2bit\n  problem: {length: 16777216}\n");
  EXPECT_EQ(e.key(), std::string("data.problem.length"));
  EXPECT_MSG(std::string(e.what()).find("out of range") != std::string::npos, e.what());
  e = errorOf(word +
              "data:\n  synthetic: temporal_order_2bit\n  problem: {length: 100000, valid: 10, "
              "test: 1000}\n");
  EXPECT_EQ(e.key(), std::string("data.problem.test"));
  EXPECT_MSG(std::string(e.what()).find("symbols held at once") != std::string::npos, e.what());
}
