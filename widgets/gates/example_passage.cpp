#include "widgets/gates/example_passage.h"

#include <stdexcept>

#include "engine/analysis/held_out_text.h"
#include "engine/config/project_file.h"
#include "engine/data/vocabulary.h"

namespace mrnn::widgets {

namespace {

bool readsEverySymbol(const engine::Vocabulary& vocabulary, const std::string& text) {
  try {
    vocabulary.encode(text);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace

const char* examplePassage() {
  return "The old sailor looked at the sea and said \"the wind will turn before night\", then "
         "went back to his nets.\nNobody on the quay believed him, but by evening every boat "
         "was in.";
}

ExamplePassage heldOutPassage(const engine::Project& project, const engine::Vocabulary& vocabulary,
                              const std::string& split, size_t maxSymbols) {
  std::string text;
  try {
    const engine::CorpusSplit held = engine::heldOutSplit(project, vocabulary, split);
    text = vocabulary.decode(engine::splitIds(held, static_cast<int64_t>(maxSymbols)));
  } catch (const std::exception& error) {
    throw std::runtime_error("the project's " +
                             std::string(split == "test" ? "test" : "validation") +
                             " split cannot be read: " + error.what());
  }
  // Whole lines read better, as long as a good part of the passage is left.
  const size_t lineEnd = text.rfind('\n');
  if (lineEnd != std::string::npos && lineEnd >= text.size() / 3) text.resize(lineEnd + 1);
  const size_t firstEnd = text.find('\n');
  if (firstEnd != std::string::npos && firstEnd < text.size() / 3) text.erase(0, firstEnd + 1);
  text.erase(0, text.find_first_not_of('\n'));
  if (text.empty()) throw std::runtime_error("the project's " + split + " split is empty");
  ExamplePassage passage;
  passage.text = text;
  passage.split = split;
  return passage;
}

ExamplePassage examplePassageFor(const std::string& example, const engine::Project& project,
                                 const engine::Vocabulary& vocabulary, size_t maxSymbols) {
  if (readsEverySymbol(vocabulary, example)) return {example, false, ""};
  try {
    ExamplePassage passage = heldOutPassage(project, vocabulary, "valid", maxSymbols);
    return {passage.text, true, ""};
  } catch (const std::exception&) {
    return {example, false, ""};  // no readable text of the project's: the analysis names it
  }
}

}  // namespace mrnn::widgets
