#include "engine/training/run_test_evaluation.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>

#include "engine/config/project_file.h"
#include "engine/data/corpus.h"
#include "engine/runtime/job_context.h"
#include "engine/store/metric_names.h"
#include "engine/store/run_catalogue.h"
#include "engine/training/checkpoint.h"
#include "engine/training/evaluator.h"
#include "engine/training/training_data.h"

namespace mrnn::engine {

void recordTestResult(RunStore& store, int64_t runId, const LossFigures& figures, int64_t step,
                      double epoch, double wallSeconds) {
  store.setTestResult(runId, figures.bitsPerSymbol);
  std::vector<MetricPoint> points = {
      {metric::kTestBits, step, epoch, wallSeconds, figures.bitsPerSymbol}};
  if (figures.words > 0)
    points.push_back({metric::kTestBitsPerWord, step, epoch, wallSeconds, figures.bitsPerWord});
  if (figures.errorRate >= 0)
    points.push_back({metric::kTestErrorRate, step, epoch, wallSeconds, figures.errorRate});
  // Which road the figure took (held_out_reading.h): 1 stream, or B stitched.
  if (figures.readingStreams > 0) {
    points.push_back({metric::kTestReadingStreams, step, epoch, wallSeconds,
                      static_cast<double>(figures.readingStreams)});
  }
  store.appendMetrics(runId, points);
}

RunTestEvaluation evaluateRunOnTest(const std::string& projectFolder, int64_t runId,
                                    JobContext* job, const std::string& checkpointPath) {
  reportTo(job, 0.0, "reading the run");
  RunCatalogue catalogue(projectFolder, RunCatalogue::Access::ReadWrite);
  const auto record = catalogue.run(runId);
  if (!record) throw std::runtime_error("there is no run " + std::to_string(runId));
  // Its figures and metrics are the writer's to record: no trainer may write it meanwhile.
  RunLock lock = catalogue.lockForWriting(runId);
  if (record->configYaml.empty()) {
    throw std::runtime_error("run " + std::to_string(runId) + " stored no config to evaluate");
  }
  Project project = parseProject(record->configYaml, "run " + std::to_string(runId) + " config");
  project.folder = projectFolder;
  if (!project.hasData) {
    throw std::runtime_error("run " + std::to_string(runId) + " has no data section");
  }
  RunTestEvaluation result;
  result.checkpoint =
      checkpointPath.empty() ? catalogue.checkpointToAnalyse(runId) : checkpointPath;
  if (!checkpointPath.empty()) {
    const auto own = catalogue.checkpoints(runId);
    if (std::none_of(own.begin(), own.end(),
                     [&](const RunCheckpoint& mine) { return mine.path == checkpointPath; })) {
      throw std::runtime_error("'" + checkpointPath + "' is not a checkpoint of run " +
                               std::to_string(runId));
    }
  }

  reportTo(job, 0.02, "loading the checkpoint and the corpus");
  Checkpoint checkpoint = Checkpoint::openOfRun(result.checkpoint, projectFolder);
  // A corpus's test split, or a long-range problem's test sequences: as the trainer scores.
  const TrainingData data(project, [](const std::string&) {});
  checkpoint.checkCompatible(project.model, data.vocabulary());
  LanguageModel model(project.model, data.vocabulary().size());
  checkpoint.loadModel(model);
  model.eval();

  EvalOptions options;
  options.batch = project.evaluation.batchSize;
  options.bptt = project.evaluation.bptt;
  if (job) {
    JobContext scoring = job->part(0.05, 1.0, "scoring the test split");
    result.figures = data.evaluate(TrainingData::HeldOut::Test, model, options, &scoring);
  } else {
    result.figures = data.evaluate(TrainingData::HeldOut::Test, model, options, nullptr);
  }

  const auto last = catalogue.store().metrics(runId, metric::kTrainLoss);
  recordTestResult(catalogue.store(), runId, result.figures,
                   last.empty() ? record->steps : last.back().step,
                   last.empty() ? 0.0 : last.back().epoch,
                   last.empty() ? record->durationSeconds : last.back().wallSeconds);
  reportTo(job, 1.0, "done");
  return result;
}

}  // namespace mrnn::engine
