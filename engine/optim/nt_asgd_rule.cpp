#include "engine/optim/nt_asgd_rule.h"

namespace mrnn::engine {

// The base class owns the optimiser; this class keeps its own type's handle to it.
NtAsgdRule::NtAsgdRule(std::unique_ptr<NtAsgd> optimizer, double clipNorm)
    : FirstOrderRule(std::move(optimizer), clipNorm),
      asgd_(static_cast<NtAsgd&>(this->optimizer())) {}

}  // namespace mrnn::engine
