#include "engine/config/yaml_text_editor.h"

#include <algorithm>

#include "engine/config/yaml_text_layout.h"

namespace mrnn::engine {
namespace {

// ---- The differences between two trees ----

struct DiffState {
  YamlKeyPath path;
  std::vector<std::vector<std::string>> order;  // keysBefore for each step of `path`
  std::vector<YamlEdit> sets;
  std::vector<YamlEdit> removals;
};

YamlEdit editAt(const DiffState& state) {
  YamlEdit edit;
  edit.path = state.path;
  edit.keysBefore = state.order;
  edit.orderKnown = true;
  return edit;
}

// The removal of the entry `step` under the current path.
void removeAt(const YamlKeyStep& step, DiffState& state) {
  state.path.push_back(step);
  state.order.emplace_back();
  YamlEdit edit = editAt(state);
  edit.remove = true;
  state.removals.push_back(edit);
  state.path.pop_back();
  state.order.pop_back();
}

void differ(const YAML::Node& from, const YAML::Node& to, DiffState& state) {
  if (from.IsMap() && to.IsMap()) {
    std::vector<std::string> before;
    for (const auto& entry : to) {
      const std::string key = entry.first.Scalar();
      state.path.push_back({key, -1});
      state.order.push_back(before);
      const YAML::Node old = from[key];
      if (old) {
        differ(old, entry.second, state);
      } else {
        YamlEdit edit = editAt(state);
        edit.value = YAML::Clone(entry.second);
        edit.added = true;
        state.sets.push_back(edit);
      }
      state.path.pop_back();
      state.order.pop_back();
      before.push_back(key);
    }
    for (const auto& entry : from) {
      const std::string key = entry.first.Scalar();
      if (!to[key]) removeAt({key, -1}, state);
    }
    return;
  }
  if (from.IsSequence() && to.IsSequence()) {
    const size_t common = std::min(from.size(), to.size());
    for (size_t i = 0; i < to.size(); ++i) {
      state.path.push_back({"", static_cast<int64_t>(i)});
      state.order.emplace_back();
      if (i < common) {
        differ(from[i], to[i], state);
      } else {
        YamlEdit edit = editAt(state);
        edit.value = YAML::Clone(to[i]);
        state.sets.push_back(edit);
      }
      state.path.pop_back();
      state.order.pop_back();
    }
    for (size_t i = from.size(); i > to.size(); --i) {
      removeAt({"", static_cast<int64_t>(i - 1)}, state);
    }
    return;
  }
  if (sameYamlTree(from, to)) return;
  YamlEdit edit = editAt(state);
  edit.value = YAML::Clone(to);
  state.sets.push_back(edit);
}

// ---- Writing values as text ----

std::string spaces(size_t count) {
  return std::string(count, ' ');
}

bool isCollection(const YAML::Node& node) {
  return node.IsMap() || node.IsSequence();
}

// A scalar as one line of YAML, in the quoting `quote` asks for when it can ('"', '\'' or
// plain: the emitter quotes what needs it).
std::string scalarText(const YAML::Node& node, char quote = '\0') {
  if (node.IsNull()) return "null";
  YAML::Emitter out;
  if (quote == '"') out << YAML::DoubleQuoted;
  if (quote == '\'') out << YAML::SingleQuoted;
  out << node.Scalar();
  return out.c_str();
}

std::string flowText(const YAML::Node& node) {
  if (!isCollection(node)) return scalarText(node);
  YAML::Emitter out;
  out << YAML::Flow << node;
  return out.c_str();
}

// A block collection's lines, each indented by `indent`, without a final newline.
std::string blockText(const YAML::Node& node, size_t indent) {
  YAML::Emitter out;
  out.SetIndent(2);
  out << YAML::Block << node;
  const std::string emitted = out.c_str();
  std::string text;
  size_t at = 0;
  while (at <= emitted.size()) {
    size_t end = emitted.find('\n', at);
    if (end == std::string::npos) end = emitted.size();
    if (end > at)
      text += (text.empty() ? "" : "\n") + spaces(indent) + emitted.substr(at, end - at);
    at = end + 1;
  }
  return text;
}

// A string as a block scalar in the style its old header asked for ('|' keeps lines, '>'
// folds), its content lines indented by `indent`; empty when the string cannot be written so.
std::string blockScalarText(const std::string& value, char style, size_t indent) {
  if (value.empty() || value.front() == ' ' || value.front() == '\n' ||
      value.find('\t') != std::string::npos || value.find('\r') != std::string::npos) {
    return "";
  }
  std::string body = value;
  std::string chomp = "-";
  if (!body.empty() && body.back() == '\n') {
    body.pop_back();
    chomp = "";
    if (!body.empty() && body.back() == '\n') return "";  // keep ("+") is not worth guessing
  }
  if (body.find("\n") != std::string::npos) style = '|';
  std::string text(1, style);
  text += chomp;
  const size_t width = indent < 60 ? 100 - indent : 40;
  size_t at = 0;
  while (at < body.size()) {
    size_t end = style == '|' ? body.find('\n', at) : std::string::npos;
    if (end == std::string::npos) end = body.size();
    if (style == '>' && end - at > width) {
      // Fold at a single space between two words: folding turns the line break back into it.
      size_t cut = body.rfind(' ', at + width);
      while (cut != std::string::npos && cut > at &&
             (body[cut - 1] == ' ' || cut + 1 >= body.size() || body[cut + 1] == ' ')) {
        cut = body.rfind(' ', cut - 1);
      }
      if (cut != std::string::npos && cut > at) end = cut;
    }
    text += "\n" + spaces(indent) + body.substr(at, end - at);
    at = end + 1;
  }
  return text;
}

// ---- Applying one edit ----

class TextEdit {
 public:
  explicit TextEdit(const std::string& text) : layout_(text), text_(text) {}

