#pragma once

#include <string>

#include "engine/data/vocabulary.h"

namespace mrnn::engine {

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

}  // namespace mrnn::engine
