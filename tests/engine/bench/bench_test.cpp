// The benchmark suite's parts against answers known in advance: FLOP counts by hand, the
// probes' parameter counts and FLOPs, medians and ratios in the report, the parsing of the
// engine's and the peer's output lines, and child processes (exit codes, output, memory).
// Rates themselves are timings and are only checked to be positive: benchmarks measure
// speed, tests do not.

#include <torch/torch.h>

#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/bench/bench_model.h"
#include "engine/bench/bench_report.h"
#include "engine/bench/bench_suite.h"
#include "engine/bench/flop_count.h"
#include "engine/bench/throughput_probe.h"
#include "engine/config/model_config.h"
#include "engine/models/language_model.h"
#include "engine/runtime/allocation_policy.h"
#include "engine/runtime/blas_kernels.h"
#include "engine/runtime/busy_core.h"
#include "engine/runtime/child_process.h"
#include "engine/runtime/thread_governor.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

// Writes an executable /bin/sh script at `path` (a stand-in mrnn, Python or peer).
std::string shellScript(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

engine::BenchShape tinyShape(const std::string& cell) {
  engine::BenchShape s;
  s.cell = cell;
  s.hidden = 16;
  s.embedding = 8;
  s.batch = 2;
  s.bptt = 5;
  s.vocab = 10;
  s.steps = 2;
  s.sampleLength = 30;
  s.threads = 1;
  return s;
}

int64_t entriesOf(const engine::BenchShape& shape, bool weightNorm = false) {
  auto config = engine::benchModelConfig(shape);
  config.layers[0].weightNorm = weightNorm;
  engine::LanguageModel model(config, shape.vocab);
  return engine::matrixEntries(model);
}

}  // namespace

MRNN_TEST(flop_count_of_the_mlstm_by_hand) {
  engine::BenchShape s;
  s.cell = "mlstm";
  s.hidden = 128;
  s.embedding = 64;
  s.vocab = 128;
  // W_mx 64x128, W_mh 128x128, W_x 4*128 x 64, W_m 4*128 x 128, softmax 128x128.
  const int64_t byHand = 8192 + 16384 + 32768 + 65536 + 16384;
  EXPECT_EQ(entriesOf(s), byHand);
  engine::LanguageModel model(engine::benchModelConfig(s), s.vocab);
  EXPECT_EQ(engine::forwardFlopsPerSymbol(model), 2.0 * byHand);
  EXPECT_EQ(engine::trainingFlopsPerSymbol(model), 6.0 * byHand);
}

MRNN_TEST(flop_count_leaves_out_weight_norm_gains) {
  engine::BenchShape s = tinyShape("mlstm");
  EXPECT_EQ(entriesOf(s, true), entriesOf(s, false));
}

MRNN_TEST(flop_count_of_the_mogrifier_by_hand) {
  engine::BenchShape s;
  s.cell = "mogrifier";  // r = 5, k = 40: Q^1, Q^3, Q^5 (x from h), R^2, R^4 (h from x)
  s.hidden = 128;
  s.embedding = 64;
  s.vocab = 128;
  const int64_t lstm = 4 * 128 * 64 + 4 * 128 * 128;
  const int64_t q = 64 * 40 + 40 * 128, r = 128 * 40 + 40 * 64;
  EXPECT_EQ(entriesOf(s), lstm + 3 * q + 2 * r + 128 * 128);
}

MRNN_TEST(engine_probes_count_parameters_and_flops) {
  const auto s = tinyShape("mlstm");
  engine::LanguageModel model(engine::benchModelConfig(s), s.vocab);
  const double entries = static_cast<double>(engine::matrixEntries(model));
  for (auto measure :
       {engine::BenchMeasure::Train, engine::BenchMeasure::Eval, engine::BenchMeasure::Sample}) {
    const auto result = engine::runProbe(s, measure);
    EXPECT_MSG(result.symbolsPerSecond > 0 && std::isfinite(result.symbolsPerSecond),
               engine::benchMeasureName(measure) << ": " << result.symbolsPerSecond);
    EXPECT_EQ(result.parameters, model.parameterCount());
    EXPECT_EQ(result.flopsPerSymbol,
              (measure == engine::BenchMeasure::Train ? 6.0 : 2.0) * entries);
  }
}

MRNN_TEST(torch_lstm_probe_is_the_same_model_shape) {
  const auto s = tinyShape(engine::kTorchLstm);
  const int64_t H = s.hidden, E = s.embedding, V = s.vocab;
  for (auto measure :
       {engine::BenchMeasure::Train, engine::BenchMeasure::Eval, engine::BenchMeasure::Sample}) {
    const auto result = engine::runProbe(s, measure);
    EXPECT(result.symbolsPerSecond > 0);
    // Embedding, LSTM with its two bias vectors, linear softmax.
    EXPECT_EQ(result.parameters, V * E + 4 * H * E + 4 * H * H + 8 * H + V * H + V);
    const double entries = static_cast<double>(4 * H * E + 4 * H * H + V * H);
    EXPECT_EQ(result.flopsPerSymbol,
              (measure == engine::BenchMeasure::Train ? 6.0 : 2.0) * entries);
  }
  // The engine's LSTM has the same matrices.
  EXPECT_EQ(static_cast<double>(entriesOf(tinyShape("lstm"))),
            static_cast<double>(4 * H * E + 4 * H * H + V * H));
}

