#pragma once

#include <string>
#include <vector>

#include "engine/config/project_file.h"

namespace mrnn::engine {

// A project file edited as its owner would edit it by hand: the text of the keys whose values
// change is rewritten where it stands, a key the file lacks is added beside the keys that
// precede it, and everything else (comments, key order, blank lines, quoting, the spelling
// of numbers) stays byte for byte.
struct ProjectText {
  std::string text;
  // The file could not be edited in place (it is not a project the parser reads, or its shape
  // defeats placing an edit), so `text` is the project written anew (projectToYaml).
  bool rewrittenWhole = false;
};

// `text` made to say `after` (its model, data, training and evaluation; not its folder).
ProjectText editProjectText(const std::string& text, const Project& after);

// One KEY=VALUE of `mrnn project set`: a key path as experiment axes write it
// ("model.layers[0].hidden_size", "training.optimizer.lr") and a YAML value ("0.003", "[1, 2]").
struct KeyAssignment {
  std::string key;
  std::string value;
};

// "KEY=VALUE" split at its first '='; throws ConfigError (file "") naming what is missing.
KeyAssignment parseKeyAssignment(const std::string& word);

// `text` with each assignment applied in order (a missing key is added, a list index one past
// the end adds an item), checked to be a valid project. Throws ConfigError naming `file`, the
// key and what is wrong (a path that cannot be followed, a value that is not YAML, a result the
// project check refuses); nothing is written by this function.
std::string setProjectKeys(const std::string& text, const std::vector<KeyAssignment>& assignments,
                           const std::string& file);

// `text` without the entries at `keys` (key paths as above), checked to be a valid project.
// Throws ConfigError naming `file` and a key the text does not have, or what the check refuses.
std::string removeProjectKeys(const std::string& text, const std::vector<std::string>& keys,
                              const std::string& file);

// The YAML `text` edited in place until it reads as the YAML `target` (the same keys, items and
// values). Throws YamlPathError when no edit in place gets there, ConfigError when either is
// not YAML.
std::string editYamlTextToMatch(const std::string& text, const std::string& target);

}  // namespace mrnn::engine
