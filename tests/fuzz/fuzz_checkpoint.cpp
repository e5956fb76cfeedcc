// A checkpoint (engine/training/checkpoint.h): its header, checksum, archive and snapshot.
#include "engine/training/checkpoint.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto checkpoint = mrnn::engine::Checkpoint::open(mrnn::fuzz::asFile(data, size, "latest.pt"));
    checkpoint.vocabulary();
  } catch (const mrnn::engine::CheckpointError&) {
  }
  return 0;
}
