#include "engine/synthetic/copy_output.h"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "engine/store/text_format.h"

namespace mrnn::engine {

std::string copyTable(const std::vector<LabelledCopyEvaluation>& models) {
  std::ostringstream out;
  size_t width = 5;
  for (const auto& model : models) width = std::max(width, model.label.size());
  out << std::left << std::setw(static_cast<int>(width)) << "model" << std::right << std::setw(8)
      << "V" << std::setw(8) << "L" << std::setw(10) << "examples" << std::setw(12) << "bits/token"
      << std::setw(10) << "accuracy" << std::setw(10) << "exact"
      << "\n";
  out << std::fixed;
  size_t longest = 0;
  for (const auto& model : models) {
    const CopyEvaluation& r = model.result;
    out << std::left << std::setw(static_cast<int>(width)) << model.label << std::right
        << std::setw(8) << r.tokens << std::setw(8) << r.length << std::setw(10) << r.examples
        << std::setprecision(4) << std::setw(12) << r.bitsPerToken << std::setw(10)
        << r.tokenAccuracy << std::setw(10) << r.exactFraction << "\n";
    longest = std::max(longest, r.positionBits.size());
  }
  out << "\nbits at each output position (1: the first symbol after the marker, copying the "
         "last input token)\n"
      << std::setw(8) << "position";
  for (size_t m = 0; m < models.size(); ++m)
    out << std::setw(12) << "model " + std::to_string(m + 1);
  out << "\n";
  for (size_t k = 0; k < longest; ++k) {
    out << std::setw(8) << k + 1;
    for (const auto& model : models) {
      const auto& bits = model.result.positionBits;
      if (k < bits.size()) {
        out << std::setw(12) << std::setprecision(4) << bits[k];
      } else {
        out << std::setw(12) << "";
      }
    }
    out << "\n";
  }
  return out.str();
}

std::string copyJson(const std::vector<LabelledCopyEvaluation>& models) {
  std::ostringstream out;
  out << "{\n  \"task\": \"reverse_copy\",\n  \"models\": [\n";
  for (size_t m = 0; m < models.size(); ++m) {
    const CopyEvaluation& r = models[m].result;
    out << "    {\n      \"label\": " << jsonString(models[m].label)
        << ",\n      \"checkpoint\": " << jsonString(models[m].checkpoint)
        << ",\n      \"vocabulary\": " << r.tokens << ",\n      \"length\": " << r.length
        << ",\n      \"examples\": " << r.examples << ",\n      \"seed\": " << r.seed
        << ",\n      \"bits_per_token\": " << jsonNumber(r.bitsPerToken)
        << ",\n      \"token_accuracy\": " << jsonNumber(r.tokenAccuracy)
        << ",\n      \"exact_fraction\": " << jsonNumber(r.exactFraction)
        << ",\n      \"positions\": [\n";
    for (size_t k = 0; k < r.positionBits.size(); ++k) {
      out << "        {\"position\": " << k + 1 << ", \"bits\": " << jsonNumber(r.positionBits[k])
          << ", \"accuracy\": " << jsonNumber(r.positionAccuracy[k]) << "}"
          << (k + 1 < r.positionBits.size() ? "," : "") << "\n";
    }
    out << "      ]\n    }" << (m + 1 < models.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
  return out.str();
}

std::string copyCsv(const std::vector<LabelledCopyEvaluation>& models) {
  std::ostringstream out;
  out << "model,vocabulary,length,examples,seed,position,bits,accuracy,exact_fraction\n";
  for (const auto& model : models) {
    const CopyEvaluation& r = model.result;
    const std::string prefix = csvField(model.label) + "," + std::to_string(r.tokens) + "," +
                               std::to_string(r.length) + "," + std::to_string(r.examples) + "," +
                               std::to_string(r.seed) + ",";
    out << prefix << "all," << formatDouble(r.bitsPerToken) << "," << formatDouble(r.tokenAccuracy)
        << "," << formatDouble(r.exactFraction) << "\n";
    for (size_t k = 0; k < r.positionBits.size(); ++k) {
      out << prefix << k + 1 << "," << formatDouble(r.positionBits[k]) << ","
          << formatDouble(r.positionAccuracy[k]) << ",\n";
    }
  }
  return out.str();
}

}  // namespace mrnn::engine
