// Export's eval form and import as a run: a model comes back bit for bit, a PyTorch file
// that does not fit is refused naming the key, and a refused import writes nothing.

#include <torch/torch.h>

#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "engine/analysis/loaded_model.h"
#include "engine/analysis/model_placement.h"
#include "engine/config/project_file.h"
#include "engine/interop/exported_tensors.h"
#include "engine/interop/import_vocabulary.h"
#include "engine/interop/imported_model.h"
#include "engine/interop/model_export.h"
#include "engine/interop/model_file_kind.h"
#include "engine/interop/run_import.h"
#include "engine/interop/safetensors_file.h"
#include "engine/interop/torch_file.h"
#include "engine/models/language_model.h"
#include "engine/store/run_catalogue.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;
using engine::InteropError;

namespace {

const std::string kPytorchFiles = MRNN_INTEROP_FILES;

engine::Vocabulary letters() {
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {"\n", " ", "a", "b", "c"});
}

// A model the file formats must carry: two layers, weight normalisation on the second.
engine::LoadedModel modelToExport(const test::ScratchProject& scratch) {
  engine::LoadedModel loaded;
  loaded.project = scratch.project(200);
  loaded.project.model.layers.push_back(loaded.project.model.layers.front());
  loaded.project.model.layers[1].type = engine::CellType::Lstm;
  loaded.project.model.layers[1].weightNorm = true;
  loaded.vocabulary = letters();
  loaded.model = std::make_unique<engine::LanguageModel>(loaded.project.model, 5);
  torch::NoGradGuard noGrad;
  for (auto& p : loaded.model->named_parameters()) {
    // Gains away from ||v||, so that folding them in changes the weights.
    if (p.key().size() > 2 && p.key().substr(p.key().size() - 2) == "_g") p.value().mul_(1.5);
  }
  loaded.model->eval();
  return loaded;
}

// A project file whose runs the import joins.
std::string projectFile(const test::ScratchProject& scratch) {
  engine::Project project = scratch.project(200);
  engine::saveProject(project, scratch.file("project.yaml"));
  return scratch.file("project.yaml");
}

size_t runCount(const test::ScratchProject& scratch) {
  if (!engine::RunCatalogue::exists(scratch.folder().string())) return 0;
  return engine::RunCatalogue(scratch.folder().string()).runs().size();
}

}  // namespace

MRNN_TEST(export_writes_the_eval_form_with_weight_norm_folded) {
  test::ScratchProject scratch("interop_export");
  auto loaded = modelToExport(scratch);
  const auto tensors = engine::exportedTensors(*loaded.model);
  EXPECT(!engine::findTensor(tensors, "layer2.W_h_g"));
  const auto effective = loaded.model->layer(1).effectiveRecurrentWeights();
  const torch::Tensor* exported = engine::findTensor(tensors, "layer2.W_h");
  EXPECT(exported != nullptr);
  if (exported) {
    EXPECT(torch::equal(*exported, effective.front().second.reshape(exported->sizes())));
    // A handle: named_parameters() returns its dictionary by value.
    const torch::Tensor raw = loaded.model->named_parameters()["layer2.W_h"];
    EXPECT_MSG(!torch::allclose(*exported, raw), "the gains were not folded in");
  }
  EXPECT(engine::findTensor(tensors, "input.embedding") != nullptr);
  EXPECT(engine::findTensor(tensors, "output.W") != nullptr);
}

