#pragma once

// Internal to engine/config: edits YAML text in place, as a person would with a text editor.
// A value that changes is rewritten where it stands; everything else (comments, key order,
// blank lines, quoting and the spelling of numbers) stays byte for byte.

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "engine/config/yaml_key_path.h"

namespace mrnn::engine {

// One change to a YAML document: the value at `path` becomes `value`, or (`remove`) the entry
// at `path` goes. A list index one past the end appends an item.
struct YamlEdit {
  YamlKeyPath path;
  YAML::Node value;
  bool remove = false;
  // A key or item `from` did not have at all (not a changed value): a text that relies on a
  // default may not need it written.
  bool added = false;
  // For each key step of `path` the text may lack: the keys that come before it in the wanted
  // order, so that it is written after the last of them the text has (where a person would
  // put it).
  std::vector<std::vector<std::string>> keysBefore;
  // Whether keysBefore is known: a key with none before it then goes first; without an order
  // a new key goes after its mapping's last.
  bool orderKnown = false;
};

// The wanted order for `edit`'s keys, read from `model` (a tree whose mappings list their keys
// in the order a person would expect them); steps `model` lacks keep no order.
void takeKeyOrder(YamlEdit& edit, const YAML::Node& model);

// The edits that turn `from` into `to`: one per changed scalar, added or removed key and added
// or removed list item; a node whose kind changes (a value becoming a mapping) is replaced
// whole. Removals of list items come last and from the end, so that earlier indices stay true.
std::vector<YamlEdit> yamlDifferences(const YAML::Node& from, const YAML::Node& to);

// `text` with `edits` applied one after the other. Throws YamlPathError when an edit cannot be
// placed in this text (a list item far past the end, a key under a scalar inside a list) and
// ConfigError (file "") when the text is not YAML.
std::string applyYamlEdits(const std::string& text, const std::vector<YamlEdit>& edits);

// Whether two trees hold the same keys, items and scalar text (styles and marks aside).
bool sameYamlTree(const YAML::Node& a, const YAML::Node& b);

}  // namespace mrnn::engine
