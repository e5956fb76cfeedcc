#include "rank_launcher.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <thread>

#include "engine/runtime/child_handle.h"
#include "stop_signals.h"

namespace mrnn::app {
namespace {

// A port the kernel has just given out on loopback: free for the rendezvous store (rank 0
// binds it a moment later; SO_REUSEADDR there makes the short reuse safe).
int freeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("cannot open a socket to find a free port");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot find a free port on 127.0.0.1 for the ranks to meet at");
  }
  const int port = ntohs(address.sin_port);
  ::close(fd);
  return port;
}

std::string howItEnded(int code) {
  if (code > 128) {
    const int number = code - 128;
    const char* name = ::sigabbrev_np(number);
    return std::string("was killed by signal ") + std::to_string(number) +
           (name ? std::string(" (SIG") + name + ")" : std::string());
  }
  return "exited with code " + std::to_string(code);
}

// Whether a run's checkpoint was written at or after `since` under `folder` (run-N/*.pt).
bool checkpointWrittenSince(const std::string& folder, std::filesystem::file_time_type since) {
  std::error_code error;
  for (const auto& run : std::filesystem::directory_iterator(folder, error)) {
    for (const auto& file : std::filesystem::directory_iterator(run.path(), error)) {
      if (file.path().extension() == ".pt" && file.last_write_time(error) >= since) return true;
    }
  }
  return false;
}

}  // namespace

int launchRanks(const RankLaunch& launch, std::ostream& out, std::ostream& err) {
  const int port = freeLoopbackPort();
  const auto launched = std::filesystem::file_time_type::clock::now();
  const StopSignals signals;
  std::vector<engine::ChildHandle> ranks;
  std::vector<std::string> argv{"/proc/self/exe"};
  char self[4096];
  const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (length > 0) argv[0] = std::string(self, static_cast<size_t>(length));
  argv.insert(argv.end(), launch.arguments.begin(), launch.arguments.end());
  argv.push_back("--threads");
  argv.push_back(std::to_string(launch.threadsPerRank));
  argv.push_back("--timeout");
  argv.push_back(std::to_string(launch.timeoutSeconds));
  out << "starting " << launch.ranks << " ranks on this machine (" << launch.threadsPerRank
      << (launch.threadsPerRank == 1 ? " thread" : " threads")
      << " each, Gloo on 127.0.0.1:" << port << ")\n"
      << std::flush;
  for (int r = 0; r < launch.ranks; ++r) {
    std::vector<std::string> environment{"RANK=" + std::to_string(r),
                                         "LOCAL_RANK=" + std::to_string(r),
                                         "WORLD_SIZE=" + std::to_string(launch.ranks),
                                         "LOCAL_WORLD_SIZE=" + std::to_string(launch.ranks),
                                         "MASTER_ADDR=127.0.0.1",
                                         "MASTER_PORT=" + std::to_string(port),
                                         "MRNN_LAUNCHER=mrnn --nproc"};
    // One GPU per rank on a CUDA machine: the rank's process sees only its own.
    if (launch.oneGpuPerRank) environment.push_back("CUDA_VISIBLE_DEVICES=" + std::to_string(r));
    try {
      ranks.push_back(engine::ChildHandle::start(argv, "", environment));
    } catch (const std::exception& error) {
      for (auto& started : ranks) started.signal(SIGTERM);
      for (auto& started : ranks) started.wait();
      err << "mrnn: cannot start rank " << r << ": " << error.what() << "\n";
      return 1;
    }
  }

  using Clock = std::chrono::steady_clock;
  bool forwarded = false;
  int firstFailure = -1;
  Clock::time_point failedAt;
  const auto grace = std::chrono::seconds(launch.timeoutSeconds + 15);
  while (true) {
    if (signals.requested() && !forwarded) {
      forwarded = true;
      for (auto& rank : ranks) rank.signal(SIGTERM);
    }
    int running = 0;
    for (int r = 0; r < launch.ranks; ++r) {
      const auto code = ranks[static_cast<size_t>(r)].poll();
      if (!code) {
        ++running;
        continue;
      }
      if (*code != 0 && firstFailure < 0) {
        firstFailure = r;
        failedAt = Clock::now();
        err << "mrnn: rank " << r << " (pid " << ranks[static_cast<size_t>(r)].pid() << ") "
            << howItEnded(*code) << "; the other ranks stop within the " << launch.timeoutSeconds
            << " s timeout\n";
      }
    }
    if (running == 0) break;
    if (firstFailure >= 0 && Clock::now() - failedAt > grace) {
      err << "mrnn: ranks still running " << launch.timeoutSeconds + 15 << " s after rank "
          << firstFailure << " ended: killing them\n";
      for (auto& rank : ranks) rank.signal(SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  int worst = 0;
  for (auto& rank : ranks) worst = std::max(worst, rank.wait());
  if (worst != 0) {
    if (checkpointWrittenSince(launch.checkpointFolder, launched)) {
      err << "mrnn: the run's last checkpoint is intact; `mrnn resume` (with --nproc) continues "
             "it\n";
    }
    return 1;
  }
  return 0;
}

}  // namespace mrnn::app