MRNN_TEST(an_exported_model_imports_as_a_run_bit_for_bit) {
  test::ScratchProject scratch("interop_round_trip");
  const std::string project = projectFile(scratch);
  auto loaded = modelToExport(scratch);
  const auto original = engine::exportedTensors(*loaded.model);
  for (const std::string name : {"m.pt", "m.safetensors"}) {
    const auto result =
        engine::exportModel(loaded, scratch.file(name), engine::modelFileFormatFor(name));
    EXPECT_EQ(result.description.empty(), name == "m.safetensors");
    engine::ImportRequest request;
    request.file = scratch.file(name);
    const auto run = engine::importAsRun(project, engine::readModelFile(request), request.file);
    const auto back = engine::loadModelForAnalysis(project, run.runId);
    EXPECT_EQ(back.vocabulary.fingerprint(), letters().fingerprint());
    const auto again = engine::exportedTensors(*back.model);
    EXPECT_EQ(again.size(), original.size());
    for (const auto& [key, tensor] : original) {
      const torch::Tensor* other = engine::findTensor(again, key);
      EXPECT_MSG(other && torch::equal(*other, tensor), name + ": " + key + " differs");
    }
    const auto record = engine::RunCatalogue(scratch.folder().string()).run(run.runId);
    EXPECT(record && record->note.find(name) != std::string::npos);
    EXPECT(record && record->steps == 0 && record->status == engine::RunStatus::Finished);
  }
}

std::string contentsOf(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The defect: an export over an earlier one whose weights could not be written (a full disk)
// deleted the earlier export's description, leaving its weights undescribed.
MRNN_TEST(a_failed_export_leaves_the_earlier_export_whole) {
  test::ScratchProject scratch("interop_failed_export");
  auto loaded = modelToExport(scratch);
  const std::string weights = scratch.file("m.pt");
  const std::string description = engine::exportDescriptionPath(weights);
  engine::exportModel(loaded, weights, engine::ModelFileFormat::Torch);
  const std::string oldWeights = contentsOf(weights);
  const std::string oldDescription = contentsOf(description);
  EXPECT(!oldDescription.empty() && oldDescription.size() * 2 < oldWeights.size());
  // A file-size limit between the two sizes: the description is written, the weights are not
  // (EFBIG, as a full disk's ENOSPC).
  struct rlimit before {};
  EXPECT(::getrlimit(RLIMIT_FSIZE, &before) == 0);
  const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = before;
  limit.rlim_cur = (oldDescription.size() + oldWeights.size()) / 2;
  EXPECT(::setrlimit(RLIMIT_FSIZE, &limit) == 0);
  bool refused = false;
  try {
    engine::exportModel(loaded, weights, engine::ModelFileFormat::Torch);
  } catch (const InteropError&) {
    refused = true;
  }
  ::setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, previousHandler);
  EXPECT(refused);
  EXPECT(contentsOf(weights) == oldWeights);
  EXPECT_MSG(contentsOf(description) == oldDescription, "the earlier description is gone");
}

MRNN_TEST(a_file_that_does_not_fit_is_refused_and_nothing_is_written) {
  test::ScratchProject scratch("interop_refused");
  const std::string project = projectFile(scratch);
  auto loaded = modelToExport(scratch);
  engine::exportModel(loaded, scratch.file("m.pt"), engine::ModelFileFormat::Torch);
  auto tensors = engine::readTorchStateDict(scratch.file("m.pt"));
  engine::ImportRequest request;
  request.file = scratch.file("m.pt");

  auto withNan = tensors;
  withNan[2].second = withNan[2].second.clone();  // the copy shares storage otherwise
  withNan[2].second.view(-1)[3] = std::nan("");
  engine::writeTorchStateDict(request.file, withNan);
  EXPECT_THROWS_WITH(InteropError, engine::readModelFile(request), std::string("m.pt"),
                     "'" + withNan[2].first + "' holds NaN");

  auto missing = tensors;
  const std::string dropped = missing[1].first;
  missing.erase(missing.begin() + 1);
  engine::writeTorchStateDict(request.file, missing);
  EXPECT_THROWS_WITH(InteropError,
                     engine::importAsRun(project, engine::readModelFile(request), request.file),
                     std::string("m.pt"), "lacks " + dropped);

  auto misshapen = tensors;
  misshapen[0].second = torch::zeros({7, 3});
  engine::writeTorchStateDict(request.file, misshapen);
  EXPECT_THROWS_WITH(
      InteropError, engine::importAsRun(project, engine::readModelFile(request), request.file),
      "'" + misshapen[0].first + "' has shape [7, 3] where the model needs", std::string("m.pt"));
  EXPECT_EQ(runCount(scratch), size_t{0});
  EXPECT(!std::filesystem::exists(scratch.file("checkpoints")));
}

