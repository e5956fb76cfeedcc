#include "terminal_training.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "engine/config/loss_unit.h"
#include "engine/data/long_range_problem.h"
#include "engine/store/metric_names.h"
#include "engine/store/text_format.h"
#include "engine/training/held_out_note.h"
#include "engine/training/training_run.h"
#include "stop_signals.h"

namespace mrnn::app {
namespace {

// A Hessian-free step's own figures: "CG 87 iterations, kept 75, λ 6.67, ρ 0.81, rate 1".
std::string updateFigures(const engine::StepEvent& step) {
  std::ostringstream out;
  out << std::setprecision(3);
  const auto value = [&](const char* name) {
    for (const auto& figure : step.update) {
      if (figure.name == name) return figure.value;
    }
    return 0.0;
  };
  out << "CG " << value(engine::metric::kCgIterations) << " iterations, kept "
      << value(engine::metric::kBacktrackedIterate) << ", lambda " << value(engine::metric::kLambda)
      << ", rho " << value(engine::metric::kRho) << ", rate " << value(engine::metric::kStepSize);
  return out.str();
}

}  // namespace

TerminalTrainingResult trainInTerminal(const engine::Project& project,
                                       const TerminalTrainingOptions& options, std::ostream& out,
                                       std::ostream& err) {
  const std::string& from = options.resumeFrom;
  const StopSignals signals;
  engine::TrainingRun run(project);
  run.joinRanks(options.collective);
  engine::RunLength length = options.length;
  length.stopAt = options.stopAtStep;
  run.start(from, length);
  const bool terminal = ::isatty(STDOUT_FILENO) != 0 && !options.quiet;
  const engine::LossUnit unit = engine::lossUnitOf(project);
  const bool squaredError = unit == engine::LossUnit::SquaredError;
  bool stopping = false;
  int64_t lastPrinted = 0;
  while (true) {
    if (signals.requested() && !stopping) {
      stopping = true;
      if (!options.quiet) {
        out << (terminal ? "\n" : "") << signals.name()
            << ": stopping after this step; a checkpoint will be saved\n";
      }
      run.stop();
    }
    // A pipe (the workbench following a multi-process run, a log) sees each event as it
    // comes, not when a buffer fills.
    out.flush();
    const auto event = run.events().pop(std::chrono::milliseconds(100));
    if (!event) {
      if (!run.isRunning()) break;
      continue;
    }
    if (std::holds_alternative<engine::StartedEvent>(*event)) {
      continue;  // the run's number is said when it ends
    } else if (options.quiet && !std::holds_alternative<engine::FailedEvent>(*event)) {
      continue;
    } else if (const auto* step = std::get_if<engine::StepEvent>(&*event)) {
      // A line per 50 steps in a log, a refreshing line on a terminal; a line for every
      // Hessian-free step, each of which takes as long as hundreds of first-order ones.
      const bool everyStep = !step->update.empty();
      if (!terminal && !everyStep && step->step - lastPrinted < 50 && step->step != 1) continue;
      lastPrinted = step->step;
      out << (terminal ? "\r" : "") << "epoch " << std::fixed << std::setprecision(2) << step->epoch
          << "  step " << step->step << "  loss " << std::setprecision(4) << step->loss;
      // A real-valued output's loss is a squared error: no bits in it.
      if (!squaredError) out << "  bits/sym " << step->bitsPerSymbol;
      out << "  " << std::setprecision(0) << step->symbolsPerSecond << " sym/s";
      if (!step->rankSymbolsPerSecond.empty()) {
        out << " (ranks";
        for (const double rate : step->rankSymbolsPerSecond) out << " " << rate;
        out << ")";
      }
      out << "  ETA " << engine::compactDuration(step->etaSeconds);
      if (everyStep) out << "\n  " << updateFigures(*step);
      out << (terminal && !everyStep ? "   " : "\n") << std::flush;
    } else if (const auto* phase = std::get_if<engine::PhaseEvent>(&*event)) {
      // A long validation or test on a terminal: its progress on the step line.
      if (terminal) {
        out << "\r" << phase->phase << " " << std::setprecision(0) << 100.0 * phase->fraction << "%"
            << std::string(40, ' ') << std::flush;
      }
    } else if (const auto* valid = std::get_if<engine::ValidationEvent>(&*event)) {
      out << (terminal ? "\n" : "") << "validation at step " << valid->step << ": "
          << std::setprecision(4);
      if (valid->figures.squaredError) {
        out << "mean squared error " << valid->figures.nats;
      } else {
        out << valid->figures.bitsPerSymbol << " bits/symbol, perplexity "
            << valid->figures.perplexity;
      }
      if (valid->figures.words > 0) out << ", " << valid->figures.bitsPerWord << " bits/word";
      if (valid->figures.errorRate >= 0) {
        out << ", " << engine::problemVerdict(valid->figures.errorRate, valid->figures.sequences);
      }
      out << (valid->best ? "  (best)" : "");
      if (valid->seconds > 0)
        out << "  " << engine::validationCostText(valid->seconds, valid->share);
      out << "\n";
    } else if (const auto* log = std::get_if<engine::LogEvent>(&*event)) {
      out << (terminal ? "\n" : "") << log->message << "\n";
    } else if (const auto* finished = std::get_if<engine::FinishedEvent>(&*event);
               finished != nullptr && finished->beforeStart) {
      out << (terminal ? "\n" : "")
          << "stopped before training began (the corpus was being read or the model built); "
             "nothing was recorded\n";
    } else if (finished != nullptr) {
      out << (terminal ? "\n" : "") << (finished->stopped ? "stopped" : "finished") << " at step "
          << finished->step << " after " << engine::compactDuration(finished->wallSeconds);
      if (!finished->stopped && finished->end != engine::RunEnd::Length)
        out << "; ended early: " << engine::runEndReason(finished->end);
      out << std::setprecision(4);
      // The figures come in bits: a squared error is said as itself.
      const auto figure = [squaredError, unit](double bits) {
        std::ostringstream text;
        text << std::setprecision(4);
        if (squaredError) {
          text << "mean squared error " << engine::inLossUnit(bits, unit);
        } else {
          text << bits << " bits/symbol";
        }
        return text.str();
      };
      if (finished->bestValid > 0) {
        out << "; best validation " << figure(finished->bestValid);
      } else {
        out << "; not validated yet";
      }
      if (!finished->stopped) out << ", test " << figure(finished->test);
      if (!finished->stopped && finished->testErrorRate >= 0) {
        out << ", " << engine::problemVerdict(finished->testErrorRate, finished->testSequences);
      }
      out << "\n";
    } else if (const auto* failed = std::get_if<engine::FailedEvent>(&*event)) {
      err << (terminal ? "\n" : "") << "mrnn: " << options.errorPrefix;
      if (failed->runId == 0) {
        err << "training could not start: " << failed->reason << "\n";
      } else {
        err << "run " << failed->runId << " failed at step " << failed->step << ": "
            << failed->reason << "\n";
      }
    }
  }
  run.wait();
  return {run.outcome(), signals.requested()};
}

}  // namespace mrnn::app
