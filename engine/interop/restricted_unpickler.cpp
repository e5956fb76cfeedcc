#include "engine/interop/restricted_unpickler.h"

#include "engine/io/pickle_cursor.h"

#include <torch/torch.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

namespace mrnn::engine {
namespace {

// A value on the pickle machine's stack. Containers are shared, as pickle's memo shares them.
struct Value;
using ValuePtr = std::shared_ptr<Value>;
struct Value {
  enum class Kind {
    None,
    Bool,
    Int,
    Float,
    String,
    Tuple,
    List,
    Dict,
    Global,
    Tensor,
    Storage,
    Mark
  };
  Kind kind = Kind::None;
  int64_t integer = 0;
  double real = 0.0;
  std::string text;                                    // String; Global: "module.name"
  std::vector<ValuePtr> items;                         // Tuple, List
  std::vector<std::pair<ValuePtr, ValuePtr>> entries;  // Dict, in insertion order
  torch::Tensor tensor;                                // Tensor, Storage
};

// The storages torch.save names, and their element types.
const std::map<std::string, torch::ScalarType>& storageTypes() {
  static const std::map<std::string, torch::ScalarType> types = {
      {"torch.FloatStorage", torch::kFloat32}, {"torch.DoubleStorage", torch::kFloat64},
      {"torch.HalfStorage", torch::kFloat16},  {"torch.BFloat16Storage", torch::kBFloat16},
      {"torch.LongStorage", torch::kInt64},    {"torch.IntStorage", torch::kInt32},
      {"torch.ShortStorage", torch::kInt16},   {"torch.CharStorage", torch::kInt8},
      {"torch.ByteStorage", torch::kUInt8},    {"torch.BoolStorage", torch::kBool}};
  return types;
}

// Tensors torch.save can write that a language model's weights never are: named, so that the
// message says what the file holds rather than calling it code.
const std::map<std::string, std::string>& unreadKinds() {
  static const std::map<std::string, std::string> kinds = {
      {"torch.ComplexFloatStorage", "a complex-valued tensor"},
      {"torch.ComplexDoubleStorage", "a complex-valued tensor"},
      {"torch.ComplexHalfStorage", "a complex-valued tensor"},
      {"torch.QInt8Storage", "a quantized tensor"},
      {"torch.QUInt8Storage", "a quantized tensor"},
      {"torch.QInt32Storage", "a quantized tensor"},
      {"torch.QUInt4x2Storage", "a quantized tensor"},
      {"torch.QUInt2x4Storage", "a quantized tensor"},
      {"torch._utils._rebuild_qtensor", "a quantized tensor"},
      {"torch._utils._rebuild_sparse_tensor", "a sparse tensor"},
      {"torch._utils._rebuild_sparse_csr_tensor", "a sparse tensor"},
      {"torch._utils._rebuild_meta_tensor_no_storage",
       "a tensor without data (on the meta device)"},
      {"torch._utils._rebuild_wrapper_subclass", "a tensor of a tensor subclass"},
      {"torch._utils._rebuild_nested_tensor", "a nested tensor"}};
  return kinds;
}

// Views of more dimensions than this are no state dict's.
constexpr size_t kMaxDimensions = 64;

// The only callables a state dict needs (those torch.load(weights_only=True) allows for one).
const std::set<std::string>& allowedGlobals() {
  static const std::set<std::string> globals = {
      "collections.OrderedDict", "torch._utils._rebuild_tensor_v2",
      "torch._utils._rebuild_parameter", "torch._utils._rebuild_parameter_with_state"};
  return globals;
}

class Machine {
 public:
  Machine(const std::string& file, const std::string& pickle,
          const RestrictedUnpickler::StorageLoader& storages)
      : file_(file), cursor_(pickle), storages_(storages) {}
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Values are released one by one, never by a chain of destructors: a pickle can nest lists a
  // hundred thousand deep (or put a list inside itself, through the memo) in a few bytes.
  ~Machine() {
    for (const ValuePtr& value : values_) {
      value->items.clear();
      value->entries.clear();
    }
  }

  ValuePtr run() {
    try {
      for (unsigned char op = cursor_.opcode(); op != '.'; op = cursor_.opcode()) step(op);
    } catch (const PickleCutOff& cut) {
      fail(cut.beforeStop ? "the pickle ends before its STOP" : "the pickle is truncated");
    }
    if (stack_.size() != 1) fail("the pickle leaves " + std::to_string(stack_.size()) + " values");
    return stack_.back();
  }

