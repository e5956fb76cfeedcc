// Data parallel on GPUs: two ranks on two GPUs of this process, in NCCL, do what the training
// loop asks of them on device tensors and on the small host tensors the loop also exchanges
// (NCCL takes only device tensors: the collective stages those through the rank's GPU).
// Skipped without CUDA, below two GPUs (NCCL wants a GPU per rank) or without NCCL.
// tests/cli/distributed_life.sh's gpu-dropout trains whole runs on GPU ranks.

#include <torch/torch.h>

#include "require_gpu.h"
#include "test_harness.h"
#include "two_rank_group.h"

using namespace mrnn;
using namespace mrnn::test;

MRNN_TEST(nccl_ranks_sum_gather_and_broadcast_host_and_device_tensors) {
  requireGpu();
  if (torch::cuda::device_count() < 2) {
    MRNN_SKIP("NCCL needs a GPU per rank; this machine has " +
              std::to_string(torch::cuda::device_count()));
  }
#ifndef USE_C10D_NCCL
  MRNN_SKIP("this LibTorch has no NCCL");
#endif
  onTwoRanks(
      [](int rank, engine::Collective& collective) {
        checkSumGatherBroadcast(rank, collective, torch::TensorOptions());
        checkSumGatherBroadcast(
            rank, collective,
            torch::TensorOptions().device(torch::kCUDA, static_cast<c10::DeviceIndex>(rank)));
      },
      std::chrono::seconds(60), true);
}
