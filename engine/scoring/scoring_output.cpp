#include "engine/scoring/scoring_output.h"

#include "engine/models/language_model.h"
#include "engine/scoring/text_score_writer.h"
#include "engine/store/text_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>

namespace mrnn::engine {

std::string symbolCsvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos && !text.empty() && text != " ") {
    return text;
  }
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

std::string layerName(const MaskingCurve& curve) {
  return curve.layer ? std::to_string(*curve.layer + 1) : "all";
}

template <typename T>
void jsonArray(std::ostream& out, const std::vector<T>& values) {
  out << "[";
  for (size_t i = 0; i < values.size(); ++i) out << (i > 0 ? ", " : "") << values[i];
  out << "]";
}

size_t shown(const DebagResult& result, size_t limit) {
  return limit > 0 ? std::min(limit, result.orderings.size()) : result.orderings.size();
}

std::string words(const std::vector<std::string>& list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) out += (i > 0 ? " " : "") + list[i];
  return out;
}

}  // namespace

void writeTextScoreJson(std::ostream& out, const TextScore& score) {
  TextScoreWriter writer(out, TextScoreFormat::Json);
  for (const auto& symbol : score.symbols) writer.symbol(symbol);
  writer.finish(score);
}

void writeTextScoreCsv(std::ostream& out, const TextScore& score) {
  TextScoreWriter writer(out, TextScoreFormat::Csv);
  for (const auto& symbol : score.symbols) writer.symbol(symbol);
  writer.finish(score);
}

void writeDebagJson(std::ostream& out, const DebagResult& result, size_t limit) {
  out << std::setprecision(10) << "{\n  \"true_rank\": " << result.trueRank
      << ",\n  \"true_order\": " << jsonString(words(result.trueOrder))
      << ",\n  \"true_log_prob\": " << result.trueLogProb << ",\n  \"scored\": " << result.scored
      << ",\n  \"exhaustive\": " << (result.exhaustive ? "true" : "false")
      << ",\n  \"orderings\": [\n";
  const size_t count = shown(result, limit);
  for (size_t i = 0; i < count; ++i) {
    const auto& o = result.orderings[i];
    out << "    {\"rank\": " << i + 1 << ", \"words\": [";
    for (size_t w = 0; w < o.words.size(); ++w)
      out << (w > 0 ? ", " : "") << jsonString(o.words[w]);
    out << "], \"log_prob\": " << o.logProb << "}" << (i + 1 < count ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

void writeDebagCsv(std::ostream& out, const DebagResult& result, size_t limit) {
  out << std::setprecision(10) << "rank,ordering,log_prob,is_true\n";
  for (size_t i = 0; i < shown(result, limit); ++i) {
    const auto& o = result.orderings[i];
    out << i + 1 << "," << symbolCsvField(words(o.words)) << "," << o.logProb << ","
        << (o.words == result.trueOrder ? 1 : 0) << "\n";
  }
}

void writeRecoveryJson(std::ostream& out, const RecoveryTable& table,
                       const std::vector<std::string>& names) {
  out << std::setprecision(10) << "{\n  \"top_fraction\": " << table.topFraction
      << ",\n  \"offsets\": " << table.offsets << ",\n  \"positions\": " << table.positions
      << ",\n  \"surprising\": " << table.surprising << ",\n  \"offset_counts\": ";
  jsonArray(out, table.offsetCounts);
  out << ",\n  \"models\": [\n";
  for (size_t m = 0; m < table.overallMean.size(); ++m) {
    out << "    {\"name\": " << jsonString(m < names.size() ? names[m] : std::to_string(m + 1))
        << ", \"overall_nats\": " << table.overallMean[m]
        << ", \"surprising_nats\": " << table.surprisingMean[m] << ", \"offset_nats\": ";
    jsonArray(out, table.offsetMean[m]);
    out << "}" << (m + 1 < table.overallMean.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

void writeRecoveryCsv(std::ostream& out, const RecoveryTable& table,
                      const std::vector<std::string>& names) {
  out << std::setprecision(10) << "model,offset,mean_nats,count\n";
  for (size_t m = 0; m < table.overallMean.size(); ++m) {
    const std::string name = symbolCsvField(m < names.size() ? names[m] : std::to_string(m + 1));
    out << name << ",0," << table.surprisingMean[m] << "," << table.surprising << "\n";
    for (size_t k = 0; k < table.offsetMean[m].size(); ++k) {
      out << name << "," << k + 1 << "," << table.offsetMean[m][k] << "," << table.offsetCounts[k]
          << "\n";
    }
    out << name << ",all," << table.overallMean[m] << "," << table.positions << "\n";
  }
}

void writeMaskingJson(std::ostream& out, const std::vector<MaskingCurve>& curves) {
  out << std::setprecision(10) << "{\n  \"curves\": [\n";
  for (size_t c = 0; c < curves.size(); ++c) {
    const auto& curve = curves[c];
    out << "    {\"layer\": " << jsonString(layerName(curve)) << ", \"runs\": " << curve.runs
        << ", \"p\": ";
    jsonArray(out, curve.p);
    out << ", \"mean_perplexity\": ";
    jsonArray(out, curve.meanPerplexity);
    out << ", \"std_perplexity\": ";
    jsonArray(out, curve.stdPerplexity);
    out << ", \"mean_nats\": ";
    jsonArray(out, curve.meanLoss);
    out << ", \"std_nats\": ";
    jsonArray(out, curve.stdLoss);
    out << ", \"masks_per_run\": " << curve.masksPerRun;
    out << "}" << (c + 1 < curves.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
}

void writeMaskingCsv(std::ostream& out, const std::vector<MaskingCurve>& curves) {
  // mean_nats is the log of the mean perplexity (MaskingCurve); a curve rebuilt from a plot
  // without perplexities gives exp(mean_nats) and leaves their spread empty.
  out << std::setprecision(10)
      << "layer,p,mean_perplexity,std_perplexity,mean_nats,std_nats,runs\n";
  for (const auto& curve : curves) {
    for (size_t i = 0; i < curve.p.size(); ++i) {
      const bool known = i < curve.meanPerplexity.size();
      out << layerName(curve) << "," << curve.p[i] << ","
          << (known ? curve.meanPerplexity[i] : std::exp(curve.meanLoss[i])) << ",";
      if (i < curve.stdPerplexity.size()) out << curve.stdPerplexity[i];
      out << "," << curve.meanLoss[i] << "," << curve.stdLoss[i] << ","
          << (curve.p[i] == 0.0 ? 1 : curve.runs) << "\n";
    }
  }
}

}  // namespace mrnn::engine
