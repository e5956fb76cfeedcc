#include "engine/config/yaml_text_layout.h"

#include <algorithm>

#include "engine/config/yaml_reader.h"

namespace mrnn::engine {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

bool isBreakOrEnd(const std::string& text, size_t at) {
  return at >= text.size() || text[at] == '\n' ||
         (text[at] == '\r' && at + 1 < text.size() && text[at + 1] == '\n');
}

bool endsFlowToken(char c) {
  return c == ',' || c == ']' || c == '}';
}

[[noreturn]] void cannotPlace(const std::string& why) {
  throw YamlPathError("the text cannot be edited in place: " + why);
}

}  // namespace

YamlTextLayout::YamlTextLayout(std::string text) : text_(std::move(text)) {
  root_ = loadYamlText(text_, "");
  // yaml-cpp counts positions after a UTF-8 byte-order mark (some editors begin every file so).
  if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) markOffset_ = 3;
  starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') starts_.push_back(i + 1);
  }
}

size_t YamlTextLayout::lineOf(size_t position) const {
  const auto after = std::upper_bound(starts_.begin(), starts_.end(), position);
  return static_cast<size_t>(after - starts_.begin()) - 1;
}

size_t YamlTextLayout::lineEnd(size_t line) const {
  return line + 1 < starts_.size() ? starts_[line + 1] - 1 : text_.size();
}

size_t YamlTextLayout::indentOf(size_t line) const {
  size_t at = starts_[line];
  while (at < text_.size() && text_[at] == ' ') ++at;
  return at - starts_[line];
}

bool YamlTextLayout::isBlank(size_t line) const {
  for (size_t at = starts_[line]; at < lineEnd(line); ++at) {
    if (!isSpace(text_[at])) return false;
  }
  return true;
}

bool YamlTextLayout::isCommentOnly(size_t line) const {
  for (size_t at = starts_[line]; at < lineEnd(line); ++at) {
    if (!isSpace(text_[at])) return text_[at] == '#';
  }
  return false;
}

size_t YamlTextLayout::lineAfter(const YamlTextEntry& entry) const {
  const size_t last = lineOf(entry.end > entry.lead ? entry.end - 1 : entry.lead);
  return last + 1 < starts_.size() ? starts_[last + 1] : text_.size();
}

size_t YamlTextLayout::positionOf(const YAML::Mark& mark) const {
  if (mark.is_null() || mark.pos < 0 ||
      static_cast<size_t>(mark.pos) + markOffset_ > text_.size()) {
    cannotPlace("a node without a position");
  }
  return static_cast<size_t>(mark.pos) + markOffset_;
}

size_t YamlTextLayout::quotedEnd(size_t open) const {
  const char quote = text_[open];
  for (size_t at = open + 1; at < text_.size(); ++at) {
    if (quote == '"' && text_[at] == '\\') {
      ++at;
    } else if (text_[at] == quote) {
      if (quote == '\'' && at + 1 < text_.size() && text_[at + 1] == '\'') {
        ++at;
      } else {
        return at + 1;
      }
    }
  }
  return text_.size();
}

size_t YamlTextLayout::flowEnd(size_t open) const {
  int depth = 0;
  for (size_t at = open; at < text_.size(); ++at) {
    const char c = text_[at];
    if (c == '"' || c == '\'') {
      at = quotedEnd(at) - 1;
    } else if (c == '#' && at > 0 && isSpace(text_[at - 1])) {
      while (at < text_.size() && text_[at] != '\n') ++at;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (--depth == 0) return at + 1;
    }
  }
  return text_.size();
}

size_t YamlTextLayout::colonAfterKey(size_t keyStart, bool flow) const {
  size_t at = keyStart;
  if (text_[at] == '?') cannotPlace("an explicit '?' key");
  if (text_[at] == '"' || text_[at] == '\'') {
    at = quotedEnd(at);
    while (at < text_.size() && isSpace(text_[at])) ++at;
    if (at >= text_.size() || text_[at] != ':') cannotPlace("a quoted key without ':'");
    return at;
  }
  for (; at < text_.size() && text_[at] != '\n'; ++at) {
    if (text_[at] != ':') continue;
    const size_t next = at + 1;
    if (next >= text_.size() || isSpace(text_[next]) || text_[next] == '\n' ||
        (flow && endsFlowToken(text_[next]))) {
      return at;
    }
  }
  cannotPlace("a key whose ':' is not on its line");
}

