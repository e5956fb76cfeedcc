#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mrnn::engine {

// Work that would not fit this machine, refused before it starts; the message gives the
// figures (what was asked, what it needs, what the machine has).
class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The largest thread count any option accepts (`training.threads`, `--threads`).
constexpr int64_t kMaxThreads = 4096;

// The processors this process may run on (its affinity mask, so a Slurm or taskset slice
// counts, not the whole machine); at least 1.
int hardwareThreads();

// The threads to compute with: `requested` (0: every hardware thread) capped at the hardware
// threads, since more only time-slice the same cores. `note` (when given) receives a line
// saying so when the request was capped.
int chooseThreadCount(int64_t requested, std::string* note = nullptr);

// Memory this process can still allocate: the smaller of the system's available memory
// (MemAvailable) and what its cgroup limit leaves; 0 when neither can be read.
uint64_t availableMemoryBytes();

// "1.5 GB", "512 MB", "3.2 TB": a size as a researcher reads it (powers of 1000).
std::string formatBytes(double bytes);

// Throws ResourceError when `bytes` exceeds what availableMemoryBytes() reports: "<what>
// needs about 4.4 TB; this machine has 21 GB available. <advice>". Does nothing when the
// available memory cannot be read.
void requireMemory(double bytes, const std::string& what, const std::string& advice);

}  // namespace mrnn::engine
