#include "engine/interop/safetensors_file.h"

#include <torch/torch.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "engine/config/config_error.h"
#include "engine/config/yaml_reader.h"
#include "engine/io/atomic_file.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

// Larger headers are refused before being read: no model needs one (the format's own
// reader limits it to 100 MB as well).
constexpr uint64_t kMaxHeader = 100ull << 20;

const std::vector<std::pair<std::string, torch::ScalarType>>& dtypes() {
  static const std::vector<std::pair<std::string, torch::ScalarType>> table = {
      {"F64", torch::kFloat64},   {"F32", torch::kFloat32}, {"F16", torch::kFloat16},
      {"BF16", torch::kBFloat16}, {"I64", torch::kInt64},   {"I32", torch::kInt32},
      {"I16", torch::kInt16},     {"I8", torch::kInt8},     {"U8", torch::kUInt8},
      {"BOOL", torch::kBool}};
  return table;
}

std::string dtypeName(torch::ScalarType type, const std::string& path, const std::string& name) {
  for (const auto& [text, t] : dtypes()) {
    if (t == type) return text;
  }
  throw InteropError("cannot write '" + path + "': tensor '" + name + "' has type " +
                     std::string(c10::toString(type)) + ", which safetensors does not hold");
}

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw InteropError("'" + path + "' is not a readable safetensors file: " + why);
}

torch::Tensor readTensor(const std::string& path, const std::string& name, const YAML::Node& entry,
                         const std::string& file, size_t dataStart) {
  if (!entry.IsMap() || !entry["dtype"] || !entry["shape"] || !entry["data_offsets"] ||
      !entry["shape"].IsSequence() || !entry["data_offsets"].IsSequence() ||
      entry["data_offsets"].size() != 2) {
    bad(path, "tensor '" + name + "' lacks dtype, shape or data_offsets");
  }
  if (!entry["dtype"].IsScalar()) bad(path, "tensor '" + name + "' has a dtype that is not text");
  const std::string dtypeText = entry["dtype"].Scalar();
  const auto found = std::find_if(dtypes().begin(), dtypes().end(),
                                  [&](const auto& d) { return d.first == dtypeText; });
  if (found == dtypes().end()) bad(path, "tensor '" + name + "' has dtype " + dtypeText);
  std::vector<int64_t> shape;
  int64_t numel = 1;
  // Whole numbers only: yaml-cpp would read "1.5" or "1e3" as something else.
  const auto whole = [&](const YAML::Node& node, const char* what) -> uint64_t {
    const std::string text = node.IsScalar() ? node.Scalar() : std::string();
    if (text.empty() || text.size() > 19 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      bad(path, "tensor '" + name + "' has a " + what + " that is not a whole number");
    }
    return std::stoull(text);
  };
  for (const auto& size : entry["shape"]) {
    const auto n = static_cast<int64_t>(whole(size, "size"));
    if (n < 0 || (n > 0 && numel > (int64_t{1} << 40) / n)) {
      bad(path, "tensor '" + name + "' has an impossible shape");
    }
    shape.push_back(n);
    numel *= n;
  }
  const uint64_t begin = whole(entry["data_offsets"][0], "data offset");
  const uint64_t end = whole(entry["data_offsets"][1], "data offset");
  const auto bytes = static_cast<uint64_t>(numel) * c10::elementSize(found->second);
  if (end < begin || end - begin != bytes) {
    bad(path, "tensor '" + name + "' has " + std::to_string(end - begin) + " bytes for shape " +
                  shapeText(shape) + " of " + dtypeText);
  }
  // Compared without adding: offsets near 2^64 would wrap past the end.
  if (dataStart > file.size() || end > file.size() - dataStart) {
    bad(path, "the file is truncated: tensor '" + name + "' ends at byte " +
                  std::to_string(dataStart + end) + " of " + std::to_string(file.size()));
  }
  auto tensor = torch::empty(shape, torch::TensorOptions().dtype(found->second));
  std::memcpy(tensor.data_ptr(), file.data() + dataStart + begin, bytes);
  return tensor;
}

// The JSON header, read without the data that follows it.
struct Header {
  YAML::Node json;
  uint64_t size = 0;
};

