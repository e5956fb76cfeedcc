#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace YAML {
class Node;
class Emitter;
}  // namespace YAML

namespace mrnn::engine {

class YamlReader;

// How corpus files are read (the symbol level itself is model.input.level).
enum class CorpusFormat {
  Auto,     // from the file name: ptb.char.* -> PtbChar, ptb.* / wiki.*.tokens -> Tokens, else Text
  Text,     // plain UTF-8 text; word level splits on whitespace, <eos> at each line end
  PtbChar,  // Mikolov's PTB characters: symbols separated by spaces, '_' is a space
  Tokens,   // PTB / WikiText token files: whitespace tokens, <eos> per line, <unk> present
  Raw,      // raw bytes (text8, enwik8): no decoding, any byte allowed
};

// Where the vocabulary comes from (`data.vocabulary`).
enum class VocabularySource {
  Auto,      // char level: All; word level: Train (its vocabulary has <unk>); bytes: 256
  All,       // the symbols of every split, as char-rnn does: a rare held-out symbol is fine
  Train,     // the training split's only; another symbol in valid or test is an error
  TrainUnk,  // the training split's and <unk>, which held-out symbols it lacks are read as
};

// A data set generated in memory instead of read from files (`data.synthetic`).
enum class SyntheticTask {
  None,         // corpus files
  ReverseCopy,  // Melis et al. 2019 §4.3: read L tokens and a marker, then write them reversed
  // Martens & Sutskever's (2011) long-range problems, after Hochreiter & Schmidhuber (1997):
  // independent sequences of length T (data.problem), each read from the initial state.
  Addition,           // add the two marked numbers of a stream of U(0, 1) values (real target)
  TemporalOrder2,     // the order of two X/Y symbols among noise: 4 classes
  TemporalOrder3,     // of three: 8 classes
  RandomPermutation,  // predict the first of T symbols (one of two) at the end
  Memorization5,      // recall 5 binary symbols after T steps
  Memorization20,     // recall 10 symbols of 5 values (about 20 bits) after T steps
  Multiplication,     // multiply the two marked numbers of a stream of U(0, 1) values (real)
  Xor,                // XOR of the two marked bits of a stream of random bits (2 classes)
};

// `data.problem`: the size of a long-range problem. Sequences are drawn from the seed's
// streams by index, the same on every machine; training reads `train` of them per epoch.
struct ProblemConfig {
  int64_t length = 100;  // T: the minimal length (addition, temporal order: T to 1.1 T)
  int64_t trainSequences = 100'000;
  int64_t validSequences = 1'000;
  int64_t testSequences = 1'000;
  uint64_t seed = 1;
};

// `data.copy`: the reverse copy task's size. The defaults are the paper's (vocabulary 1000,
// 500,000 / 10,000 / 10,000 examples); the paper's lengths are 50 to 200.
struct CopyTaskConfig {
  int64_t vocabulary = 1000;  // content tokens t0 .. t(V-1); the model's vocabulary is V + 2
  int64_t length = 50;        // L tokens per example, then the marker and L reversed
  int64_t trainExamples = 500'000;
  int64_t validExamples = 10'000;
  int64_t testExamples = 10'000;
  uint64_t seed = 1;  // train, valid and test draw from different streams of this seed
};

// The `data:` section of a project. Paths are relative to the project folder.
struct DataConfig {
  SyntheticTask synthetic = SyntheticTask::None;  // not None: no files, `copy` applies
  CopyTaskConfig copy;
  ProblemConfig problem;  // the long-range problems
  std::string train;  // required unless synthetic; the first training file when there are several
  // Further training files (`train: [a, b, c]` gives b and c): read after `train`, in order, as
  // one text, with a line break between two files when the first lacks one.
  std::vector<std::string> moreTrain;
  std::string valid;  // empty: split off the end of `train` by fraction
  std::string test;   // empty: split off the end of `train` by fraction
  CorpusFormat format = CorpusFormat::Auto;
  double validFraction = 0.05;  // used only when valid/test are not given (90/5/5)
  double testFraction = 0.05;
  int64_t maxSymbols = 0;  // > 0: use only the first N symbols of each split (quick runs, tests)
  int64_t minCount = 1;    // word level: rarer words become <unk>
  VocabularySource vocabulary = VocabularySource::Auto;
  // `word_counts: {valid: N, test: N}`: the words of the word-level benchmark the held-out
  // splits are compared with (Krause eq. 23), when its tokenisation differs from counting
  // the text's own words and lines; 0: counted (CorpusSplit::words).
  int64_t validWords = 0;
  int64_t testWords = 0;
};

// Every training file, `train` first.
std::vector<std::string> trainFiles(const DataConfig& config);

DataConfig parseDataSection(const YAML::Node& node, YamlReader& reader,
                            const std::string& path = "data");
void emitDataSection(YAML::Emitter& out, const DataConfig& config);
std::string corpusFormatName(CorpusFormat format);
std::string syntheticTaskName(SyntheticTask task);  // "none", "reverse_copy", "addition", ...
// The task of a data.synthetic name; nullopt for a name that is none.
std::optional<SyntheticTask> syntheticTaskNamed(const std::string& name);
// One of Martens & Sutskever's long-range problems (not None or ReverseCopy).
bool isLongRangeProblem(SyntheticTask task);
// Addition and multiplication: a real target (a linear output, squared error).
inline bool problemIsRealValued(SyntheticTask task) {
  return task == SyntheticTask::Addition || task == SyntheticTask::Multiplication;
}
// A number read beside each marker: addition, multiplication and XOR.
inline bool problemReadsValues(SyntheticTask task) {
  return problemIsRealValued(task) || task == SyntheticTask::Xor;
}
// The fewest validation sequences that can show a problem solved for training.stop_when_solved
// (validationShowsSolved): none wrong of 299 happens at a true rate of 1% under 5% of the time
// (0.99^299 < 0.05).
inline constexpr int64_t kStopWhenSolvedSequences = 299;
// The shortest data.problem.length the problem's positions make sense for.
int64_t shortestProblemLength(SyntheticTask task);
std::string vocabularySourceName(VocabularySource source);  // "auto", "all", "train", "train_unk"
// Auto resolved from the file's name (the rule at CorpusFormat::Auto); others unchanged.
CorpusFormat resolveCorpusFormat(CorpusFormat format, const std::string& path);

}  // namespace mrnn::engine
