// The zip directory check PyTorch archives pass before LibTorch opens them
// (engine/io/zip_directory.h): any bytes give a problem in words or none.
#include <stdexcept>

#include "engine/io/zip_directory.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string archive = mrnn::fuzz::asText(data, size);
  mrnn::engine::torchArchiveProblem(archive, 10);
  try {
    mrnn::engine::readZipDirectory(archive.size(), [&](uint64_t offset, size_t length) {
      return offset >= archive.size() ? std::string()
                                      : archive.substr(static_cast<size_t>(offset), length);
    });
  } catch (const std::runtime_error&) {
  }
  return 0;
}
