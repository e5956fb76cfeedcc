#include "engine/probing/probing_output.h"

#include <cstdio>
#include <sstream>

#include "engine/data/vocabulary.h"
#include "engine/store/text_format.h"

namespace mrnn::engine {
namespace {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string padLeft(const std::string& text, size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string padRight(const std::string& text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// Float32 values print with the shortest round-tripping text of the float, not the double.
std::string floatNumber(float value) {
  return jsonNumber(static_cast<double>(value));
}

void writeFloats(std::ostringstream& out, const std::vector<float>& values) {
  out << "[";
  for (size_t i = 0; i < values.size(); ++i) out << (i ? ", " : "") << floatNumber(values[i]);
  out << "]";
}

int64_t nodesAtDepth(const TreeResult& tree, int64_t depth) {
  int64_t count = 0;
  for (const auto& node : tree.nodes) count += node.depth == depth ? 1 : 0;
  return count;
}

}  // namespace

std::string gateStatisticsTable(const GateReport& report) {
  std::ostringstream out;
  out << report.symbols.size() << " steps\n";
  out << padRight("probe", 22) << padLeft("gate", 6) << padLeft("mean", 10)
      << padLeft("variance", 12) << padLeft("saturated", 11) << padLeft("count", 10) << "\n";
  for (const auto& s : report.statistics) {
    out << padRight(s.name, 22) << padLeft(s.isGate ? "yes" : "", 6)
        << padLeft(fixed(s.mean, 4), 10) << padLeft(fixed(s.variance, 6), 12)
        << padLeft(s.isGate ? fixed(s.saturatedFraction, 4) : "-", 11)
        << padLeft(std::to_string(s.count), 10) << "\n";
  }
  return out.str();
}

std::string gateReportJson(const GateReport& report) {
  std::ostringstream out;
  out << "{\n  \"symbols\": [";
  for (size_t i = 0; i < report.symbols.size(); ++i) {
    out << (i ? ", " : "") << jsonString(report.symbols[i]);
  }
  out << "],\n  \"statistics\": [\n";
  for (size_t i = 0; i < report.statistics.size(); ++i) {
    const auto& s = report.statistics[i];
    out << "    {\"name\": " << jsonString(s.name)
        << ", \"is_gate\": " << (s.isGate ? "true" : "false")
        << ", \"mean\": " << jsonNumber(s.mean) << ", \"variance\": " << jsonNumber(s.variance)
        << ", \"saturated_fraction\": " << jsonNumber(s.saturatedFraction)
        << ", \"count\": " << s.count << "}" << (i + 1 < report.statistics.size() ? "," : "")
        << "\n";
  }
  out << "  ],\n  \"traces\": [\n";
  for (size_t t = 0; t < report.traces.size(); ++t) {
    const auto& trace = report.traces[t];
    const std::vector<float> values = trace.floats();
    out << "    {\"name\": " << jsonString(trace.name) << ", \"layer\": " << trace.layer
        << ", \"probe\": " << jsonString(trace.probe)
        << ", \"is_gate\": " << (trace.isGate ? "true" : "false") << ", \"steps\": " << trace.steps
        << ", \"units\": " << trace.units << ", \"storage\": \""
        << (trace.isHalf() ? "float16" : "float32") << "\",\n     \"values\": [";
    for (int64_t step = 0; step < trace.steps; ++step) {
      const auto begin = values.begin() + step * trace.units;
      out << (step ? ",\n       " : "\n       ");
      writeFloats(out, std::vector<float>(begin, begin + trace.units));
    }
    out << "]}" << (t + 1 < report.traces.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
  return out.str();
}

std::string gateReportCsv(const GateReport& report) {
  std::ostringstream out;
  out << "name,layer,probe,is_gate,step,symbol,unit,value\n";
  for (const auto& trace : report.traces) {
    const std::vector<float> values = trace.floats();
    for (int64_t step = 0; step < trace.steps; ++step) {
      const std::string symbol = csvField(static_cast<size_t>(step) < report.symbols.size()
                                              ? report.symbols[static_cast<size_t>(step)]
                                              : "");
      for (int64_t unit = 0; unit < trace.units; ++unit) {
        out << csvField(trace.name) << "," << trace.layer << "," << csvField(trace.probe) << ","
            << (trace.isGate ? 1 : 0) << "," << step << "," << symbol << "," << unit << ","
            << formatDouble(values[static_cast<size_t>(step * trace.units + unit)]) << "\n";
      }
    }
  }
  return out.str();
}

std::string treeSpreadTable(const std::vector<LabelledTree>& trees) {
  std::ostringstream out;
  for (size_t m = 0; m < trees.size(); ++m) {
    out << "model " << (m + 1) << ": " << trees[m].label;
    if (!trees[m].checkpoint.empty()) out << " (" << trees[m].checkpoint << ")";
    out << "\n";
  }
  out << padLeft("depth", 5);
  for (size_t m = 0; m < trees.size(); ++m) {
    const std::string tag = trees.size() > 1 ? " " + std::to_string(m + 1) : "";
    out << padLeft("nodes" + tag, 10) << padLeft("groups" + tag, 10) << padLeft("euclid" + tag, 12)
        << padLeft("cosine" + tag, 12);
  }
  out << "\n";
  const size_t depths = trees.empty() ? 0 : trees.front().tree.spread.size();
  for (size_t d = 0; d < depths; ++d) {
    out << padLeft(std::to_string(d + 1), 5);
    for (const auto& labelled : trees) {
      const auto& s = labelled.tree.spread.at(d);
      out << padLeft(std::to_string(nodesAtDepth(labelled.tree, s.depth)), 10)
          << padLeft(std::to_string(s.groups), 10) << padLeft(fixed(s.meanEuclidean, 5), 12)
          << padLeft(fixed(s.meanCosine, 5), 12);
    }
    out << "\n";
  }
  return out.str();
}

std::string treeJson(const std::string& context, const TreeOptions& options,
                     const std::vector<LabelledTree>& trees) {
  std::ostringstream out;
  out << "{\n  \"context\": " << jsonString(context)
      << ",\n  \"options\": {\"depth\": " << options.depth
      << ", \"first_level_cap\": " << options.firstLevelCap << ", \"top_k\": " << options.topK
      << ", \"mass\": " << jsonNumber(options.mass)
      << ", \"all_layers\": " << (options.allLayers ? "true" : "false") << "},\n  \"models\": [\n";
  for (size_t m = 0; m < trees.size(); ++m) {
    const auto& tree = trees[m].tree;
    out << "    {\"label\": " << jsonString(trees[m].label)
        << ", \"checkpoint\": " << jsonString(trees[m].checkpoint) << ",\n     \"root_hidden\": ";
    writeFloats(out, tree.rootHidden);
    out << ",\n     \"spread\": [";
    for (size_t d = 0; d < tree.spread.size(); ++d) {
      const auto& s = tree.spread[d];
      out << (d ? ", " : "") << "{\"depth\": " << s.depth
          << ", \"nodes\": " << nodesAtDepth(tree, s.depth) << ", \"groups\": " << s.groups
          << ", \"pairs\": " << s.pairs << ", \"mean_euclidean\": " << jsonNumber(s.meanEuclidean)
          << ", \"mean_cosine\": " << jsonNumber(s.meanCosine) << "}";
    }
    out << "],\n     \"nodes\": [\n";
    for (size_t i = 0; i < tree.nodes.size(); ++i) {
      const auto& node = tree.nodes[i];
      out << "      {\"index\": " << i << ", \"depth\": " << node.depth
          << ", \"parent\": " << node.parent << ", \"symbol\": " << node.symbol
          << ", \"text\": " << jsonString(node.text)
          << ", \"probability\": " << jsonNumber(node.probability)
          << ", \"cumulative_log_prob\": " << jsonNumber(node.cumulativeLogProb)
          << ", \"hidden\": ";
      writeFloats(out, node.hidden);
      out << "}" << (i + 1 < tree.nodes.size() ? "," : "") << "\n";
    }
    out << "     ]}" << (m + 1 < trees.size() ? "," : "") << "\n";
  }
  out << "  ]\n}\n";
  return out.str();
}

std::string treeSpreadCsv(const std::vector<LabelledTree>& trees) {
  std::ostringstream out;
  out << "model,depth,nodes,groups,pairs,mean_euclidean,mean_cosine\n";
  for (const auto& labelled : trees) {
    for (const auto& s : labelled.tree.spread) {
      out << csvField(labelled.label) << "," << s.depth << ","
          << nodesAtDepth(labelled.tree, s.depth) << "," << s.groups << "," << s.pairs << ","
          << formatDouble(s.meanEuclidean) << "," << formatDouble(s.meanCosine) << "\n";
    }
  }
  return out.str();
}

}  // namespace mrnn::engine
