// Feature-correlation masking (Shuang §V-C, Fig. 5): P = 0 is the unmasked evaluation, a
// layer the model ignores leaves the loss unchanged at every P, fixed seeds reproduce; and
// the analyses run as AnalysisJobs with progress and cancellation.

#include <torch/torch.h>

#include <algorithm>
#include <atomic>

#include <chrono>
#include <cmath>
#include <sstream>

#include "engine/analysis/analysis_job.h"
#include "engine/data/corpus.h"
#include "engine/models/language_model.h"
#include "engine/scoring/feature_masking.h"
#include "engine/scoring/scoring_output.h"
#include "engine/training/evaluator.h"
#include "scoring_fixtures.h"
#include "test_harness.h"
#include "training_fixtures.h"

using namespace mrnn;
using namespace mrnn::test;

namespace {

engine::Vocabulary letters() {
  return engine::Vocabulary::fromSymbols(engine::InputLevel::Char, {" ", "a", "b", "c", "d"});
}

engine::CorpusSplit splitOf(const ScratchProject& scratch, const std::string& text) {
  scratch.write("split.txt", text);
  return engine::loadSplit(scratch.file("split.txt"), engine::CorpusFormat::Text, letters());
}

const char* kText = "abcd dcba abba cadd bad cab dab abc dd cc bb aa abcd bcda cdab dabc ";

engine::MaskingOptions quick() {
  engine::MaskingOptions options;
  options.pMax = 0.5;
  options.pStep = 0.25;
  options.runs = 3;
  options.seed = 7;
  options.eval.batch = 2;
  options.eval.bptt = 8;
  return options;
}

std::vector<engine::JobEvent> drain(engine::AnalysisJob& job) {
  return job.events().drain();
}

}  // namespace

MRNN_TEST(masking_levels_are_multiples_of_the_step) {
  const auto levels = engine::maskingLevels(0.5, 0.05);
  EXPECT_EQ(levels.size(), size_t{11});
  EXPECT_EQ(levels.front(), 0.0);
  EXPECT_NEAR(levels.back(), 0.5, 1e-15);
  EXPECT_THROWS_WITH(std::invalid_argument, engine::maskingLevels(0.5, 0.0), "step");
  // A Bernoulli mask zeroes about P of the features, and is a pure function of its seed.
  const auto mask = engine::bernoulliMask(10000, 0.3, 5, 2, 1, 0);
  double zeros = 0.0;
  for (const float v : mask) zeros += v == 0.0f ? 1.0 : 0.0;
  EXPECT_NEAR(zeros / 10000.0, 0.3, 0.02);
  EXPECT(mask == engine::bernoulliMask(10000, 0.3, 5, 2, 1, 0));
  EXPECT(mask != engine::bernoulliMask(10000, 0.3, 6, 2, 1, 0));
}

namespace {

// The unmasked evaluation the masking options describe.
engine::EvalOptions plainEvaluation(const engine::MaskingOptions& options) {
  engine::EvalOptions eval;
  eval.batch = options.eval.batch;
  eval.bptt = options.eval.bptt;
  eval.maxSymbols = options.eval.maxSymbols;
  return eval;
}

}  // namespace

MRNN_TEST(masking_at_p_zero_equals_the_unmasked_evaluation) {
  ScratchProject scratch("mask_zero");
  const auto split = splitOf(scratch, kText);
  engine::LanguageModel model(smallModelConfig(2), 5);
  model.eval();
  const auto options = quick();
  const double plain = engine::evaluateStatic(model, split, plainEvaluation(options)).nats;
  const auto curve = engine::featureMasking(model, split, options);
  EXPECT_EQ(curve.p.size(), size_t{3});
  EXPECT_NEAR(curve.meanLoss[0], plain, 1e-12);
  EXPECT_EQ(curve.stdLoss[0], 0.0);
  EXPECT(curve.meanLoss[2] != plain);  // masking half the features changes a random model
  EXPECT(curve.stdLoss[2] > 0.0);
  // The masks are cleared afterwards.
  EXPECT_EQ(engine::evaluateStatic(model, split, plainEvaluation(options)).nats, plain);
}

MRNN_TEST(masking_a_layer_the_model_ignores_changes_nothing) {
  ScratchProject scratch("mask_ignored");
  const auto split = splitOf(scratch, kText);
  engine::LanguageModel model(smallModelConfig(1), 5);
  {
    torch::NoGradGuard noGrad;
    model.named_parameters()["output.W"].zero_();  // the softmax no longer reads layer 1
    model.named_parameters()["output.b"].copy_(torch::tensor({0.5f, -1.0f, 0.0f, 2.0f, 1.0f}));
  }
  model.eval();
  auto options = quick();
  options.layer = 0;
  const auto curve = engine::featureMasking(model, split, options);
  for (size_t i = 0; i < curve.p.size(); ++i) {
    EXPECT_NEAR(curve.meanLoss[i], curve.meanLoss[0], 1e-6);
    EXPECT_NEAR(curve.stdLoss[i], 0.0, 1e-6);
  }
}

