#pragma once

#include <QMetaType>

#include "engine/training/training_events.h"

// The engine's training events travel in Qt signals as they are: plain value types, copied,
// never tensors. Declared here so every signal, QVariant and QSignalSpy agrees on the names.
Q_DECLARE_METATYPE(mrnn::engine::StepEvent)
Q_DECLARE_METATYPE(mrnn::engine::ValidationEvent)
Q_DECLARE_METATYPE(mrnn::engine::CheckpointEvent)
Q_DECLARE_METATYPE(mrnn::engine::FinishedEvent)

namespace mrnn::widgets {

// Registers the event types for queued connections; TrainingController calls it, and it
// may be called any number of times.
void registerTrainingEventMetaTypes();

}  // namespace mrnn::widgets
