#pragma once

// Model files and figures the widget suites need from LibTorch, behind a header without it:
// the suites stay Qt-only (and batch in unity builds) while these compile beside the engine.

#include <cstdint>
#include <string>

namespace mrnn::engine {
struct Project;
}

namespace mrnn::test {

// A language model as PyTorch's word language model example saves it: an embedding of
// `vocabulary` rows, a one-layer torch.nn.LSTM of 3 units, a linear decoder (random weights).
void writePyTorchLanguageModel(const std::string& path, int64_t vocabulary);

// A safetensors file holding one tensor "w" of two ones, without the workbench's description:
// another program's file.
void writeForeignSafetensors(const std::string& path);

// The loss (nats per symbol) evaluateStatic gives the checkpoint's model on `dataProject`'s
// validation split with the model project's evaluation batch and window, over the first
// `symbols` symbols: what the masking panel's unmasked point must equal.
double staticValidationLoss(const std::string& checkpoint, const engine::Project& dataProject,
                            int64_t symbols);

}  // namespace mrnn::test
