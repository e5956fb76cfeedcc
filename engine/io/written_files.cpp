#include "engine/io/written_files.h"

#include <sys/stat.h>

#include <charconv>

#include "engine/io/atomic_file.h"

namespace mrnn::engine {
namespace {

// One unsigned or signed decimal field, ending at a space; advances `at` past the space.
template <class Number>
bool field(const std::string& line, size_t& at, Number& value) {
  const size_t space = line.find(' ', at);
  if (space == std::string::npos || space == at) return false;
  const auto [end, error] = std::from_chars(line.data() + at, line.data() + space, value);
  if (error != std::errc() || end != line.data() + space) return false;
  at = space + 1;
  return true;
}

}  // namespace

WrittenFiles::WrittenFiles(std::string folder) : folder_(std::move(folder)) {
  try {
    entries_ = parse(readWholeFile(folder_ + "/" + kLedgerName, kMaxLedgerBytes));
  } catch (const FileReadError&) {
    entries_.clear();  // none yet, or not one we can trust: nothing counts as ours
  }
}

bool WrittenFiles::insideFolder(const std::string& relative) {
  if (relative.empty() || relative.front() == '/') return false;
  if (relative.find('\n') != std::string::npos || relative.find('\0') != std::string::npos)
    return false;
  size_t start = 0;
  while (start <= relative.size()) {
    const size_t slash = relative.find('/', start);
    const size_t end = slash == std::string::npos ? relative.size() : slash;
    if (relative.compare(start, end - start, "..") == 0) return false;
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return true;
}

std::map<std::string, WrittenFiles::Stamp> WrittenFiles::parse(const std::string& text) {
  std::map<std::string, Stamp> entries;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    size_t at = 0;
    Stamp stamp;
    if (!field(line, at, stamp.size) || !field(line, at, stamp.modifiedNs)) continue;
    const std::string relative = line.substr(at);
    if (insideFolder(relative)) entries[relative] = stamp;
  }
  return entries;
}

std::string WrittenFiles::format(const std::map<std::string, Stamp>& entries) {
  std::string text;
  for (const auto& [relative, stamp] : entries)
    text +=
        std::to_string(stamp.size) + ' ' + std::to_string(stamp.modifiedNs) + ' ' + relative + '\n';
  return text;
}

bool WrittenFiles::stampOf(const std::string& relative, Stamp& stamp) const {
  struct stat status {};
  if (!insideFolder(relative) || ::lstat((folder_ + "/" + relative).c_str(), &status) != 0 ||
      !S_ISREG(status.st_mode))
    return false;
  stamp.size = static_cast<uint64_t>(status.st_size);
  stamp.modifiedNs = static_cast<int64_t>(status.st_mtim.tv_sec) * 1000000000 +
                     static_cast<int64_t>(status.st_mtim.tv_nsec);
  return true;
}

bool WrittenFiles::wrote(const std::string& relative) const {
  const auto entry = entries_.find(relative);
  Stamp now;
  return entry != entries_.end() && stampOf(relative, now) && now == entry->second;
}

void WrittenFiles::record(const std::vector<std::string>& relatives) {
  for (const std::string& relative : relatives) {
    Stamp stamp;
    if (stampOf(relative, stamp)) entries_[relative] = stamp;
  }
  save();
}

void WrittenFiles::forget(const std::string& relative) {
  if (entries_.erase(relative) > 0) save();
}

void WrittenFiles::save() const {
  writeFileAtomically(folder_ + "/" + kLedgerName, format(entries_));
}

}  // namespace mrnn::engine