 private:
  ValuePtr make(Value::Kind kind) {
    auto value = std::make_shared<Value>();
    value->kind = kind;
    values_.push_back(value);
    return value;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw InteropError("'" + file_ + "' cannot be read: " + why + " (pickle byte " +
                       std::to_string(cursor_.opcodeAt()) + ")");
  }

  const char* take(size_t n) { return cursor_.take(n); }
  uint64_t unsignedLe(size_t n) { return cursor_.unsignedLe(n); }
  std::string line() { return cursor_.line(); }

  ValuePtr pop() {
    if (stack_.empty() || stack_.back()->kind == Value::Kind::Mark)
      fail("the pickle's stack runs out");
    ValuePtr value = stack_.back();
    stack_.pop_back();
    return value;
  }
  std::vector<ValuePtr> popToMark() {
    std::vector<ValuePtr> values;
    while (!stack_.empty() && stack_.back()->kind != Value::Kind::Mark) {
      values.insert(values.begin(), stack_.back());
      stack_.pop_back();
    }
    if (stack_.empty()) fail("the pickle has no MARK");
    stack_.pop_back();
    return values;
  }
  ValuePtr& top() {
    if (stack_.empty()) fail("the pickle's stack runs out");
    return stack_.back();
  }
  void pushInteger(int64_t value) {
    auto v = make(Value::Kind::Int);
    v->integer = value;
    stack_.push_back(v);
  }
  void pushString(std::string text) {
    auto v = make(Value::Kind::String);
    v->text = std::move(text);
    stack_.push_back(v);
  }
  void pushTuple(std::vector<ValuePtr> items) {
    auto v = make(Value::Kind::Tuple);
    v->items = std::move(items);
    stack_.push_back(v);
  }
  void memoGet(uint64_t key) {
    auto found = memo_.find(key);
    if (found == memo_.end())
      fail("the pickle refers to memo " + std::to_string(key) + ", never stored");
    stack_.push_back(found->second);
  }
  void setItems(const ValuePtr& dict, const std::vector<ValuePtr>& flat) {
    if (dict->kind != Value::Kind::Dict)
      fail("the pickle sets items of something not a dictionary");
    for (size_t i = 0; i + 1 < flat.size(); i += 2)
      dict->entries.emplace_back(flat[i], flat[i + 1]);
  }

  void step(unsigned char op);
  ValuePtr reduce(const ValuePtr& callable, const ValuePtr& args);
  ValuePtr persistentLoad(const ValuePtr& id);

