#include "engine/bench/bench_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "engine/bench/product_ceiling.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {

namespace {

std::string number(double value, int decimals = 0) {
  if (decimals == 0) return groupedInteger(std::llround(value));
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string ratio(const BenchRow& row, const BenchRow* reference) {
  if (!reference || reference == &row || reference->medianRate() <= 0.0) return "";
  return number(row.medianRate() / reference->medianRate(), 2);
}

std::string busySuffix(const BenchRow& row) {
  return row.busy ? kBusySuffix : "";
}

// The peer row a subject is compared with: the peer of the same cell kind, measured alike.
const BenchRow* peerFor(const BenchReport& report, const BenchRow& row) {
  if (row.peer) return nullptr;
  const std::string cell = row.cell == kTorchLstm ? "lstm" : row.cell;
  return report.find("peer " + cell + busySuffix(row), row.measure);
}

// A busy row's idle twin (the same subject without the suffix).
const BenchRow* idleFor(const BenchReport& report, const BenchRow& row) {
  if (!row.busy) return nullptr;
  const std::string suffix = kBusySuffix;
  return report.find(row.subject.substr(0, row.subject.size() - suffix.size()), row.measure);
}

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

double BenchRow::gflopsPerSecond() const {
  return medianRate() * flopsPerSymbol / 1e9;
}

const BenchRow* BenchReport::find(const std::string& subject, BenchMeasure measure) const {
  for (const auto& row : rows) {
    if (row.subject == subject && row.measure == measure) return &row;
  }
  return nullptr;
}

std::string formatBenchReport(const BenchReport& report, const std::string& command) {
  std::ostringstream out;
  const auto& s = report.shape;
  out << "Machine: " << report.machine << "; " << report.blas << "; LibTorch " << report.libtorch
      << "; device " << s.device << ".\n\n"
      << "Shape: hidden " << s.hidden << ", embedding " << s.embedding << ", batch " << s.batch
      << ", BPTT " << s.bptt << ", vocabulary " << s.vocab << "; " << s.steps
      << " timed windows after one warm-up; sampling " << s.sampleLength
      << " symbols (batch 1, temperature 1); " << report.repeats
      << " rounds, every subject once per round in turn. Peak MB: the measuring process's "
         "peak resident memory, runtime, model and data included (never below the suite's own "
      << number(report.suiteResidentMb) << " MB, which the kernel counts for a forked child).\n\n"
      << "    " << command << "\n";
  const double ceiling = median(report.ceilingGflops);
  if (ceiling > 0) {
    std::string runs;
    for (double r : report.ceilingGflops) runs += (runs.empty() ? "" : " ") + number(r, 1);
    out << "Ceiling: a " << kCeilingProductSize << " x " << kCeilingProductSize << " x "
        << kCeilingProductSize << " float32 product (torch::mm, the same BLAS and threads) runs at "
        << number(ceiling, 1) << " GFLOP/s (rounds " << runs
        << "); / ceiling is each row's GFLOP/s over it.\n";
  }
  bool contention = false;
  for (const auto& row : report.rows) contention = contention || row.busy;
  if (contention) {
    out << "Contention: every subject measured idle and, right after, with processor 0 kept "
           "busy by a spinning process (rows \"1 core busy\"); / idle is the busy rate over "
           "the idle one.\n";
  }
  for (auto measure : {BenchMeasure::Train, BenchMeasure::Eval, BenchMeasure::Sample}) {
    bool any = false;
    for (const auto& row : report.rows) any = any || row.measure == measure;
    if (!any) continue;
    out << "\n"
        << (measure == BenchMeasure::Train  ? "Training"
            : measure == BenchMeasure::Eval ? "Evaluation"
                                            : "Sampling")
        << " (symbols/s):\n\n"
        << "| subject | median | runs | GFLOP/s | " << (ceiling > 0 ? "/ ceiling | " : "")
        << "peak MB | / peer | / torch::nn::LSTM |" << (contention ? " / idle |" : "") << "\n"
        << "| --- | ---: | --- | ---: | " << (ceiling > 0 ? "---: | " : "")
        << "---: | ---: | ---: |" << (contention ? " ---: |" : "") << "\n";
    for (const auto& row : report.rows) {
      if (row.measure != measure) continue;
      const BenchRow* torchLstm = report.find("torch::nn::LSTM" + busySuffix(row), measure);
      std::string runs;
      for (double r : row.rates) runs += (runs.empty() ? "" : " ") + number(r);
      out << "| " << row.subject << " | " << number(row.medianRate()) << " | " << runs << " | "
          << (row.flopsPerSymbol > 0 ? number(row.gflopsPerSecond(), 1) : "") << " | ";
      if (ceiling > 0) {
        out << (row.flopsPerSymbol > 0 ? number(row.gflopsPerSecond() / ceiling, 2) : "") << " | ";
      }
      out << number(row.medianPeakMb()) << " | " << ratio(row, peerFor(report, row)) << " | "
          << ratio(row, torchLstm) << " |";
      if (contention) out << " " << ratio(row, idleFor(report, row)) << " |";
      out << "\n";
    }
  }
  if (!report.notes.empty()) out << "\n";
  for (const std::string& note : report.notes) out << "Note: " << note << "\n";
  return out.str();
}

}  // namespace mrnn::engine
