#pragma once

#include <optional>
#include <string>

namespace mrnn::engine {

// Where a computation runs, as a project, a command line or a setting names it: "cpu",
// "cuda" (the first GPU the process sees) or "cuda:N". Text only (no LibTorch), so that the
// YAML reader and the GUI's controls check it the same way; engine/devices resolves it.
struct DeviceName {
  bool cuda = false;
  int index = -1;  // cuda:N; -1 for "cpu" and for plain "cuda"
};

// The name, or nothing when `text` is not one of the forms above.
std::optional<DeviceName> parseDeviceName(const std::string& text);

// What is wrong with a text that is no device name, said for `where` (a flag, a YAML key):
// "--device is cpu, cuda or cuda:N (a GPU's number), not 'gpu'".
std::string deviceNameProblem(const std::string& where, const std::string& text);

// Whether `text` names a GPU ("cuda" or "cuda:N"), without checking the form further.
bool namesCudaDevice(const std::string& text);

}  // namespace mrnn::engine