MRNN_TEST(probes_refuse_unknown_cells_and_devices) {
  auto s = tinyShape("mlstmx");
  EXPECT_THROWS_WITH(std::invalid_argument, engine::runProbe(s, engine::BenchMeasure::Train),
                     "unknown cell type 'mlstmx'");
  s = tinyShape("mlstm");
  s.device = "tpu";
  EXPECT_THROWS_WITH(std::invalid_argument, engine::runProbe(s, engine::BenchMeasure::Train),
                     "--device is cpu, cuda or cuda:N (a GPU's number), not 'tpu'");
  if (!torch::cuda::is_available()) {
    for (const char* device : {"cuda", "cuda:1"}) {
      s.device = device;
      EXPECT_THROWS_WITH(std::runtime_error, engine::runProbe(s, engine::BenchMeasure::Eval),
                         "--device is '" + std::string(device) + "', but ");
    }
  }
  // bf16 is CUDA's autocast: refused on the CPU before anything is built.
  s.device = "cpu";
  s.precision = engine::BenchPrecision::Bf16;
  EXPECT_THROWS_WITH(std::invalid_argument, engine::runProbe(s, engine::BenchMeasure::Train),
                     "--precision bf16 needs --device cuda");
}

MRNN_TEST(precision_names_round_trip) {
  using engine::BenchPrecision;
  for (auto p : {BenchPrecision::Fp32, BenchPrecision::Bf16}) {
    EXPECT(engine::benchPrecisionFromName(engine::benchPrecisionName(p)) == p);
  }
  EXPECT_EQ(std::string(engine::benchPrecisionName(BenchPrecision::Bf16)), std::string("bf16"));
  EXPECT(!engine::benchPrecisionFromName("fp16"));
  EXPECT_EQ(engine::benchSubjectName("engine mlstm", BenchPrecision::Bf16, true),
            std::string("engine mlstm bf16"));
  EXPECT_EQ(engine::benchSubjectName("engine mlstm", BenchPrecision::Fp32, false),
            std::string("engine mlstm"));
}

MRNN_TEST(mogrifier_rounds_and_rank_come_from_the_shape) {
  engine::BenchShape s;
  s.cell = "mogrifier";
  s.hidden = 128;
  s.embedding = 64;
  s.vocab = 128;
  const engine::LayerConfig defaults;
  EXPECT_EQ(s.mogrifierRounds, defaults.rounds);  // 5
  EXPECT_EQ(s.mogrifierRank, defaults.rank);      // 40
  // r = 3: Q^1, Q^3 (x from h), R^2 (h from x).
  s.mogrifierRounds = 3;
  s.mogrifierRank = 10;
  const auto config = engine::benchModelConfig(s);
  EXPECT_EQ(config.layers.at(0).rounds, 3);
  EXPECT_EQ(config.layers.at(0).rank, int64_t{10});
  const int64_t lstm = 4 * 128 * 64 + 4 * 128 * 128;
  const int64_t q = 64 * 10 + 10 * 128, r = 128 * 10 + 10 * 64;
  EXPECT_EQ(entriesOf(s), lstm + 2 * q + r + 128 * 128);
  s.mogrifierRank = 0;  // full rank: one 64 x 128 matrix per round
  EXPECT_EQ(entriesOf(s), lstm + 3 * 64 * 128 + 128 * 128);
  s.mogrifierRank = 64;  // not below min(embedding, hidden)
  EXPECT_THROWS_WITH(std::invalid_argument, engine::benchModelConfig(s),
                     "mogrifier: rank 64 must be below min(input width, hidden size) = 64");
  // Other cells ignore them.
  s.cell = "mlstm";
  EXPECT(engine::benchModelConfig(s).layers.at(0).type == engine::CellType::Mlstm);
}

MRNN_TEST(probe_commands_carry_precision_device_and_the_mogrifier) {
  engine::BenchShape shape;
  shape.cell = "mogrifier";
  shape.device = "cuda:1";
  shape.precision = engine::BenchPrecision::Bf16;
  shape.mogrifierRounds = 4;
  shape.mogrifierRank = 16;
  const auto argv = engine::probeCommand("mrnn", shape, engine::BenchMeasure::Eval);
  const auto valueOf = [&](const std::string& key) {
    for (size_t i = 0; i + 1 < argv.size(); ++i) {
      if (argv[i] == key) return argv[i + 1];
    }
    return std::string("(absent)");
  };
  EXPECT_EQ(valueOf("--probe"), std::string("eval"));
  EXPECT_EQ(valueOf("--device"), std::string("cuda:1"));
  EXPECT_EQ(valueOf("--precision"), std::string("bf16"));
  EXPECT_EQ(valueOf("--mogrifier-rounds"), std::string("4"));
  EXPECT_EQ(valueOf("--mogrifier-rank"), std::string("16"));
  shape.cell = "mlstm";
  const auto mlstm = engine::probeCommand("mrnn", shape, engine::BenchMeasure::Eval);
  EXPECT(std::find(mlstm.begin(), mlstm.end(), "--mogrifier-rounds") == mlstm.end());
}

