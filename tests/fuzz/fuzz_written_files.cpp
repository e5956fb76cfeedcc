// The download folder's ledger (engine/io/written_files.h): whatever its text, parsing keeps
// only lines naming a path inside the folder, and what it keeps reads back the same.
#include <cstdlib>

#include "engine/io/written_files.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using mrnn::engine::WrittenFiles;
  const auto entries = WrittenFiles::parse(mrnn::fuzz::asText(data, size));
  for (const auto& [relative, stamp] : entries)
    if (!WrittenFiles::insideFolder(relative)) std::abort();
  if (WrittenFiles::parse(WrittenFiles::format(entries)) != entries) std::abort();
  return 0;
}