MRNN_TEST(a_pytorch_lstm_needs_a_vocabulary_of_its_size) {
  test::ScratchProject scratch("interop_pytorch");
  engine::ImportRequest request;
  request.file = kPytorchFiles + "/lstm_state_dict.pt";
  EXPECT_THROWS_WITH(InteropError, engine::readModelFile(request), "carries no vocabulary");
  scratch.write("six.txt", "a\nb\nc\nd\ne\nf\n");
  request.vocabularyFile = scratch.file("six.txt");
  EXPECT_THROWS_WITH(InteropError, engine::readModelFile(request), "the vocabulary has 6 symbols",
                     "5 embedding rows (encoder.weight)");
  scratch.write("five.txt", "the\ncat\n\\n\n<unk>\n<eos>\n");
  request.vocabularyFile = scratch.file("five.txt");
  const auto model = engine::readModelFile(request);
  EXPECT_EQ(model.vocabulary.symbol(2), std::string("\n"));
  EXPECT_EQ(model.model.layers.size(), size_t{1});
  EXPECT(model.model.layers[0].type == engine::CellType::Lstm);
  EXPECT_EQ(model.model.layers[0].hiddenSize, int64_t{2});
  // PyTorch's gates i, f, g, o arrive as the workbench's i, f, o, j, the two biases summed.
  const auto pytorch = engine::readTorchStateDict(request.file);
  const auto& wih = *engine::findTensor(pytorch, "rnn.weight_ih_l0");
  const auto& wx = *engine::findTensor(model.weights, "layer1.W_x");
  EXPECT(torch::equal(wx.slice(0, 4, 6), wih.slice(0, 6, 8)));  // o
  EXPECT(torch::equal(wx.slice(0, 6, 8), wih.slice(0, 4, 6)));  // j = g
  const auto bias = *engine::findTensor(pytorch, "rnn.bias_ih_l0") +
                    *engine::findTensor(pytorch, "rnn.bias_hh_l0");
  EXPECT(torch::equal(engine::findTensor(model.weights, "layer1.b")->slice(0, 0, 4),
                      bias.slice(0, 0, 4)));
}

// PyTorch's GRU applies its reset gate after the recurrent product (the cuDNN form); it
// imports as the zoo's gru with reset_after, and the imported model reads a text as the
// torch::nn::GRU it came from does: in double precision to 1e-7 nats, the rounding of the two
// biases folded into one in float32 (the precision weights are stored in).
MRNN_TEST(a_pytorch_gru_imports_exactly_as_reset_after) {
  test::ScratchProject scratch("interop_pytorch_gru");
  scratch.write("five.txt", "the\ncat\n\\n\n<unk>\n<eos>\n");
  torch::manual_seed(3);
  torch::nn::Embedding encoder(5, 4);
  torch::nn::GRU rnn(torch::nn::GRUOptions(4, 6).num_layers(2));
  torch::nn::Linear decoder(6, 5);
  engine::NamedTensors state = {{"encoder.weight", encoder->weight.detach()},
                                {"decoder.weight", decoder->weight.detach()},
                                {"decoder.bias", decoder->bias.detach()}};
  for (const auto& p : rnn->named_parameters())
    state.emplace_back("rnn." + p.key(), p.value().detach());
  engine::writeTorchStateDict(scratch.file("gru.pt"), state);
  engine::ImportRequest request;
  request.file = scratch.file("gru.pt");
  request.vocabularyFile = scratch.file("five.txt");
  const auto imported = engine::readModelFile(request);
  EXPECT_EQ(imported.model.layers.size(), size_t{2});
  for (const auto& layer : imported.model.layers) {
    EXPECT(layer.type == engine::CellType::Gru);
    EXPECT(layer.resetAfter);
  }
  EXPECT(imported.description.find("PyTorch GRU, 2 layers of 6") != std::string::npos);

  engine::Project words = scratch.project(200);
  words.model.input.level = engine::InputLevel::Word;
  engine::saveProject(words, scratch.file("project.yaml"));
  const auto run = engine::importAsRun(scratch.file("project.yaml"), imported, request.file, "gru");
  engine::LoadedModel loaded =
      engine::loadModelForAnalysis(scratch.file("project.yaml"), run.runId);
  EXPECT(loaded.project.model.layers[0].resetAfter);  // the run's settings say so too
  loaded.model->to(torch::kFloat64);
  encoder->to(torch::kFloat64);
  rnn->to(torch::kFloat64);
  decoder->to(torch::kFloat64);
  torch::NoGradGuard noGrad;
  const auto tokens = torch::tensor({0, 1, 4, 2, 3, 3, 1, 0, 4, 2}, torch::kLong).reshape({10, 1});
  const auto expected = torch::log_softmax(decoder(std::get<0>(rnn(encoder(tokens)))), -1);
  engine::ModelState modelState = loaded.model->initialState(1);
  for (auto& part : modelState.layers) {
    for (auto& tensor : part.parts) tensor = tensor.to(torch::kFloat64);
  }
  const auto got = loaded.model->forward(tokens, modelState);
  EXPECT_NEAR((got - expected).abs().max().item<double>(), 0.0, 1e-7);
}

