#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "engine/scoring/debagging.h"
#include "engine/scoring/feature_masking.h"
#include "engine/scoring/surprisal_recovery.h"
#include "engine/scoring/text_score.h"

namespace mrnn::engine {

// JSON and CSV for the scoring analyses, so results can be scripted and plotted elsewhere.
// Kept in the engine (not the CLI) so tests and other front ends write the same files.

void writeTextScoreJson(std::ostream& out, const TextScore& score);
// CSV: position,id,symbol,bits,probability,rank (the last three empty when not predicted).
void writeTextScoreCsv(std::ostream& out, const TextScore& score);
// A CSV field for a symbol: like the run store's csvField, but a symbol that is empty or a
// lone space is quoted too, so it survives spreadsheets that trim unquoted fields.
std::string symbolCsvField(const std::string& text);

// `limit` > 0 lists only the best `limit` orderings (the rank is of all of them).
void writeDebagJson(std::ostream& out, const DebagResult& result, size_t limit = 0);
void writeDebagCsv(std::ostream& out, const DebagResult& result, size_t limit = 0);

// `names` label the models (one per loss row). CSV: one row per model and offset
// (offset 0 = the surprising set, "all" = the overall mean).
void writeRecoveryJson(std::ostream& out, const RecoveryTable& table,
                       const std::vector<std::string>& names);
void writeRecoveryCsv(std::ostream& out, const RecoveryTable& table,
                      const std::vector<std::string>& names);

// CSV: layer,p,mean_nats,std_nats,runs (layer "all" when every layer was masked).
void writeMaskingJson(std::ostream& out, const std::vector<MaskingCurve>& curves);
void writeMaskingCsv(std::ostream& out, const std::vector<MaskingCurve>& curves);

}  // namespace mrnn::engine