MRNN_TEST(median_of_odd_even_and_empty) {
  EXPECT_EQ(engine::median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(engine::median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(engine::median({}), 0.0);
}

MRNN_TEST(probe_and_peer_output_is_read) {
  const auto engineLine = engine::parseProbeOutput(
      "probe cell=mlstm measure=train params=148096 flops_per_symbol=835584 "
      "symbols_per_s=71234.5\n");
  EXPECT_EQ(engineLine.symbolsPerSecond, 71234.5);
  EXPECT_EQ(engineLine.flopsPerSymbol, 835584.0);
  EXPECT_EQ(engineLine.parameters, int64_t{148096});
  const auto peerTrain =
      engine::parseProbeOutput("mlstm hidden=512 batch=32 bptt=100 params=1234 chars_per_s=2129\n");
  EXPECT_EQ(peerTrain.symbolsPerSecond, 2129.0);
  EXPECT_EQ(peerTrain.parameters, int64_t{1234});
  const auto peerSample = engine::parseProbeOutput("mlstm hidden=512 sample symbols_per_s=752\n");
  EXPECT_EQ(peerSample.symbolsPerSecond, 752.0);
  EXPECT_THROWS_WITH(std::runtime_error, engine::parseProbeOutput("Traceback\nKeyError: x\n"),
                     "no symbols_per_s or chars_per_s in: Traceback | KeyError: x");
  EXPECT_THROWS_WITH(std::runtime_error, engine::parseProbeOutput("symbols_per_s=fast"),
                     "unreadable symbols_per_s 'fast'");
  EXPECT_EQ(engineLine.gpuMemoryBytes, int64_t{-1});  // not on a GPU
  const auto gpuLine = engine::parseProbeOutput(
      "probe cell=torch-lstm measure=train precision=bf16 params=1 flops_per_symbol=2 "
      "symbols_per_s=3 gpu_memory=3221225472 recurrent_dtype=BFloat16\n");
  EXPECT_EQ(gpuLine.gpuMemoryBytes, int64_t{3221225472});
  EXPECT_EQ(gpuLine.recurrentDtype, std::string("BFloat16"));
}

MRNN_TEST(report_gives_medians_ratios_and_gflops) {
  engine::BenchReport report;
  report.repeats = 3;
  report.machine = "test CPU";
  report.blas = "OpenBLAS Test";
  report.libtorch = "1.13.0";
  using engine::BenchMeasure;
  report.rows = {
      {"engine mlstm", "mlstm", BenchMeasure::Train, {3000, 2800, 3300}, {100, 110, 90}, 1e6, 5},
      {"torch::nn::LSTM",
       "torch-lstm",
       BenchMeasure::Train,
       {3500, 3600, 4000},
       {80, 80, 80},
       1e6,
       5},
      {"peer mlstm",
       "mlstm",
       BenchMeasure::Train,
       {2000, 1800, 2100},
       {250, 260, 240},
       1e6,
       5,
       true},
  };
  EXPECT_EQ(report.rows[0].medianRate(), 3000.0);
  EXPECT_NEAR(report.rows[0].gflopsPerSecond(), 3.0, 1e-12);
  const std::string text = engine::formatBenchReport(report, "mrnn bench --repeats 3");
  // engine / peer = 3000 / 2000, engine / torch = 3000 / 3600, peer / torch = 2000 / 3600.
  EXPECT_MSG(text.find("| engine mlstm | 3,000 | 3,000 2,800 3,300 | 3.0 | 100 | 1.50 | 0.83 |") !=
                 std::string::npos,
             text);
  EXPECT_MSG(text.find("| torch::nn::LSTM | 3,600 | 3,500 3,600 4,000 | 3.6 | 80 |  |  |") !=
                 std::string::npos,
             text);
  EXPECT_MSG(text.find("| peer mlstm | 2,000 | 2,000 1,800 2,100 | 2.0 | 250 |  | 0.56 |") !=
                 std::string::npos,
             text);
  EXPECT(text.find("    mrnn bench --repeats 3\n") != std::string::npos);
  // What `mrnn bench --markdown` recognises as a report of its own, and nothing else.
  EXPECT(engine::startsAsBenchReport(text));
  EXPECT(!engine::startsAsBenchReport("# My notes\nMachine: ; LibTorch \n"));
  EXPECT(text.find("Machine: test CPU; OpenBLAS Test; LibTorch 1.13.0; device cpu.") !=
         std::string::npos);
  EXPECT(text.find("Evaluation") == std::string::npos);  // no rows, no table
}

MRNN_TEST(report_gives_each_cells_gflops_over_the_mlstms_round_by_round) {
  // The machine drifts between rounds: the ratio within each round and its median say more
  // than the ratio of the medians. mlstm 1 MFLOP a symbol, tmlstm 2.
  engine::BenchReport report;
  report.repeats = 3;
  using engine::BenchMeasure;
  report.rows = {
      {"engine mlstm", "mlstm", BenchMeasure::Train, {1000, 2000, 1500}, {1, 1, 1}, 1e6, 5},
      {"engine tmlstm", "tmlstm", BenchMeasure::Train, {450, 1000, 600}, {1, 1, 1}, 2e6, 5},
      {"engine lstm", "lstm", BenchMeasure::Train, {1000}, {1}, 1e6, 5},  // a round missing
      {"peer mlstm", "mlstm", BenchMeasure::Train, {900, 900, 900}, {1, 1, 1}, 1e6, 5, true},
  };
  const std::string text = engine::formatBenchReport(report, "mrnn bench");
  // Rounds: 900/1000, 2000/2000, 1200/1500; median 0.90 (the medians' ratio would say 0.80).
  EXPECT_MSG(
      text.find("Training GFLOP/s over the mLSTM's, each round's own ratio") != std::string::npos,
      text);
  EXPECT_MSG(text.find("| tmlstm | 0.90 | 0.90 1.00 0.80 |") != std::string::npos, text);
  EXPECT(text.find("| lstm |") == std::string::npos);
  EXPECT(text.find("| mlstm | 1.00") == std::string::npos);
  // Without an mLSTM to compare with, no such table.
  report.rows.erase(report.rows.begin());
  EXPECT(engine::formatBenchReport(report, "mrnn bench").find("over the mLSTM's") ==
         std::string::npos);
}

MRNN_TEST(report_reads_each_rows_gflops_as_a_share_of_the_product_ceiling) {
  engine::BenchReport report;
  report.repeats = 3;
  report.ceilingGflops = {10.0, 12.0, 11.0};
  using engine::BenchMeasure;
  report.rows = {
      {"engine mlstm", "mlstm", BenchMeasure::Train, {3000, 2800, 3300}, {100, 110, 90}, 1e6, 5},
      {"peer mlstm", "mlstm", BenchMeasure::Train, {2000}, {250}, 0.0, 5, true},
  };
  const std::string text = engine::formatBenchReport(report, "mrnn bench");
  EXPECT_MSG(text.find("runs at 11.0 GFLOP/s (rounds 10.0 12.0 11.0)") != std::string::npos, text);
  EXPECT_MSG(text.find("| GFLOP/s | / ceiling | peak MB |") != std::string::npos, text);
  // 3.0 GFLOP/s of 11.0; a row without a FLOP count has no share.
  EXPECT_MSG(text.find("| engine mlstm | 3,000 | 3,000 2,800 3,300 | 3.0 | 0.27 | 100 |") !=
                 std::string::npos,
             text);
  EXPECT_MSG(text.find("| peer mlstm | 2,000 | 2,000 |  |  | 250 |") != std::string::npos, text);
  report.ceilingGflops.clear();  // not measured: no line, no column
  const std::string without = engine::formatBenchReport(report, "mrnn bench");
  EXPECT(without.find("Ceiling") == std::string::npos);
  EXPECT(without.find("/ ceiling") == std::string::npos);
}

MRNN_TEST(a_cpu_report_has_no_gpu_columns_or_targets) {
  engine::BenchReport report;
  report.repeats = 1;
  using engine::BenchMeasure;
  report.rows = {
      {"engine mlstm", "mlstm", BenchMeasure::Train, {3000}, {100}, 1e6, 5},
      {"torch::nn::LSTM", "torch-lstm", BenchMeasure::Train, {3600}, {80}, 1e6, 5},
  };
  const std::string text = engine::formatBenchReport(report, "mrnn bench");
  EXPECT_MSG(text.find("| GFLOP/s | peak MB | / peer | / torch::nn::LSTM |\n") != std::string::npos,
             text);
  EXPECT(text.find("TFLOP/s") == std::string::npos);
  EXPECT(text.find("GPU") == std::string::npos);
  EXPECT(text.find("target") == std::string::npos);
  EXPECT(text.find("/ fp32") == std::string::npos);
}

MRNN_TEST(a_suite_on_cuda_gives_tflops_gpu_memory_and_the_gpu_targets) {
  // The GPU table without a GPU: a stand-in `mrnn` answers the probes (the suite
  // never touches CUDA itself; its children do) and a stand-in Python the peer, with rates
  // chosen so that every ratio and target below is known.
  const std::string dir = "/tmp/mrnn-bench-cuda-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string self = dir + "/mrnn", python = dir + "/python";
  {
    std::ofstream script(self);
    script << R"(#!/bin/sh
probe= cell= precision=fp32 device=
while [ $# -gt 0 ]; do
  case "$1" in
    --probe) probe=$2; shift ;;
    --cells) cell=$2; shift ;;
    --precision) precision=$2; shift ;;
    --device) device=$2; shift ;;
  esac
  shift
done
[ "$device" = cuda ] || { echo "stand-in: --device $device" >&2; exit 1; }
if [ "$probe" = ceiling ]; then
  echo 'device: cuda:0 (Stand-in GPU)'
  echo 'ceiling size=8192 device=cuda gflops=50000 gflops_bf16=320000'
  exit 0
fi
extra=
case "$cell/$precision" in
  mlstm/fp32) rate=40000 memory=3221225472 ;;
  mlstm/bf16) rate=64000 memory=2684354560 ;;
  lstm/fp32) rate=50000 memory=2147483648 ;;
  lstm/bf16) rate=70000 memory=2147483648 ;;
  torch-lstm/fp32) rate=45000 memory=1073741824 extra=recurrent_dtype=Float ;;
  torch-lstm/bf16) rate=90000 memory=1073741824 extra=recurrent_dtype=Half ;;
  *) echo "stand-in: $cell/$precision" >&2; exit 1 ;;