MRNN_TEST(masking_with_a_fixed_seed_is_reproducible) {
  ScratchProject scratch("mask_seed");
  const auto split = splitOf(scratch, kText);
  engine::LanguageModel model(smallModelConfig(2), 5);
  model.eval();
  auto options = quick();
  options.layer = 1;
  const auto first = engine::featureMasking(model, split, options);
  const auto second = engine::featureMasking(model, split, options);
  EXPECT(first.meanLoss == second.meanLoss);
  EXPECT(first.stdLoss == second.stdLoss);
  options.seed = 8;
  EXPECT(engine::featureMasking(model, split, options).meanLoss != first.meanLoss);
  options.layer = 2;
  EXPECT_THROWS_WITH(std::invalid_argument, engine::featureMasking(model, split, options),
                     "no layer 3");

  std::ostringstream csv;
  engine::writeMaskingCsv(csv, {first});
  EXPECT(csv.str().rfind("layer,p,mean_perplexity,std_perplexity,mean_nats,std_nats,runs\n2,0,",
                         0) == 0);
}

MRNN_TEST(masking_job_reports_progress_and_finishes) {
  ScratchProject scratch("mask_job");
  const auto split = splitOf(scratch, kText);
  engine::LanguageModel model(smallModelConfig(1), 5);
  model.eval();
  engine::MaskingCurve curve;
  engine::AnalysisJob job([&](engine::JobContext& context) {
    curve = engine::featureMasking(model, split, quick(), &context);
  });
  job.start();
  job.wait();
  const auto events = drain(job);
  EXPECT(!events.empty());
  EXPECT(std::holds_alternative<engine::JobDone>(events.back()));
  double last = 0.0;
  int progress = 0;
  for (const auto& event : events) {
    if (const auto* p = std::get_if<engine::JobProgress>(&event)) {
      EXPECT(p->fraction >= last - 1e-12 && p->fraction <= 1.0 + 1e-12);
      last = p->fraction;
      ++progress;
    }
  }
  EXPECT(progress >= 7);  // P = 0 once, then 2 levels x 3 runs
  EXPECT_NEAR(last, 1.0, 1e-9);
  EXPECT_EQ(curve.p.size(), size_t{3});
}

MRNN_TEST(job_parts_map_progress_and_name_their_phases) {
  // Two masking curves in one job, each in its own part: the first fills [0, 0.5], the
  // second [0.5, 1], and every phase carries the part's name and a readable P.
  ScratchProject scratch("mask_parts");
  const auto split = splitOf(scratch, kText);
  engine::LanguageModel model(smallModelConfig(1), 5);
  model.eval();
  engine::AnalysisJob job([&](engine::JobContext& context) {
    for (int curve = 0; curve < 2; ++curve) {
      engine::JobContext part =
          context.part(curve * 0.5, curve * 0.5 + 0.5, "curve " + std::to_string(curve + 1));
      engine::featureMasking(model, split, quick(), &part);
    }
  });
  job.start();
  job.wait();
  double last = 0.0;
  bool sawSecondHalf = false;
  for (const auto& event : drain(job)) {
    const auto* p = std::get_if<engine::JobProgress>(&event);
    if (!p) continue;
    EXPECT(p->fraction >= last - 1e-12);
    last = p->fraction;
    const bool second = p->phase.rfind("curve 2, ", 0) == 0;
    EXPECT_MSG(second || p->phase.rfind("curve 1, ", 0) == 0, "phase " << p->phase);
    EXPECT_MSG(second == (p->fraction > 0.5 + 1e-12) || p->fraction == 0.5, "at " << p->fraction);
    EXPECT_MSG(p->phase.find("0000") == std::string::npos, "unreadable P: " << p->phase);
    sawSecondHalf = sawSecondHalf || second;
  }
  EXPECT(sawSecondHalf);
  EXPECT_NEAR(last, 1.0, 1e-9);

  // Parts of parts compose: [0.5, 1] of [0.2, 0.6] is [0.4, 0.6].
  engine::EventQueue<engine::JobEvent> events;
  engine::JobContext root([&events](const engine::JobProgress& p) { events.push(p); },
                          engine::StopToken::never());
  root.part(0.2, 0.6, "a").part(0.5, 1.0, "b").report(0.5, "c");
  const auto reported = events.drain();
  EXPECT_EQ(reported.size(), size_t{1});
  const auto& progress = std::get<engine::JobProgress>(reported.front());
  EXPECT_NEAR(progress.fraction, 0.5, 1e-12);
  EXPECT_EQ(progress.phase, std::string("a, b, c"));
}

