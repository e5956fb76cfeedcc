// `mrnn <command> --help`: each command's usage, every option it accepts with its default, and
// an example, kept as data so that every help has the same layout.
#include "command_help.h"

#include <algorithm>
#include <cstddef>
#include <sstream>

namespace mrnn::app {
namespace {

// Help is wrapped to a classic terminal's width. An option whose name and argument are wider
// than kWidestOptionColumn allows gets its description on the next line, so that one long
// name does not push every description to the right.
constexpr size_t kWidth = 80;
constexpr size_t kWidestOptionColumn = 30;

// One option of a command: "--name ARGUMENT   description".
struct OptionHelp {
  std::string name;         // without the leading "--"
  std::string argument;     // "N", "PATH"; empty for a flag
  std::string description;  // what it does and its default, in a few words
};

struct CommandHelp {
  std::vector<std::string> words;  // the command's words after "mrnn": {"runs", "list"}
  std::string brief;               // a few words for its group's list of subcommands
  std::string usage;               // as printed, "usage: mrnn ..." and its continuation lines
  std::string summary;             // one sentence, wrapped when printed
  // Every option the command accepts: this list must match the command's unknownOptions list
  // in app/cli/*_command.cpp (tests/cli/help_covers_options.sh checks that it names each).
  std::vector<OptionHelp> options;
  std::string example;  // one command line
};

// A word that only gathers subcommands ("runs", "analyze"): its help lists them.
struct GroupHelp {
  std::vector<std::string> words;
  std::string usage;
  std::string summary;
};

// Options several commands share, said alike everywhere.
OptionHelp runLine() {
  return {"run", "ID", "run ID's best, else latest, checkpoint; default the newest"};
}

OptionHelp checkpointLine() {
  return {"checkpoint", "PATH", "use this checkpoint file instead of a run's"};
}

OptionHelp deviceLine() {
  return {"device", "DEVICE", "where the model runs: cpu, cuda or cuda:N; default cpu"};
}

OptionHelp forceLine() {
  return {"force", "", "let --output replace any regular file, not only its own"};
}

OptionHelp experimentLine() {
  return {"experiment", "NAME", "the project's experiments/NAME.yaml; default its only one"};
}

// train, resume and eval.
std::vector<CommandHelp> trainingHelps() {
  return {
      {{"train"},
       "",
       "usage: mrnn train <project.yaml> [--max-steps N] [--epochs N] [--max-seconds S]\n"
       "                  [--threads N] [--nproc N] [--timeout SECONDS]\n"
       "                  [--device cpu|cuda|cuda:N]\n",
       "Trains a new run of the project, recorded in its runs.sqlite; Ctrl-C stops it after the "
       "current step with a checkpoint.",
       {{"max-steps", "N", "train for N steps; default the project's training.max_steps"},
        {"epochs", "N",
         "train for N epochs (alone: no step limit); default the project's training.epochs"},
        {"max-seconds", "S",
         "also end after S seconds of training; default the project's training.max_seconds (0: "
         "none)"},
        {"threads", "N", "threads; default the project's training.threads (0: follow the load)"},
        {"nproc", "N", "train data parallel on N ranks of this machine; default 1"},
        {"timeout", "SECONDS", "how long ranks wait for each other, 1 to 604800; default 60"},
        {"device", "DEVICE", "cpu, cuda or cuda:N; default the project's training.device"}},
       "mrnn train projects/tiny-shakespeare-mlstm/project.yaml --max-steps 500"},
      {{"resume"},
       "",
       "usage: mrnn resume <project.yaml> [--run ID | --checkpoint PATH] [--max-steps N]\n"
       "                   [--epochs N] [--max-seconds S] [--threads N] [--nproc N]\n"
       "                   [--timeout SECONDS] [--device cpu|cuda|cuda:N]\n",
       "Continues a run from its latest checkpoint with the settings it started with; only the "
       "device, threads and a new length come from here.",
       {{"run", "ID", "continue run ID; default the newest run that did not finish"},
        {"checkpoint", "PATH", "continue from this checkpoint file instead"},
        {"max-steps", "N", "a new length for the run, in steps; default the run's own"},
        {"epochs", "N", "a new length in epochs (alone: no step limit); default the run's own"},
        {"max-seconds", "S",
         "a time budget: end once the run has trained S seconds in all; default the run's "
         "own"},
        {"threads", "N", "threads; default the project's training.threads (0: follow the load)"},
        {"nproc", "N", "continue on N ranks of this machine; default 1"},
        {"timeout", "SECONDS", "how long ranks wait for each other, 1 to 604800; default 60"},
        {"device", "DEVICE", "cpu, cuda or cuda:N; default the project's training.device"}},
       "mrnn resume projects/tiny-shakespeare-mlstm/project.yaml --max-steps 2000"},
      {{"eval"},
       "",
       "usage: mrnn eval <project.yaml> [--run ID | --checkpoint PATH]\n"
       "                 [--split valid|test] [--dynamic] [--mc N] [--tune-temperature]\n"
       "                 [--max-symbols N] [--json] [--device cpu|cuda|cuda:N]\n",
       "Scores a trained model on the project's validation or test split: bits per symbol, "
       "perplexity and, on words, bits per word.",
       {runLine(),
        checkpointLine(),
        {"split", "valid|test", "the split to score; default test"},
        {"dynamic", "",
         "also dynamic evaluation; default the project's evaluation.dynamic.enabled"},
        {"mc", "N",
         "also MC dropout with N masks; default the project's evaluation.mc_samples (0: off)"},
        {"tune-temperature", "",
         "first tune the temperature on the validation split; default the project's "
         "evaluation.temperature.tune"},
        {"max-symbols", "N", "score only the split's first N symbols; default all"},
        {"json", "", "print JSON instead of the table"},
        deviceLine()},
       "mrnn eval projects/tiny-shakespeare-mlstm/project.yaml --split valid --dynamic"},
  };
}

// model describe and project set|unset: a project file's model and keys.
std::vector<CommandHelp> projectHelps() {
  return {
      {{"model", "describe"},
       "the layer table with parameter counts",
       "usage: mrnn model describe <project.yaml> [--vocab N]\n",
       "Prints the model's layer table (each block's widths and parameters) without training "
       "anything.",
       {{"vocab", "N", "the vocabulary size; default the project's (or its corpus's)"}},
       "mrnn model describe projects/tiny-shakespeare-mlstm/project.yaml"},
      {{"project", "set"},
       "set keys to YAML values",
       "usage: mrnn project set <project.yaml> KEY=VALUE [KEY=VALUE ...]\n",
       "Sets each KEY (a key path as experiment axes write it: model.layers[0].hidden_size) to "
       "VALUE, read as YAML, keeping the file's comments and layout; nothing is written unless the "
       "result is a valid project.",
       {},
       "mrnn project set projects/quick-mlstm/project.yaml training.optimizer.lr=0.001"},
      {{"project", "unset"},
       "remove keys, so that their defaults apply",
       "usage: mrnn project unset <project.yaml> KEY [KEY ...]\n",
       "Removes each KEY (a key path: training.clip_norm) from a project file, keeping its "
       "comments and layout; nothing is written unless the result is a valid project.",
       {},
       "mrnn project unset projects/quick-mlstm/project.yaml training.clip_norm"},
  };
}

// experiment plan|run|status|stop|table|trial.
std::vector<CommandHelp> experimentHelps() {
  return {
      {{"experiment", "plan"},
       "the trials, each with its parameter count",
       "usage: mrnn experiment plan <experiment.yaml | project folder>\n"
       "                            [--experiment NAME]\n",
       "Lists the experiment's trials and each one's parameter count, running nothing.",
       {experimentLine()},
       "mrnn experiment plan projects/long-range-problems/experiments/hf-vs-adam.yaml"},
      {{"experiment", "run"},
       "run (or resume) the queue until every trial is done",
       "usage: mrnn experiment run <experiment.yaml | project folder>\n"
       "                           [--experiment NAME] [--slots N] [--threads N]\n"
       "                           [--replan] [--retry-failed] [--executor local|slurm]\n",
       "Runs (or resumes) the experiment's queue until every trial is done; exit 0 all done, 1 "
       "some failed, 3 stopped, 4 already running.",
       {experimentLine(),
        {"slots", "N", "trials at once; default the experiment's slots, else one per core or GPU"},
        {"threads", "N", "threads per trial; default the experiment's threads, else cores / slots"},
        {"replan", "", "plan changed trials afresh; their old runs stay, with a note"},
        {"retry-failed", "",
         "train failed trials again, each from its run's last checkpoint (after a full disk, "
         "a kill)"},
        {"executor", "local|slurm",
         "where trials train; default the experiment's executor, else local"}},
       "mrnn experiment run projects/krause-hutter --experiment size-dropout-quick"},
      {{"experiment", "status"},
       "each trial's state, at once",
       "usage: mrnn experiment status <experiment.yaml | project folder>\n"
       "                              [--experiment NAME]\n",
       "Shows whether the queue runs and each trial's state (running with its step and ETA, "
       "stopped, done, failed), without planning.",
       {experimentLine()},
       "mrnn experiment status projects/long-range-problems"},
      {{"experiment", "stop"},
       "stop the queue; trials keep their checkpoints",
       "usage: mrnn experiment stop <experiment.yaml | project folder>\n"
       "                            [--experiment NAME]\n",
       "Stops the experiment's queue (or its Slurm jobs); each trial saves a checkpoint, and a "
       "later run goes on from there.",
       {experimentLine()},
       "mrnn experiment stop projects/long-range-problems"},
      {{"experiment", "table"},
       "the results, as text, CSV or JSON",
       "usage: mrnn experiment table <experiment.yaml | project folder>\n"
       "                             [--experiment NAME] [--format text|csv|json]\n"
       "                             [--output FILE] [--force]\n",
       "Prints the experiment's results: each configuration's metrics, mean and deviation over "
       "seeds, beside the file's references.",
       {experimentLine(),
        {"format", "text|csv|json", "the table's format; default text"},
        {"output", "FILE", "write the table to FILE instead of standard output"},
        forceLine()},
       "mrnn experiment table projects/long-range-problems --format csv"},
      {{"experiment", "trial"},
       "train one trial (the queue starts these)",
       "usage: mrnn experiment trial <experiment.yaml | project folder> --trial N\n"
       "                             [--threads N] [--run-folder DIR] [--exit-file FILE]\n"
       "                             [--experiment NAME]\n",
       "Trains one queued trial to its budget, as the queue starts it; exit 0 done, 1 failed, 3 "
       "stopped, 4 busy.",
       {{"trial", "N", "the trial's number, from 1; required"},
        {"threads", "N", "threads; default the trial's training.threads"},
        {"run-folder", "DIR", "Slurm: train in DIR as its ticket says, not in the project"},
        {"exit-file", "FILE",
         "Slurm: write the exit status to FILE however the trial ends (a new file, or one it wrote "
         "before)"},
        experimentLine()},
       "mrnn experiment trial projects/long-range-problems --trial 1"},
  };
}

// runs list|show|rename|note|recover|export.
std::vector<CommandHelp> runsHelps() {
  return {
      {{"runs", "list"},
       "the project's runs as a table",
       "usage: mrnn runs list <project-folder>\n",
       "Lists the project's runs: id, name, model, parameters, status, steps, best validation and "
       "test bits per symbol, duration.",
       {},
       "mrnn runs list projects/quick-mlstm"},
      {{"runs", "show"},
       "one run's record, checkpoints, metrics and config",
       "usage: mrnn runs show <project-folder> <run-id>\n",
       "Shows one run: its record, its checkpoints, the metrics it recorded and the configuration "
       "it trained with.",
       {},
       "mrnn runs show projects/quick-mlstm 3"},
      {{"runs", "rename"},
       "name a run",
       "usage: mrnn runs rename <project-folder> <run-id> <name>\n",
       "Gives a run a new name, even while it trains.",
       {},
       "mrnn runs rename projects/quick-mlstm 3 \"adam, lr 0.003\""},
      {{"runs", "note"},
       "set a run's note (\"\" removes it)",
       "usage: mrnn runs note <project-folder> <run-id> <text>\n",
       "Sets a run's note, even while it trains; an empty text (\"\") removes it.",
       {},
       "mrnn runs note projects/quick-mlstm 3 \"diverged after step 800\""},
      {{"runs", "recover"},
       "record runs a lost run database took, from their checkpoints",
       "usage: mrnn runs recover <project-folder> [--set-aside]\n",
       "Records each run whose folder under checkpoints/ holds a checkpoint but which the run "
       "database does not (it was deleted, moved aside, restored from an older copy): its "
       "project, model, step, training time, best validation and both checkpoints, from the "
       "files. Its curves were in the lost database. It resumes from its latest checkpoint. "
       "Nothing in the run folders changes.",
       {{"set-aside", "",
         "first move a run database that cannot be read to "
         "runs.sqlite.damaged-<time> (never over a file)"}},
       "mrnn runs recover projects/quick-mlstm --set-aside"},
      {{"runs", "export"},
       "the runs, or one run's metrics, as CSV or JSON",
       "usage: mrnn runs export <project-folder> [<run-id>] --format csv|json\n"
       "                        [--output FILE] [--force]\n",
       "Exports the project's runs table, or with a run id that run's recorded metrics, as CSV or "
       "JSON.",
       {{"format", "csv|json", "the format; required"},
        {"output", "FILE", "write to FILE instead of standard output"},
        forceLine()},
       "mrnn runs export projects/quick-mlstm 3 --format csv --output run-3.csv"},
  };
}

// sample, score and score debag.
std::vector<CommandHelp> samplingHelps() {
  return {
      {{"sample"},
       "",
       "usage: mrnn sample <project.yaml> [--run ID | --checkpoint PATH] [--prime TEXT]\n"
       "                   [--length N] [--temperature T] [--top-k K] [--top-p P]\n"
       "                   [--greedy] [--beam N] [--stop 'S1|S2'] [--completions N]\n"
       "                   [--seed S] [--clamp LAYER:UNIT:VALUE[,...]]\n"
       "                   [--alternatives N] [--threads N] [--json]\n"
       "                   [--device cpu|cuda|cuda:N]\n",
       "Generates text from a trained model, printed as it comes (with --json or --beam, at the "
       "end).",
       {runLine(),
        checkpointLine(),
        {"prime", "TEXT", "text read first ('\\n': a line break); default none"},
        {"length", "N", "symbols to generate per completion; default 200"},
        {"temperature", "T", "softmax temperature, 1e-06 to 1000; default 1"},
        {"top-k", "K", "sample among the K most probable symbols; default 0 (all)"},
        {"top-p", "P", "sample within the top P of the probability; default 1 (all)"},
        {"greedy", "", "always take the most probable symbol"},
        {"beam", "N", "beam search keeping the N best beams; default 0 (sampling)"},
        {"stop", "'S1|S2'", "end a completion right after any of these; default none"},
        {"completions", "N", "independent completions of the prime; default 1"},
        {"seed", "S", "the random seed; default 1"},
        {"clamp", "L:U:V,...", "hold unit U (from 0) of layer L (from 1) at value V"},
        {"alternatives", "N", "--json, --beam: top N symbols at each position; default 5"},
        {"threads", "N", "threads; default the project's training.threads"},
        {"json", "", "print completions with per-symbol probabilities as JSON"},
        deviceLine()},
       "mrnn sample projects/tiny-shakespeare-mlstm/project.yaml --prime \"ROMEO:\""},
      {{"score"},
       "",
       "usage: mrnn score <project.yaml> [--run ID | --checkpoint PATH]\n"
       "                  (--text TEXT | --file F) [--context TEXT] [--json | --csv]\n"
       "                  [--device cpu|cuda|cuda:N]\n",
       "Scores a text with a trained model: its log-probability and each symbol's surprisal in "
       "bits.",
       {runLine(),
        checkpointLine(),
        {"text", "TEXT", "the text to score (this or --file)"},
        {"file", "F", "score the text in file F"},
        {"context", "TEXT", "text read first and not scored; default none"},
        {"json", "", "print JSON instead of the table"},
        {"csv", "", "print CSV: position,id,symbol,bits,probability,rank"},
        deviceLine()},
       "mrnn score projects/quick-mlstm/project.yaml --file speech.txt --csv"},
      {{"score", "debag"},
       "rank the orderings of a bag of words",
       "usage: mrnn score debag <project.yaml> [--run ID | --checkpoint PATH]\n"
       "                        --left TEXT --bag \"w1 w2 ...\" [--right TEXT] [--beam N]\n"
       "                        [--top N] [--json | --csv] [--device cpu|cuda|cuda:N]\n",
       "Ranks the orderings of a bag of words between two contexts by log-probability, with the "
       "true order's rank (Sutskever et al. 5.4).",
       {runLine(),
        checkpointLine(),
        {"left", "TEXT", "the text before the words; required"},
        {"bag", "'W1 W2 ...'", "the words, in their true order; required"},
        {"right", "TEXT", "the text after the words; default none"},
        {"beam", "N", "bags over 7 words: keep the N best orders; default 100"},
        {"top", "N", "orderings listed; default 10, all with --json or --csv"},
        {"json", "", "print JSON instead of the table"},
        {"csv", "", "print CSV instead of the table"},
        deviceLine()},
       "mrnn score debag projects/quick-mlstm/project.yaml --left \"I \" --bag \"will go\""},
  };
}

// analyze recovery and analyze mask (scoring_command.cpp).
std::vector<CommandHelp> scoringAnalysisHelps() {
  return {
      {{"analyze", "recovery"},
       "the loss after surprising symbols (Krause et al.)",
       "usage: mrnn analyze recovery <project.yaml>[,<project2.yaml>...] --file F\n"
       "                             [--run ID | --checkpoint PATH] [--top 0.1]\n"
       "                             [--offsets 4] [--json | --csv]\n"
       "                             [--device cpu|cuda|cuda:N]\n",
       "How fast models recover from surprise (Krause et al. 4.2): the mean loss at a text's most "
       "surprising positions and at +1..+K after.",
       {{"file", "F", "the text to read; required"},
        {"run", "ID", "with one project: the run to use; default the newest"},
        {"checkpoint", "PATH", "with one project: use this checkpoint file instead"},
        {"top", "SHARE", "the share of positions counted as surprising; default 0.1"},
        {"offsets", "K", "report the loss at +1..+K after each; default 4"},
        {"json", "", "print JSON instead of the table"},
        {"csv", "", "print CSV instead of the table"},
        deviceLine()},
       "mrnn analyze recovery projects/quick-mlstm/project.yaml --file speech.txt"},
      {{"analyze", "mask"},
       "perplexity with output features masked (Shuang et al.)",
       "usage: mrnn analyze mask <project.yaml> [--run ID | --checkpoint PATH] --file F\n"
       "                         [--layer N|all] [--p-max 0.5] [--p-step 0.05]\n"
       "                         [--runs 5] [--seed S] [--json | --csv]\n"
       "                         [--device cpu|cuda|cuda:N]\n",
       "Perplexity on a text as a share P of a layer's output features is zeroed, averaged over "
       "runs (Shuang et al. V-C).",
       {runLine(),
        checkpointLine(),
        {"file", "F", "the text to read; required"},
        {"layer", "N|all", "layer N (from 1), or all at once; default each, then all"},
        {"p-max", "P", "the largest share masked; default 0.5"},
        {"p-step", "P", "the step between shares; default 0.05"},
        {"runs", "R", "evaluations per share, each with its own masks; default 5"},
        {"seed", "S", "the masks' random seed; default 1"},
        {"json", "", "print JSON instead of CSV"},
        {"csv", "", "print CSV (the default)"},
        deviceLine()},
       "mrnn analyze mask projects/quick-mlstm/project.yaml --file speech.txt --runs 3"},
  };
}

// analyze gates and analyze tree (probing_command.cpp).
std::vector<CommandHelp> probingAnalysisHelps() {
  return {
      {{"analyze", "gates"},
       "every gate of every layer over a text (Melis et al.)",
       "usage: mrnn analyze gates <project.yaml> [--run ID | --checkpoint PATH]\n"
       "                          (--text TEXT | --file F) [--float16] [--json | --csv]\n"
       "                          [--output FILE] [--force] [--device cpu|cuda|cuda:N]\n",
       "Records every gate and state of every layer at every step of a text, with each one's mean, "
       "variance and share saturated (Melis et al. 4.4).",
       {runLine(),
        checkpointLine(),
        {"text", "TEXT", "the text to read (this or --file)"},
        {"file", "F", "read the text in file F"},
        {"float16", "", "keep the traces as float16 (statistics stay float32)"},
        {"json", "", "print the statistics and every trace as JSON"},
        {"csv", "", "print every traced value as CSV, one a row"},
        {"output", "FILE", "write to FILE instead of standard output"},
        forceLine(),
        deviceLine()},
       "mrnn analyze gates projects/quick-mlstm/project.yaml --file speech.txt --json"},
      {{"analyze", "tree"},
       "the tree of continuations of a context",
       "usage: mrnn analyze tree <project.yaml> [--run ID | --checkpoint PATH]\n"
       "                         [--compare <project2.yaml>] --context TEXT [--depth 2]\n"
       "                         [--first-k 64] [--top-k 10] [--mass 0.9] [--all-layers]\n"
       "                         [--max-nodes N] [--json | --csv] [--output FILE]\n"
       "                         [--force] [--device cpu|cuda|cuda:N]\n",
       "Expands the tree of continuations of a context and measures how far apart sibling hidden "
       "states lie at each depth.",
       {runLine(),
        checkpointLine(),
        {"compare", "PROJECT", "also expand with this project's newest run"},
        {"context", "TEXT", "the text to continue; required"},
        {"depth", "D", "levels to expand; default 2"},
        {"first-k", "K", "depth 1: the K most probable symbols; default 64"},
        {"top-k", "K", "deeper: at most K children a node; default 10"},
        {"mass", "M", "...and stop once they hold M of the probability; default 0.9"},
        {"all-layers", "", "every layer's hidden state, not only the top one's"},
        {"max-nodes", "N", "refuse trees of more than N nodes; default 200000"},
        {"json", "", "print every node, with its hidden state, as JSON"},
        {"csv", "", "print the spread at each depth as CSV"},
        {"output", "FILE", "write to FILE instead of standard output"},
        forceLine(),
        deviceLine()},
       "mrnn analyze tree projects/quick-mlstm/project.yaml --context \"The \" --depth 3"},
  };
}

// analyze copy and data copy: the reverse copy task.
std::vector<CommandHelp> copyHelps() {
  return {
      {{"analyze", "copy"},
       "reverse copy scores per output position (Melis et al.)",
       "usage: mrnn analyze copy <project.yaml>[,<project2.yaml>...]\n"
       "                         [--run ID | --checkpoint PATH] [--length L]\n"
       "                         [--examples N] [--seed S] [--batch B] [--json [FILE]]\n"
       "                         [--csv [FILE]] [--force] [--device cpu|cuda|cuda:N]\n",
       "Scores reverse copy models on fresh examples: bits per copied token, accuracy and the "
       "share copied exactly, per output position too (Melis et al. 4.3).",
       {{"run", "ID", "with one project: the run to use; default the newest"},
        {"checkpoint", "PATH", "with one project: use this checkpoint file instead"},
        {"length", "L", "tokens to copy; default the first project's data.copy.length"},
        {"examples", "N", "fresh examples; default its data.copy.test_examples"},
        {"seed", "S", "the examples' seed; default its data.copy.seed"},
        {"batch", "B", "examples run side by side; default 64"},
        {"json", "[FILE]", "print JSON, not the table; with FILE, write it there too"},
        {"csv", "[FILE]", "print CSV, not the table; with FILE, write it there too"},
        {"force", "", "let --json FILE and --csv FILE replace any regular file"},
        deviceLine()},
       "mrnn analyze copy projects/reverse-copy/project.yaml --length 40"},
      {{"data", "copy"},
       "the reverse copy task's splits as text files",
       "usage: mrnn data copy [<project.yaml>] --output DIR [--vocabulary V]\n"
       "                      [--length L] [--train-examples N] [--valid-examples N]\n"
       "                      [--test-examples N] [--seed S] [--force]\n",
       "Writes the reverse copy task's splits as train.txt, valid.txt, test.txt and vocab.txt, "
       "from a project's data.copy settings or the defaults.",
       {{"output", "DIR", "the folder to write; required"},
        {"vocabulary", "V", "content tokens; default the project's, else 1000"},
        {"length", "L", "tokens per example; default the project's, else 50"},
        {"train-examples", "N", "training examples; default the project's, else 500000"},
        {"valid-examples", "N", "validation examples; default the project's, else 10000"},
        {"test-examples", "N", "test examples; default the project's, else 10000"},
        {"seed", "S", "the splits' seed; default the project's, else 1"},
        {"force", "", "replace any regular file in DIR"}},
       "mrnn data copy projects/reverse-copy/project.yaml --output copy-splits"},
  };
}

// export and import: models in and out of PyTorch.
std::vector<CommandHelp> interopHelps() {
  return {
      {{"export"},
       "",
       "usage: mrnn export (<project.yaml> [--run ID | --checkpoint PATH] | CHECKPOINT)\n"
       "                   --output FILE [--format pt|safetensors] [--force]\n",
       "Writes a trained model as a file PyTorch reads: a state dict with FILE.json beside it, or "
       "safetensors (docs/interop.md).",
       {runLine(),
        {"checkpoint", "PATH", "export this checkpoint file instead of a run's"},
        {"output", "FILE", "the file to write; required"},
        {"format", "pt|safetensors", "default safetensors for FILE.safetensors, else pt"},
        {"force", "", "replace any regular file, not only one mrnn export wrote"}},
       "mrnn export projects/quick-mlstm/project.yaml --output quick.pt"},
      {{"import"},
       "",
       "usage: mrnn import FILE --project <project.yaml>\n"
       "                   [--vocabulary SYMBOLS | --corpus TEXT]\n"
       "                   [--level word|char|byte] [--mapping MAP.yaml] [--name NAME]\n",
       "Adds a PyTorch language model (an embedding, LSTM, GRU or RNN layers and a linear decoder) "
       "to a "
       "project as a finished run; a file mrnn export wrote carries its vocabulary, others need "
       "--vocabulary or --corpus.",
       {{"project", "<project.yaml>", "the project the run joins; required"},
        {"vocabulary", "SYMBOLS", "a file of one symbol a line, the line number its id"},
        {"corpus", "TEXT", "number this corpus's symbols by first appearance"},
        {"level", "word|char|byte",
         "the model's input level; default the project's model.input.level"},
        {"mapping", "MAP.yaml", "names the embedding, rnn, decoder; default by shape"},
        {"name", "NAME", "the run's name; default 'imported <file>'"}},
       "mrnn import lm.pt --project projects/quick-mlstm/project.yaml --corpus lm.txt"},
  };
}

// bench.
std::vector<CommandHelp> benchHelps() {
  return {
      {{"bench"},
       "",
       "usage: mrnn bench [--cells C,...] [--measures M,...] [--hidden N] [--repeats N]\n"
       "                  [--threads N|auto] [--device cpu|cuda|cuda:N] [OPTION ...]\n",
       "Measures the speed of the engine's cells beside torch::nn::LSTM and a Python peer, each "
       "subject in a process of its own (docs/performance.md).",
       {{"cells", "C,...", "cell types to measure; default mlstm,lstm"},
        {"measures", "M,...", "train, eval, sample, score, curvature; default train,eval,sample"},
        {"hidden", "N", "hidden size; default 512"},
        {"emb", "N", "embedding size; default 64"},
        {"batch", "N", "batch size; default 32"},
        {"bptt", "N", "window length; default 100"},
        {"vocab", "N", "vocabulary size; default 128"},
        {"steps", "N", "timed training and evaluation windows; default 10"},
        {"sample-length", "N", "timed sampled symbols; default 2000"},
        {"repeats", "N", "rounds, 1 to 1000; default 3"},
        {"threads", "N|auto", "threads (auto: follow the load); default every processor"},
        {"device", "DEVICE", "cpu, cuda or cuda:N; default cpu"},
        {"precision", "P,...", "fp32, bf16 (CUDA only) or both; default fp32"},
        {"mogrifier-rounds", "R", "the Mogrifier's rounds, 0 to 32; default 5"},
        {"mogrifier-rank", "K", "the Mogrifier's rank (0: full); default 40"},
        {"peer", "PATH|none", "the Python peer; default ../shared/bench/peer_mlstm.py"},
        {"python", "P", "what runs the peer; default /usr/bin/python3"},
        {"no-torch-lstm", "", "leave torch::nn::LSTM out"},
        {"markdown", "FILE", "also write the report to FILE (a report written before, or new)"},
        {"force", "", "let --markdown replace any regular file"},
        {"probe", "MEASURE", "measure one subject here (what the suite's children do)"},
        {"contention", "", "also measure each subject with one core kept busy"}},
       "mrnn bench --cells mlstm,lstm --hidden 128 --repeats 5 --threads 2"},
  };
}

// The command words that only gather subcommands.
std::vector<GroupHelp> groupHelps() {
  return {
      {{"model"},
       "usage: mrnn model describe <project.yaml> [--vocab N]\n",
       "Looks at a project's model without training it."},
      {{"project"},
       "usage: mrnn project set|unset <project.yaml> KEY[=VALUE] ...\n",
       "Edits keys of a project file, keeping its comments, order and layout."},
      {{"experiment"},
       "usage: mrnn experiment plan|run|status|stop|table\n"
       "                       <experiment.yaml | project folder> [OPTION ...]\n",
       "A grid, random or successive-halving search over a project's settings, run as a queue of "
       "trials that survives kills and reboots (docs/experiments.md)."},
      {{"runs"},
       "usage: mrnn runs list|show|rename|note|recover|export <project-folder> [<run-id>] ...\n",
       "Reads and annotates the runs a project records in its runs.sqlite."},
      {{"analyze"},
       "usage: mrnn analyze recovery|mask|gates|tree|copy <project.yaml> ...\n",
       "Analyses of trained models from the papers the workbench follows (docs/analysis.md)."},
      {{"data"},
       "usage: mrnn data copy [<project.yaml>] --output DIR ...\n",
       "Writes generated data as text files, for use elsewhere."},
  };
}

std::vector<CommandHelp> allCommands() {
  std::vector<CommandHelp> all;
  for (const auto& part : {trainingHelps(), projectHelps(), experimentHelps(), runsHelps(),
                           samplingHelps(), scoringAnalysisHelps(), probingAnalysisHelps(),
                           copyHelps(), interopHelps(), benchHelps()}) {
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

// `text` in lines of at most kWidth columns, each line after the first indented to `indent`;
// the first starts at column `indent` too (the caller has printed what comes before it).
std::string wrapped(const std::string& text, size_t indent) {
  std::istringstream words(text);
  std::string out;
  size_t column = indent;
  bool lineStarted = false;
  for (std::string word; words >> word;) {
    if (lineStarted && column + 1 + word.size() > kWidth) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
      lineStarted = false;
    }
    if (lineStarted) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    lineStarted = true;
  }
  return out + "\n";
}

// The options as aligned lines: names in one column, descriptions in the next.
std::string optionLines(const std::vector<OptionHelp>& options) {
  std::vector<std::string> labels;
  size_t column = 0;
  for (const OptionHelp& option : options) {
    labels.push_back("  --" + option.name +
                     (option.argument.empty() ? std::string() : " " + option.argument));
    column = std::max(column, labels.back().size() + 2);
  }
  column = std::min(column, kWidestOptionColumn);
  std::string out;
  for (size_t i = 0; i < options.size(); ++i) {
    out += labels[i];
    if (labels[i].size() + 2 <= column) {
      out += std::string(column - labels[i].size(), ' ');
    } else {
      out += "\n" + std::string(column, ' ');
    }
    out += wrapped(options[i].description, column);
  }
  return out;
}

// The commands one word longer than `words` that start with them, a line each; "" for none.
std::string subcommandLines(const std::vector<std::string>& words,
                            const std::vector<CommandHelp>& commands) {
  std::vector<const CommandHelp*> subcommands;
  size_t column = 0;
  for (const CommandHelp& command : commands) {
    if (command.words.size() == words.size() + 1 &&
        std::equal(words.begin(), words.end(), command.words.begin())) {
      subcommands.push_back(&command);
      column = std::max(column, command.words.back().size() + 5);
    }
  }
  std::string out;
  for (const CommandHelp* command : subcommands) {
    const std::string label = "  " + command->words.back();
    out += label + std::string(column - label.size(), ' ') + wrapped(command->brief, column);
  }
  return out;
}

std::string commandText(const CommandHelp& command, const std::vector<CommandHelp>& commands) {
  std::string out = command.usage + "\n" + wrapped(command.summary, 0) + "\n";
  out += command.options.empty() ? "options: none\n" : "options:\n" + optionLines(command.options);
  const std::string subcommands = subcommandLines(command.words, commands);
  if (!subcommands.empty()) out += "\nsubcommands:\n" + subcommands;
  return out + "\nexample:\n  " + command.example + "\n";
}

std::string groupText(const GroupHelp& group, const std::vector<CommandHelp>& commands) {
  std::string name;
  for (const std::string& word : group.words) name += (name.empty() ? "" : " ") + word;
  return group.usage + "\n" + wrapped(group.summary, 0) + "\nsubcommands:\n" +
         subcommandLines(group.words, commands) + "\n" +
         wrapped(
             "'mrnn " + name + " SUBCOMMAND --help' gives a subcommand's options and an example.",
             0);
}

}  // namespace

std::string commandHelp(const std::vector<std::string>& words) {
  const std::vector<CommandHelp> commands = allCommands();
  const std::vector<GroupHelp> groups = groupHelps();
  // The longest command or group that `words` start with: what follows it (a project, a run
  // id) does not change which help is meant.
  const auto startsWords = [&words](const std::vector<std::string>& prefix) {
    return prefix.size() <= words.size() && std::equal(prefix.begin(), prefix.end(), words.begin());
  };
  const CommandHelp* command = nullptr;
  for (const CommandHelp& candidate : commands) {
    if (startsWords(candidate.words) &&
        (command == nullptr || candidate.words.size() > command->words.size())) {
      command = &candidate;
    }
  }
  const GroupHelp* group = nullptr;
  for (const GroupHelp& candidate : groups) {
    if (startsWords(candidate.words) &&
        (group == nullptr || candidate.words.size() > group->words.size())) {
      group = &candidate;
    }
  }
  if (command != nullptr && (group == nullptr || command->words.size() >= group->words.size())) {
    return commandText(*command, commands);
  }
  return group != nullptr ? groupText(*group, commands) : "";
}

}  // namespace mrnn::app