esac
echo "probe cell=$cell measure=$probe precision=$precision params=5 flops_per_symbol=100000000 symbols_per_s=$rate gpu_memory=$memory $extra"
)";
  }
  {
    std::ofstream script(python);
    script << "#!/bin/sh\n[ \"$2\" = --help ] && exit 0\n"
              "case \" $* \" in *' --device cuda '*) ;; *) echo 'peer not on cuda' >&2; exit 1;; "
              "esac\n"
              "echo 'mlstm hidden=8 batch=2 bptt=4 params=1 chars_per_s=10000'\n";
  }
  for (const auto& path : {self, python}) {
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  }
  engine::BenchSuiteOptions options;
  options.self = self;
  options.python = python;
  options.peer = "/dev/null";
  options.shape.device = "cuda";
  options.cells = {"mlstm", "lstm"};
  options.measures = {engine::BenchMeasure::Train};
  options.precisions = {engine::BenchPrecision::Fp32, engine::BenchPrecision::Bf16};
  options.repeats = 1;
  const engine::BenchReport report = engine::runBenchSuite(options);
  std::filesystem::remove_all(dir);
  // engine mlstm, engine lstm, torch::nn::LSTM at both precisions; the peer's two at fp32.
  EXPECT_EQ(report.rows.size(), size_t{8});
  const std::string text =
      engine::formatBenchReport(report, "mrnn bench --device cuda --precision fp32,bf16");
  const auto has = [&](const std::string& part) {
    EXPECT_MSG(text.find(part) != std::string::npos, "no '" << part << "' in\n" << text);
  };
  has("; device cuda: cuda:0 (Stand-in GPU).");
  has("precision fp32 and bf16 (bf16: LibTorch's autocast to bfloat16");
  has("GPU memory: the device's memory in use");
  has("GPU ceiling: fp32 50.0 TFLOP/s, bf16 320.0 TFLOP/s (a 8192 x 8192 x 8192 torch::mm");
  has("| subject | median | runs | TFLOP/s | / ceiling | peak MB | GPU memory GiB | / peer | "
      "/ torch::nn::LSTM | / fp32 |\n");
  // A row's / ceiling is against its own precision's: 4.00 of 50, 6.40 of 320.
  const auto row = [&](const std::string& start, const std::string& end) {
    const auto at = text.find("| " + start + " |");
    EXPECT_MSG(at != std::string::npos, "no row '" << start << "' in\n" << text);
    if (at == std::string::npos) return;
    const std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_MSG(line.find(start + " | ") != std::string::npos && line.size() >= end.size() &&
                   line.compare(line.size() - end.size(), end.size(), end) == 0,
               line << "\n  should end in\n"
                    << end);
  };
  // Each row ends: GPU memory GiB, / peer, / torch::nn::LSTM, / fp32.
  has("| engine mlstm fp32 | 40,000 | 40,000 | 4.00 | 0.08 | ");
  row("engine mlstm fp32", "| 3.0 | 4.00 | 0.89 |  |");
  has("| engine mlstm bf16 | 64,000 | 64,000 | 6.40 | 0.02 | ");
  row("engine mlstm bf16", "| 2.5 |  | 0.71 | 1.60 |");
  row("engine lstm bf16", "| 2.0 |  | 0.78 | 1.40 |");
  row("torch::nn::LSTM fp32", "| 1.0 | 4.50 |  |  |");
  row("torch::nn::LSTM bf16", "| 1.0 |  |  | 2.00 |");
  row("peer mlstm fp32", "|  |  | 0.22 |  |");  // no GPU memory from the peer
  EXPECT(text.find("peer mlstm bf16") == std::string::npos);
  has("GPU targets (training symbols/s, ratios of the medians above):\n\n"
      "- mLSTM / cuDNN LSTM, fp32: 0.89 (target 0.8: met)\n"
      "- mLSTM / cuDNN LSTM, bf16: 0.71 (target 0.8: not met)\n"
      "- mLSTM / peer mLSTM, fp32: 4.00 (target 3.0: met)\n"
      "- mLSTM bf16 / peer mLSTM fp32: 6.40 (the peer runs fp32 only)\n"
      "- engine mlstm bf16 / fp32: 1.60 (target 1.5: met)\n"
      "- engine lstm bf16 / fp32: 1.40 (target 1.5: not met)\n");
  has("Note: the Python peer (/dev/null) has no precision option: it runs fp32 only");
  has("Note: torch::nn::LSTM bf16 train: under bf16 autocast its recurrence returned Half, not "
      "BFloat16\n");
}

