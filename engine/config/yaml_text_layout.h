#pragma once

// Internal to engine/config: where each entry of a YAML document stands in its text.
// yaml-cpp marks where a node starts; the layout finds where its key's colon is, where its
// value begins and ends, and which lines belong to it, so that an edit can replace exactly
// those bytes (yaml_text_editor.h).

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>
#include <vector>

#include "engine/config/yaml_key_path.h"

namespace mrnn::engine {

// One entry of a mapping or a list, located in the text.
struct YamlTextEntry {
  YAML::Node parent;  // the mapping or list that holds it
  YAML::Node key;     // a mapping entry's key (null for a list item)
  bool isItem = false;
  YAML::Node value;
  bool flow = false;  // inside [ ] or { }
  size_t lead = 0;    // the key's first byte, or a list item's dash
  size_t indent = 0;  // the column of `lead`
  size_t after = 0;   // just past the ':' or the '-'
  size_t start = 0;   // the value's first byte (== after's line's end when on later lines)
  size_t end = 0;     // just past the value's last byte (before a trailing comment)
  bool valueOnLaterLines = false;  // a block mapping or list under `key:`
  bool blockScalar = false;        // '|' or '>'
  size_t bound = 0;  // where the next sibling, or an ancestor's, begins (block parents)
};

class YamlTextLayout {
 public:
  // Throws ConfigError (file "") when `text` is not YAML.
  explicit YamlTextLayout(std::string text);

  const std::string& text() const { return text_; }
  const YAML::Node& root() const { return root_; }

  // The entries from the root along `path`, as far as the text has them (possibly none).
  std::vector<YamlTextEntry> follow(const YamlKeyPath& path) const;
  // The entries of a mapping or list, the way `follow` locates them; `bound` is where the
  // entry holding it ends (the text's end for the root).
  std::vector<YamlTextEntry> entriesOf(const YAML::Node& collection, bool flow, size_t bound) const;

  size_t lineOf(size_t position) const;
  size_t lineStart(size_t line) const { return starts_[line]; }
  // The position of the line's '\n' (or of the text's end).
  size_t lineEnd(size_t line) const;
  size_t lineCount() const { return starts_.size(); }
  size_t indentOf(size_t line) const;
  bool isBlank(size_t line) const;
  bool isCommentOnly(size_t line) const;
  // Just past the '\n' of the last line of `entry` (its value's last line), or the text's end.
  size_t lineAfter(const YamlTextEntry& entry) const;
  // Just past the bracket that closes the flow collection opening at `open`.
  size_t flowEnd(size_t open) const;

 private:
  YamlTextEntry locate(const YAML::Node& parent, bool hasKey, const YAML::Node& key,
                       const YAML::Node& value, bool flow, size_t bound) const;
  size_t colonAfterKey(size_t keyStart, bool flow) const;
  size_t dashBefore(size_t itemStart) const;
  void findValue(YamlTextEntry& entry) const;
  size_t quotedEnd(size_t open) const;
  size_t plainEnd(size_t from, bool flow, size_t indentFloor, size_t bound) const;
  // The end of the last line before `bound` from `firstLine` that belongs to a value whose
  // lines are indented past `indentFloor` (block scalars) or are not comments (collections);
  // npos when there is none.
  size_t lastContentEnd(size_t firstLine, size_t bound, size_t indentFloor, bool blockScalar) const;
  size_t positionOf(const YAML::Mark& mark) const;

  std::string text_;
  size_t markOffset_ = 0;  // a byte-order mark before the positions yaml-cpp gives
  YAML::Node root_;
  std::vector<size_t> starts_;
};

}  // namespace mrnn::engine