  std::string apply(const YamlEdit& edit) {
    const std::vector<YamlTextEntry> chain = layout_.follow(edit.path);
    if (edit.remove) {
      if (chain.size() == edit.path.size()) remove(chain);
      return text_;
    }
    if (chain.size() == edit.path.size()) {
      replace(chain.back(), edit.value);
      return text_;
    }
    addMissing(chain, edit);
    return text_;
  }

 private:
  void splice(size_t from, size_t to, const std::string& with) {
    text_ = text_.substr(0, from) + with + text_.substr(to);
  }

  // A value rewritten on its line keeps the comment after it in its column, where at least one
  // space is left: comments aligned with their neighbours, or with their own next line, stay so.
  void spliceBeforeComment(size_t from, size_t to, const std::string& with) {
    size_t hash = to;
    while (hash < text_.size() && text_[hash] == ' ') ++hash;
    if (hash == to || hash == text_.size() || text_[hash] != '#') {
      splice(from, to, with);
      return;
    }
    const size_t column = columns(text_.substr(from, to - from)) + (hash - to);
    const size_t written = columns(with);
    splice(from, hash, with + spaces(column > written ? column - written : 1));
  }

  // Columns as a terminal shows them: UTF-8's continuation bytes take none.
  static size_t columns(const std::string& text) {
    size_t n = 0;
    for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
  }

  // The value `edit.path` asks for from step `from` on, as new mappings (and a first item).
  static YAML::Node nested(const YamlEdit& edit, size_t from) {
    YAML::Node value = YAML::Clone(edit.value);
    for (size_t i = edit.path.size(); i-- > from;) {
      YAML::Node holder(edit.path[i].isIndex() ? YAML::NodeType::Sequence : YAML::NodeType::Map);
      if (edit.path[i].isIndex()) {
        if (edit.path[i].index != 0) {
          throw YamlPathError("'" + formatYamlKeyPath(edit.path) +
                              "': " + formatYamlKeyPath(edit.path, i) + " has no item [" +
                              std::to_string(edit.path[i].index) + "]");
        }
        holder.push_back(value);
      } else {
        holder[edit.path[i].key] = value;
      }
      value.reset(holder);
    }
    return value;
  }