MRNN_TEST(suite_refuses_bf16_off_cuda) {
  engine::BenchSuiteOptions options;
  options.self = "/bin/true";
  options.precisions = {engine::BenchPrecision::Fp32, engine::BenchPrecision::Bf16};
  EXPECT_THROWS_WITH(std::invalid_argument, engine::runBenchSuite(options),
                     "--precision bf16 needs --device cuda");
  options.precisions.clear();
  EXPECT_THROWS_WITH(std::invalid_argument, engine::runBenchSuite(options),
                     "no precision to measure at");
}

MRNN_TEST(freed_large_blocks_stay_in_the_heap_for_the_next_window) {
#if defined(__GLIBC__)
  // Blocks of 30 MB (a fused window's saved activations at hidden 512 are 1-30 MB) and of
  // 100 MB (larger than glibc's largest mmap threshold: a true mLSTM's input gradient is
  // 52 MB) come from the heap, not from a fresh mmap whose pages fault in again every window;
  // on a thread of its own (the workbench's trainer), up to the 64 MB a thread's heap holds.
  engine::keepFreedMemoryForReuse();
  const auto mapped = mallinfo2().hblks;
  for (size_t megabytes : {size_t{30}, size_t{100}}) {
    void* block = std::malloc(megabytes << 20);
    EXPECT(block != nullptr);
    EXPECT_MSG(mallinfo2().hblks == mapped, megabytes << " MB came through mmap");
    std::free(block);
  }
  bool served = false;
  size_t mappedThere = 0;
  std::thread([&] {
    void* block = std::malloc(size_t{60} << 20);
    served = block != nullptr;
    mappedThere = mallinfo2().hblks;
    std::free(block);
  }).join();
  EXPECT(served);
  EXPECT_EQ(mappedThere, mapped);
#endif
}

