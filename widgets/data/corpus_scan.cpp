#include "widgets/data/corpus_scan.h"
#include "widgets/native_path.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <cmath>
#include <exception>
#include <numeric>
#include <vector>

#include "engine/data/corpus.h"
#include "widgets/data/symbol_label.h"

namespace mrnn::widgets {
namespace {

constexpr int64_t kChunk = 1 << 16;

SplitSummary summarise(const engine::CorpusSplit& split, bool ownFile) {
  SplitSummary summary;
  summary.file = fromNativePath(split.source);
  summary.fileBytes = ownFile ? QFileInfo(summary.file).size() : -1;
  summary.symbols = split.tokens.size();
  summary.words = split.words;
  return summary;
}

// Counts every id of the training split; false when cancelled.
bool countSymbols(const engine::TokenStream& tokens, int64_t vocabularySize,
                  std::vector<int64_t>& counts, const engine::StopToken& cancel) {
  counts.assign(static_cast<size_t>(vocabularySize), 0);
  std::vector<int64_t> ids(static_cast<size_t>(std::min(kChunk, tokens.size())));
  for (int64_t start = 0; start < tokens.size(); start += kChunk) {
    if (cancel.stopRequested()) return false;
    const int64_t n = std::min(kChunk, tokens.size() - start);
    tokens.copy(start, n, ids.data());
    for (int64_t i = 0; i < n; ++i) {
      const int64_t id = ids[static_cast<size_t>(i)];
      if (id >= 0 && id < vocabularySize) ++counts[static_cast<size_t>(id)];
    }
  }
  return true;
}

// The first `characters` characters of the training text, decoded as the model reads it.
QString previewOf(const engine::Corpus& corpus, int characters) {
  const engine::TokenStream& tokens = corpus.train.tokens;
  // Words average well under 10 characters: this many tokens fill the preview.
  const int64_t wanted = corpus.vocabulary.level() == engine::InputLevel::Word
                             ? characters / 2
                             : static_cast<int64_t>(characters) * 4;  // bytes of UTF-8 text
  const int64_t n = std::min<int64_t>(tokens.size(), wanted);
  std::vector<int64_t> ids(static_cast<size_t>(n));
  if (n > 0) tokens.copy(0, n, ids.data());
  const std::string text = corpus.vocabulary.decode(ids);
  QString preview = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
  if (preview.size() > characters) preview.truncate(characters);
  return preview;
}

}  // namespace

CorpusScanResult scanCorpus(const CorpusScanRequest& request, const engine::StopToken& cancel) {
  CorpusScanResult result;
  result.level = request.level;
  QElapsedTimer timer;
  timer.start();
  try {
    const engine::Corpus corpus =
        engine::loadCorpus(request.data, request.level, toNativePath(request.folder),
                           [&cancel] { return cancel.stopRequested(); });
    if (cancel.stopRequested()) {
      result.cancelled = true;
      return result;
    }
    const bool synthetic = request.data.synthetic != engine::SyntheticTask::None;
    const bool ownFiles = !synthetic && !request.data.valid.empty();
    result.train = summarise(corpus.train, !synthetic && request.data.moreTrain.empty());
    if (!request.data.moreTrain.empty()) {
      // Several training files: their sizes together.
      result.train.fileBytes = 0;
      const QDir folder(request.folder);
      for (const std::string& file : engine::trainFiles(request.data)) {
        result.train.fileBytes += QFileInfo(folder, fromNativePath(file)).size();
      }
    }
    result.valid = summarise(corpus.valid, ownFiles);
    result.test = summarise(corpus.test, ownFiles);
    if (synthetic) result.train.file = result.valid.file = result.test.file = QString();
    result.vocabularySize = corpus.vocabulary.size();

    std::vector<int64_t> counts;
    if (!countSymbols(corpus.train.tokens, corpus.vocabulary.size(), counts, cancel)) {
      result.cancelled = true;
      return result;
    }
    std::vector<int64_t> order(counts.size());
    std::iota(order.begin(), order.end(), 0);
    const auto keep = std::min<size_t>(order.size(), static_cast<size_t>(request.histogramSymbols));
    // Ties keep vocabulary order, so the histogram is the same on every scan.
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                      [&](int64_t a, int64_t b) {
                        const int64_t ca = counts[static_cast<size_t>(a)];
                        const int64_t cb = counts[static_cast<size_t>(b)];
                        return ca != cb ? ca > cb : a < b;
                      });
    const double total = static_cast<double>(corpus.train.tokens.size());
    for (const int64_t count : counts) {
      if (count == 0) continue;
      const double p = static_cast<double>(count) / total;
      result.unigramBits -= p * std::log2(p);
    }
    const int64_t unk = corpus.vocabulary.unkId();
    if (request.level == engine::InputLevel::Word && unk >= 0 && total > 0)
      result.unknownShare = static_cast<double>(counts[static_cast<size_t>(unk)]) / total;
    result.symbolsSeen =
        std::count_if(counts.begin(), counts.end(), [](int64_t c) { return c > 0; });
    for (size_t i = 0; i < keep; ++i) {
      const int64_t id = order[i];
      if (counts[static_cast<size_t>(id)] == 0) break;
      const std::string& symbol = corpus.vocabulary.symbol(id);
      result.topSymbols.push_back({symbolLabel(symbol, request.level),
                                   symbolDescription(symbol, request.level),
                                   counts[static_cast<size_t>(id)]});
    }
    result.preview = previewOf(corpus, request.previewCharacters);
    result.ok = true;
  } catch (const engine::ReadingStopped&) {
    result.cancelled = true;
  } catch (const std::exception& error) {
    result.error = QString::fromUtf8(error.what());
  }
  result.seconds = static_cast<double>(timer.elapsed()) / 1000.0;
  return result;
}

}  // namespace mrnn::widgets
