#include "engine/interop/torch_file.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/pickler.h>
#include <torch/torch.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "engine/interop/restricted_unpickler.h"
#include "engine/io/atomic_file.h"
#include "engine/io/zip_directory.h"
#include "engine/training/library_error_text.h"

namespace mrnn::engine {
namespace {

std::string firstBytes(const std::string& path, size_t n) {
  std::ifstream in(path, std::ios::binary);
  std::string bytes(n, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(n));
  bytes.resize(static_cast<size_t>(in.gcount()));
  return bytes;
}

// The record's bytes as a tensor of `dtype`, checked against the element count the pickle
// gives (a shrunken or foreign file must not be read past its end).
// The archive's records by name inside its folder ("data/0"), with the sizes its directory
// declares, so that a record is measured before it is inflated.
using RecordSizes = std::map<std::string, uint64_t>;

RecordSizes recordSizes(const std::string& path) {
  std::vector<ZipEntry> entries;
  try {
    entries = readZipFileDirectory(path);
  } catch (const std::exception& error) {
    throw InteropError("'" + path + "' is truncated or damaged: " + error.what());
  }
  RecordSizes sizes;
  for (const ZipEntry& entry : entries) {
    const size_t slash = entry.name.find('/');
    if (slash != std::string::npos) sizes[entry.name.substr(slash + 1)] = entry.size;
  }
  return sizes;
}

torch::Tensor storageTensor(caffe2::serialize::PyTorchStreamReader& reader, const std::string& path,
                            const RecordSizes& sizes, const std::string& key,
                            torch::ScalarType dtype, int64_t numel) {
  const std::string record = "data/" + key;
  const auto declared = sizes.find(record);
  if (declared == sizes.end() || !reader.hasRecord(record)) {
    throw InteropError("'" + path + "' lacks the storage '" + record + "' its pickle refers to");
  }
  const auto element = static_cast<uint64_t>(c10::elementSize(dtype));
  const auto wanted = static_cast<uint64_t>(numel);
  if (numel < 0 || declared->second / element < wanted) {
    throw InteropError("'" + path + "': storage '" + record + "' holds " +
                       std::to_string(declared->second) + " bytes, fewer than its " +
                       std::to_string(numel) + " elements need");
  }
  // Never inflated past what the pickle declares: a small archive may claim gigabytes.
  if (declared->second > wanted * element) {
    throw InteropError("'" + path + "': storage '" + record + "' holds " +
                       std::to_string(declared->second) + " bytes, more than its " +
                       std::to_string(numel) + " elements need");
  }
  auto [data, size] = reader.getRecord(record);
  if (size < wanted * element) {
    throw InteropError("'" + path + "': storage '" + record +
                       "' is shorter than its directory says");
  }
  auto tensor = torch::empty({numel}, torch::TensorOptions().dtype(dtype));
  // An empty storage has no data pointer to copy into (memcpy's null is undefined even for 0).
  if (wanted > 0) {
    std::memcpy(tensor.data_ptr(), data.get(), static_cast<size_t>(wanted * element));
  }
  return tensor;
}

}  // namespace

bool looksLikeTorchZip(const std::string& path) {
  return firstBytes(path, 4) == "PK\x03\x04";
}

void writeTorchStateDict(const std::string& path, const NamedTensors& tensors) {
  c10::Dict<std::string, at::Tensor> dict;
  for (const auto& [name, tensor] : tensors) dict.insert(name, tensor.detach().cpu().contiguous());
  std::string pickle;
  // Untagged containers: tagged ones name torch.jit._pickle.restore_type_tag, which
  // torch.load(weights_only=True) refuses.
  torch::jit::Pickler pickler([&](const char* bytes, size_t size) { pickle.append(bytes, size); },
                              nullptr, nullptr, nullptr, nullptr, /*tag_aggregates=*/false);
  pickler.protocol();
  pickler.pushIValue(dict);
  pickler.stop();

  std::string archive;
  try {
    caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, size_t size) {
      archive.append(static_cast<const char*>(bytes), size);
      return size;
    });
    writer.writeRecord("data.pkl", pickle.data(), pickle.size());
    for (size_t i = 0; i < pickler.tensorData().size(); ++i) {
      const at::Tensor& tensor = pickler.tensorData()[i];
      writer.writeRecord("data/" + std::to_string(i), tensor.storage().data(),
                         tensor.storage().nbytes());
    }
    writer.writeEndOfFile();
  } catch (const std::exception& error) {
    throw InteropError("cannot write '" + path + "': " + libraryErrorText(error));
  }
  try {
    writeFileAtomically(path, archive);
  } catch (const std::exception& error) {
    throw InteropError(error.what());
  }
}

NamedTensors readTorchStateDict(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) {
    throw InteropError("'" + path + "' does not exist or is not a file");
  }
  if (!looksLikeTorchZip(path)) {
    const std::string start = firstBytes(path, 2);
    if (start.size() == 2 && static_cast<unsigned char>(start[0]) == 0x80) {
      throw InteropError("'" + path +
                         "' is in PyTorch's legacy format (before 1.6, or saved "
                         "with _use_new_zipfile_serialization=False): save it again with a "
                         "current torch.save");
    }
    throw InteropError("'" + path + "' is not a PyTorch file (torch.save writes a zip archive)");
  }
  const std::string problem =
      torchArchiveFileProblem(path, caffe2::serialize::kMaxSupportedFileFormatVersion);
  if (!problem.empty()) throw InteropError("'" + path + "' is truncated or damaged: " + problem);
  const RecordSizes sizes = recordSizes(path);
  std::unique_ptr<caffe2::serialize::PyTorchStreamReader> reader;
  std::string pickle;
  try {
    reader = std::make_unique<caffe2::serialize::PyTorchStreamReader>(path);
    if (!reader->hasRecord("data.pkl")) {
      throw InteropError("'" + path + "' is a zip archive without data.pkl: not a torch.save " +
                         "file (a TorchScript or other archive?)");
    }
    auto [data, size] = reader->getRecord("data.pkl");
    pickle.assign(static_cast<const char*>(data.get()), size);
  } catch (const InteropError&) {
    throw;
  } catch (const std::exception& error) {
    throw InteropError("'" + path + "' is truncated or damaged: " + libraryErrorText(error));
  }
  RestrictedUnpickler unpickler(
      path, [&](const std::string& key, torch::ScalarType dtype, int64_t numel) {
        try {
          return storageTensor(*reader, path, sizes, key, dtype, numel);
        } catch (const InteropError&) {
          throw;
        } catch (const std::exception& error) {
          throw InteropError("'" + path + "' is damaged at storage data/" + key + ": " +
                             libraryErrorText(error));
        }
      });
  return unpickler.stateDict(pickle);
}

}  // namespace mrnn::engine
