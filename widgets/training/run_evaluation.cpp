#include "widgets/training/run_evaluation.h"

#include <stdexcept>

#include "engine/analysis/analysis_job.h"
#include "engine/analysis/loaded_model.h"
#include "engine/config/project_file.h"
#include "engine/data/corpus.h"
#include "engine/store/run_store.h"
#include "engine/training/checkpoint.h"
#include "engine/training/evaluator.h"
#include "engine/training/run_paths.h"

namespace mrnn::widgets {

RunEvaluation evaluateRunOnTest(const std::string& projectFolder, int64_t runId,
                                engine::JobContext& context) {
  context.report(0.0, "reading the run");
  engine::RunRecord record;
  {
    engine::RunStore store(engine::RunPaths::database(projectFolder));
    const auto found = store.run(runId);
    if (!found) throw std::runtime_error("there is no run " + std::to_string(runId));
    record = *found;
  }
  if (record.configYaml.empty()) {
    throw std::runtime_error("run " + std::to_string(runId) + " stored no config to evaluate");
  }
  engine::Project project =
      engine::parseProject(record.configYaml, "run " + std::to_string(runId) + " config");
  project.folder = projectFolder;
  if (!project.hasData) {
    throw std::runtime_error("run " + std::to_string(runId) + " has no data section");
  }
  RunEvaluation result;
  result.checkpoint = engine::findCheckpoint(project, runId);

  context.report(0.02, "loading the checkpoint and the corpus");
  engine::Checkpoint checkpoint = engine::Checkpoint::open(result.checkpoint);
  const engine::Corpus corpus =
      engine::loadCorpus(project.data, project.model.input.level, project.folder);
  if (corpus.test.tokens.size() == 0) {
    throw std::runtime_error("the corpus of run " + std::to_string(runId) +
                             " has an empty test split (data.test_fraction is 0)");
  }
  checkpoint.checkCompatible(project.model, corpus.vocabulary);
  engine::LanguageModel model(project.model, corpus.vocabulary.size());
  checkpoint.loadModel(model);
  model.eval();

  engine::EvalOptions options;
  options.batch = project.evaluation.batchSize;
  options.bptt = project.evaluation.bptt;
  context.report(0.05, "scoring the test split");
  try {
    result.figures = engine::evaluateStatic(model, corpus.test, options, [&context](double done) {
      if (context.cancelled()) return false;
      context.report(0.05 + 0.95 * done, "scoring the test split");
      return true;
    });
  } catch (const engine::EvaluationCancelled&) {
    throw engine::JobCancelledError();
  }

  // Recorded as the trainer records a finished run's test figure.
  engine::RunStore store(engine::RunPaths::database(projectFolder));
  store.setTestResult(runId, result.figures.bitsPerSymbol);
  const auto last = store.metrics(runId, "train/loss");
  const int64_t step = last.empty() ? record.steps : last.back().step;
  const double epoch = last.empty() ? 0.0 : last.back().epoch;
  const double wall = last.empty() ? record.durationSeconds : last.back().wallSeconds;
  std::vector<engine::MetricPoint> points = {
      {"test/bpc", step, epoch, wall, result.figures.bitsPerSymbol}};
  if (result.figures.words > 0) {
    points.push_back({"test/bpw", step, epoch, wall, result.figures.bitsPerWord});
  }
  store.appendMetrics(runId, points);
  context.report(1.0, "done");
  return result;
}

}  // namespace mrnn::widgets