MRNN_TEST(masking_job_can_be_cancelled_and_leaves_no_mask) {
  ScratchProject scratch("mask_cancel");
  std::string text;
  for (int i = 0; i < 200; ++i) text += kText;
  const auto split = splitOf(scratch, text);
  engine::LanguageModel model(smallModelConfig(1), 5);
  model.eval();
  auto options = quick();
  options.runs = 1000;
  const double plain = engine::evaluateStatic(model, split, plainEvaluation(options)).nats;
  engine::AnalysisJob job([&](engine::JobContext& context) {
    engine::featureMasking(model, split, options, &context);
  });
  job.start();
  // Cancel once the job is under way (its first progress event).
  while (!job.events().pop(std::chrono::milliseconds(50))) {
  }
  job.cancel();
  job.wait();
  const auto events = drain(job);
  EXPECT(!events.empty());
  EXPECT(std::holds_alternative<engine::JobCancelled>(events.back()));
  EXPECT_EQ(engine::evaluateStatic(model, split, plainEvaluation(options)).nats, plain);
}

// Shuang §V-C masks as dropout does in training: a mask per stream, held over a window's
// steps and drawn afresh for the next window, kept features scaled by 1 / (1 - P).
MRNN_TEST(masks_are_drawn_afresh_per_window_and_per_stream) {
  engine::WindowMaskDrawer drawer(1000, 0.25, true, 7, 1, 0, 0);
  const auto first = drawer.next(2);
  const auto second = drawer.next(2);
  EXPECT_EQ(first.size(), size_t{2000});
  EXPECT(first != second);  // the next window draws again
  EXPECT(!std::equal(first.begin(), first.begin() + 1000, first.begin() + 1000));  // per stream
  double zeros = 0.0;
  for (const float v : first) {
    EXPECT(v == 0.0f || std::fabs(v - 1.0f / 0.75f) < 1e-6f);
    zeros += v == 0.0f ? 1.0 : 0.0;
  }
  EXPECT_NEAR(zeros / 2000.0, 0.25, 0.03);
  engine::WindowMaskDrawer again(1000, 0.25, true, 7, 1, 0, 0);
  EXPECT(again.next(2) == first);  // a run is reproducible
  engine::WindowMaskDrawer plain(1000, 0.25, false, 7, 1, 0, 0);
  for (const float v : plain.next(1)) EXPECT(v == 0.0f || v == 1.0f);

  // In an evaluation, one mask per window read: 68 targets in windows of 8 are 9 windows.
  ScratchProject scratch("mask_windows");
  const auto split = splitOf(scratch, kText);
  engine::LanguageModel model(smallModelConfig(2), 5);
  model.eval();
  auto options = quick();
  options.eval.batch = 1;
  const auto perWindow = engine::featureMasking(model, split, options);
  EXPECT_EQ(perWindow.masksPerRun, int64_t{9});
  options.draw = engine::MaskDraw::Fixed;
  const auto fixed = engine::featureMasking(model, split, options);
  EXPECT_EQ(fixed.masksPerRun, int64_t{0});
  EXPECT(fixed.meanLoss[2] != perWindow.meanLoss[2]);
}

// The paper reports the perplexity averaged over the runs: an arithmetic mean of perplexities,
// which is above the exponent of the mean loss whenever the runs differ.
MRNN_TEST(masking_averages_perplexities_over_runs) {
  ScratchProject scratch("mask_average");
  const auto split = splitOf(scratch, kText);
  engine::LanguageModel model(smallModelConfig(2), 5);
  model.eval();
  const auto curve = engine::featureMasking(model, split, quick());
  for (size_t i = 0; i < curve.p.size(); ++i) {
    const auto& losses = curve.runLosses[i];
    EXPECT_EQ(losses.size(), i == 0 ? size_t{1} : size_t{3});
    double perplexity = 0.0;
    double nats = 0.0;
    for (const double loss : losses) {
      perplexity += std::exp(loss) / static_cast<double>(losses.size());
      nats += loss / static_cast<double>(losses.size());
    }
    EXPECT_NEAR(curve.meanPerplexity[i], perplexity, 1e-9);
    EXPECT_NEAR(curve.meanLoss[i], std::log(perplexity), 1e-12);
    if (i > 0) EXPECT(curve.meanLoss[i] > nats + 1e-9);  // not the geometric mean
  }
}