  void replace(const YamlTextEntry& entry, const YAML::Node& value) {
    const std::string& t = layout_.text();
    if (entry.flow) {
      const std::string written = flowText(value);
      // A key with nothing after its colon needs a space before the value; a list item
      // (whose value starts where it does) keeps the spacing it has.
      const bool bareKey = !entry.isItem && entry.start == entry.after;
      splice(entry.start, entry.end, bareKey ? " " + written : written);
      return;
    }
    const bool wasFlow = !entry.valueOnLaterLines && entry.end > entry.start &&
                         (t[entry.start] == '[' || t[entry.start] == '{');
    if (!isCollection(value) || value.size() == 0 || wasFlow) {
      if (entry.valueOnLaterLines || entry.start == entry.end) {
        spliceBeforeComment(entry.after, entry.end, " " + flowText(value));
        return;
      }
      if (entry.blockScalar && value.IsScalar()) {
        size_t contentIndent = entry.indent + 2;
        const size_t next = layout_.lineOf(entry.start) + 1;
        if (next < layout_.lineCount() && !layout_.isBlank(next)) {
          contentIndent = std::max(contentIndent, layout_.indentOf(next));
        }
        const std::string block = blockScalarText(value.Scalar(), t[entry.start], contentIndent);
        if (!block.empty()) {
          splice(entry.start, entry.end, block);
          return;
        }
      }
      const char quote = t[entry.start] == '"' || t[entry.start] == '\'' ? t[entry.start] : '\0';
      spliceBeforeComment(entry.start, entry.end,
                          value.IsScalar() ? scalarText(value, quote) : flowText(value));
      return;
    }
    const std::string block = blockText(value, entry.indent + 2);
    if (!entry.isItem) {
      splice(entry.after, entry.end, "\n" + block);
    } else {
      splice(entry.after, entry.end, " " + block.substr(entry.indent + 2));
    }
  }

  void remove(const std::vector<YamlTextEntry>& chain) {
    const YamlTextEntry& entry = chain.back();
    const std::string& t = layout_.text();
    if (entry.flow) {
      size_t from = entry.lead;
      size_t to = entry.end;
      size_t next = to;
      while (next < t.size() && (t[next] == ' ' || t[next] == '\n')) ++next;
      if (next < t.size() && t[next] == ',') {
        to = next + 1;
        while (to < t.size() && t[to] == ' ') ++to;
      } else {
        size_t previous = from;
        while (previous > 0 && (t[previous - 1] == ' ' || t[previous - 1] == '\n')) --previous;
        if (previous > 0 && t[previous - 1] == ',') from = previous - 1;
      }
      splice(from, to, "");
      return;
    }
    if (entry.parent.size() == 1 && chain.size() >= 2) {
      // The last entry of a block mapping or list: what remains is an empty one.
      replace(chain[chain.size() - 2],
              YAML::Node(entry.parent.IsMap() ? YAML::NodeType::Map : YAML::NodeType::Sequence));
      return;
    }
    const size_t line = layout_.lineOf(entry.lead);
    if (layout_.indentOf(line) == entry.indent) {
      splice(layout_.lineStart(line), layout_.lineAfter(entry), "");
      return;
    }
    // The first key of a list item ("- type: lstm"): the next key moves up beside the dash.
    const auto siblings = layout_.entriesOf(entry.parent, false, entry.bound);
    if (siblings.size() < 2) throw YamlPathError("the text cannot be edited in place");
    splice(entry.lead, siblings[1].lead, "");
  }

