// mrnn: the workbench's engine on the command line (also on GPU machines without Qt).
#include <exception>
#include <iostream>
#include <string>

#include "bench_command.h"
#include "command_help.h"
#include "command_line.h"
#include "copy_command.h"
#include "engine/runtime/allocation_policy.h"
#include "engine/runtime/blas_kernels.h"
#include "engine/store/text_format.h"
#include "engine/training/library_error_text.h"
#include "eval_command.h"
#include "experiment_command.h"
#include "interop_command.h"
#include "model_describe_command.h"
#include "option_values.h"
#include "probing_command.h"
#include "project_command.h"
#include "runs_command.h"
#include "sampling_command.h"
#include "scoring_command.h"
#include "stop_signals.h"
#include "train_command.h"

namespace {

void printUsage(std::ostream& out) {
  out << "mrnn " MRNN_VERSION
         " - multiplicative recurrent language models\n\n"
         "usage:\n"
         "  mrnn model describe <project.yaml> [--vocab N]   layer table with parameter counts\n"
         "  mrnn project set <project.yaml> KEY=VALUE ...   edit keys, comments and layout kept\n"
         "  mrnn project unset <project.yaml> KEY ...\n"
         "  mrnn train <project.yaml> [--max-steps N] [--epochs N] [--threads N]\n"
         "  mrnn resume <project.yaml> [--run ID | --checkpoint PATH] [--max-steps N] [--epochs "
         "N]\n"
         "  mrnn eval <project.yaml> [--run ID | --checkpoint PATH] [--split valid|test]\n"
         "            [--dynamic] [--mc N] [--tune-temperature] [--max-symbols N] [--json]\n"
         "  mrnn experiment plan|run|status|stop|table <experiment.yaml>   (docs/experiments.md)\n"
         "  mrnn runs list|show|export <project-folder> [run-id] [--format csv|json] [--output F]\n"
         "  mrnn runs rename|note <project-folder> <run-id> <text>\n"
         "  mrnn runs recover <project-folder> [--set-aside]   runs back from their checkpoints\n"
         "  mrnn sample <project.yaml> [--run ID | --checkpoint PATH] [--prime TEXT] [--length N]\n"
         "              [--temperature T] [--top-k K] [--top-p P] [--greedy] [--beam N]\n"
         "              [--stop 'S1|S2'] [--completions N] [--seed S] [--clamp L:U:V] [--json]\n"
         "  mrnn score <project.yaml> (--text T | --file F) [--json|--csv]\n"
         "  mrnn score debag <project.yaml> --left T --bag 'w1 w2 ...' --right T [--beam N]\n"
         "  mrnn analyze recovery|mask|gates|tree|copy <project.yaml> ...   (docs/analysis.md)\n"
         "    eval, sample, score and analyze take --device cpu|cuda|cuda:N (default cpu)\n"
         "  mrnn export <project.yaml> [--run ID] --output FILE[.safetensors]   for PyTorch\n"
         "  mrnn import FILE --project <project.yaml> (--vocabulary F | --corpus F)   a PyTorch "
         "LM as a run\n"
         "  mrnn data copy [<project.yaml>] --output DIR   reverse copy splits as text files\n"
         "  mrnn bench [--cells mlstm,lstm] [--hidden N] [--repeats N] ...   "
         "(docs/performance.md)\n"
         "  mrnn <command> --help   the command's options, their defaults and an example\n"
         "  mrnn --help | --version\n";
}

}  // namespace

int main(int argc, char** argv) {
  mrnn::app::StopSignals::restoreIgnoredInterrupt();
  const mrnn::app::CommandLine args(argc, argv);
  const auto& words = args.positional();
  // Re-executing costs a second start of LibTorch (~0.7 s): only commands that compute pay it.
  const bool computes = !words.empty() && words[0] != "model" && words[0] != "runs" &&
                        words[0] != "project" &&
                        (words[0] != "experiment" || (words.size() > 1 && words[1] == "trial")) &&
                        !args.has("version") && !args.has("help");
  if (computes) {
    mrnn::engine::relaunchWithBetterBlasKernels(argv);
    mrnn::engine::keepFreedMemoryForReuse();
  }
  if (args.has("version")) {
    std::cout << "mrnn " MRNN_VERSION "\n";
    return 0;
  }
  // `mrnn <command> --help`: that command's own help; a command it does not know is a usage
  // error, as it would be without --help.
  if (args.has("help") && !words.empty()) {
    const std::string help = mrnn::app::commandHelp(words);
    if (help.empty()) {
      std::cerr << "mrnn: unknown command '" << words[0] << "'\n";
      printUsage(std::cerr);
      return 2;
    }
    std::cout << help;
    return 0;
  }
  if (words.empty()) {
    printUsage(args.has("help") ? std::cout : std::cerr);
    return args.has("help") ? 0 : 2;
  }
  try {
    if (words.size() >= 2 && words[0] == "model" && words[1] == "describe") {
      return mrnn::app::runModelDescribe(args, std::cout, std::cerr);
    }
    if (words[0] == "train" || words[0] == "resume") {
      return mrnn::app::runTrain(args, words[0] == "resume", std::cout, std::cerr);
    }
    if (words[0] == "experiment") {
      return mrnn::app::runExperimentCommand(args, std::cout, std::cerr);
    }
    if (words[0] == "project") return mrnn::app::runProjectCommand(args, std::cout, std::cerr);
    if (words[0] == "export") return mrnn::app::runExportCommand(args, std::cout, std::cerr);
    if (words[0] == "import") return mrnn::app::runImportCommand(args, std::cout, std::cerr);
    if (words[0] == "eval") return mrnn::app::runEval(args, std::cout, std::cerr);
    if (words[0] == "bench") return mrnn::app::runBench(args, std::cout, std::cerr);
    if (words[0] == "runs") return mrnn::app::runRunsCommand(args, std::cout, std::cerr);
    if (words[0] == "sample") return mrnn::app::runSampleCommand(args, std::cout, std::cerr);
    if (words[0] == "score") return mrnn::app::runScoreCommand(args, std::cout, std::cerr);
    if (words[0] == "analyze" && words.size() >= 2 &&
        (words[1] == "recovery" || words[1] == "mask")) {
      return mrnn::app::runScoringAnalysis(args, std::cout, std::cerr);
    }
    if (words[0] == "analyze" && words.size() >= 2 && (words[1] == "gates" || words[1] == "tree")) {
      return mrnn::app::runProbingAnalysis(args, std::cout, std::cerr);
    }
    if (words[0] == "analyze" && words.size() >= 2 && words[1] == "copy") {
      return mrnn::app::runCopyAnalysis(args, std::cout, std::cerr);
    }
    if (words[0] == "data" && words.size() >= 2 && words[1] == "copy") {
      return mrnn::app::runDataCopy(args, std::cout, std::cerr);
    }
  } catch (const mrnn::app::UsageError& error) {
    std::cerr << "mrnn: " << mrnn::engine::terminalText(error.what(), true) << "\n";
    return 2;
  } catch (const std::exception& error) {
    // Commands report expected failures themselves; this keeps anything else a message.
    // File names in a message are the user's: printed so that none can drive the terminal.
    std::cerr << "mrnn: " << mrnn::engine::terminalText(mrnn::engine::libraryErrorText(error), true)
              << "\n";
    return 1;
  }
  std::cerr << "mrnn: unknown command '" << words[0] << (words.size() > 1 ? " " + words[1] : "")
            << "'\n";
  printUsage(std::cerr);
  return 2;
}
