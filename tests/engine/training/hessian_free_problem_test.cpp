// The evidence Hessian-free exists for, on this CPU: with structural damping it solves the
// 2-bit temporal order problem at T = 60 with a tanh RNN (fewer than 1% of fresh test
// sequences wrong), where Adam, training the same model from the same start for the same
// time, stays at the chance level of a long-range problem (the answer's two symbols lie
// 24 to 59 steps before it).

#include <unistd.h>
#include <filesystem>

#include "engine/bench/long_range_race.h"
#include "test_harness.h"

using namespace mrnn;

MRNN_TEST(hessian_free_solves_temporal_order_where_adam_given_its_time_does_not) {
  engine::RaceOptions options;
  options.problem = engine::SyntheticTask::TemporalOrder2;
  options.length = 60;
  options.hessianFreeSteps = 60;
  // The spectral radius this result was first measured with (the race starts this problem at
  // 1.0, which T = 100 needs).
  options.recurrentScale = 1.2;
  options.minLambda = 0.0;  // nor was λ floored then (the race's default floor came later)
  // A fixed thread count keeps the arithmetic, and so the run, the same on a busy machine:
  // following the load changes the BLAS partition, and Hessian-free's path with it. One
  // thread: at this size (64 units) a second costs more in synchronisation than it brings,
  // and the test runs beside the others (139 s with a fuzzer on the other core; two threads
  // took 307 s alone and 731 s beside the other tests).
  options.threads = 1;
  const auto folder =
      std::filesystem::temp_directory_path() / ("mrnn-test-race-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  const auto race = engine::raceOnProblem(options, folder.string());
  std::filesystem::remove_all(folder);
  std::fprintf(stderr,
               "Hessian-free: %lld steps, %lld CG iterations, %.0f s, test error %.3f; "
               "Adam: %lld steps in %.0f s, test error %.3f\n",
               static_cast<long long>(race.hessianFree.steps),
               static_cast<long long>(race.hessianFree.cgIterations), race.hessianFree.seconds,
               race.hessianFree.testErrorRate, static_cast<long long>(race.adam.steps),
               race.adam.seconds, race.adam.testErrorRate);
  EXPECT_MSG(race.hessianFree.solved, "test error " << race.hessianFree.testErrorRate);
  EXPECT_MSG(!race.adam.solved, "test error " << race.adam.testErrorRate);
  // Adam had the time: it ran far more (cheaper) steps than Hessian-free.
  EXPECT(race.adam.steps > 20 * race.hessianFree.steps);
  EXPECT(race.adam.seconds >= 0.9 * race.hessianFree.seconds);
}
