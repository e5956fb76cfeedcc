#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mrnn::engine {

class MappedFile;

// A split's symbols as ids, stored in the narrowest unsigned type that holds the vocabulary
// (1, 2 or 4 bytes per symbol). Byte-level corpora are memory-mapped straight from the file,
// so a 100 MB corpus costs its own size at most.
class TokenStream {
 public:
  TokenStream();
  ~TokenStream();
  TokenStream(TokenStream&&) noexcept;
  TokenStream& operator=(TokenStream&&) noexcept;
  // Copies share the storage (cheap): a copy is another view of the same ids.
  TokenStream(const TokenStream&);
  TokenStream& operator=(const TokenStream&);

  // An owned stream of the given ids, stored in the width `vocabularySize` needs (0: the
  // largest id + 1). Throws std::invalid_argument for an id outside the vocabulary.
  static TokenStream fromIds(const std::vector<int64_t>& ids, int64_t vocabularySize = 0);
  // The bytes of a mapped file as ids, without a copy (byte level).
  static TokenStream fromMappedFile(std::shared_ptr<const MappedFile> file);

  int64_t size() const;
  int bytesPerSymbol() const;
  int64_t at(int64_t index) const;  // throws std::out_of_range outside [0, size())
  // Copies `count` ids starting at `start` into `out`, widened to int64.
  void copy(int64_t start, int64_t count, int64_t* out) const;
  // A view of [start, start + count) sharing the storage.
  TokenStream slice(int64_t start, int64_t count) const;
  // Memory held by this stream's storage (mapped or owned), in bytes.
  int64_t storageBytes() const;

  class Storage;  // defined in token_storage.h: owned narrow array or memory map
  explicit TokenStream(std::shared_ptr<const Storage> storage, int64_t start, int64_t count);

 private:
  std::shared_ptr<const Storage> storage_;
  int64_t start_ = 0;
  int64_t count_ = 0;
};

}  // namespace mrnn::engine
