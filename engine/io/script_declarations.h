#pragma once

#include <string>

namespace mrnn::engine {

// What is wrong, as one clause, with the TorchScript source inside a LibTorch archive held
// in `archive` (a checkpoint's payload), or "" when every code/*.py file only declares
// classes of attributes: `class Module(Module):`, the `__parameters__`, `__buffers__`,
// `__constants__` and `__annotations__` lists, `name : Type` lines, imports and comments.
// That is all an OutputArchive writes; LibTorch compiles the source when it loads the
// archive and runs a `__setstate__` it finds, so a file with a method in it is refused
// before LibTorch sees it. The files are read by the engine's zip reader (CRC-32 checked).
std::string scriptDeclarationsProblem(const std::string& archive);

}  // namespace mrnn::engine
