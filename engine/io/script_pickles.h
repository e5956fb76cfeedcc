#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace mrnn::engine {

// The size of the archive record `name` ("archive/data/3"), found as LibTorch's zip library
// finds names (regardless of case), or nothing where the archive has none of that name.
using ArchiveRecordSize = std::function<std::optional<uint64_t>(const std::string& name)>;

// What is wrong, as one clause ("declares a string of 4294967040 bytes where 11 remain (pickle
// byte 26)"), with a pickle that LibTorch 1.13's TorchScript unpickler is about to read, or ""
// where that unpickler reads it within bounds. LibTorch trusts the lengths, memo numbers, marks,
// storage sizes and tensor views a pickle declares (reserving gigabytes for a 66 KB file, or
// viewing memory past a storage's end); this follows its stack with the same rules, for the
// instructions and globals a TorchScript archive of attributes holds, and refuses anything else.
// `storageFolder` is where the pickle's tensor storages lie ("archive/data/"); empty where the
// pickle may hold none.
std::string scriptPickleProblem(const std::string& pickle, const std::string& storageFolder,
                                const ArchiveRecordSize& recordSize);

// The same for every pickle of the LibTorch archive in `archive` (data.pkl, constants.pkl and
// the source's .debug_pkl files, read by the engine's zip reader), as one clause naming the
// pickle, or "". An archive in LibTorch's legacy layout (a model.json) is refused too: LibTorch
// reads that with another reader altogether.
std::string scriptPicklesProblem(const std::string& archive);

}  // namespace mrnn::engine