  void addMissing(const std::vector<YamlTextEntry>& chain, const YamlEdit& edit) {
    const size_t depth = chain.size();
    const YamlKeyStep& step = edit.path[depth];
    YAML::Node holder = depth == 0 ? layout_.root() : chain.back().value;
    const bool holderFlow = depth == 0
                                ? holder.Style() == YAML::EmitterStyle::Flow
                                : chain.back().flow || holder.Style() == YAML::EmitterStyle::Flow;
    const size_t bound = depth == 0 ? layout_.text().size() : chain.back().bound;
    if (!step.isIndex() && holder.IsMap()) {
      const bool ordered = edit.orderKnown && depth < edit.keysBefore.size();
      insertKey(holder, holderFlow, bound, depth == 0 ? nullptr : &chain.back(), step.key,
                nested(edit, depth + 1), ordered ? &edit.keysBefore[depth] : nullptr);
      return;
    }
    if (step.isIndex() && holder.IsSequence() && static_cast<size_t>(step.index) == holder.size()) {
      appendItem(holder, holderFlow, bound, depth == 0 ? nullptr : &chain.back(),
                 nested(edit, depth + 1));
      return;
    }
    if (depth > 0 && (holder.IsNull() || holder.IsScalar())) {
      replace(chain.back(), nested(edit, depth));
      return;
    }
    if (depth == 0 && holder.IsNull()) {
      const std::string& t = layout_.text();
      const std::string tail = t.empty() || t.back() == '\n' ? "" : "\n";
      text_ = t + tail + blockText(nested(edit, 0), 0) + "\n";
      return;
    }
    throw YamlPathError("'" + formatYamlKeyPath(edit.path) +
                        "': " + formatYamlKeyPath(edit.path, depth + 1) + " cannot be added here");
  }

  // Where a flow collection opening at `open` closes: before its last bracket and spaces.
  size_t beforeClose(size_t open) const {
    size_t at = layout_.flowEnd(open) - 1;
    while (at > open + 1 && (layout_.text()[at - 1] == ' ' || layout_.text()[at - 1] == '\n')) {
      --at;
    }
    return at;
  }

  size_t openingOf(const YamlTextEntry* holderEntry) const {
    if (holderEntry != nullptr) return holderEntry->start;
    size_t at = 0;
    const std::string& t = layout_.text();
    while (at < t.size() && t[at] != '{' && t[at] != '[') ++at;
    return at;
  }

  // The start of the first line from `at` on that is not a comment indented deeper than
  // `indent`: such lines carry on the comment of the entry above them, and what is inserted after
  // that entry goes after them (a blank line or a comment at the entries' own depth stops it).
  size_t pastContinuedComments(size_t at, size_t indent) const {
    const std::string& t = layout_.text();
    while (at < t.size()) {
      const size_t text = t.find_first_not_of(' ', at);
      if (text == std::string::npos || t[text] != '#' || text - at <= indent) break;
      const size_t end = t.find('\n', text);
      if (end == std::string::npos) return t.size();
      at = end + 1;
    }
    return at;
  }

  // Text to insert at `at` as whole lines.
  void insertLines(size_t at, const std::string& lines) {
    const std::string& t = layout_.text();
    const bool needsBreak = at == t.size() && !t.empty() && t.back() != '\n';
    splice(at, at, (needsBreak ? "\n" : "") + lines + "\n");
  }

  void insertKey(const YAML::Node& holder, bool flow, size_t bound,
                 const YamlTextEntry* holderEntry, const std::string& key, const YAML::Node& value,
                 const std::vector<std::string>* keysBefore) {
    const std::string keyText = scalarText(YAML::Node(key));
    if (flow) {
      const size_t at = beforeClose(openingOf(holderEntry));
      splice(at, at, (holder.size() > 0 ? ", " : "") + keyText + ": " + flowText(value));
      return;
    }
    const auto entries = layout_.entriesOf(holder, false, bound);
    const YamlTextEntry* anchor = keysBefore == nullptr ? &entries.back() : nullptr;
    for (size_t i = keysBefore == nullptr ? 0 : keysBefore->size(); i-- > 0 && !anchor;) {
      for (const auto& entry : entries) {
        if (entry.key.Scalar() == (*keysBefore)[i]) anchor = &entry;
      }
    }
    const size_t indent = entries.front().indent;
    const size_t firstLine = layout_.lineOf(entries.front().lead);
    size_t at = 0;
    if (anchor != nullptr) {
      at = pastContinuedComments(layout_.lineAfter(*anchor), indent);
    } else if (layout_.indentOf(firstLine) == indent) {
      at = layout_.lineStart(firstLine);
    } else {
      at = pastContinuedComments(layout_.lineAfter(entries.back()), indent);
    }
    const std::string written =
        isCollection(value) && value.size() > 0 && value.Style() != YAML::EmitterStyle::Flow
            ? ":\n" + blockText(value, indent + 2)
            : ": " + flowText(value);
    insertLines(at, spaces(indent) + keyText + written);
  }

