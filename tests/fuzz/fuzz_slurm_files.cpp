// What the Slurm executor reads back (engine/experiment/slurm_jobs.h): its jobs file and a
// trial's ticket (files in the project that anything may have edited), squeue's and sbatch's
// output, and the step a trial's log reached.
#include <stdexcept>

#include "engine/experiment/slurm_jobs.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = mrnn::fuzz::asText(data, size);
  // A refusal is std::runtime_error naming the file and line; anything else is a finding.
  try {
    mrnn::engine::parseSlurmJobs(text, "jobs");
  } catch (const std::runtime_error&) {
  }
  try {
    mrnn::engine::parseSlurmTicket(text, "ticket");
  } catch (const std::runtime_error&) {
  }
  try {
    mrnn::engine::parseSqueue(text);
  } catch (const std::runtime_error&) {
  }
  try {
    mrnn::engine::parseSbatchJobId(text);
  } catch (const std::runtime_error&) {
  }
  mrnn::engine::lastLoggedStep(text);
  return 0;
}
