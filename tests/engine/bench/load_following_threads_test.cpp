// Threads that follow the machine's load (engine/runtime/load_following_threads.h): a fixed
// count stays; a free count leaves a processor another program keeps busy, and a JobContext's
// reports read the load again, so evaluation, scoring and sampling follow it as training does.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/runtime/busy_core.h"
#include "engine/runtime/job_context.h"
#include "engine/runtime/load_following_threads.h"
#include "engine/runtime/machine_resources.h"
#include "test_harness.h"

using mrnn::engine::BusyCore;
using mrnn::engine::JobContext;
using mrnn::engine::LoadFollowingThreads;

MRNN_TEST(a_fixed_count_is_applied_once_and_kept) {
  std::vector<int> applied;
  LoadFollowingThreads threads(1, [&](int n) { applied.push_back(n); });
  EXPECT(!threads.following());
  EXPECT_EQ(threads.threads(), 1);
  threads.poll();
  EXPECT_EQ(applied.size(), size_t{1});
  // More than the machine gives is capped, and said.
  std::vector<std::string> notes;
  LoadFollowingThreads many(100000, {}, [&](const std::string& line) { notes.push_back(line); });
  EXPECT_EQ(many.threads(), mrnn::engine::chooseThreadCount(0));
  EXPECT_EQ(notes.size(), size_t{1});
}

MRNN_TEST(a_free_count_leaves_a_busy_processor_and_a_job_follows_the_load) {
  const int processors = mrnn::engine::chooseThreadCount(0);
  if (processors < 2) MRNN_SKIP("one processor: nothing to leave to other programs");
  std::vector<int> applied;
  std::vector<std::string> notes;
  std::optional<BusyCore> busy;
  busy.emplace(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the spinner is running
  auto threads = std::make_shared<LoadFollowingThreads>(
      0, [&](int n) { applied.push_back(n); },
      [&](const std::string& line) { notes.push_back(line); },
      mrnn::engine::ThreadsWording{"evaluating", "threads: 0 follows the load"}, 0.5, 0.5);
  EXPECT(threads->following());
  EXPECT_EQ(threads->threads(), processors - 1);
  EXPECT_MSG(
      !notes.empty() && notes.back().find("processors busy: evaluating on") != std::string::npos,
      (notes.empty() ? std::string("no note") : notes.back()));
  // The spinner ends: a job's reports read the load again and take the processor back, when
  // nothing else keeps it (ctest -j2, a build): otherwise that half cannot be judged here.
  busy.reset();
  mrnn::engine::ThreadGovernor machine(0.0);
  if (machine.measure(0.5) < processors) {
    char busyText[96];
    std::snprintf(busyText, sizeof busyText,
                  "other programs keep %.1f processors busy: the count cannot come back here",
                  machine.othersBusy());
    MRNN_SKIP(busyText);
  }
  JobContext job({}, mrnn::engine::StopToken::never());
  job.followLoad(threads);
  EXPECT(job.reports());  // hot loops report to a context that only follows the load
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (threads->threads() != processors && std::chrono::steady_clock::now() < until) {
    job.part(0.0, 1.0, "a part").report(0.5);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(threads->threads(), processors);
  EXPECT_EQ(applied.back(), processors);
  EXPECT_MSG(notes.back().find("the processors are free again: evaluating on") == 0, notes.back());
}