  std::string file_;
  PickleCursor cursor_;
  const RestrictedUnpickler::StorageLoader& storages_;
  std::vector<ValuePtr> stack_;
  std::map<uint64_t, ValuePtr> memo_;
  std::map<std::string, torch::Tensor> loadedStorages_;
  std::vector<ValuePtr> values_;  // every value made, for ~Machine
};

void Machine::step(unsigned char op) {
  using K = Value::Kind;
  switch (op) {
    case 0x80:
      take(1);
      break;  // PROTO
    case 0x95:
      take(8);
      break;  // FRAME
    case '(':
      stack_.push_back(make(K::Mark));
      break;  // MARK
    case '}':
      stack_.push_back(make(K::Dict));
      break;
    case ']':
      stack_.push_back(make(K::List));
      break;
    case ')':
      pushTuple({});
      break;
    case 'N':
      stack_.push_back(make(K::None));
      break;
    case 0x88:
    case 0x89: {  // NEWTRUE, NEWFALSE
      auto v = make(K::Bool);
      v->integer = op == 0x88;
      stack_.push_back(v);
      break;
    }
    case 'K':
      pushInteger(static_cast<int64_t>(unsignedLe(1)));
      break;
    case 'M':
      pushInteger(static_cast<int64_t>(unsignedLe(2)));
      break;
    case 'J':
      pushInteger(static_cast<int32_t>(unsignedLe(4)));
      break;
    case 0x8a: {  // LONG1
      const auto n = static_cast<size_t>(unsignedLe(1));
      if (n > 8) fail("the pickle holds an integer of " + std::to_string(n) + " bytes");
      uint64_t value = n ? unsignedLe(n) : 0;
      if (n && n < 8 && (value >> (8 * n - 1)) & 1) value |= ~uint64_t{0} << (8 * n);
      pushInteger(static_cast<int64_t>(value));
      break;
    }
    case 'G': {  // BINFLOAT, big-endian
      const auto* bytes = reinterpret_cast<const unsigned char*>(take(8));
      uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits = (bits << 8) | bytes[i];
      auto v = make(K::Float);
      std::memcpy(&v->real, &bits, sizeof bits);
      stack_.push_back(v);
      break;
    }
    case 'X': {
      const auto n = unsignedLe(4);
      pushString(std::string(take(n), n));
      break;
    }
    case 0x8c: {
      const auto n = unsignedLe(1);
      pushString(std::string(take(n), n));
      break;
    }
    case 'T': {
      const auto n = unsignedLe(4);
      pushString(std::string(take(n), n));
      break;
    }
    case 'U': {
      const auto n = unsignedLe(1);
      pushString(std::string(take(n), n));
      break;
    }
    case 'q':
      memo_[unsignedLe(1)] = top();
      break;  // BINPUT
    case 'r':
      memo_[unsignedLe(4)] = top();
      break;  // LONG_BINPUT
    case 0x94:
      memo_[memo_.size()] = top();
      break;  // MEMOIZE
    case 'h':
      memoGet(unsignedLe(1));
      break;  // BINGET
    case 'j':
      memoGet(unsignedLe(4));
      break;  // LONG_BINGET
    case 't':
      pushTuple(popToMark());
      break;
    case 0x85: {
      auto a = pop();
      pushTuple({a});
      break;
    }
    case 0x86: {
      auto b = pop();
      auto a = pop();
      pushTuple({a, b});
      break;
    }
    case 0x87: {
      auto c = pop();
      auto b = pop();
      auto a = pop();
      pushTuple({a, b, c});
      break;
    }
    case 'l': {
      auto v = make(K::List);
      v->items = popToMark();
      stack_.push_back(v);
      break;
    }
    case 'd': {
      auto v = make(K::Dict);
      setItems(v, popToMark());
      stack_.push_back(v);
      break;
    }
    case 'a': {
      auto item = pop();
      if (top()->kind != K::List) fail("the pickle appends to something not a list");
      top()->items.push_back(item);
      break;
    }
    case 'e': {
      auto items = popToMark();
      if (top()->kind != K::List) fail("the pickle appends to something not a list");
      auto& list = top()->items;
      list.insert(list.end(), items.begin(), items.end());
      break;
    }
    case 's': {
      auto value = pop();
      auto key = pop();
      setItems(top(), {key, value});
      break;
    }
    case 'u': {
      auto flat = popToMark();
      setItems(top(), flat);
      break;
    }
    case 'c': {  // GLOBAL
      std::string module = line();
      std::string name = module + "." + line();
      if (const auto kind = unreadKinds().find(name); kind != unreadKinds().end()) {
        fail("it holds " + kind->second + " (" + name +
             "); only real-valued float, integer and bool tensors are read");
      }
      if (!allowedGlobals().count(name) && !storageTypes().count(name)) {
        fail("it names " + name + ", which is code, not data; only tensors and dictionaries " +
             "are read (as torch.load(weights_only=True) does)");
      }
      auto v = make(K::Global);
      v->text = name;
      stack_.push_back(v);
      break;
    }
    case 'R': {
      auto args = pop();
      auto callable = pop();
      stack_.push_back(reduce(callable, args));
      break;
    }
    case 'Q': {
      auto id = pop();
      stack_.push_back(persistentLoad(id));
      break;
    }
    case 'b':
      pop();
      break;  // BUILD: an OrderedDict's attributes (_metadata), not needed
    default: {
      char code[8];
      std::snprintf(code, sizeof code, "0x%02x", op);
      fail(std::string("it holds pickle opcode ") + code + ", which a state dict never uses");
    }
  }
}

ValuePtr Machine::reduce(const ValuePtr& callable, const ValuePtr& args) {
  if (callable->kind != Value::Kind::Global || args->kind != Value::Kind::Tuple) {
    fail("the pickle calls something that is not an allowed function");
  }
  const auto& a = args->items;
  if (callable->text == "collections.OrderedDict") return make(Value::Kind::Dict);
  if (callable->text == "torch._utils._rebuild_tensor_v2") {
    if (a.size() < 4 || a[0]->kind != Value::Kind::Storage || a[1]->kind != Value::Kind::Int ||
        a[2]->kind != Value::Kind::Tuple || a[3]->kind != Value::Kind::Tuple) {
      fail("a tensor's description is malformed");
    }
    std::vector<int64_t> sizes, strides;
    for (const auto& s : a[2]->items) {
      if (s->kind != Value::Kind::Int) fail("a tensor's size is not an integer");
      sizes.push_back(s->integer);
    }
    for (const auto& s : a[3]->items) {
      if (s->kind != Value::Kind::Int) fail("a tensor's stride is not an integer");
      strides.push_back(s->integer);
    }
    if (sizes.size() != strides.size())
      fail("a tensor has " + std::to_string(sizes.size()) + " sizes and " +
           std::to_string(strides.size()) + " strides");
    if (sizes.size() > kMaxDimensions) {
      fail("a tensor has " + std::to_string(sizes.size()) + " dimensions");
    }
    const torch::Tensor& storage = a[0]->tensor;
    const int64_t offset = a[1]->integer;
    int64_t last = offset;
    int64_t elements = 1;
    bool overflow = false;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] < 0 || strides[d] < 0) fail("a tensor has a negative size or stride");
      int64_t span = 0;
      overflow = overflow || __builtin_mul_overflow(sizes[d], elements, &elements) ||
                 (sizes[d] > 0 && (__builtin_mul_overflow(sizes[d] - 1, strides[d], &span) ||
                                   __builtin_add_overflow(last, span, &last)));
    }
    if (offset < 0 || overflow || (elements > 0 && last >= storage.numel())) {
      fail("a tensor reaches past the end of its storage");
    }
    // Each element its own: an expanded view would be copied into more memory than the file.
    if (elements > storage.numel()) {
      fail("a tensor of " + std::to_string(elements) + " elements views a storage of " +
           std::to_string(storage.numel()) + "; overlapping (expanded) tensors are not read");
    }
    auto result = make(Value::Kind::Tensor);
    result->tensor = storage.as_strided(sizes, strides, a[1]->integer).contiguous().clone();
    return result;
  }
  // _rebuild_parameter(data, requires_grad, hooks[, state]): the data is the tensor.
  if (a.empty() || a[0]->kind != Value::Kind::Tensor)
    fail("a parameter's description is malformed");
  return a[0];
}

