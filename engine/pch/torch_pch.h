#pragma once
// Precompiled for every engine translation unit: LibTorch's umbrella header costs ~25 s to
// parse on two cores, so it is parsed once per target.
#include <torch/torch.h>
