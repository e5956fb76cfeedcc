#include "engine/io/script_pickles.h"

#include "engine/io/pickle_cursor.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/io/zip_records.h"

namespace mrnn::engine {
namespace {

// Deeper than any module tree an archive of attributes holds; LibTorch frees nested values
// recursively, so a pickle nesting a million tuples would overflow its stack.
constexpr int kMaxDepth = 64;
constexpr size_t kMaxDimensions = 64;

// The storage globals LibTorch maps to scalar types (pushing the type's number), with the
// numbers c10::ScalarType gives them and their element sizes: the real-valued ones only.
struct ScalarKind {
  int64_t code;
  int64_t bytes;
};
const std::map<std::string, ScalarKind>& storageKinds() {
  static const std::map<std::string, ScalarKind> kinds = {
      {"ByteStorage", {0, 1}},     {"CharStorage", {1, 1}},   {"ShortStorage", {2, 2}},
      {"IntStorage", {3, 4}},      {"LongStorage", {4, 8}},   {"HalfStorage", {5, 2}},
      {"FloatStorage", {6, 4}},    {"DoubleStorage", {7, 8}}, {"BoolStorage", {11, 1}},
      {"BFloat16Storage", {15, 2}}};
  return kinds;
}
int64_t elementBytes(int64_t code) {
  for (const auto& [name, kind] : storageKinds()) {
    if (kind.code == code) return kind.bytes;
  }
  return 0;
}

// A name from the file, fit for a message: printable and short.
std::string shown(const std::string& text) {
  std::string out;
  for (const char c : text.substr(0, 60)) {
    out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  }
  return text.size() > 60 ? out + "..." : out;
}

std::string lowered(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// A value on LibTorch's stack, as far as bounds need it. Tuples keep their items (a tensor's
// sizes, a storage's description); lists and dictionaries only their depth.
struct Item;
using ItemPtr = std::shared_ptr<Item>;
struct Item {
  enum class Kind { None, Bool, Int, Float, String, Tuple, List, Dict, Object, Tensor };
  Kind kind = Kind::None;
  int64_t integer = 0;          // Int, Bool
  std::string text;             // String
  std::vector<ItemPtr> items;   // Tuple
  int depth = 0;                // containers down to the deepest leaf, this one included
  bool sealed = false;          // inside another value: never changed again (so never cyclic)
  int64_t storageElements = 0;  // Tensor: the elements its storage holds
};

// What REDUCE or BUILD does with the global a number on the stack names.
enum class Global { Object, RebuildTensor, OrderedDict, TypedList };

struct Refusal {
  std::string why;
};

class PickleWalk {
 public:
  PickleWalk(const std::string& pickle, const std::string& storageFolder,
             const ArchiveRecordSize& recordSize)
      : cursor_(pickle), storageFolder_(storageFolder), recordSize_(recordSize) {}

  void run() {
    try {
      for (unsigned char op = cursor_.opcode(); op != '.'; op = cursor_.opcode()) step(op);
    } catch (const PickleCutOff& cut) {
      fail(cut.beforeStop ? "ends before its STOP" : "is cut off");
    }
    if (stack_.size() != 1) fail("ends with " + std::to_string(stack_.size()) + " values");
  }
  size_t opcodeAt() const { return cursor_.opcodeAt(); }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw Refusal{why}; }

  const char* take(size_t n) { return cursor_.take(n); }
  uint64_t unsignedLe(size_t n) { return cursor_.unsignedLe(n); }
  std::string line() { return cursor_.line(); }

  ItemPtr make(Item::Kind kind, int64_t integer = 0) {
    auto item = std::make_shared<Item>();
    item->kind = kind;
    item->integer = integer;
    if (kind == Item::Kind::Tuple || kind == Item::Kind::List || kind == Item::Kind::Dict ||
        kind == Item::Kind::Object) {
      item->depth = 1;
    }
    return item;
  }
  void push(ItemPtr item) { stack_.push_back(std::move(item)); }
  // LibTorch's marks are stack heights; a pop below the innermost one leaves it past the end.
  size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
  void need(size_t n) {
    if (stack_.size() - floor() < n) fail("takes more values than it has put on its stack");
  }
  ItemPtr pop() {
    need(1);
    ItemPtr item = stack_.back();
    stack_.pop_back();
    return item;
  }
  size_t popMark() {
    if (marks_.empty()) fail("closes a MARK it never set");
    const size_t mark = marks_.back();
    marks_.pop_back();
    return mark;
  }
  void adopt(Item& container, const ItemPtr& child) {
    child->sealed = true;
    container.depth = std::max(container.depth, child->depth + 1);
    if (container.depth > kMaxDepth) {
      fail("nests values more than " + std::to_string(kMaxDepth) + " deep");
    }
  }
  ItemPtr tupleOf(std::vector<ItemPtr> items) {
    ItemPtr tuple = make(Item::Kind::Tuple);
    for (const ItemPtr& item : items) adopt(*tuple, item);
    tuple->items = std::move(items);
    return tuple;
  }
  std::vector<ItemPtr> popFrom(size_t mark) {
    std::vector<ItemPtr> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
    stack_.resize(mark);
    return items;
  }

  void step(unsigned char op);
  void memo(unsigned char op);
  void number(unsigned char op);
  void container(unsigned char op);
  void global();
  void call();
  void persistentId();
  void rebuildTensor(const Item& args);
  void fill(Item::Kind kind);

  PickleCursor cursor_;
  const std::string& storageFolder_;
  const ArchiveRecordSize& recordSize_;
  std::vector<ItemPtr> stack_;
  std::vector<size_t> marks_;
  std::vector<ItemPtr> memo_;
  std::vector<Global> globals_;
};

void PickleWalk::step(unsigned char op) {
  switch (op) {
    case 0x80:  // PROTO
      take(1);
      return;
    case 'c':
      return global();
    case 'q':
    case 'r':
    case 'h':
    case 'j':  // BINPUT, LONG_BINPUT, BINGET, LONG_BINGET
      return memo(op);
    case 'K':
    case 'M':
    case 'J':
    case 0x8a:
    case 'G':
    case 'N':
    case 0x88:
    case 0x89:
      return number(op);
    case 'X': {  // BINUNICODE: LibTorch reserves the declared length before reading
      const uint64_t length = unsignedLe(4);
      if (length > cursor_.remaining()) {
        fail("declares a string of " + std::to_string(length) + " bytes where " +
             std::to_string(cursor_.remaining()) + " remain");
      }
      ItemPtr text = make(Item::Kind::String);
      text->text.assign(take(length), length);
      return push(text);
    }
    case '(':  // MARK
      marks_.push_back(stack_.size());
      return;
    case ')':
    case 't':
    case 0x85:
    case 0x86:
    case 0x87:
    case ']':
    case '}':
    case 'l':
    case 'e':
    case 'u':
      return container(op);
    case 0x81:  // NEWOBJ: LibTorch drops the argument tuple; the class's number stays
      pop();
      return;
    case 'b':
    case 'R':  // BUILD, REDUCE
      return call();
    case 'Q':  // BINPERSID
      return persistentId();
    default: {
      static const char* digits = "0123456789abcdef";
      fail(std::string("holds instruction 0x") + digits[op >> 4] + digits[op & 15] +
           ", which no LibTorch archive of attributes holds");
    }
  }
}

void PickleWalk::memo(unsigned char op) {
  const uint64_t id = unsignedLe(op == 'q' || op == 'h' ? 1 : 4);
  if (op == 'h' || op == 'j') {
    if (id >= memo_.size()) fail("recalls memo " + std::to_string(id) + ", never stored");
    return push(memo_[id]);
  }
  // LibTorch grows its memo table to the number given; a writer numbers them in turn.
  if (id != memo_.size()) {
    fail("stores memo " + std::to_string(id) + " out of turn (" + std::to_string(memo_.size()) +
         " are stored)");
  }
  if (stack_.empty()) fail("stores a memo of an empty stack");
  memo_.push_back(stack_.back());
}

void PickleWalk::number(unsigned char op) {
  switch (op) {
    case 'K':
      return push(make(Item::Kind::Int, static_cast<int64_t>(unsignedLe(1))));
    case 'M':
      return push(make(Item::Kind::Int, static_cast<int64_t>(unsignedLe(2))));
    case 'J':
      return push(
          make(Item::Kind::Int, static_cast<int32_t>(static_cast<uint32_t>(unsignedLe(4)))));
    case 0x8a:  // LONG1: LibTorch reads eight bytes, whatever the length says
      if (unsignedLe(1) != 8) fail("holds an integer of other than eight bytes");
      return push(make(Item::Kind::Int, static_cast<int64_t>(unsignedLe(8))));
    case 'G':
      take(8);
      return push(make(Item::Kind::Float));
    case 'N':
      return push(make(Item::Kind::None));
    default:
      return push(make(Item::Kind::Bool, op == 0x88 ? 1 : 0));
  }
}

void PickleWalk::container(unsigned char op) {
  switch (op) {
    case ')':
      return push(make(Item::Kind::Tuple));
    case ']':
      return push(make(Item::Kind::List));
    case '}':
      return push(make(Item::Kind::Dict));
    case 't':
      return push(tupleOf(popFrom(popMark())));
    case 0x85:
    case 0x86:
    case 0x87: {
      const size_t n = static_cast<size_t>(op - 0x84);
      need(n);
      return push(tupleOf(popFrom(stack_.size() - n)));
    }
    case 'l': {
      ItemPtr list = make(Item::Kind::List);
      for (const ItemPtr& item : popFrom(popMark())) adopt(*list, item);
      return push(list);
    }
    case 'e':
      return fill(Item::Kind::List);
    default:
      return fill(Item::Kind::Dict);
  }
}

// APPENDS and SETITEMS: the values above the innermost mark go into the list or dictionary
// just below it.
void PickleWalk::fill(Item::Kind kind) {
  const size_t mark = popMark();
  if (mark == 0 || stack_[mark - 1]->kind != kind) {
    fail(kind == Item::Kind::List ? "appends to something not a list"
                                  : "sets items of something not a dictionary");
  }
  ItemPtr target = stack_[mark - 1];
  std::vector<ItemPtr> items = popFrom(mark);
  if (kind == Item::Kind::Dict) {
    if (items.size() % 2 != 0) fail("sets a key without a value");
    for (size_t i = 0; i < items.size(); i += 2) {
      const Item::Kind key = items[i]->kind;
      if (key != Item::Kind::String && key != Item::Kind::Int && key != Item::Kind::Bool &&
          key != Item::Kind::Float && key != Item::Kind::None) {
        fail("keys a dictionary by a value that cannot be a key");
      }
    }
  }
  for (const ItemPtr& item : items) adopt(*target, item);
  if (target->sealed) fail("changes a value already inside another");
}

void PickleWalk::global() {
  const std::string module = line();
  const std::string name = line();
  if (module == "torch") {
    const auto found = storageKinds().find(name);
    if (found == storageKinds().end()) {
      fail("names 'torch." + shown(name) + "', which no archive of attributes holds");
    }
    return push(make(Item::Kind::Int, found->second.code));
  }
  Global kind;
  if (module == "torch._utils" && name == "_rebuild_tensor_v2") {
    kind = Global::RebuildTensor;
  } else if (module == "collections" && name == "OrderedDict") {
    kind = Global::OrderedDict;
  } else if (module == "torch.jit._pickle" &&
             (name == "build_intlist" || name == "build_tensorlist" || name == "build_doublelist" ||
              name == "build_boollist")) {
    kind = Global::TypedList;
  } else if ((module == "__torch__" || module.rfind("__torch__.", 0) == 0) && !name.empty()) {
    kind = Global::Object;  // a class of the archive's own source
  } else {
    fail("names '" + shown(module) + "." + shown(name) + "', which no archive of attributes holds");
  }
  globals_.push_back(kind);
  push(make(Item::Kind::Int, static_cast<int64_t>(globals_.size() - 1)));
}

void PickleWalk::call() {
  need(2);
  ItemPtr args = pop();
  ItemPtr callable = pop();
  if (callable->kind != Item::Kind::Int || callable->integer < 0 ||
      static_cast<uint64_t>(callable->integer) >= globals_.size()) {
    fail("calls something other than a global it named");
  }
  switch (globals_[static_cast<size_t>(callable->integer)]) {
    case Global::Object: {
      if (args->kind != Item::Kind::Dict) fail("builds an object from something not a dictionary");
      ItemPtr object = make(Item::Kind::Object);
      adopt(*object, args);
      return push(object);
    }
    case Global::RebuildTensor:
      return rebuildTensor(*args);
    case Global::OrderedDict:
      return push(make(Item::Kind::None));
    case Global::TypedList:
      if (args->kind != Item::Kind::Tuple || args->items.empty() ||
          args->items[0]->kind != Item::Kind::List) {
        fail("builds a typed list from something not a list");
      }
      return push(args->items[0]);
  }
}

// LibTorch makes a storage of the elements the pickle declares over the record's bytes,
// however few there are: the record must hold them.
void PickleWalk::persistentId() {
  ItemPtr id = pop();
  const auto is = [&](size_t i, Item::Kind kind) {
    return id->items.size() > i && id->items[i]->kind == kind;
  };
  if (id->kind != Item::Kind::Tuple || id->items.size() != 5 || !is(0, Item::Kind::String) ||
      id->items[0]->text != "storage" || !is(1, Item::Kind::Int) || !is(2, Item::Kind::String) ||
      !is(3, Item::Kind::String) || !is(4, Item::Kind::Int)) {
    fail("refers to tensor data in a form no LibTorch writes");
  }
  if (storageFolder_.empty()) fail("refers to tensor data, which it cannot hold");
  const int64_t bytes = elementBytes(id->items[1]->integer);
  if (bytes == 0) fail("refers to tensor data of an unknown type");
  const std::string& device = id->items[3]->text;
  if (device != "cpu" && device.rfind("cuda", 0) != 0) {
    fail("places tensor data on device '" + shown(device) + "'");
  }
  const std::string& key = id->items[2]->text;
  const int64_t elements = id->items[4]->integer;
  if (elements < 0) fail("declares a storage of fewer than no elements");
  if (elements > 0) {
    const std::optional<uint64_t> size = recordSize_(storageFolder_ + key);
    if (!size) fail("refers to storage '" + shown(key) + "', which the archive lacks");
    if (static_cast<uint64_t>(elements) > *size / static_cast<uint64_t>(bytes)) {
      fail("declares " + std::to_string(elements) + " elements of storage '" + shown(key) +
           "', which holds " + std::to_string(*size) + " bytes");
    }
  }
  ItemPtr tensor = make(Item::Kind::Tensor);
  tensor->storageElements = elements;
  push(tensor);
}

// LibTorch sets the view the pickle gives (offset, sizes, strides) on the storage without
// asking whether it lies inside it.
void PickleWalk::rebuildTensor(const Item& args) {
  const auto ints = [](const ItemPtr& tuple) {
    if (tuple->kind != Item::Kind::Tuple || tuple->items.size() > kMaxDimensions) return false;
    return std::all_of(tuple->items.begin(), tuple->items.end(), [](const ItemPtr& item) {
      return item->kind == Item::Kind::Int && item->integer >= 0;
    });
  };
  if (args.kind != Item::Kind::Tuple || args.items.size() != 6 ||
      args.items[0]->kind != Item::Kind::Tensor || args.items[1]->kind != Item::Kind::Int ||
      args.items[1]->integer < 0 || !ints(args.items[2]) || !ints(args.items[3]) ||
      args.items[2]->items.size() != args.items[3]->items.size() ||
      args.items[4]->kind != Item::Kind::Bool) {
    fail("rebuilds a tensor from arguments no LibTorch writes");
  }
  const int64_t storage = args.items[0]->storageElements;
  const auto& sizes = args.items[2]->items;
  const auto& strides = args.items[3]->items;
  // The view's last element must lie inside the storage, and its elements be no more than the
  // storage's (a view by stride 0 over a huge size would make every copy of it huge). Checked
  // dimension by dimension, so that the arithmetic never overflows.
  const bool empty = std::any_of(sizes.begin(), sizes.end(),
                                 [](const ItemPtr& size) { return size->integer == 0; });
  if (!empty) {
    const auto elements = static_cast<uint64_t>(storage);
    uint64_t last = static_cast<uint64_t>(args.items[1]->integer);
    if (last >= elements)
      fail("views elements past the end of its storage of " + std::to_string(storage));
    uint64_t count = 1;
    for (size_t d = 0; d < sizes.size(); ++d) {
      const auto size = static_cast<uint64_t>(sizes[d]->integer);
      const auto stride = static_cast<uint64_t>(strides[d]->integer);
      if (stride != 0 && size - 1 > (elements - 1 - last) / stride) {
        fail("views elements past the end of its storage of " + std::to_string(storage));
      }
      last += (size - 1) * stride;
      if (size > elements / count) {
        fail("views more elements than its storage of " + std::to_string(storage) + " holds");
      }
      count *= size;
    }
  }
  ItemPtr tensor = make(Item::Kind::Tensor);
  tensor->storageElements = storage;
  push(tensor);
}

}  // namespace

std::string scriptPickleProblem(const std::string& pickle, const std::string& storageFolder,
                                const ArchiveRecordSize& recordSize) {
  PickleWalk walk(pickle, storageFolder, recordSize);
  try {
    walk.run();
    return {};
  } catch (const Refusal& refusal) {
    return refusal.why + " (pickle byte " + std::to_string(walk.opcodeAt()) + ")";
  }
}

std::string scriptPicklesProblem(const std::string& archive) {
  try {
    ZipRecords zip = ZipRecords::inMemory(archive);
    std::map<std::string, uint64_t> sizes;  // by the lower-case name
    for (const ZipEntry& entry : zip.entries()) sizes[lowered(entry.name)] = entry.size;
    const ArchiveRecordSize recordSize = [&](const std::string& name) -> std::optional<uint64_t> {
      const auto found = sizes.find(lowered(name));
      if (found == sizes.end()) return std::nullopt;
      return found->second;
    };
    if (zip.entries().empty()) return "its zip archive holds no files";
    const std::string& first = zip.entries().front().name;
    const std::string folder = first.substr(0, first.find('/') + 1);
    if (recordSize(folder + "model.json")) {
      return "it holds a model.json, the layout of archives LibTorch reads another way";
    }
    for (const ZipEntry& entry : zip.entries()) {
      const std::string name = lowered(entry.name);
      const auto endsWith = [&](const std::string& suffix) {
        return name.size() >= suffix.size() &&
               name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
      };
      if (!endsWith(".pkl") && !endsWith(".debug_pkl")) continue;
      // data.pkl's storages lie in data/ beside it; no other pickle of an archive of
      // attributes holds any (constants.pkl is an empty tuple).
      const std::string storages = name == lowered(folder) + "data.pkl" ? folder + "data/" : "";
      const std::string problem =
          scriptPickleProblem(zip.read(entry, archive.size()), storages, recordSize);
      if (!problem.empty()) return "its pickle '" + shown(entry.name) + "' " + problem;
    }
    return {};
  } catch (const std::runtime_error& error) {
    return error.what();
  }
}

}  // namespace mrnn::engine
