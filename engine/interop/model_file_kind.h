#pragma once

#include <string>

namespace mrnn::engine {

// What a model file is, told from its name, its sidecar and a safetensors file's header
// (never the weights): whether it carries its own description and vocabulary, so that an
// import asks for a vocabulary only when the file needs one. readModelFile decides the same way.
enum class ModelFileKind {
  Missing,   // no such file
  Exported,  // written by mrnn export: a sidecar FILE.json, or safetensors with "mrnn" metadata
  PyTorch,   // a state dict (or safetensors) without a description: it needs a vocabulary
  Unknown,   // a safetensors file whose header cannot be read
};

ModelFileKind modelFileKind(const std::string& path);

// Where the description of a PyTorch-format export lives: beside it, "<file>.json".
inline std::string exportDescriptionPath(const std::string& torchFile) {
  return torchFile + ".json";
}

// Whether the name asks for safetensors (".safetensors").
bool isSafetensorsName(const std::string& path);

}  // namespace mrnn::engine
