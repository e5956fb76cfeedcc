// mrnn-bench-sample: generation symbols/s of one engine model through engine::Sampler, in
// the shape of `../shared/bench/peer_mlstm.py --sample N` (embedding -> one recurrent layer
// -> softmax, batch 1, temperature 1, one symbol at a time), so the two can run side by
// side. Unlike the peer it also reports the top alternatives of every position (--alternatives,
// default 5, as `mrnn sample` does). Prints one line ending in symbols_per_s=N, like the peer.

#include <torch/torch.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>

#include "engine/bench/bench_model.h"
#include "engine/inference/single_stream_model.h"
#include "engine/kernels/vector_kernels.h"
#include "engine/models/language_model.h"
#include "engine/runtime/blas_kernels.h"
#include "engine/sampling/sampler.h"

namespace {

std::map<std::string, std::string> parse(int argc, char** argv) {
  std::map<std::string, std::string> options{
      {"cell", "mlstm"},     {"hidden", "512"},  {"emb", "64"},
      {"vocab", "128"},      {"sample", "2000"}, {"threads", "0"},
      {"alternatives", "5"}, {"path", "fast"},   {"kernels", "best"}};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    if (key.rfind("--", 0) != 0 || !options.count(key.substr(2))) {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      std::exit(2);
    }
    options[key.substr(2)] = argv[i + 1];
  }
  return options;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

int main(int argc, char** argv) {
  mrnn::engine::relaunchWithBetterBlasKernels(argv);
  auto o = parse(argc, argv);
  if (std::stoi(o["threads"]) > 0) torch::set_num_threads(std::stoi(o["threads"]));
  mrnn::engine::BenchShape shape;
  shape.cell = o["cell"];
  shape.hidden = std::stoll(o["hidden"]);
  shape.embedding = std::stoll(o["emb"]);
  mrnn::engine::ModelConfig config;
  try {
    config = mrnn::engine::benchModelConfig(shape);
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 2;
  }
  const auto vocabulary = mrnn::engine::benchVocabulary(std::stoll(o["vocab"]));
  mrnn::engine::LanguageModel model(config, vocabulary.size());
  model.eval();
  const std::string path = o["path"];
  if (path != "fast" && path != "generic") {
    std::fprintf(stderr, "--path is fast or generic, not '%s'\n", path.c_str());
    return 2;
  }
  if (o["kernels"] != "best") {
    bool known = false;
    for (auto isa : {mrnn::engine::KernelIsa::Scalar, mrnn::engine::KernelIsa::Avx2,
                     mrnn::engine::KernelIsa::Avx512}) {
      if (o["kernels"] != mrnn::engine::kernelIsaName(isa)) continue;
      known = true;
      if (!mrnn::engine::kernelIsaSupported(isa)) {
        std::fprintf(stderr, "this CPU cannot run the %s kernels\n", o["kernels"].c_str());
        return 2;
      }
      mrnn::engine::setKernelIsa(isa);
    }
    if (!known) {
      std::fprintf(stderr, "--kernels is best, scalar, avx2 or avx512\n");
      return 2;
    }
  }
  mrnn::engine::Sampler sampler(model, vocabulary);
  sampler.setFastPath(path == "fast");

  // What a generate() call pays once on the fast path: the copy, and the staleness check.
  double copyMs = 0.0, checkMs = 0.0;
  {
    torch::NoGradGuard noGrad;
    auto start = std::chrono::steady_clock::now();
    mrnn::engine::SingleStreamModel copy(model);
    copyMs = millisecondsSince(start);
    start = std::chrono::steady_clock::now();
    const bool current = copy.isCurrent(model);
    checkMs = millisecondsSince(start);
    if (!current) std::fprintf(stderr, "the fresh copy is not current\n");
  }

  mrnn::engine::SamplingOptions options;
  options.alternatives = std::stoll(o["alternatives"]);
  options.maxLength = 20;
  sampler.generate(options);  // warm-up: first-call allocations and thread-pool start
  options.maxLength = std::stoll(o["sample"]);
  const auto start = std::chrono::steady_clock::now();
  const auto completions = sampler.generate(options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "%s hidden=%s alternatives=%s path=%s kernels=%s threads=%d copy_ms=%.2f check_ms=%.2f "
      "sample symbols_per_s=%.0f\n",
      o["cell"].c_str(), o["hidden"].c_str(), o["alternatives"].c_str(), path.c_str(),
      path == "fast" ? mrnn::engine::kernelIsaName(mrnn::engine::activeKernelIsa()) : "torch",
      torch::get_num_threads(), copyMs, checkMs,
      static_cast<double>(completions.front().symbols.size()) / seconds);
  return 0;
}