MRNN_TEST(child_process_reports_exit_output_and_memory) {
  // OMP_NUM_THREADS is already set (CTest sets it to 1): the given value replaces it.
  const auto outcome = engine::runChildProcess(
      {"/bin/sh", "-c", "echo out; echo \"err $MRNN_TEST_VALUE $OMP_NUM_THREADS\" >&2; exit 3"},
      {"MRNN_TEST_VALUE=42", "OMP_NUM_THREADS=7"});
  EXPECT_EQ(outcome.exitCode, 3);
  EXPECT_EQ(outcome.out, std::string("out\n"));
  EXPECT_EQ(outcome.err, std::string("err 42 7\n"));
  EXPECT(outcome.peakResidentKb > 0);
  const auto killed = engine::runChildProcess({"/bin/sh", "-c", "kill -9 $$"});
  EXPECT_EQ(killed.exitCode, 128 + 9);
  EXPECT_THROWS_WITH(std::runtime_error,
                     engine::runChildProcess({"/nonexistent/mrnn-peer", "--kind", "mlstm"}),
                     "cannot run '/nonexistent/mrnn-peer'");
}

MRNN_TEST(child_process_peak_memory_is_the_childs) {
  // A child that holds 256 MB reports at least that; a trivial one reports no more than the
  // floor the forked copy of this process sets (see child_process.h), far less.
  const auto big = engine::runChildProcess(
      {"/bin/sh", "-c", "v=$(head -c 268435456 /dev/zero | tr '\\0' x); echo ${#v}"});
  const auto small = engine::runChildProcess({"/bin/sh", "-c", "echo 1"});
  EXPECT_EQ(big.out, std::string("268435456\n"));
  EXPECT_MSG(big.peakResidentKb > 256 * 1024, big.peakResidentKb);
  EXPECT_MSG(small.peakResidentKb < big.peakResidentKb - 128 * 1024,
             small.peakResidentKb << " vs " << big.peakResidentKb);
}

MRNN_TEST(suite_refuses_missing_peer_and_unknown_cells) {
  engine::BenchSuiteOptions options;
  options.self = "/bin/true";
  options.peer = "/nonexistent/peer_mlstm.py";
  EXPECT_THROWS_WITH(std::invalid_argument, engine::runBenchSuite(options),
                     "peer script not found: /nonexistent/peer_mlstm.py");
  options.peer.clear();
  options.cells = {"mlstm", "lsmt"};
  EXPECT_THROWS_WITH(std::invalid_argument, engine::runBenchSuite(options),
                     "unknown cell type 'lsmt'");
}

MRNN_TEST(suite_names_the_failing_subject_and_quotes_it) {
  // A "python" whose peer starts (answers --help) but whose measurement then fails.
  const std::string python = "/tmp/mrnn-bench-python-" + std::to_string(::getpid());
  {
    std::ofstream script(python);
    script << "#!/bin/sh\n[ \"$2\" = --help ] && exit 0\necho 'peer broke' >&2\nexit 1\n";
  }
  std::filesystem::permissions(python, std::filesystem::perms::owner_all);
  engine::BenchSuiteOptions options;
  options.self = "/bin/true";  // never reached: the peer is the only subject
  options.torchLstm = false;
  options.cells.clear();
  options.peer = "/dev/null";
  options.python = python;
  EXPECT_THROWS_WITH(std::runtime_error, engine::runBenchSuite(options),
                     "peer mlstm train failed (exit 1): peer broke");
  std::filesystem::remove(python);
}

