#pragma once

#include <string>
#include <vector>

namespace mrnn::engine {

struct Project;

// The runs database keeps every validation and test figure in bits (the loss in nats / ln 2),
// a real-valued output's squared error too (the addition and multiplication problems): bits
// of a squared error mean nothing, so whatever shows a run's figures gives them back in the
// unit its loss was scored in.
enum class LossUnit { Bits, SquaredError };

LossUnit lossUnitOf(const Project& project);

// From the project text a run recorded (projectToYaml's layout, where the output's type is
// written once, under model): a scan, not a YAML parse, so that tables of thousands of runs
// stay quick. Bits where the text says nothing of a linear output.
LossUnit recordedLossUnit(const std::string& configYaml);

// A stored figure (bits) in `unit`: bits as they are, a squared error as bits × ln 2.
double inLossUnit(double storedBits, LossUnit unit);

// "bpc" or "sq. error": a column's unit as tables name it.
const char* lossUnitLabel(LossUnit unit);

// A table's column of figures, one a row in `units`: "valid bpc" where every row's are bits,
// "valid sq. error" where every row's are squared errors, plain "valid" where they mix; each
// figure then names its own unit (lossCellText).
bool lossUnitsMix(const std::vector<LossUnit>& units);
// Whether there are figures and every one is a squared error (a table named by that unit).
bool allSquaredErrors(const std::vector<LossUnit>& units);
std::string lossColumnTitle(const std::string& prefix, const std::vector<LossUnit>& units);
std::string lossCellText(const std::string& figure, LossUnit unit, bool mixed);

}  // namespace mrnn::engine
