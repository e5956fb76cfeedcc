#pragma once

// A real two-rank c10d group on two threads of this process, for the data-parallel tests:
// Gloo on the CPU (engine_distributed_test) and NCCL on two GPUs (engine_cuda_distributed_test).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <torch/torch.h>
#include <unistd.h>

#include <chrono>
#include <future>

#include "engine/distributed/c10d_collective.h"
#include "engine/distributed/rank_environment.h"
#include "engine/training/data_parallel.h"
#include "test_harness.h"

namespace mrnn::test {

// A loopback port nobody listens on now.
inline int freePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

inline engine::RankEnvironment loopbackRank(int rank, int port) {
  engine::RankEnvironment env;
  env.rank = rank;
  env.size = 2;
  env.localRank = rank;
  env.localSize = 2;
  env.masterAddress = "127.0.0.1";
  env.masterPort = port;
  env.launcher = "test";
  return env;
}

// Runs `body(rank, collective)` on two threads joined in one c10d group (NCCL with `cuda`).
template <typename Body>
void onTwoRanks(Body body, std::chrono::milliseconds timeout = std::chrono::seconds(20),
                bool cuda = false) {
  const int port = freePort();
  auto rank1 = std::async(std::launch::async, [&] {
    engine::C10dCollective collective(loopbackRank(1, port), timeout, cuda);
    body(1, collective);
  });
  {
    engine::C10dCollective collective(loopbackRank(0, port), timeout, cuda);
    body(0, collective);
  }
  rank1.get();
}

// What the training loop asks of a group, on `options`' device: a sum in place, a gather in
// rank order, a broadcast from rank 0, and the step's agreement (host doubles).
inline void checkSumGatherBroadcast(int rank, engine::Collective& collective,
                                    const torch::TensorOptions& options) {
  auto values = torch::full({3}, static_cast<float>(rank + 1), options);
  collective.sum(values);
  EXPECT(values.device() == options.device());
  EXPECT(torch::equal(values.cpu(), torch::full({3}, 3.0f)));
  const auto all = collective.allGather(torch::full({2}, static_cast<double>(rank), options));
  EXPECT_EQ(all.size(), size_t{2});
  EXPECT(all[1].device() == options.device());
  EXPECT_NEAR(all[1][0].item<double>(), 1.0, 0.0);
  auto root = torch::full({4}, rank == 0 ? 7.0f : -1.0f, options);
  collective.broadcast(root, 0);
  EXPECT(torch::equal(root.cpu(), torch::full({4}, 7.0f)));
  const auto agreed = engine::agreeAfterStep(collective, 0.5, rank == 1, 0.25 * (rank + 1));
  EXPECT_NEAR(agreed.loss, 1.0, 1e-12);
  EXPECT(agreed.stop);  // rank 1 alone was asked: both stop
  EXPECT_NEAR(agreed.seconds[1], 0.5, 1e-12);
}

}  // namespace mrnn::test
