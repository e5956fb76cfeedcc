#include "engine/scoring/text_score_writer.h"

#include <iomanip>

#include "engine/data/vocabulary.h"
#include "engine/models/language_model.h"
#include "engine/scoring/scoring_output.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {

TextScoreWriter::TextScoreWriter(std::ostream& out, TextScoreFormat format)
    : out_(out), format_(format) {
  switch (format_) {
    case TextScoreFormat::Table:
      out_ << std::fixed << std::setprecision(3);
      break;
    case TextScoreFormat::Csv:
      // probability and rank came later: appended, so that readers of the first four
      // columns by position still work.
      out_ << std::setprecision(10) << "position,id,symbol,bits,probability,rank\n";
      break;
    case TextScoreFormat::Json:
      out_ << std::setprecision(10) << "{\n  \"symbols\": [";
      break;
  }
}

void TextScoreWriter::symbol(const SymbolScore& s) {
  switch (format_) {
    case TextScoreFormat::Table:
      out_ << std::setw(12) << printableSymbol(s.text) << "  ";
      if (s.predicted) {
        out_ << s.bits << " bits\n";
      } else {
        out_ << "(no prediction)\n";
      }
      break;
    case TextScoreFormat::Csv:
      out_ << position_ << "," << s.id << "," << symbolCsvField(s.text) << ",";
      if (s.predicted) {
        out_ << s.bits << "," << s.probability << "," << s.rank;
      } else {
        out_ << ",,";
      }
      out_ << "\n";
      break;
    case TextScoreFormat::Json:
      out_ << (position_ > 0 ? ",\n" : "\n") << "    {\"id\": " << s.id
           << ", \"text\": " << jsonString(s.text) << ", \"bits\": ";
      if (s.predicted) {
        out_ << s.bits << ", \"probability\": " << s.probability << ", \"rank\": " << s.rank;
      } else {
        out_ << "null, \"probability\": null, \"rank\": null";
      }
      if (!s.alternatives.empty()) {
        out_ << ", \"alternatives\": [";
        for (size_t a = 0; a < s.alternatives.size(); ++a) {
          out_ << (a > 0 ? ", " : "") << "{\"id\": " << s.alternatives[a].id
               << ", \"text\": " << jsonString(s.alternatives[a].text)
               << ", \"probability\": " << s.alternatives[a].probability << "}";
        }
        out_ << "]";
      }
      out_ << "}";
      break;
  }
  ++position_;
}

void TextScoreWriter::finish(const TextScore& totals) {
  switch (format_) {
    case TextScoreFormat::Table:
      out_ << "total " << totals.totalBits << " bits over " << totals.predictedSymbols
           << " symbols, " << totals.bitsPerSymbol << " bits/symbol (log2 p = " << -totals.totalBits
           << ")\n";
      break;
    case TextScoreFormat::Csv:
      break;
    case TextScoreFormat::Json:
      out_ << (position_ > 0 ? "\n  ],\n" : "],\n") << "  \"total_bits\": " << totals.totalBits
           << ",\n  \"bits_per_symbol\": " << totals.bitsPerSymbol
           << ",\n  \"predicted_symbols\": " << totals.predictedSymbols << "\n}\n";
      break;
  }
  out_.flush();
}

}  // namespace mrnn::engine