MRNN_TEST(suite_leaves_out_a_failing_subject_and_measures_the_rest) {
  // An engine whose probes fail (a GPU out of memory, say) beside a peer that measures: the
  // peer's figure stays, the failure is a note, and nothing throws.
  const std::string dir = "/tmp/mrnn-bench-partial-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const auto script = [&](const std::string& name, const std::string& body) {
    return shellScript(dir + "/" + name, body);
  };
  engine::BenchSuiteOptions options;
  options.self = script("mrnn", "echo 'CUDA out of memory' >&2\nexit 3\n");
  options.python = script("python",
                          "[ \"$2\" = --help ] && exit 0\n"
                          "echo 'mlstm hidden=8 batch=2 bptt=4 params=1 chars_per_s=1000'\n");
  options.peer = "/dev/null";
  options.cells = {"mlstm"};
  options.measures = {engine::BenchMeasure::Train};
  options.torchLstm = false;
  options.repeats = 1;
  const engine::BenchReport report = engine::runBenchSuite(options);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(report.rows.size(), size_t{1});
  if (report.rows.empty()) return;
  EXPECT_EQ(report.rows.front().subject, std::string("peer mlstm"));
  EXPECT_NEAR(report.rows.front().medianRate(), 1000.0, 1e-9);
  const std::string text = engine::formatBenchReport(report, "mrnn bench");
  EXPECT_MSG(
      text.find("engine mlstm train failed (exit 3): CUDA out of memory") != std::string::npos,
      text);
}

MRNN_TEST(suite_gives_the_peer_the_engines_blas_kernels_and_says_which_it_ran) {
  // A peer run as a user runs it gets OpenBLAS's own choice of kernels, generic ones
  // (Prescott) on a CPU it does not know, where mrnn relaunches itself with better ones: the
  // suite gives every child the engine's core and reports the one the peer's OpenBLAS named.
  const std::string core = engine::openBlasCoreName();
  if (core.empty()) MRNN_SKIP("LibTorch's BLAS here is not OpenBLAS");
  const std::string dir = "/tmp/mrnn-bench-kernels-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const auto script = [&](const std::string& name, const std::string& body) {
    return shellScript(dir + "/" + name, body);
  };
  const std::string measures =
      "[ \"$2\" = --help ] && exit 0\n"
      "echo 'mlstm hidden=8 batch=2 bptt=4 params=1 chars_per_s=1000'\n";
  engine::BenchSuiteOptions options;
  options.self = "/bin/true";
  options.peer = "/dev/null";
  options.cells.clear();
  options.measures = {engine::BenchMeasure::Train};
  options.torchLstm = false;
  options.repeats = 1;
  // As OpenBLAS does: with OPENBLAS_VERBOSE=2 it names the core it runs, the one it was given.
  options.python =
      script("python-given",
             "[ \"$OPENBLAS_VERBOSE\" = 2 ] && echo \"Core: $OPENBLAS_CORETYPE\" >&2\n" + measures);
  const auto same = engine::formatBenchReport(engine::runBenchSuite(options), "mrnn bench");
  EXPECT_MSG(same.find("Note: the Python peer ran OpenBLAS " + core +
                       " kernels, as the engine (OPENBLAS_CORETYPE=" + core +
                       " for every subject)") != std::string::npos,
             same);
  // A peer whose BLAS ignores the setting: the report says the ratio compares kernels too.
  options.python = script("python-generic", "echo 'Core: Prescott' >&2\n" + measures);
  const auto other = engine::formatBenchReport(engine::runBenchSuite(options), "mrnn bench");
  EXPECT_MSG(other.find("Note: the Python peer ran OpenBLAS Prescott kernels, the engine " +
                        core) != std::string::npos,
             other);
  EXPECT_MSG(other.find("/ peer compares BLAS kernels as well as code") != std::string::npos,
             other);
  // A peer whose BLAS names no core at all.
  options.python = script("python-silent", measures);
  const auto silent = engine::formatBenchReport(engine::runBenchSuite(options), "mrnn bench");
  EXPECT_MSG(silent.find("the Python peer's BLAS kernels are unknown") != std::string::npos,
             silent);
  std::filesystem::remove_all(dir);
}

MRNN_TEST(suite_leaves_out_a_peer_whose_python_lacks_torch) {
  // Debian's python3 without python3-torch: everything else is measured, the report says how
  // to add the peer, and nothing throws.
  engine::BenchSuiteOptions options;
  options.self = "/bin/true";
  options.torchLstm = false;
  options.cells.clear();
  options.peer = "/dev/null";
  for (const char* python : {"/bin/false", "/nonexistent/python3"}) {
    options.python = python;
    const engine::BenchReport report = engine::runBenchSuite(options);
    EXPECT(report.rows.empty());
    EXPECT_EQ(report.notes.size(), size_t{1});
    const std::string text = engine::formatBenchReport(report, "mrnn bench");
    EXPECT_MSG(text.find("Note: the Python peer is left out: `" + std::string(python) +
                         " /dev/null` cannot start") != std::string::npos,
               text);
    EXPECT_MSG(text.find("apt-get install python3-torch") != std::string::npos, text);
  }
}

MRNN_TEST(better_openblas_core_only_replaces_the_generic_fallback) {
  const engine::CpuVectorFeatures avx512{true, true}, avx2{true, false}, old{false, false};
  EXPECT_EQ(engine::betterOpenBlasCore("Prescott", avx512).value_or("-"), std::string("SkylakeX"));
  EXPECT_EQ(engine::betterOpenBlasCore("PRESCOTT", avx2).value_or("-"), std::string("Haswell"));
  EXPECT(!engine::betterOpenBlasCore("Prescott", old));
  EXPECT(!engine::betterOpenBlasCore("SkylakeX", avx512));
  EXPECT(!engine::betterOpenBlasCore("Haswell", avx512));
  EXPECT(!engine::betterOpenBlasCore("", avx512));  // not OpenBLAS
}

