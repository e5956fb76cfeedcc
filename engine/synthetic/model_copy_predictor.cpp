#include "engine/synthetic/model_copy_predictor.h"

#include <torch/torch.h>

#include "engine/analysis/model_device.h"

namespace mrnn::engine {

ModelCopyPredictor::ModelCopyPredictor(LanguageModel& model) : model_(model), guard_(model) {}

int64_t ModelCopyPredictor::vocab() const {
  return model_.vocab();
}

void ModelCopyPredictor::reset(int64_t batch) {
  state_ = model_.initialState(batch);
}

torch::Tensor ModelCopyPredictor::read(const torch::Tensor& inputs) {
  return model_.forward(inputs.to(modelDevice(model_)), state_);
}

}  // namespace mrnn::engine
