#pragma once

#include <QList>
#include <QMetaType>

#include "engine/sampling/completion.h"
#include "widgets/sampler/sampler_model_info.h"

// The values the sampling controller's signals carry across threads.
Q_DECLARE_METATYPE(mrnn::engine::GeneratedSymbol)
Q_DECLARE_METATYPE(mrnn::engine::Completion)
Q_DECLARE_METATYPE(mrnn::widgets::SamplerModelInfo)

namespace mrnn::widgets {

// Registers the types above (and their lists) for queued connections; idempotent.
void registerSamplerMetatypes();

}  // namespace mrnn::widgets