Header readHeader(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) {
    throw InteropError("'" + path + "' does not exist or is not a file");
  }
  const auto fileSize = std::filesystem::file_size(path);
  std::ifstream in(path, std::ios::binary);
  std::string length(8, '\0');
  in.read(length.data(), 8);
  if (fileSize < 8 || !in) bad(path, "it is " + std::to_string(fileSize) + " bytes long");
  Header header;
  for (int i = 0; i < 8; ++i)
    header.size |= uint64_t{static_cast<unsigned char>(length[i])} << (8 * i);
  if (header.size > kMaxHeader || 8 + header.size > fileSize) {
    bad(path, "its header claims " + std::to_string(header.size) + " bytes of " +
                  std::to_string(fileSize));
  }
  std::string text(header.size, '\0');
  in.read(text.data(), static_cast<std::streamsize>(header.size));
  if (!in) bad(path, "its header cannot be read");
  if (text.empty() || text[0] != '{') bad(path, "its header is not a JSON object");
  try {
    header.json = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    bad(path, "its header is not valid JSON (" + error.msg + ")");
  }
  try {
    rejectRepeatedKeys(header.json, path);
  } catch (const ConfigError& error) {
    bad(path, "its header names '" + error.key() + "' twice");
  }
  if (!header.json.IsMap()) bad(path, "its header is not a JSON object");
  return header;
}

std::map<std::string, std::string> metadataOf(const std::string& path, const YAML::Node& json) {
  std::map<std::string, std::string> metadata;
  const YAML::Node node = json["__metadata__"];
  if (!node) return metadata;
  try {
    if (!node.IsMap()) bad(path, "__metadata__ is not an object of strings");
    for (const auto& m : node) metadata[m.first.as<std::string>()] = m.second.as<std::string>();
  } catch (const YAML::Exception& error) {
    bad(path, "__metadata__ is not an object of strings (" + error.msg + ")");
  }
  return metadata;
}

}  // namespace

void writeSafetensors(const std::string& path, const SafetensorsContent& content) {
  std::string header = "{";
  std::string data;
  for (const auto& [name, value] : content.tensors) {
    const torch::Tensor tensor = value.detach().cpu().contiguous();
    const auto begin = data.size();
    data.append(static_cast<const char*>(tensor.data_ptr()), tensor.nbytes());
    header += (header.size() > 1 ? "," : "") + jsonString(name) + ":{\"dtype\":\"" +
              dtypeName(tensor.scalar_type(), path, name) + "\",\"shape\":[";
    for (int64_t d = 0; d < tensor.dim(); ++d)
      header += (d ? "," : "") + std::to_string(tensor.size(d));
    header +=
        "],\"data_offsets\":[" + std::to_string(begin) + "," + std::to_string(data.size()) + "]}";
  }
  if (!content.metadata.empty()) {
    header += std::string(header.size() > 1 ? "," : "") + "\"__metadata__\":{";
    bool first = true;
    for (const auto& [key, value] : content.metadata) {
      header += (first ? "" : ",") + jsonString(key) + ":" + jsonString(value);
      first = false;
    }
    header += "}";
  }
  header += "}";
  while ((8 + header.size()) % 8) header += ' ';  // the data starts 8-byte aligned
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i) file[i] = static_cast<char>((header.size() >> (8 * i)) & 0xff);
  file += header;
  file += data;
  try {
    writeFileAtomically(path, file);
  } catch (const std::exception& error) {
    throw InteropError(error.what());
  }
}

SafetensorsContent readSafetensors(const std::string& path) {
  const Header header = readHeader(path);
  std::string file;
  try {
    file = readWholeFile(path, UINT64_MAX);  // its size was checked against its header
  } catch (const std::exception& error) {
    throw InteropError(error.what());
  }
  SafetensorsContent content;
  content.metadata = metadataOf(path, header.json);
  try {
    std::vector<std::pair<uint64_t, uint64_t>> ranges;
    for (const auto& item : header.json) {
      if (!item.first.IsScalar()) bad(path, "its header names a tensor by something not text");
      const std::string name = item.first.Scalar();
      if (name == "__metadata__") continue;
      content.tensors.emplace_back(name,
                                   readTensor(path, name, item.second, file, 8 + header.size));
      ranges.emplace_back(item.second["data_offsets"][0].as<uint64_t>(),
                          item.second["data_offsets"][1].as<uint64_t>());
    }
    std::sort(ranges.begin(), ranges.end());
    for (size_t i = 1; i < ranges.size(); ++i) {
      if (ranges[i].first < ranges[i - 1].second) bad(path, "two tensors' bytes overlap");
    }
  } catch (const YAML::Exception& error) {
    bad(path, "its header is not valid JSON (" + error.msg + ")");
  }
  return content;
}

std::map<std::string, std::string> readSafetensorsMetadata(const std::string& path) {
  return metadataOf(path, readHeader(path).json);
}

}  // namespace mrnn::engine
