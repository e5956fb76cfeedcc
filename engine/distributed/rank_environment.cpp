#include "engine/distributed/rank_environment.h"

#include <cctype>
#include <cstdlib>
#include <stdexcept>

namespace mrnn::engine {
namespace {

int integerVariable(const EnvironmentLookup& lookup, const char* name, int low, int high) {
  const char* text = lookup(name);
  if (!text || !*text) {
    throw std::runtime_error(std::string("the environment variable ") + name +
                             " is not set; the launcher must set it for every rank");
  }
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < low || value > high) {
    throw std::runtime_error(std::string("the environment variable ") + name + " is '" + text +
                             "'; expected a whole number from " + std::to_string(low) + " to " +
                             std::to_string(high));
  }
  return static_cast<int>(value);
}

std::optional<int> optionalInteger(const EnvironmentLookup& lookup, const char* name, int low,
                                   int high) {
  const char* text = lookup(name);
  if (!text || !*text) return std::nullopt;
  return integerVariable(lookup, name, low, high);
}

// "2(x3),1": the tasks on the first node (rank 0's node is the first, and for a local size
// what matters is this node's; Slurm gives SLURM_TASKS_PER_NODE per node in node order).
int tasksOnFirstNode(const std::string& perNode) {
  const int count = std::atoi(perNode.c_str());
  return count > 0 ? count : 1;
}

}  // namespace

std::string firstSlurmHost(const std::string& nodeList) {
  std::string first;
  size_t i = 0;
  for (; i < nodeList.size() && nodeList[i] != ',' && nodeList[i] != '['; ++i) first += nodeList[i];
  if (i < nodeList.size() && nodeList[i] == '[') {
    // The first entry of the bracket, with its zero padding: "07" of "[07-09,12]".
    ++i;
    std::string number;
    for (; i < nodeList.size() && std::isdigit(static_cast<unsigned char>(nodeList[i])); ++i)
      number += nodeList[i];
    first += number;
  }
  if (first.empty())
    throw std::runtime_error("SLURM_STEP_NODELIST '" + nodeList + "' names no host");
  return first;
}

std::optional<RankEnvironment> rankEnvironment(const EnvironmentLookup& lookup) {
  RankEnvironment env;
  if (lookup("WORLD_SIZE") && *lookup("WORLD_SIZE")) {
    env.size = integerVariable(lookup, "WORLD_SIZE", 1, 1 << 20);
    if (env.size == 1) return std::nullopt;
    env.rank = integerVariable(lookup, "RANK", 0, env.size - 1);
    env.localRank = optionalInteger(lookup, "LOCAL_RANK", 0, env.size - 1).value_or(0);
    env.localSize = optionalInteger(lookup, "LOCAL_WORLD_SIZE", 1, env.size).value_or(env.size);
    const char* address = lookup("MASTER_ADDR");
    if (!address || !*address) {
      throw std::runtime_error(
          "the environment variable MASTER_ADDR is not set; the launcher must name the host "
          "that serves the rendezvous store");
    }
    env.masterAddress = address;
    env.masterPort = integerVariable(lookup, "MASTER_PORT", 1, 65535);
    const char* agent = lookup("TORCHELASTIC_USE_AGENT_STORE");
    env.agentStore = agent && std::string(agent) == "True";
    const char* mine = lookup("MRNN_LAUNCHER");
    env.launcher = mine && *mine ? mine : (lookup("TORCHELASTIC_RUN_ID") ? "torchrun" : "env://");
    if (env.agentStore) {
      // torchrun's own naming, so a group restarted by the agent never reads old keys.
      const char* restarts = lookup("TORCHELASTIC_RESTART_COUNT");
      env.storePrefix = std::string("/worker/attempt_") + (restarts ? restarts : "0");
    }
    return env;
  }
  // srun sets the step's task count; a batch script alone (one task) is not a group.
  if (!lookup("SLURM_STEP_NUM_TASKS") || !*lookup("SLURM_STEP_NUM_TASKS")) return std::nullopt;
  env.size = integerVariable(lookup, "SLURM_STEP_NUM_TASKS", 1, 1 << 20);
  if (env.size == 1) return std::nullopt;
  env.rank = integerVariable(lookup, "SLURM_PROCID", 0, env.size - 1);
  env.localRank = optionalInteger(lookup, "SLURM_LOCALID", 0, env.size - 1).value_or(0);
  const char* perNode = lookup("SLURM_STEP_TASKS_PER_NODE");
  env.localSize = perNode ? tasksOnFirstNode(perNode) : 1;
  env.launcher = "srun";
  const char* address = lookup("MASTER_ADDR");
  if (address && *address) {
    env.masterAddress = address;
  } else {
    const char* nodes = lookup("SLURM_STEP_NODELIST");
    if (!nodes || !*nodes) {
      throw std::runtime_error(
          "neither MASTER_ADDR nor SLURM_STEP_NODELIST is set: no host to rendezvous at");
    }
    env.masterAddress = firstSlurmHost(nodes);
  }
  if (const auto port = optionalInteger(lookup, "MASTER_PORT", 1, 65535)) {
    env.masterPort = *port;
  } else {
    // One port per job, so two jobs sharing a node do not meet at the same store.
    const auto job = optionalInteger(lookup, "SLURM_JOB_ID", 0, 2147483647).value_or(0);
    env.masterPort = 20000 + job % 20000;
  }
  return env;
}

}  // namespace mrnn::engine
