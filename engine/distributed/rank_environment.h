#pragma once

#include <functional>
#include <optional>
#include <string>

namespace mrnn::engine {

// Where this process stands in a data-parallel run, as its launcher said it through the
// environment: torchrun (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT; TORCHELASTIC_USE_AGENT_STORE when torchrun's agent serves the store), Slurm's
// srun (SLURM_PROCID, SLURM_STEP_NUM_TASKS, SLURM_LOCALID, SLURM_STEP_TASKS_PER_NODE,
// SLURM_STEP_NODELIST, SLURM_JOB_ID) or `mrnn train --nproc` (torchrun's names).
struct RankEnvironment {
  int rank = 0;
  int size = 1;
  int localRank = 0;
  int localSize = 1;  // ranks on this machine
  std::string masterAddress;
  int masterPort = 0;
  bool agentStore = false;  // the store is served by torchrun's agent, not by rank 0
  std::string storePrefix;  // keys of this attempt (torchrun restarts a group under a new one)
  std::string launcher;     // "torchrun", "srun" or "mrnn --nproc": for messages
};

using EnvironmentLookup = std::function<const char*(const char* name)>;

// The rank this process is, or nullopt when no launcher started it as one of several
// (plain `mrnn train`, or a one-task Slurm job). Throws std::runtime_error naming the
// variable when one is malformed or a needed one is missing.
std::optional<RankEnvironment> rankEnvironment(const EnvironmentLookup& lookup);

// The first host of a Slurm node list: "node07", "node[07-09,12]" or "a1,b2" (rank 0 runs
// on it, so it serves the store when MASTER_ADDR is not given).
std::string firstSlurmHost(const std::string& nodeList);

}  // namespace mrnn::engine
