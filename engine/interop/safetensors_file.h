#pragma once

#include <map>
#include <string>

#include "engine/interop/named_tensors.h"

namespace mrnn::engine {

// The safetensors format (what the Hugging Face world exchanges): an 8-byte little-endian
// header length, a JSON header naming each tensor's dtype, shape and byte range, then the raw
// little-endian data. Nothing in it can run.
struct SafetensorsContent {
  NamedTensors tensors;
  std::map<std::string, std::string> metadata;  // the header's "__metadata__"
};

// Writes atomically; throws InteropError naming the path when it cannot.
void writeSafetensors(const std::string& path, const SafetensorsContent& content);

// Throws InteropError naming the file and the key or byte at fault (truncated data, a
// header that is not JSON, overlapping or out-of-range offsets, an unknown dtype).
SafetensorsContent readSafetensors(const std::string& path);

// The header's "__metadata__" alone, without reading the tensors; throws as readSafetensors.
std::map<std::string, std::string> readSafetensorsMetadata(const std::string& path);

}  // namespace mrnn::engine
