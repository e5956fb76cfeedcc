// A LibTorch archive's pickles are walked with LibTorch's own stack rules before LibTorch reads
// them: what a TorchScript archive of attributes holds passes, and every length, memo, mark,
// storage or view that would make LibTorch reserve or read past what the file holds is refused.

#include <string>

#include "engine/io/script_pickles.h"
#include "test_harness.h"

using namespace mrnn;

namespace {

std::string pickleLe32(uint32_t value) {
  std::string bytes(4, '\0');
  for (int i = 0; i < 4; ++i) bytes[i] = static_cast<char>((value >> (8 * i)) & 0xff);
  return bytes;
}
std::string pickleText(const std::string& value) {  // BINUNICODE
  return "X" + pickleLe32(static_cast<uint32_t>(value.size())) + value;
}
std::string pickleInt(uint32_t value) {  // BININT
  return "J" + pickleLe32(value);
}

// A tensor of `storageElements` floats in record "archive/data/0", viewed at `offset` with
// one dimension of `size` elements `stride` apart.
std::string tensorPickle(uint32_t storageElements, uint32_t offset, uint32_t size,
                         uint32_t stride) {
  return std::string("\x80\x02") + "ctorch._utils\n_rebuild_tensor_v2\n" + "(" + "(" +
         pickleText("storage") + "ctorch\nFloatStorage\n" + pickleText("0") + pickleText("cpu") +
         pickleInt(storageElements) + "tQ" + pickleInt(offset) + "(" + pickleInt(size) + "t" + "(" +
         pickleInt(stride) + "t" + "\x89" + "N" + "tR.";
}

// Record "archive/data/0" holds 40 bytes (ten floats); there is no other.
std::string pickleProblem(const std::string& pickle) {
  return engine::scriptPickleProblem(pickle, "archive/data/",
                                     [](const std::string& name) -> std::optional<uint64_t> {
                                       if (name == "archive/data/0") return 40;
                                       return std::nullopt;
                                     });
}

bool mentions(const std::string& problem, const std::string& words) {
  return problem.find(words) != std::string::npos;
}

}  // namespace

MRNN_TEST(what_an_archive_of_attributes_holds_passes) {
  EXPECT_EQ(pickleProblem(std::string("\x80\x02).", 4)), std::string());
  const std::string object = std::string("\x80\x02") + "c__torch__\nModule\n" +
                             std::string("q\0", 2) + ")\x81}(" + pickleText("step") + "K\x07" +
                             pickleText("name") + pickleText("x") + "ub.";
  EXPECT_EQ(pickleProblem(object), std::string());
  EXPECT_EQ(pickleProblem(tensorPickle(10, 0, 10, 1)), std::string());
  EXPECT_EQ(pickleProblem(tensorPickle(10, 9, 1, 1)), std::string());
  EXPECT_EQ(pickleProblem(tensorPickle(10, 0, 5, 2)), std::string());
  EXPECT_EQ(pickleProblem(tensorPickle(10, 50, 0, 1)), std::string());  // no elements, anywhere
  const std::string list =
      std::string("ctorch.jit._pickle\nbuild_intlist\n") + "](K\x01K\x02" + "e\x85R.";
  EXPECT_EQ(pickleProblem(list), std::string());
}

MRNN_TEST(lengths_and_memo_numbers_beyond_the_pickle_are_refused) {
  EXPECT(mentions(pickleProblem("X" + pickleLe32(0xfffffff0u) + "abc."),
                  "declares a string of 4294967280 bytes"));
  EXPECT(mentions(pickleProblem(std::string(")q\x05.", 4)), "stores memo 5 out of turn"));
  EXPECT(mentions(pickleProblem(")r" + pickleLe32(0xffffffffu) + "."),
                  "stores memo 4294967295 out of turn"));
  EXPECT(mentions(pickleProblem(std::string("h\x03.", 3)), "recalls memo 3, never stored"));
  EXPECT(mentions(pickleProblem("K"), "is cut off"));
  EXPECT(mentions(pickleProblem(")"), "ends before its STOP"));
}

MRNN_TEST(stacks_marks_and_nesting_that_would_break_libtorch_are_refused) {
  EXPECT(
      mentions(pickleProblem(std::string("K\x01(\x85.", 5)), "takes more values than it has put"));
  EXPECT(mentions(pickleProblem("t."), "closes a MARK it never set"));
  EXPECT(mentions(pickleProblem("}(" + pickleText("a") + "u."), "sets a key without a value"));
  EXPECT(mentions(pickleProblem(")" + std::string(100, '\x85') + "."),
                  "nests values more than 64 deep"));
  // A list put inside itself (LibTorch would never free it).
  EXPECT(mentions(pickleProblem(std::string("]q\x00(h\x00"
                                            "e.",
                                            8)),
                  "changes a value already inside"));
  EXPECT(mentions(pickleProblem("K\x01K\x02."), "ends with 2 values"));
  EXPECT(mentions(pickleProblem("K\x05)R."), "calls something other than a global it named"));
}

MRNN_TEST(globals_and_instructions_outside_an_archive_of_attributes_are_refused) {
  EXPECT(mentions(pickleProblem("cos\nsystem\n."), "names 'os.system'"));
  EXPECT(mentions(pickleProblem("ctorch\nComplexFloatStorage\n."),
                  "names 'torch.ComplexFloatStorage'"));
  EXPECT(mentions(pickleProblem("S'x'\n."), "holds instruction 0x53"));
}

MRNN_TEST(storages_and_views_past_their_bytes_are_refused) {
  EXPECT(mentions(pickleProblem(tensorPickle(11, 0, 11, 1)),
                  "declares 11 elements of storage '0', which "
                  "holds 40 bytes"));
  EXPECT(mentions(pickleProblem(tensorPickle(10, 10, 1, 1)), "views elements past the end"));
  EXPECT(mentions(pickleProblem(tensorPickle(10, 0, 6, 2)), "views elements past the end"));
  EXPECT(mentions(pickleProblem(tensorPickle(10, 0, 0x7fffffff, 0x7fffffff)), "past the end"));
  EXPECT(mentions(pickleProblem(tensorPickle(10, 0, 1000, 0)),
                  "views more elements than its storage"));
  // A storage the archive lacks, and one in a pickle that may hold none.
  std::string other = tensorPickle(10, 0, 10, 1);
  other.replace(other.find(pickleText("0")), pickleText("0").size(), pickleText("7"));
  EXPECT(mentions(pickleProblem(other), "refers to storage '7', which the archive lacks"));
  EXPECT(mentions(engine::scriptPickleProblem(tensorPickle(10, 0, 10, 1), "",
                                              [](const std::string&) { return std::nullopt; }),
                  "refers to tensor data, which it cannot hold"));
}
