#pragma once

#include <string>

namespace mrnn::engine {
struct Project;
class Vocabulary;
}  // namespace mrnn::engine

namespace mrnn::widgets {

// The passage the gate inspector offers first: dialogue in quotes, for the units that track
// them. A model that cannot read it is shown the start of its validation text instead.
const char* examplePassage();

// What the gates are recorded on when the user left the panel's example passage in place.
struct ExamplePassage {
  std::string text;
  bool fromValidation = false;  // the example had a symbol the model never saw
  std::string split;            // "valid" or "test": the start of that split was asked for
};

// `example` when the model reads every symbol of it; else the start of the project's
// validation text (up to `maxSymbols`, in whole lines where that leaves most of it), which the
// model reads by construction: a model of lower-case text, or of Shakespeare (no double
// quotes), cannot read the example. When the project has no such text, `example` again, and the
// analysis says which symbol it cannot read. Call on the job's thread: it may read the corpus.
ExamplePassage examplePassageFor(const std::string& example, const engine::Project& project,
                                 const engine::Vocabulary& vocabulary, size_t maxSymbols = 320);

// The start of the project's held-out split `split` ("valid" or "test"), up to `maxSymbols`, in
// whole lines as above. Throws std::runtime_error saying why there is none (no data section, a
// corpus gone). Call on the job's thread.
ExamplePassage heldOutPassage(const engine::Project& project, const engine::Vocabulary& vocabulary,
                              const std::string& split, size_t maxSymbols = 320);

}  // namespace mrnn::widgets
