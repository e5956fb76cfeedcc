#include "engine/io/checkpoint_envelope.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "engine/io/fnv1a.h"

namespace mrnn::engine {
namespace {

constexpr char kTag[8] = {'M', 'R', 'N', 'N', 'C', 'K', 'P', 'T'};

void putU64(std::string& out, uint64_t value) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

uint64_t getU64(const char* in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i)
    value |= static_cast<uint64_t>(static_cast<unsigned char>(in[i])) << (8 * i);
  return value;
}

// What the header (kCheckpointHeaderBytes of `header`, from a file of `fileSize` bytes) says
// is wrong; empty when the header fits the file.
std::string headerProblem(const char* header, uint64_t fileSize, const std::string& path) {
  if (fileSize < kCheckpointHeaderBytes || std::memcmp(header, kTag, sizeof kTag) != 0) {
    return "'" + path + "' is not an mRNN Workbench checkpoint";
  }
  const uint64_t version = getU64(header + 8);
  if (version != kCheckpointFormatVersion) {
    return "checkpoint '" + path + "' has format version " + std::to_string(version) +
           "; this build reads version " + std::to_string(kCheckpointFormatVersion);
  }
  const uint64_t expected = getU64(header + 16);
  const uint64_t present = fileSize - kCheckpointHeaderBytes;
  if (present < expected) {
    return "checkpoint '" + path + "' is truncated: " + std::to_string(present) + " of " +
           std::to_string(expected) + " bytes are present";
  }
  if (present > expected) {
    return "checkpoint '" + path + "' is damaged: " + std::to_string(present - expected) +
           " bytes follow the end its header gives (" + std::to_string(expected) +
           " bytes); something appended to or overwrote the file";
  }
  return "";
}

std::string digestProblem(uint64_t digest, const char* header, const std::string& path) {
  if (digest == getU64(header + 24)) return "";
  return "checkpoint '" + path + "' is corrupt: its contents do not match their checksum";
}

}  // namespace

std::string sealCheckpoint(const std::string& payload) {
  std::string file(kTag, sizeof kTag);
  putU64(file, kCheckpointFormatVersion);
  putU64(file, payload.size());
  putU64(file, fnv1a(payload));
  return file + payload;
}

std::string checkpointEnvelopeProblem(const std::string& file, const std::string& path) {
  char header[kCheckpointHeaderBytes] = {};
  std::memcpy(header, file.data(), std::min(file.size(), sizeof header));
  std::string problem = headerProblem(header, file.size(), path);
  if (!problem.empty()) return problem;
  return digestProblem(
      fnv1a(file.data() + kCheckpointHeaderBytes, file.size() - kCheckpointHeaderBytes), header,
      path);
}

std::string checkpointFileProblem(const std::string& path) {
  // Opened without waiting (a FIFO put at its name never blocks the caller), then checked.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return "checkpoint '" + path + "' cannot be read: " + std::strerror(errno);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    return "checkpoint '" + path + "' is not a regular file";
  }
  const auto size = static_cast<uint64_t>(info.st_size);
  // Reads `want` bytes into `into`; false at an error or an early end (the file shrank).
  const auto readAll = [fd](char* into, size_t want) {
    while (want > 0) {
      const ssize_t got = ::read(fd, into, want);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      into += got;
      want -= static_cast<size_t>(got);
    }
    return true;
  };
  char header[kCheckpointHeaderBytes] = {};
  if (!readAll(header, static_cast<size_t>(std::min<uint64_t>(size, sizeof header)))) {
    return "checkpoint '" + path + "' cannot be read: " + std::strerror(errno);
  }
  std::string problem = headerProblem(header, size, path);
  if (!problem.empty()) return problem;
  std::vector<char> piece(size_t{1} << 20);
  uint64_t digest = kFnv1aStart;
  for (uint64_t left = size - kCheckpointHeaderBytes; left > 0;) {
    const auto want = static_cast<size_t>(std::min<uint64_t>(left, piece.size()));
    if (!readAll(piece.data(), want)) return "checkpoint '" + path + "' cannot be read";
    digest = fnv1a(piece.data(), want, digest);
    left -= want;
  }
  return digestProblem(digest, header, path);
}

}  // namespace mrnn::engine