MRNN_TEST(a_pytorch_model_in_safetensors_imports_as_from_torch_save) {
  test::ScratchProject scratch("interop_pytorch_safetensors");
  scratch.write("five.txt", "the\ncat\n\\n\n<unk>\n<eos>\n");
  engine::ImportRequest request;
  request.file = kPytorchFiles + "/lstm_state_dict.pt";
  request.vocabularyFile = scratch.file("five.txt");
  const auto fromTorch = engine::readModelFile(request);
  // What safetensors' save_file(model.state_dict()) writes: the tensors, no metadata.
  engine::writeSafetensors(scratch.file("lm.safetensors"),
                           {engine::readTorchStateDict(request.file), {}});
  request.file = scratch.file("lm.safetensors");
  const auto fromSafetensors = engine::readModelFile(request);
  EXPECT_EQ(fromSafetensors.weights.size(), fromTorch.weights.size());
  for (const auto& [name, tensor] : fromTorch.weights) {
    const torch::Tensor* other = engine::findTensor(fromSafetensors.weights, name);
    EXPECT_MSG(other && torch::equal(*other, tensor), name);
  }
  // A word-level model joins a word-level project.
  engine::Project words = scratch.project(200);
  words.model.input.level = engine::InputLevel::Word;
  engine::saveProject(words, scratch.file("project.yaml"));
  const std::string project = scratch.file("project.yaml");
  const auto run = engine::importAsRun(project, fromSafetensors, request.file, "lm");
  EXPECT_EQ(engine::loadModelForAnalysis(project, run.runId).model->layerCount(), size_t{1});
}

MRNN_TEST(vocabularies_from_symbol_files_and_corpora) {
  test::ScratchProject scratch("interop_vocabulary");
  scratch.write("twice.txt", "a\nb\na\n");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::vocabularyFromSymbolFile(scratch.file("twice.txt"), engine::InputLevel::Word),
      "twice.txt':3", "'a' appears twice");
  scratch.write("gap.txt", "a\n\nb\n");
  EXPECT_THROWS_WITH(
      InteropError,
      engine::vocabularyFromSymbolFile(scratch.file("gap.txt"), engine::InputLevel::Word),
      "gap.txt':2", "empty line");
  scratch.write("corpus.txt", "the cat sat\nthe dog\n");
  const auto words =
      engine::vocabularyFromCorpusOrder(scratch.file("corpus.txt"), engine::InputLevel::Word);
  EXPECT_EQ(words.size(), int64_t{5});
  EXPECT_EQ(words.symbol(3), std::string("<eos>"));
  EXPECT_EQ(words.symbol(4), std::string("dog"));
  const auto chars =
      engine::vocabularyFromCorpusOrder(scratch.file("corpus.txt"), engine::InputLevel::Char);
  EXPECT_EQ(chars.symbol(0), std::string("t"));
  EXPECT_EQ(chars.symbol(3), std::string(" "));
}
