#pragma once

#include <string>
#include <vector>

#include "engine/analysis/loaded_model.h"
#include "engine/io/output_file.h"

namespace mrnn::engine {

enum class ModelFileFormat { Torch, Safetensors };

// The format a file's name asks for: ".safetensors" is safetensors, anything else PyTorch's.
ModelFileFormat modelFileFormatFor(const std::string& path);

struct ExportResult {
  std::string file;
  std::string description;  // the sidecar, or empty when the description is inside the file
  int64_t tensors = 0;
  int64_t parameters = 0;
};

// Whether the file at `path` is one `exportModel` wrote (a PyTorch file whose description
// lies beside it, a safetensors file carrying the description, or the description itself),
// so that a new export may replace it.
bool isExportedModelFile(const std::string& path);

// The files an export to `output` writes: the model, and for PyTorch's format its description.
std::vector<std::string> exportOutputs(const std::string& output, ModelFileFormat format);

// Writes `loaded` to `output` as a PyTorch state dict (with the description beside it in
// "<output>.json") or a safetensors file (the description in its metadata under "mrnn"),
// after checking every file it writes against `rules` (engine/io/output_file.h; the
// checkpoint read is added to their inputs). Throws OutputRefused before writing anything,
// or InteropError (a model that predicts real numbers, an unwritable path); nothing is left
// half-written.
ExportResult exportModel(const LoadedModel& loaded, const std::string& output,
                         ModelFileFormat format, OutputRules rules = {});

}  // namespace mrnn::engine
