// The run store opened on a damaged database (engine/store/run_catalogue.h): listing the runs
// and reading their metrics either works or says the database is damaged.
#include <filesystem>

#include "engine/store/run_catalogue.h"
#include "engine/store/run_store.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string database = mrnn::fuzz::asFile(data, size, "runs.sqlite");
  std::filesystem::remove(database + "-wal");
  std::filesystem::remove(database + "-shm");
  try {
    const mrnn::engine::RunCatalogue catalogue(
        std::filesystem::path(database).parent_path().string(),
        mrnn::engine::RunCatalogue::Access::ReadOnly);
    for (const auto& run : catalogue.runs()) {
      catalogue.store().metrics(run.id);
      catalogue.store().checkpoints(run.id);
    }
  } catch (const mrnn::engine::StoreError&) {
  }
  return 0;
}
