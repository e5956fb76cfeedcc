#include "engine/config/kept_edits.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>

#include "engine/config/config_error.h"
#include "engine/config/yaml_reader.h"
#include "engine/io/atomic_file.h"

namespace mrnn::engine {
namespace {

// Ends the header; the text follows it whole. The header's values are double-quoted, so no
// value can hold this line.
const std::string kMarker = "\n...\n";

std::string hex(uint64_t value) {
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(value));
  return digits;
}

int lineOf(const std::string& text, size_t offset) {
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

}  // namespace

std::string keptEditsFileText(const KeptEdits& edits) {
  YAML::Emitter header;
  header << YAML::BeginMap;
  header << YAML::Key << "project" << YAML::Value << YAML::DoubleQuoted << edits.project;
  header << YAML::Key << "kept_at" << YAML::Value << YAML::DoubleQuoted << edits.keptAt;
  header << YAML::Key << "based_on" << YAML::Value << YAML::DoubleQuoted << hex(edits.basedOn);
  header << YAML::Key << "text_bytes" << YAML::Value << static_cast<long long>(edits.text.size());
  if (edits.draft) header << YAML::Key << "draft" << YAML::Value << true;
  header << YAML::EndMap;
  return "# Unsaved edits of the project below, kept by mRNN Workbench, which offers them back\n"
         "# when it opens the project. The project's text, as the window had it, follows the\n"
         "# line \"...\".\n" +
         std::string(header.c_str()) + kMarker + edits.text;
}

KeptEdits parseKeptEdits(const std::string& contents, const std::string& file) {
  const size_t marker = contents.find(kMarker);
  if (marker == std::string::npos) {
    throw ConfigError(file, 0, 0, "",
                      "no line \"...\" ends the header: this is not a file of kept edits, or it "
                      "was not written whole");
  }
  const YAML::Node root = loadYamlText(contents.substr(0, marker + 1), file);
  YamlReader reader(file);
  reader.expectMap(root, "", {"project", "kept_at", "based_on", "text_bytes", "draft"});
  for (const char* key : {"project", "kept_at", "based_on", "text_bytes"}) {
    if (!root[key]) reader.fail(root, key, "is missing");
  }
  KeptEdits edits;
  edits.project = reader.text(root, "", "project", "");
  edits.keptAt = reader.text(root, "", "kept_at", "");
  const std::string basedOn = reader.text(root, "", "based_on", "");
  if (basedOn.size() != 16 || basedOn.find_first_not_of("0123456789abcdef") != std::string::npos) {
    reader.failAtKey("based_on", "'" + basedOn + "' is not 16 hexadecimal digits");
  }
  edits.basedOn = std::stoull(basedOn, nullptr, 16);
  edits.draft = reader.boolean(root, "", "draft", false);
  const auto bytes = static_cast<uint64_t>(
      reader.integer(root, "", "text_bytes", 0, 0, static_cast<int64_t>(kMaxTextFileBytes)));
  const size_t start = marker + kMarker.size();
  const uint64_t present = contents.size() - start;
  if (present != bytes) {
    throw ConfigError(file, lineOf(contents, start), 0, "text_bytes",
                      "the project's text is " + std::to_string(present) + " bytes, not the " +
                          std::to_string(bytes) +
                          " its header gives: the file was not written "
                          "whole, or was changed since");
  }
  edits.text = contents.substr(start);
  return edits;
}

}  // namespace mrnn::engine