MRNN_TEST(busy_core_spins_while_it_lives) {
  pid_t pid = 0;
  {
    engine::BusyCore busy(0);
    pid = busy.pid();
    EXPECT(pid > 0);
    EXPECT_EQ(::kill(pid, 0), 0);  // running
    cpu_set_t set;
    CPU_ZERO(&set);
    ::usleep(50'000);  // the child pins itself first thing
    EXPECT_EQ(::sched_getaffinity(pid, sizeof set, &set), 0);
    EXPECT(CPU_ISSET(0, &set));
    EXPECT_EQ(CPU_COUNT(&set), 1);
  }
  EXPECT(::kill(pid, 0) != 0);  // ended and reaped
}

MRNN_TEST(contention_mode_measures_each_subject_idle_and_beside_a_busy_core) {
  // A stand-in peer whose rate is fixed: the rows and the report's columns are what is checked.
  const std::string python = "/tmp/mrnn-bench-python-busy-" + std::to_string(::getpid());
  {
    std::ofstream script(python);
    script << "#!/bin/sh\n[ \"$2\" = --help ] && exit 0\n"
              "echo 'mlstm hidden=8 batch=2 bptt=4 params=1 chars_per_s=1000'\n";
  }
  std::filesystem::permissions(python, std::filesystem::perms::owner_all);
  engine::BenchSuiteOptions options;
  options.self = "/bin/true";
  options.torchLstm = false;
  options.cells.clear();
  options.measures = {engine::BenchMeasure::Train};
  options.repeats = 1;
  options.peer = "/dev/null";
  options.python = python;
  options.contention = true;
  const engine::BenchReport report = engine::runBenchSuite(options);
  EXPECT_EQ(report.rows.size(), size_t{2});
  EXPECT_EQ(report.rows.at(0).subject, std::string("peer mlstm"));
  EXPECT(!report.rows.at(0).busy);
  EXPECT_EQ(report.rows.at(1).subject, std::string("peer mlstm") + engine::kBusySuffix);
  EXPECT(report.rows.at(1).busy);
  const std::string text = engine::formatBenchReport(report, "mrnn bench --contention");
  EXPECT_MSG(text.find("Contention:") != std::string::npos, text);
  EXPECT_MSG(text.find("| / torch::nn::LSTM | / idle |") != std::string::npos, text);
  // The busy row over its idle twin: 1000 / 1000.
  EXPECT_MSG(text.find("| peer mlstm · 1 core busy | 1,000 | 1,000 |  | ") != std::string::npos &&
                 text.find(" | 1.00 |\n") != std::string::npos,
             text);
  std::filesystem::remove(python);
}

MRNN_TEST(threads_beside_others_leave_their_processors_to_them) {
  EXPECT_EQ(engine::threadsBesideOthers(2, 0.0), 2);
  EXPECT_EQ(engine::threadsBesideOthers(2, 0.3), 2);   // a browser tab: keep both
  EXPECT_EQ(engine::threadsBesideOthers(2, 0.67), 1);  // a spinner sharing two cores with us
  EXPECT_EQ(engine::threadsBesideOthers(2, 1.0), 1);
  EXPECT_EQ(engine::threadsBesideOthers(2, 3.0), 1);  // never fewer than one
  EXPECT_EQ(engine::threadsBesideOthers(16, 4.4), 12);
  EXPECT_EQ(engine::threadsBesideOthers(4, -1.0), 4);
}

MRNN_TEST(the_thread_governor_sees_a_busy_core) {
  engine::ThreadGovernor governor(0.0);
  if (governor.processors() < 2) MRNN_SKIP("one processor: nothing to leave to others");
  engine::BusyCore busy(0);
  // Other tests may load the machine too: more busy is possible, less than the spinner not.
  const int threads = governor.measure(0.5);
  EXPECT_MSG(governor.othersBusy() > 0.7, "others busy " + std::to_string(governor.othersBusy()));
  EXPECT(threads < governor.processors());
  // Polled at once again (interval 0): a reading over the time since the last one.
  EXPECT(governor.poll().has_value());
}

MRNN_TEST(a_probe_told_to_follow_the_load_passes_it_on) {
  engine::BenchShape shape;
  shape.threads = engine::kFollowLoad;
  const auto argv = engine::probeCommand("mrnn", shape, engine::BenchMeasure::Train);
  bool found = false;
  for (size_t i = 0; i + 1 < argv.size(); ++i)
    found = found || (argv[i] == "--threads" && argv[i + 1] == "auto");
  EXPECT(found);
  shape.threads = 2;
  const auto fixed = engine::probeCommand("mrnn", shape, engine::BenchMeasure::Train);
  found = false;
  for (size_t i = 0; i + 1 < fixed.size(); ++i)
    found = found || (fixed[i] == "--threads" && fixed[i + 1] == "2");
  EXPECT(found);
}
