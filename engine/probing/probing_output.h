#pragma once

#include <string>
#include <vector>

#include "engine/probing/gate_report.h"
#include "engine/probing/tree_result.h"

namespace mrnn::engine {

// Text, JSON and CSV renderings of the probing results, for `mrnn analyze` and for export
// from the GUI, so that results can be scripted and plotted elsewhere.

// A fixed-width table: probe, gate?, mean, variance, saturated fraction, count.
std::string gateStatisticsTable(const GateReport& report);
// {"symbols": [...], "statistics": [...], "traces": [{name, layer, probe, is_gate, steps,
// units, storage, values: [[step 0 units...], ...]}]}; float16 traces write the stored
// (rounded) values.
std::string gateReportJson(const GateReport& report);
// Long format, one row per value: name,layer,probe,is_gate,step,symbol,unit,value.
std::string gateReportCsv(const GateReport& report);

// One model's tree, labelled (the project file) for side-by-side comparison.
struct LabelledTree {
  std::string label;
  std::string checkpoint;
  TreeResult tree;
};

// Per depth, each model's node count, sibling groups, mean euclidean and cosine distance.
std::string treeSpreadTable(const std::vector<LabelledTree>& trees);
// {"context": ..., "options": {...}, "models": [{label, checkpoint, root_hidden, spread: [...],
// nodes: [{index, depth, parent, symbol, text, probability, cumulative_log_prob, hidden}]}]}
std::string treeJson(const std::string& context, const TreeOptions& options,
                     const std::vector<LabelledTree>& trees);
// The spread, one row per model and depth: model,depth,nodes,groups,pairs,mean_euclidean,
// mean_cosine.
std::string treeSpreadCsv(const std::vector<LabelledTree>& trees);

}  // namespace mrnn::engine
