// The trainer's note when a validation reads worse than a uniform guess while training reads
// better (engine/training/held_out_note.h).

#include <cmath>
#include <limits>
#include <string>

#include "engine/training/held_out_note.h"
#include "test_harness.h"

using mrnn::engine::worseThanUniformNote;

// The figures of a Mogrifier (r 5, k 40, H 256) on tiny shakespeare at step 40: its
// validation text, read from a zero state, drives |c| past 800 while training reads 3.2.
MRNN_TEST(a_validation_worse_than_uniform_while_training_is_better_gets_a_note) {
  const auto note = worseThanUniformNote(12.673, 3.2342, 65);
  EXPECT(note.has_value());
  if (!note) return;
  for (const std::string part : {"12.67 bits/symbol", "65 symbols (6.02)", "read 3.23",
                                 "zero state", "What a held-out figure measures"}) {
    EXPECT_MSG(note->find(part) != std::string::npos, "no '" << part << "' in: " << *note);
  }
}

MRNN_TEST(no_note_when_the_figures_do_not_say_so) {
  // Validation better than uniform: overfitting or not, nothing to say here.
  EXPECT(!worseThanUniformNote(5.9, 3.2, 65));
  // Training no better than uniform either: the model has not learnt or has diverged.
  EXPECT(!worseThanUniformNote(12.7, 7.0, 65));
  EXPECT(!worseThanUniformNote(12.7, std::log2(65.0), 65));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT(!worseThanUniformNote(nan, 3.2, 65));
  EXPECT(!worseThanUniformNote(inf, 3.2, 65));
  EXPECT(!worseThanUniformNote(12.7, nan, 65));
  EXPECT(!worseThanUniformNote(12.7, 0.0, 1));  // one symbol: no guess to be worse than
  // A word-level vocabulary of 10,000: uniform is 13.29 bits.
  EXPECT(!worseThanUniformNote(13.0, 6.0, 10000));
  EXPECT(worseThanUniformNote(13.5, 6.0, 10000).has_value());
}

// A trial at lr 1000 finished "done" at 5,241 bits/symbol without a word.
MRNN_TEST(a_run_that_ends_worse_than_a_uniform_guess_says_so) {
  using mrnn::engine::endedWorseThanUniformNote;
  const auto note = endedWorseThanUniformNote(5241.0, 21, true);
  EXPECT(note.has_value());
  if (note) {
    EXPECT_MSG(note->find("ended at 5241.00 bits/symbol, worse than a uniform guess over 21 "
                          "symbols (4.39)") != std::string::npos,
               *note);
    EXPECT_MSG(note->find("learning rate") != std::string::npos, *note);
  }
  // Hessian-free has no learning rate to blame: a run whose damping ran away was told "a
  // learning rate far too high is the usual cause".
  const auto hessianFree = endedWorseThanUniformNote(6.03, 65, false);
  EXPECT(hessianFree.has_value());
  if (hessianFree)
    EXPECT_MSG(hessianFree->find("learning rate") == std::string::npos, *hessianFree);
  EXPECT(!endedWorseThanUniformNote(4.3, 21, true));
  EXPECT(!endedWorseThanUniformNote(0.0, 21, true));  // no figure
  EXPECT(!endedWorseThanUniformNote(std::numeric_limits<double>::infinity(), 21, true));
  EXPECT(!endedWorseThanUniformNote(9.0, 1, true));
}

MRNN_TEST(a_validation_says_what_it_cost) {
  using mrnn::engine::validationCostText;
  EXPECT_EQ(validationCostText(6.24, 0.043), "(read in 6.2 s; validation 4% of the time so far)");
  EXPECT_EQ(validationCostText(0.0, 0.5), "");  // read back from a store: not known
}