  void appendItem(const YAML::Node& holder, bool flow, size_t bound,
                  const YamlTextEntry* holderEntry, const YAML::Node& value) {
    if (flow) {
      const size_t at = beforeClose(openingOf(holderEntry));
      splice(at, at, (holder.size() > 0 ? ", " : "") + flowText(value));
      return;
    }
    const auto entries = layout_.entriesOf(holder, false, bound);
    const size_t indent = entries.front().indent;
    std::string item = isCollection(value) && value.size() > 0
                           ? blockText(value, indent + 2)
                           : spaces(indent + 2) + flowText(value);
    insertLines(pastContinuedComments(layout_.lineAfter(entries.back()), indent),
                spaces(indent) + "- " + item.substr(indent + 2));
  }

  YamlTextLayout layout_;
  std::string text_;
};

}  // namespace

std::vector<YamlEdit> yamlDifferences(const YAML::Node& from, const YAML::Node& to) {
  DiffState state;
  differ(from, to, state);
  std::vector<YamlEdit> edits = std::move(state.sets);
  for (auto& removal : state.removals) edits.push_back(std::move(removal));
  return edits;
}

void takeKeyOrder(YamlEdit& edit, const YAML::Node& model) {
  edit.keysBefore.assign(edit.path.size(), {});
  edit.orderKnown = false;
  YAML::Node node = model;
  for (size_t i = 0; i < edit.path.size(); ++i) {
    const YamlKeyStep& step = edit.path[i];
    if (step.isIndex()) {
      const YAML::Node& lookup = node;
      if (!node.IsSequence() || static_cast<size_t>(step.index) >= node.size()) return;
      node.reset(lookup[static_cast<size_t>(step.index)]);
      continue;
    }
    const YAML::Node& lookup = node;  // the const operator[] adds no key
    if (!node.IsMap() || !lookup[step.key]) return;
    for (const auto& entry : node) {
      if (entry.first.Scalar() == step.key) break;
      edit.keysBefore[i].push_back(entry.first.Scalar());
    }
    // Known for the whole path once the last key is found in the model.
    if (i + 1 == edit.path.size()) edit.orderKnown = true;
    node.reset(lookup[step.key]);
  }
}

std::string applyYamlEdits(const std::string& text, const std::vector<YamlEdit>& edits) {
  std::string current = text;
  for (const YamlEdit& edit : edits) current = TextEdit(current).apply(edit);
  return current;
}

bool sameYamlTree(const YAML::Node& a, const YAML::Node& b) {
  const bool aNull = !a || a.IsNull();
  const bool bNull = !b || b.IsNull();
  if (aNull || bNull) return aNull == bNull;
  if (a.Type() != b.Type()) return false;
  if (a.IsScalar()) return a.Scalar() == b.Scalar();
  if (a.size() != b.size()) return false;
  if (a.IsSequence()) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (!sameYamlTree(a[i], b[i])) return false;
    }
    return true;
  }
  for (const auto& entry : a) {
    const YAML::Node other = b[entry.first.Scalar()];
    if (!other || !sameYamlTree(entry.second, other)) return false;
  }
  return true;
}

}  // namespace mrnn::engine
