#include "engine/bench/bench_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "engine/bench/product_ceiling.h"
#include "engine/config/device_name.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {

namespace {

std::string number(double value, int decimals = 0) {
  if (decimals == 0) return groupedInteger(std::llround(value));
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

double ratioValue(const BenchRow& row, const BenchRow* reference) {
  if (!reference || reference == &row || reference->medianRate() <= 0.0) return 0.0;
  return row.medianRate() / reference->medianRate();
}

std::string ratio(const BenchRow& row, const BenchRow* reference) {
  const double value = ratioValue(row, reference);
  return value > 0.0 ? number(value, 2) : "";
}

template <typename Match>
const BenchRow* findRow(const BenchReport& report, BenchMeasure measure, const Match& match) {
  for (const auto& row : report.rows) {
    if (row.measure == measure && match(row)) return &row;
  }
  return nullptr;
}

// The peer row a subject is compared with: the peer of the same cell kind, at the same
// precision, measured alike.
const BenchRow* peerFor(const BenchReport& report, const BenchRow& row) {
  if (row.peer) return nullptr;
  const std::string cell = row.cell == kTorchLstm ? "lstm" : row.cell;
  return findRow(report, row.measure, [&](const BenchRow& r) {
    return r.peer && r.cell == cell && r.precision == row.precision && r.busy == row.busy;
  });
}

// torch::nn::LSTM at the row's precision, measured alike.
const BenchRow* torchLstmFor(const BenchReport& report, const BenchRow& row) {
  return findRow(report, row.measure, [&](const BenchRow& r) {
    return !r.peer && r.cell == kTorchLstm && r.precision == row.precision && r.busy == row.busy;
  });
}

// A busy row's idle twin.
const BenchRow* idleFor(const BenchReport& report, const BenchRow& row) {
  if (!row.busy) return nullptr;
  return findRow(report, row.measure, [&](const BenchRow& r) {
    return r.peer == row.peer && r.cell == row.cell && r.precision == row.precision && !r.busy;
  });
}

// A bf16 row's fp32 twin.
const BenchRow* fp32For(const BenchReport& report, const BenchRow& row) {
  if (row.precision != BenchPrecision::Bf16) return nullptr;
  return findRow(report, row.measure, [&](const BenchRow& r) {
    return r.peer == row.peer && r.cell == row.cell && r.precision == BenchPrecision::Fp32 &&
           r.busy == row.busy;
  });
}

// One subject's idle training row: an engine cell, torch::nn::LSTM or the peer.
const BenchRow* trainingRow(const BenchReport& report, const std::string& cell, bool peer,
                            BenchPrecision precision) {
  return findRow(report, BenchMeasure::Train, [&](const BenchRow& r) {
    return r.cell == cell && r.peer == peer && r.precision == precision && !r.busy;
  });
}

std::string rounds(const std::vector<double>& values, double scale, int decimals) {
  std::string text;
  for (double v : values) text += (text.empty() ? "" : " ") + number(v * scale, decimals);
  return text;
}

// The GPU targets, read off the training table: "- what: 0.83 (target 0.8: met)".
void writeGpuTargets(std::ostream& out, const BenchReport& report) {
  std::vector<std::string> lines;
  const auto judged = [&](const std::string& what, double value, double target) {
    if (value <= 0.0) return;
    lines.push_back(what + ": " + number(value, 2) + " (target " + number(target, 1) + ": " +
                    (value >= target ? "met" : "not met") + ")");
  };
  constexpr BenchPrecision kFp32 = BenchPrecision::Fp32, kBf16 = BenchPrecision::Bf16;
  for (const auto precision : report.precisions) {
    const BenchRow* mlstm = trainingRow(report, "mlstm", false, precision);
    if (!mlstm) continue;
    judged(std::string("mLSTM / cuDNN LSTM, ") + benchPrecisionName(precision),
           ratioValue(*mlstm, trainingRow(report, kTorchLstm, false, precision)), 0.8);
  }
  const BenchRow* peer = trainingRow(report, "mlstm", true, kFp32);
  if (const BenchRow* mlstm = trainingRow(report, "mlstm", false, kFp32)) {
    judged("mLSTM / peer mLSTM, fp32", ratioValue(*mlstm, peer), 3.0);
  }
  if (const BenchRow* mlstm = trainingRow(report, "mlstm", false, kBf16)) {
    const double value = ratioValue(*mlstm, peer);
    if (value > 0.0) {
      lines.push_back("mLSTM bf16 / peer mLSTM fp32: " + number(value, 2) +
                      " (the peer runs fp32 only)");
    }
  }
  for (const auto& row : report.rows) {
    if (row.measure != BenchMeasure::Train || row.peer || row.busy || row.cell == kTorchLstm ||
        row.precision != kBf16) {
      continue;
    }
    judged("engine " + row.cell + " bf16 / fp32", ratioValue(row, fp32For(report, row)), 1.5);
  }
  if (lines.empty()) return;
  out << "\nGPU targets (training symbols/s, ratios of the medians above):\n\n";
  for (const auto& line : lines) out << "- " << line << "\n";
}

// Hessian-free's product against the training step on the same window: what one CG
// iteration costs, in training steps (the time ratio is the inverse of the rates').
void writeCurvatureCosts(std::ostream& out, const BenchReport& report) {
  std::vector<std::string> lines;
  for (const auto& row : report.rows) {
    if (row.measure != BenchMeasure::Curvature || row.busy) continue;
    const BenchRow* train = trainingRow(report, row.cell, false, row.precision);
    if (!train || row.medianRate() <= 0.0) continue;
    const double cost = train->medianRate() / row.medianRate();
    lines.push_back(row.subject + ": one product costs " + number(cost, 2) +
                    " training steps (target at most 2.5: " + (cost <= 2.5 ? "met" : "not met") +
                    ")");
  }
  if (lines.empty()) return;
  out << "\nGauss-Newton product against a training step on the same window:\n\n";
  for (const auto& line : lines) out << "- " << line << "\n";
}

// Each engine cell's GFLOP/s over the mLSTM's, round by round (every subject runs once a round
// in turn, so a round's two figures were measured minutes apart at most, and the machine's
// slower drifts cancel in their ratio), and the median of those ratios.
void writeCellRatios(std::ostream& out, const BenchReport& report, BenchMeasure measure);

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

double BenchRow::medianRate() const {
  return median(rates);
}

double BenchRow::medianPeakMb() const {
  return median(peakMb);
}

double BenchRow::medianGpuMemoryBytes() const {
  return median(gpuMemoryBytes);
}

std::string benchSubjectName(const std::string& base, BenchPrecision precision, bool labelled) {
  return labelled ? base + " " + benchPrecisionName(precision) : base;
}

bool BenchReport::onCuda() const {
  return namesCudaDevice(shape.device);
}

double BenchRow::gflopsPerSecond() const {
  return medianRate() * flopsPerSymbol / 1e9;
}

bool startsAsBenchReport(const std::string& head) {
  const std::string line = head.substr(0, head.find('\n'));
  return line.rfind("Machine: ", 0) == 0 && line.find("; LibTorch ") != std::string::npos;
}

std::string formatBenchReport(const BenchReport& report, const std::string& command) {
  std::ostringstream out;
  const auto& s = report.shape;
  const bool cuda = report.onCuda();
  // On a GPU the rates are TFLOP/s; on the CPU GFLOP/s.
  const double rateScale = cuda ? 1e-3 : 1.0;
  const int rateDecimals = cuda ? 2 : 1;
  const char* rateUnit = cuda ? "TFLOP/s" : "GFLOP/s";
  bool fp32 = false, bf16 = false, gpuMemory = false, mogrifier = false;
  for (const auto& row : report.rows) {
    (row.precision == BenchPrecision::Bf16 ? bf16 : fp32) = true;
    gpuMemory = gpuMemory || !row.gpuMemoryBytes.empty();
    mogrifier = mogrifier || row.cell == "mogrifier";
  }
  std::string precisions;
  for (const auto p : report.precisions) {
    precisions += (precisions.empty() ? "" : " and ") + std::string(benchPrecisionName(p));
  }
  out << "Machine: " << report.machine << "; " << report.blas << "; LibTorch " << report.libtorch
      << "; device " << s.device << (report.gpu.empty() ? "" : ": " + report.gpu) << ".\n\n"
      << "Shape: hidden " << s.hidden << ", embedding " << s.embedding << ", batch " << s.batch
      << ", BPTT " << s.bptt << ", vocabulary " << s.vocab << "; ";
  if (mogrifier) {
    out << "Mogrifier r " << s.mogrifierRounds << ", k "
        << (s.mogrifierRank > 0 ? std::to_string(s.mogrifierRank) : std::string("full rank"))
        << "; ";
  }
  if (bf16) {
    out << "precision " << precisions
        << " (bf16: LibTorch's autocast to bfloat16, the fused GPU windows' products with "
           "bfloat16 operands and float32 sums; weights, Adam and state in float32); ";
  }
  out << s.steps << " timed windows after one warm-up; sampling " << s.sampleLength
      << " symbols (batch 1, temperature 1); " << report.repeats
      << " rounds, every subject once per round in turn. Peak MB: the measuring process's "
         "peak resident memory, runtime, model and data included (never below the suite's own "
      << number(report.suiteResidentMb) << " MB, which the kernel counts for a forked child).";
  if (gpuMemory) {
    out << " GPU memory: the device's memory in use (total minus free) after the probe's timed "
           "part, in GiB: its tensors, LibTorch's cached blocks and the CUDA context, and "
           "anything else on that GPU.";
  }
  out << "\n\n    " << command << "\n";
  const double ceiling = median(report.ceilingGflops);
  const double ceilingBf16 = median(report.ceilingBf16Gflops);
  const bool anyCeiling = ceiling > 0 || ceilingBf16 > 0;
  const auto ceilingFor = [&](const BenchRow& row) {
    return row.precision == BenchPrecision::Bf16 ? ceilingBf16 : ceiling;
  };
  if (cuda && anyCeiling) {
    std::string figures, runs;
    const auto add = [&](const char* name, double value, const std::vector<double>& values) {
      if (value <= 0) return;
      figures += (figures.empty() ? "" : ", ") + std::string(name) + " " + number(value * 1e-3, 1) +
                 " TFLOP/s";
      runs += (runs.empty() ? "" : "; ") + std::string(name) + " " + rounds(values, 1e-3, 1);
    };
    add("fp32", ceiling, report.ceilingGflops);
    add("bf16", ceilingBf16, report.ceilingBf16Gflops);
    out << "GPU ceiling: " << figures << " (a " << kGpuCeilingProductSize << " x "
        << kGpuCeilingProductSize << " x " << kGpuCeilingProductSize
        << " torch::mm on the GPU, fp32 at LibTorch's default float32 precision; rounds " << runs
        << "); / ceiling is each row's TFLOP/s over the ceiling of its precision.\n";
  } else if (ceiling > 0) {
    out << "Ceiling: a " << kCeilingProductSize << " x " << kCeilingProductSize << " x "
        << kCeilingProductSize << " float32 product (torch::mm, the same BLAS and threads) runs at "
        << number(ceiling, 1) << " GFLOP/s (rounds " << rounds(report.ceilingGflops, 1.0, 1)
        << "); / ceiling is each row's GFLOP/s over it.\n";
  }
  bool contention = false;
  for (const auto& row : report.rows) contention = contention || row.busy;
  if (contention) {
    out << "Contention: every subject measured idle and, right after, with processor 0 kept "
           "busy by a spinning process (rows \"1 core busy\"); / idle is the busy rate over "
           "the idle one.\n";
  }
  const bool bothPrecisions = fp32 && bf16;
  for (auto measure : {BenchMeasure::Train, BenchMeasure::Eval, BenchMeasure::Sample,
                       BenchMeasure::Score, BenchMeasure::Curvature}) {
    bool any = false;
    for (const auto& row : report.rows) any = any || row.measure == measure;
    if (!any) continue;
    out << "\n"
        << (measure == BenchMeasure::Train       ? "Training"
            : measure == BenchMeasure::Eval      ? "Evaluation"
            : measure == BenchMeasure::Curvature ? "Gauss-Newton products"
            : measure == BenchMeasure::Score     ? "Exact scoring of a text as one stream"
                                                 : "Sampling")
        << " (symbols/s):\n\n"
        << "| subject | median | runs | " << rateUnit << " | " << (anyCeiling ? "/ ceiling | " : "")
        << "peak MB | " << (gpuMemory ? "GPU memory GiB | " : "") << "/ peer | / torch::nn::LSTM |"
        << (bothPrecisions ? " / fp32 |" : "") << (contention ? " / idle |" : "") << "\n"
        << "| --- | ---: | --- | ---: | " << (anyCeiling ? "---: | " : "") << "---: | "
        << (gpuMemory ? "---: | " : "") << "---: | ---: |" << (bothPrecisions ? " ---: |" : "")
        << (contention ? " ---: |" : "") << "\n";
    for (const auto& row : report.rows) {
      if (row.measure != measure) continue;
      const double rate = row.gflopsPerSecond() * rateScale;
      out << "| " << row.subject << " | " << number(row.medianRate()) << " | "
          << rounds(row.rates, 1.0, 0) << " | "
          << (row.flopsPerSymbol > 0 ? number(rate, rateDecimals) : "") << " | ";
      if (anyCeiling) {
        const double limit = ceilingFor(row);
        out << (row.flopsPerSymbol > 0 && limit > 0 ? number(row.gflopsPerSecond() / limit, 2) : "")
            << " | ";
      }
      out << number(row.medianPeakMb()) << " | ";
      if (gpuMemory) {
        out << (row.gpuMemoryBytes.empty()
                    ? ""
                    : number(row.medianGpuMemoryBytes() / (1024.0 * 1024.0 * 1024.0), 1))
            << " | ";
      }
      out << ratio(row, peerFor(report, row)) << " | " << ratio(row, torchLstmFor(report, row))
          << " |";
      if (bothPrecisions) out << " " << ratio(row, fp32For(report, row)) << " |";
      if (contention) out << " " << ratio(row, idleFor(report, row)) << " |";
      out << "\n";
    }
  }
  writeCellRatios(out, report, BenchMeasure::Train);
  writeCellRatios(out, report, BenchMeasure::Eval);
  writeCurvatureCosts(out, report);
  if (cuda) writeGpuTargets(out, report);
  if (!report.notes.empty()) out << "\n";
  for (const std::string& note : report.notes) out << "Note: " << note << "\n";
  return out.str();
}

namespace {

void writeCellRatios(std::ostream& out, const BenchReport& report, BenchMeasure measure) {
  const auto engineRow = [&](const BenchRow& row) {
    return !row.peer && !row.busy && row.cell != kTorchLstm && row.measure == measure &&
           row.flopsPerSymbol > 0 && row.precision == BenchPrecision::Fp32;
  };
  const BenchRow* mlstm = findRow(
      report, measure, [&](const BenchRow& row) { return engineRow(row) && row.cell == "mlstm"; });
  if (!mlstm) return;
  std::ostringstream rows;
  for (const auto& row : report.rows) {
    if (!engineRow(row) || &row == mlstm || row.rates.size() != mlstm->rates.size()) continue;
    std::vector<double> ratios;
    for (size_t i = 0; i < row.rates.size(); ++i) {
      const double reference = mlstm->rates[i] * mlstm->flopsPerSymbol;
      if (reference > 0) ratios.push_back(row.rates[i] * row.flopsPerSymbol / reference);
    }
    if (ratios.empty()) continue;
    rows << "| " << row.cell << " | " << number(median(ratios), 2) << " | "
         << rounds(ratios, 1.0, 2) << " |\n";
  }
  if (rows.str().empty()) return;
  out << "\n"
      << (measure == BenchMeasure::Train ? "Training" : "Evaluation")
      << " GFLOP/s over the mLSTM's, each round's own ratio (a round's subjects run back to "
         "back) and their median:\n\n"
      << "| cell | / mlstm | rounds |\n| --- | ---: | --- |\n"
      << rows.str();
}

}  // namespace

}  // namespace mrnn::engine
