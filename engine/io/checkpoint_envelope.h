#pragma once

#include <cstdint>
#include <string>

namespace mrnn::engine {

// The envelope around a checkpoint's LibTorch archive: an 8-byte tag, the format version, the
// payload's length and its FNV-1a digest, then the payload. LibTorch's zip does not verify
// tensor bytes, so the digest is what finds a damaged file, and the length a truncated one,
// before anything is loaded. Torch-free, so that the run browser can tell a whole checkpoint
// from a damaged one without the engine's training library.
inline constexpr uint64_t kCheckpointFormatVersion = 1;
inline constexpr size_t kCheckpointHeaderBytes = 8 + 8 + 8 + 8;

// The file's bytes for `payload`.
std::string sealCheckpoint(const std::string& payload);

// Why `file` (the bytes of the checkpoint at `path`) is no whole checkpoint of this build's
// format, in one sentence naming `path`; empty when it is one.
std::string checkpointEnvelopeProblem(const std::string& file, const std::string& path);

// The same for the file at `path`, read in pieces (a checkpoint is as large as its model):
// also says when it is missing, no regular file, or unreadable.
std::string checkpointFileProblem(const std::string& path);

}  // namespace mrnn::engine
