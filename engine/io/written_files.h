#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mrnn::engine {

// The files a tool wrote into a folder it shares with its user (a data set's download folder),
// kept in a ledger file there, so that it deletes or replaces only its own: a file is the
// tool's while it has the size and modification time recorded when it was written. A file the
// user put there, or changed since, is the user's and is never touched.
class WrittenFiles {
 public:
  struct Stamp {
    uint64_t size = 0;
    int64_t modifiedNs = 0;
    bool operator==(const Stamp& other) const {
      return size == other.size && modifiedNs == other.modifiedNs;
    }
  };

  // The ledger's name inside the folder.
  static constexpr const char* kLedgerName = ".mrnn-downloads";
  // A ledger holds a few dozen lines; one longer than this is not ours and is read as empty.
  static constexpr uint64_t kMaxLedgerBytes = uint64_t{1} << 20;

  // Reads `<folder>/.mrnn-downloads` when there is one; a missing, unreadable or damaged ledger
  // counts nothing as written (the safe reading: nothing is deleted on its word).
  explicit WrittenFiles(std::string folder);

  // Whether the regular file at `relative` (inside the folder) is one this tool wrote and
  // nobody has changed since.
  bool wrote(const std::string& relative) const;

  // Records the files now at these paths as written by this tool and saves the ledger
  // atomically. Throws std::runtime_error naming the ledger when it cannot be saved.
  void record(const std::vector<std::string>& relatives);
  // Forgets a file (after deleting it) and saves the ledger; a file not recorded is a no-op.
  void forget(const std::string& relative);

  // The ledger's lines ("<size> <modified ns> <relative path>") as a map; lines that are
  // malformed or name a path outside the folder ("..", absolute) are dropped.
  static std::map<std::string, Stamp> parse(const std::string& text);
  static std::string format(const std::map<std::string, Stamp>& entries);
  // Whether `relative` stays inside its folder: not empty, not absolute, no ".." part, no
  // newline.
  static bool insideFolder(const std::string& relative);

 private:
  bool stampOf(const std::string& relative, Stamp& stamp) const;
  void save() const;

  std::string folder_;
  std::map<std::string, Stamp> entries_;
};

}  // namespace mrnn::engine
