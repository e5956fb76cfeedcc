#pragma once

#include <string>

#include "engine/interop/named_tensors.h"

namespace mrnn::engine {

// PyTorch's own file format (torch.save since 1.6: a zip archive of a pickle and the tensors'
// storages), for state dicts.

// Writes `tensors` as a dictionary that torch.load(path, weights_only=True) returns as it
// is, atomically. Throws InteropError naming the path when it cannot be written.
void writeTorchStateDict(const std::string& path, const NamedTensors& tensors);

// The tensors of a torch.save'd state dict (nested dictionaries flattened with dots), read
// without running anything in it (RestrictedUnpickler). Throws InteropError for a missing,
// truncated or foreign file, the legacy (pre-1.6) format, or a pickle that holds code.
NamedTensors readTorchStateDict(const std::string& path);

// Whether the file starts as a zip archive does (what torch.save writes).
bool looksLikeTorchZip(const std::string& path);

}  // namespace mrnn::engine