size_t YamlTextLayout::dashBefore(size_t itemStart) const {
  size_t at = itemStart;
  while (at > 0) {
    --at;
    if (text_[at] == '-') return at;
    if (text_[at] != ' ' && text_[at] != '\t') break;
  }
  cannotPlace("a list item without its '-'");
}

size_t YamlTextLayout::lastContentEnd(size_t firstLine, size_t bound, size_t indentFloor,
                                      bool blockScalar) const {
  size_t found = std::string::npos;
  for (size_t line = firstLine; line < starts_.size() && starts_[line] < bound; ++line) {
    if (isBlank(line)) continue;
    if (blockScalar) {
      if (indentOf(line) <= indentFloor) break;
      found = lineEnd(line);
    } else if (!isCommentOnly(line)) {
      found = lineEnd(line);
    }
  }
  if (found != std::string::npos && found > 0 && text_[found - 1] == '\r') --found;
  return found;
}

size_t YamlTextLayout::plainEnd(size_t from, bool flow, size_t indentFloor, size_t bound) const {
  // One line's plain text: up to a comment, a flow indicator or the line's end, trimmed.
  const auto lineTextEnd = [&](size_t start) {
    size_t at = start;
    for (; at < text_.size() && text_[at] != '\n'; ++at) {
      if (text_[at] == '#' && at > start && isSpace(text_[at - 1])) break;
      if (flow && endsFlowToken(text_[at])) break;
    }
    while (at > start && isSpace(text_[at - 1])) --at;
    return at;
  };
  size_t end = lineTextEnd(from);
  if (flow) return end;
  // A plain scalar continues on lines indented past its key (or its list item's dash).
  for (size_t line = lineOf(from) + 1; line < starts_.size() && starts_[line] < bound; ++line) {
    if (isBlank(line)) continue;
    if (isCommentOnly(line) || indentOf(line) <= indentFloor) break;
    end = lineTextEnd(starts_[line] + indentOf(line));
  }
  return end;
}

void YamlTextLayout::findValue(YamlTextEntry& entry) const {
  size_t at = entry.after;
  while (at < text_.size() && (isSpace(text_[at]) || (entry.flow && text_[at] == '\n'))) ++at;
  const bool nothingOnLine = isBreakOrEnd(text_, at) || text_[at] == '#';
  if (!entry.flow && nothingOnLine) {
    entry.start = entry.end = entry.after;
    if (entry.value.IsNull()) return;
    entry.valueOnLaterLines = true;
    const size_t end = lastContentEnd(lineOf(entry.after) + 1, entry.bound, entry.indent, false);
    if (end != std::string::npos) entry.end = end;
    return;
  }
  entry.start = at;
  // Anchors and tags stand before the value; an edit replaces them with it.
  while (at < text_.size() && (text_[at] == '&' || text_[at] == '!')) {
    while (at < text_.size() && !isSpace(text_[at]) && text_[at] != '\n') ++at;
    while (at < text_.size() && isSpace(text_[at])) ++at;
  }
  if (!entry.flow && (isBreakOrEnd(text_, at) || text_[at] == '#')) {
    entry.valueOnLaterLines = true;
    entry.start = entry.after;
    const size_t end = lastContentEnd(lineOf(entry.after) + 1, entry.bound, entry.indent, false);
    entry.end = end == std::string::npos ? entry.after : end;
    return;
  }
  const char c = at < text_.size() ? text_[at] : '\0';
  if (c == '"' || c == '\'') {
    entry.end = quotedEnd(at);
  } else if (c == '[' || c == '{') {
    entry.end = flowEnd(at);
  } else if (!entry.flow && (c == '|' || c == '>')) {
    entry.blockScalar = true;
    size_t header = at;
    while (header < text_.size() && !isSpace(text_[header]) && text_[header] != '\n') ++header;
    const size_t end = lastContentEnd(lineOf(at) + 1, entry.bound, entry.indent, true);
    entry.end = end == std::string::npos ? header : end;
  } else if (!entry.flow && (entry.value.IsMap() || entry.value.IsSequence())) {
    // A block collection that starts on its dash's line ("- type: lstm").
    const size_t end = lastContentEnd(lineOf(at), entry.bound, entry.indent, false);
    entry.end = end == std::string::npos ? lineEnd(lineOf(at)) : end;
  } else {
    entry.end = plainEnd(at, entry.flow, entry.indent, entry.bound);
  }
}

