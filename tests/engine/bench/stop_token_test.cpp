// The one stop token: a stop reaches a paused waiter even from a signal handler (which can
// only set the flag), a resume wakes it at once, and never() is never stopped.
#include <signal.h>

#include <chrono>
#include <future>
#include <thread>

#include "engine/runtime/job_context.h"
#include "engine/runtime/stop_token.h"
#include "test_harness.h"

using mrnn::engine::JobCancelledError;
using mrnn::engine::JobContext;
using mrnn::engine::StopToken;

namespace {

StopToken* signalled = nullptr;
extern "C" void stopFromSignal(int) {
  signalled->requestStop();
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

MRNN_TEST(a_paused_waiter_wakes_on_resume_and_on_a_stop_from_a_signal) {
  StopToken token;
  EXPECT(!token.stopRequested() && !token.pauseRequested());
  token.requestPause();
  auto waiter = std::async(std::launch::async, [&token] { token.waitWhilePaused(); });
  EXPECT(waiter.wait_for(std::chrono::milliseconds(200)) == std::future_status::timeout);
  token.requestResume();
  EXPECT(waiter.wait_for(std::chrono::seconds(2)) == std::future_status::ready);

  // Paused again, then stopped by a signal's handler: no notification, the wait still ends.
  token.requestPause();
  signalled = &token;
  struct sigaction action {};
  struct sigaction previous {};
  action.sa_handler = stopFromSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGUSR1, &action, &previous);
  const auto start = std::chrono::steady_clock::now();
  waiter = std::async(std::launch::async, [&token] { token.waitWhilePaused(); });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  raise(SIGUSR1);
  EXPECT(waiter.wait_for(std::chrono::seconds(2)) == std::future_status::ready);
  sigaction(SIGUSR1, &previous, nullptr);
  EXPECT(token.stopRequested());
  EXPECT_MSG(secondsSince(start) < 1.0, secondsSince(start) << " s");
}

MRNN_TEST(a_job_reports_until_its_token_stops) {
  StopToken token;
  int reports = 0;
  JobContext job([&reports](const mrnn::engine::JobProgress&) { ++reports; }, token);
  JobContext part = job.part(0.0, 0.5, "half");
  part.report(0.5);
  EXPECT_EQ(reports, 1);
  token.requestStop();
  EXPECT(part.cancelled());
  EXPECT_THROWS_WITH(JobCancelledError, part.report(0.6), "cancelled");
  EXPECT_EQ(reports, 1);
  EXPECT(!StopToken::never().stopRequested());
}
