// The file that keeps a project's unsaved edits (engine/config/kept_edits.h): the text comes
// back byte for byte, whatever it holds, and a damaged file is named with the line at fault.

#include "engine/config/kept_edits.h"
#include "engine/config/config_error.h"
#include "engine/io/fnv1a.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

engine::KeptEdits edits(const std::string& project, const std::string& text) {
  engine::KeptEdits kept;
  kept.project = project;
  kept.keptAt = "2026-12-07T18:40:00Z";
  kept.basedOn = engine::fnv1a("name: before\n");
  kept.text = text;
  return kept;
}

}  // namespace

MRNN_TEST(kept_edits_come_back_byte_for_byte) {
  const std::vector<std::string> texts = {
      "name: a\n# a comment\nmodel: {}\n",
      "",
      "no final newline",
      "trailing spaces   \n\n\n\n",
      "crlf: yes\r\nsecond: line\r\n",
      "\t tabs and \"quotes\" and 'single' and \\ backslashes\n",
      "a line that is the marker:\n...\n---\n...\n",
      "unicode: \xc3\xa9t\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x99\x82\n",
      std::string("a NUL \0 inside\n", 16),
  };
  const std::vector<std::string> paths = {"/home/r/project.yaml", "/tmp/odd \"name\"\n...\n.yaml",
                                          "C:\\Users\\r\\project.yaml"};
  for (const auto& path : paths) {
    for (const auto& text : texts) {
      const auto back = engine::parseKeptEdits(engine::keptEditsFileText(edits(path, text)), "k");
      EXPECT_EQ(back.project, path);
      EXPECT_EQ(back.text, text);
      EXPECT_EQ(back.keptAt, std::string("2026-12-07T18:40:00Z"));
      EXPECT_EQ(back.basedOn, engine::fnv1a("name: before\n"));
    }
  }
}

// Text typed in the YAML view that did not read yet is marked as such, and back as such; a file
// without the mark (an earlier workbench's) holds a project's text.
MRNN_TEST(a_draft_is_marked_and_back_as_a_draft) {
  auto typed = edits("/home/r/project.yaml", "model:\n  layers: [\n");
  typed.draft = true;
  const std::string file = engine::keptEditsFileText(typed);
  EXPECT(engine::parseKeptEdits(file, "k").draft);
  EXPECT(
      !engine::parseKeptEdits(engine::keptEditsFileText(edits("/p.yaml", "name: a\n")), "k").draft);
}

MRNN_TEST(the_digest_tells_texts_apart) {
  EXPECT(engine::fnv1a("a") != engine::fnv1a("b"));
  EXPECT(engine::fnv1a("") != engine::fnv1a(std::string(1, '\0')));
  EXPECT_EQ(engine::fnv1a("same"), engine::fnv1a("same"));
}

MRNN_TEST(a_damaged_kept_edits_file_is_named_with_the_place_at_fault) {
  const std::string whole = engine::keptEditsFileText(edits("/p/project.yaml", "name: x\n"));
  // Cut short: the text is not all there.
  EXPECT_THROWS_WITH(engine::ConfigError,
                     engine::parseKeptEdits(whole.substr(0, whole.size() - 2), "kept.yaml"),
                     "kept.yaml", "not written whole");
  // No header's end at all.
  EXPECT_THROWS_WITH(engine::ConfigError, engine::parseKeptEdits("project: \"/p\"\n", "kept.yaml"),
                     "kept.yaml", "...");
  // A key missing, a key unknown, a digest that is no digest, a size out of range.
  EXPECT_THROWS_WITH(engine::ConfigError,
                     engine::parseKeptEdits("project: \"/p\"\n...\n", "kept.yaml"), "kept_at",
                     "missing");
  EXPECT_THROWS_WITH(
      engine::ConfigError,
      engine::parseKeptEdits("project: /p\nkept_at: x\nbased_on: \"0000000000000000\"\n"
                             "text_bytes: 0\ncolour: red\n...\n",
                             "kept.yaml"),
      "colour", "unknown key");
  EXPECT_THROWS_WITH(engine::ConfigError,
                     engine::parseKeptEdits("project: /p\nkept_at: x\nbased_on: zz\n"
                                            "text_bytes: 0\n...\n",
                                            "kept.yaml"),
                     "kept.yaml:3", "based_on", "hexadecimal");
  EXPECT_THROWS_WITH(engine::ConfigError,
                     engine::parseKeptEdits("project: /p\nkept_at: x\nbased_on: "
                                            "\"0000000000000000\"\ntext_bytes: 99999999999999\n"
                                            "...\n",
                                            "kept.yaml"),
                     "text_bytes", "out of range");
  EXPECT_THROWS_WITH(engine::ConfigError, engine::parseKeptEdits("- a list\n...\n", "kept.yaml"),
                     "mapping");
  EXPECT_THROWS_WITH(engine::ConfigError, engine::parseKeptEdits("project: [\n...\n", "kept.yaml"),
                     "kept.yaml:");
}
