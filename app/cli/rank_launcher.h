#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace mrnn::app {

// `mrnn train|resume ... --nproc N`: starts N ranks of this same command on this machine,
// with the environment torchrun would give them (RANK, WORLD_SIZE, LOCAL_RANK,
// LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1, a free MASTER_PORT), and watches them. Ctrl-C,
// SIGTERM and SIGHUP go on to every rank (they stop together with a checkpoint). A rank that
// dies is named; the others then stop by themselves (they name it too) within the timeout,
// or are killed after it. Returns the command's exit code: 0 when every rank succeeded.
struct RankLaunch {
  std::vector<std::string> arguments;  // the command's own, without --nproc
  int ranks = 2;
  int threadsPerRank = 1;
  int timeoutSeconds = 60;
  bool oneGpuPerRank = false;  // CUDA_VISIBLE_DEVICES=<rank> for each rank
  // The project's checkpoints: after a failure, `mrnn resume` is suggested only when the
  // ranks wrote a checkpoint (a run that never started, or a corrupt checkpoint it was to
  // resume, has nothing to suggest).
  std::string checkpointFolder;
};
int launchRanks(const RankLaunch& launch, std::ostream& out, std::ostream& err);

}  // namespace mrnn::app