ValuePtr Machine::persistentLoad(const ValuePtr& id) {
  const auto& p = id->items;
  if (id->kind != Value::Kind::Tuple || p.size() < 5 || p[0]->kind != Value::Kind::String ||
      p[0]->text != "storage" || p[1]->kind != Value::Kind::Global ||
      p[2]->kind != Value::Kind::String || p[4]->kind != Value::Kind::Int) {
    fail("it refers to data other than a tensor storage");
  }
  const auto type = storageTypes().find(p[1]->text);
  if (type == storageTypes().end()) fail("it holds a storage of type " + p[1]->text);
  if (p[4]->integer < 0) {
    fail("a storage declares " + std::to_string(p[4]->integer) + " elements");
  }
  const std::string& key = p[2]->text;
  auto found = loadedStorages_.find(key);
  if (found == loadedStorages_.end()) {
    found = loadedStorages_.emplace(key, storages_(key, type->second, p[4]->integer)).first;
  }
  auto v = make(Value::Kind::Storage);
  v->tensor = found->second;
  return v;
}

// Nested dictionaries give dotted names; a dictionary that holds itself (the memo allows it)
// is cut off by the depth limit.
void flatten(const ValuePtr& dict, const std::string& prefix, NamedTensors& out, int depth = 0) {
  if (depth > 16) return;
  for (const auto& [key, value] : dict->entries) {
    if (key->kind != Value::Kind::String) continue;
    const std::string name = prefix + key->text;
    if (value->kind == Value::Kind::Tensor) out.emplace_back(name, value->tensor);
    if (value->kind == Value::Kind::Dict) flatten(value, name + ".", out, depth + 1);
  }
}

}  // namespace

std::string shapeText(const torch::IntArrayRef& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

RestrictedUnpickler::RestrictedUnpickler(std::string file, StorageLoader storages)
    : file_(std::move(file)), storages_(std::move(storages)) {}

NamedTensors RestrictedUnpickler::stateDict(const std::string& pickle) const {
  Machine machine(file_, pickle, storages_);
  const ValuePtr root = machine.run();
  if (root->kind != Value::Kind::Dict) {
    throw InteropError("'" + file_ + "' holds no dictionary of tensors (a state dict)");
  }
  NamedTensors tensors;
  flatten(root, "", tensors);
  return tensors;
}

}  // namespace mrnn::engine
