#include "widgets/sampler/sampler_metatypes.h"

namespace mrnn::widgets {

void registerSamplerMetatypes() {
  qRegisterMetaType<engine::GeneratedSymbol>();
  qRegisterMetaType<engine::Completion>();
  qRegisterMetaType<QList<engine::Completion>>();
  qRegisterMetaType<SamplerModelInfo>();
}

}  // namespace mrnn::widgets