YamlTextEntry YamlTextLayout::locate(const YAML::Node& parent, bool hasKey, const YAML::Node& key,
                                     const YAML::Node& value, bool flow, size_t bound) const {
  YamlTextEntry entry;
  entry.isItem = !hasKey;
  // Fresh handles: reset, because a yaml-cpp Node's operator= writes into the tree.
  entry.parent.reset(parent);
  entry.key.reset(key);
  entry.value.reset(value);
  entry.flow = flow;
  entry.bound = bound;
  if (hasKey) {
    entry.lead = positionOf(key.Mark());
    entry.after = colonAfterKey(entry.lead, flow) + 1;
  } else if (flow) {
    entry.lead = positionOf(value.Mark());
    entry.after = entry.lead;
  } else {
    if (value.IsNull()) cannotPlace("an empty list item");
    entry.lead = dashBefore(positionOf(value.Mark()));
    entry.after = entry.lead + 1;
  }
  entry.indent = entry.lead - starts_[lineOf(entry.lead)];
  findValue(entry);
  return entry;
}

std::vector<YamlTextEntry> YamlTextLayout::entriesOf(const YAML::Node& collection, bool flow,
                                                     size_t bound) const {
  std::vector<std::pair<YAML::Node, YAML::Node>> items;
  const bool isMap = collection.IsMap();
  if (isMap) {
    for (const auto& item : collection) items.emplace_back(item.first, item.second);
  } else if (collection.IsSequence()) {
    for (const auto& item : collection) items.emplace_back(YAML::Node(), item);
  }
  // Each block entry ends where the next begins (the line of its key or dash).
  std::vector<size_t> leads;
  for (const auto& [key, value] : items) {
    if (isMap) {
      leads.push_back(positionOf(key.Mark()));
    } else if (flow || value.IsNull()) {
      leads.push_back(value.IsNull() ? bound : positionOf(value.Mark()));
    } else {
      leads.push_back(dashBefore(positionOf(value.Mark())));
    }
  }
  std::vector<YamlTextEntry> entries;
  for (size_t i = 0; i < items.size(); ++i) {
    const size_t next = i + 1 < items.size() ? starts_[lineOf(leads[i + 1])] : bound;
    entries.push_back(locate(collection, isMap, items[i].first, items[i].second, flow,
                             flow ? bound : std::max(next, leads[i])));
  }
  return entries;
}

std::vector<YamlTextEntry> YamlTextLayout::follow(const YamlKeyPath& path) const {
  std::vector<YamlTextEntry> chain;
  YAML::Node node = root_;
  bool flow = node.Style() == YAML::EmitterStyle::Flow;
  size_t bound = text_.size();
  for (const YamlKeyStep& step : path) {
    if (step.isIndex() ? !node.IsSequence() : !node.IsMap()) break;
    const std::vector<YamlTextEntry> entries = entriesOf(node, flow, bound);
    const YamlTextEntry* found = nullptr;
    if (step.isIndex()) {
      if (static_cast<size_t>(step.index) < entries.size()) found = &entries[step.index];
    } else {
      for (const auto& entry : entries) {
        if (!entry.isItem && entry.key.IsScalar() && entry.key.Scalar() == step.key) {
          found = &entry;
          break;
        }
      }
    }
    if (found == nullptr) break;
    chain.push_back(*found);
    node.reset(found->value);  // operator= would write into the tree
    flow = found->flow || node.Style() == YAML::EmitterStyle::Flow;
    bound = found->bound;
  }
  return chain;
}

}  // namespace mrnn::engine
