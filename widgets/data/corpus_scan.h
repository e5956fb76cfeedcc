#pragma once

#include <QMetaType>
#include <QString>
#include <QVector>

#include "engine/config/data_config.h"
#include "engine/config/model_config.h"
#include "engine/runtime/stop_token.h"

namespace mrnn::widgets {

// What the data panel asks of a corpus: the project's data section, the model's input level
// and the folder relative paths are resolved against.
struct CorpusScanRequest {
  engine::DataConfig data;
  engine::InputLevel level = engine::InputLevel::Char;
  QString folder;
  int histogramSymbols = 60;     // the most frequent symbols kept for the histogram
  int previewCharacters = 2000;  // of the training text
};

// One split as the model will see it.
struct SplitSummary {
  QString file;           // the file it was read from (absolute)
  qint64 fileBytes = -1;  // that file's size; -1 for a split cut from the training file
  qint64 symbols = 0;     // after max_symbols
  qint64 words = 0;       // whitespace-separated words (engine::CorpusSplit::words)
};

struct SymbolCount {
  QString label;        // symbolLabel(): whitespace made visible
  QString description;  // symbolDescription(), for tooltips
  qint64 count = 0;
};

struct CorpusScanResult {
  bool ok = false;
  bool cancelled = false;
  QString error;  // the engine's message (DataError names the file and the problem)
  engine::InputLevel level = engine::InputLevel::Char;
  SplitSummary train;
  SplitSummary valid;
  SplitSummary test;
  qint64 vocabularySize = 0;
  qint64 symbolsSeen = 0;           // distinct vocabulary entries that occur in the training split
  QVector<SymbolCount> topSymbols;  // most frequent first, in the training split
  // Entropy of the training split's symbol frequencies, in bits per symbol: what a model that
  // ignores context would score on the training text (a baseline for bits per character).
  double unigramBits = 0.0;
  double unknownShare = -1.0;  // word level: share of training tokens that are <unk>; else -1
  QString preview;             // the start of the training text as the model reads it
  double seconds = 0.0;        // how long the scan took
};

// Reads the corpus with engine::loadCorpus and summarises it. Runs on a worker thread; polls
// `cancel` between its stages and, inside loadCorpus, between chunks of a large file. Never
// throws: failures come back in `error`.
CorpusScanResult scanCorpus(const CorpusScanRequest& request, const engine::StopToken& cancel);

}  // namespace mrnn::widgets

Q_DECLARE_METATYPE(mrnn::widgets::CorpusScanResult)
