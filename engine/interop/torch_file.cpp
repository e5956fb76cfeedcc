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
#include "engine/io/zip_records.h"
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

// A pickle holds names and shapes, never weights: a state dict of 100,000 tensors pickles to
// a few megabytes. A larger one is a damaged or hostile file, not a model.
constexpr uint64_t kMaxPickleBytes = uint64_t{64} << 20;

// The archive's records by name inside its folder ("data.pkl", "data/0"), read by the
// engine's own zip reader (LibTorch's leaks on many damaged archives it refuses).
class TorchArchive {
 public:
  explicit TorchArchive(const std::string& path) : path_(path), zip_(open(path)) {
    if (zip_.entries().empty()) {
      throw InteropError("'" + path + "' is truncated or damaged: its zip archive holds no files");
    }
    const std::string& first = zip_.entries().front().name;
    const std::string folder = first.substr(0, first.find('/') + 1);
    for (const ZipEntry& entry : zip_.entries()) {
      if (entry.name.size() > folder.size() && entry.name.compare(0, folder.size(), folder) == 0) {
        records_.emplace(entry.name.substr(folder.size()), &entry);  // the first of a name wins
      }
    }
  }

  TorchArchive(const TorchArchive&) = delete;
  TorchArchive& operator=(const TorchArchive&) = delete;

  const ZipEntry* find(const std::string& record) const {
    const auto it = records_.find(record);
    return it == records_.end() ? nullptr : it->second;
  }

  std::string read(const ZipEntry& entry, uint64_t maxBytes) {
    try {
      return zip_.read(entry, maxBytes);
    } catch (const std::runtime_error& error) {
      throw InteropError("'" + path_ + "' is truncated or damaged: " + error.what());
    }
  }

 private:
  static ZipRecords open(const std::string& path) {
    try {
      return ZipRecords::inFile(path);
    } catch (const std::runtime_error& error) {
      throw InteropError("'" + path + "' is truncated or damaged: " + error.what());
    }
  }

  std::string path_;
  ZipRecords zip_;
  std::map<std::string, const ZipEntry*> records_;
};

// The storage's bytes as a tensor of `dtype`, checked against the element count the pickle
// gives: a shrunken or foreign file is not read past its end, nor a small archive inflated to
// the gigabytes it may claim.
torch::Tensor storageTensor(TorchArchive& archive, const std::string& path, const std::string& key,
                            torch::ScalarType dtype, int64_t numel) {
  const std::string record = "data/" + key;
  const ZipEntry* entry = archive.find(record);
  if (entry == nullptr) {
    throw InteropError("'" + path + "' lacks the storage '" + record + "' its pickle refers to");
  }
  const auto element = static_cast<uint64_t>(c10::elementSize(dtype));
  const auto wanted = static_cast<uint64_t>(numel);
  if (numel < 0 || entry->size / element < wanted) {
    throw InteropError("'" + path + "': storage '" + record + "' holds " +
                       std::to_string(entry->size) + " bytes, fewer than its " +
                       std::to_string(numel) + " elements need");
  }
  if (entry->size > wanted * element) {
    throw InteropError("'" + path + "': storage '" + record + "' holds " +
                       std::to_string(entry->size) + " bytes, more than its " +
                       std::to_string(numel) + " elements need");
  }
  const std::string bytes = archive.read(*entry, wanted * element);
  auto tensor = torch::empty({numel}, torch::TensorOptions().dtype(dtype));
  // An empty storage has no data pointer to copy into (memcpy's null is undefined even for 0).
  if (wanted > 0) std::memcpy(tensor.data_ptr(), bytes.data(), bytes.size());
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
  TorchArchive archive(path);
  const ZipEntry* pickleEntry = archive.find("data.pkl");
  if (pickleEntry == nullptr) {
    throw InteropError("'" + path + "' is a zip archive without data.pkl: not a torch.save " +
                       "file (a TorchScript or other archive?)");
  }
  const std::string pickle = archive.read(*pickleEntry, kMaxPickleBytes);
  RestrictedUnpickler unpickler(
      path, [&](const std::string& key, torch::ScalarType dtype, int64_t numel) {
        try {
          return storageTensor(archive, path, key, dtype, numel);
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
