#pragma once

#include <optional>
#include <string>

#include "engine/config/model_config.h"
#include "engine/data/vocabulary.h"
#include "engine/interop/named_tensors.h"

namespace mrnn::engine {

// A model read from another framework's file, ready to become a run: the workbench model it
// is, its vocabulary, and its weights under the engine's parameter names (docs/cells.md).
struct ImportedModel {
  ModelConfig model;
  Vocabulary vocabulary;
  NamedTensors weights;
  std::string description;  // "PyTorch LSTM, 2 layers of 200, embedding 200", for notes
};

// What `mrnn import` and the workbench's import dialog are given.
struct ImportRequest {
  std::string file;  // a torch.save'd state dict (.pt, .pth, ...) or a .safetensors file
  // The vocabulary of a PyTorch model: a file of one symbol a line (id = line number; a
  // line that is exactly \n, \t, \r or \\ is that character), or the training corpus, from
  // which ids are given in order of first appearance, as PyTorch's word language model
  // example does (word level: each line's words, then <eos>). Not needed for a file that
  // `mrnn export` wrote: it carries its own.
  std::string vocabularyFile;
  std::string corpusFile;
  InputLevel level = InputLevel::Word;
  // YAML naming the state dict's parts when their names do not tell: keys embedding,
  // rnn (the prefix before weight_ih_l0), decoder_weight, decoder_bias.
  std::string mappingFile;
};

// Reads the model in `request.file`: a file written by `mrnn export` comes back exactly; any
// other is read as a PyTorch language model (embedding, torch.nn.LSTM or RNN, linear decoder).
// Throws InteropError naming the file and every key it cannot place, a shape that does not
// fit, a non-finite weight or a vocabulary of another size.
ImportedModel readModelFile(const ImportRequest& request);

}  // namespace mrnn::engine
