// A checkpoint (engine/training/checkpoint.h): its header, checksum, archive and snapshot.
// An input that starts as a checkpoint does has its header's size and checksum made right
// first, so the fuzzer reaches the archive behind them (as a file made to break the reader
// would); the others exercise the header's own checks.
#include "engine/training/checkpoint.h"
#include "fuzz_input.h"

namespace {

constexpr size_t kHeaderSize = 32;  // tag, format version, payload size, checksum

// The header's checksum as the format defines it: FNV-1a, 64 bits, over the payload.
uint64_t fnv1a(const uint8_t* data, size_t size) {
  uint64_t hash = 14695981039346656037ull;
  for (size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

void putU64(std::string& bytes, size_t at, uint64_t value) {
  for (int i = 0; i < 8; ++i) bytes[at + i] = static_cast<char>((value >> (8 * i)) & 0xff);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string bytes = mrnn::fuzz::asText(data, size);
  // Odd final bytes keep the header as it is, so damaged sizes and checksums stay fuzzed too.
  if (size > kHeaderSize && (data[size - 1] & 1) == 0) {
    putU64(bytes, 16, size - kHeaderSize);
    putU64(bytes, 24, fnv1a(data + kHeaderSize, size - kHeaderSize));
  }
  try {
    auto checkpoint = mrnn::engine::Checkpoint::open(mrnn::fuzz::asFile(
        reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "latest.pt"));
    checkpoint.vocabulary();
  } catch (const mrnn::engine::CheckpointError&) {
  }
  return 0;
}
