#pragma once

#include <optional>
#include <string>

#include "engine/config/model_config.h"
#include "engine/data/vocabulary.h"
#include "engine/interop/import_request.h"
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

// Reads the model in `request.file`: a file written by `mrnn export` comes back exactly; any
// other is read as a PyTorch language model (embedding, torch.nn.LSTM, GRU or RNN, linear
// decoder).
// Throws InteropError naming the file and every key it cannot place, a shape that does not
// fit, a non-finite weight or a vocabulary of another size.
ImportedModel readModelFile(const ImportRequest& request);

}  // namespace mrnn::engine
