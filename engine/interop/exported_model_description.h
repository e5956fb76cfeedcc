#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/config/model_config.h"
#include "engine/data/vocabulary.h"

namespace mrnn::engine {

// Where an exported model came from, for the reader's records.
struct ExportSource {
  int64_t run = 0;
  std::string runName;
  std::string checkpoint;
  int64_t step = 0;
  std::optional<double> bestValidBits;
};

// The JSON document that travels with an exported model (the sidecar FILE.json of a PyTorch
// file, the "mrnn" metadata string of a safetensors file): the model with every size resolved,
// the model section as YAML, the vocabulary and the source. python/README.md describes it;
// the Python package builds the model from it.
std::string exportDescriptionJson(const ModelConfig& model, int64_t vocab,
                                  const Vocabulary& vocabulary, const ExportSource& source);

// What an exported description gives back: the model section and the vocabulary.
struct ExportedDescription {
  ModelConfig model;
  Vocabulary vocabulary;
};

// Reads a description written by exportDescriptionJson; throws InteropError naming `file`
// and the key at fault.
ExportedDescription readExportDescription(const std::string& json, const std::string& file);

// The tag that marks a description ("format").
inline constexpr const char* kExportFormatTag = "mrnn-workbench-model";

}  // namespace mrnn::engine
