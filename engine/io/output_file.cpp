#include "engine/io/output_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/io/atomic_file.h"

namespace fs = std::filesystem;

namespace mrnn::engine {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw OutputRefused("will not write '" + path + "': " + why);
}

// The absolute path with symbolic links resolved as far as the path exists.
fs::path resolved(const std::string& path) {
  std::error_code error;
  fs::path absolute = fs::absolute(path, error);
  if (error) return fs::path(path);
  const fs::path canonical = fs::weakly_canonical(absolute, error);
  return error ? absolute.lexically_normal() : canonical;
}

// Where the output would land: its folder resolved, its own name kept (it may be a link).
fs::path landing(const std::string& path) {
  const fs::path absolute = fs::absolute(path).lexically_normal();
  return resolved(absolute.parent_path().string()) / absolute.filename();
}

bool isInside(const fs::path& inner, const fs::path& folder) {
  auto i = inner.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++i) {
    if (f->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *f) return false;
  }
  return true;
}

bool sameFile(const std::string& a, const fs::path& b) {
  struct stat first {};
  struct stat second {};
  if (::stat(a.c_str(), &first) != 0 || ::stat(b.c_str(), &second) != 0) {
    return resolved(a) == b;
  }
  return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

bool present(const fs::path& path) {
  std::error_code error;
  return fs::exists(path, error);
}

// A project store recognised by its shape, whichever project it belongs to.
void refuseStores(const std::string& path, const fs::path& target, bool existing) {
  const std::string name = target.filename().string();
  if (name.rfind("runs.sqlite", 0) == 0 || name == "writer.lock") {
    refuse(path, "it is (or belongs to) a project's run database");
  }
  for (fs::path folder = target.parent_path(); !folder.empty() && folder != folder.parent_path();
       folder = folder.parent_path()) {
    const std::string part = folder.filename().string();
    const fs::path project = folder.parent_path();
    if (part == "checkpoints" &&
        (present(project / "runs.sqlite") || present(project / "project.yaml"))) {
      refuse(path,
             "it lies in the " + part + " folder of the project in '" + project.string() + "'");
    }
  }
  const std::string extension = target.extension().string();
  if (existing && (extension == ".yaml" || extension == ".yml")) {
    refuse(path, "it is a YAML file (a project or experiment file is never an output)");
  }
}

}  // namespace

void refuseGuarded(const std::string& path, const std::vector<std::string>& guarded) {
  const fs::path target = landing(path);
  for (const std::string& kept : guarded) {
    if (kept.empty()) continue;
    const fs::path folder = resolved(kept);
    if (fs::is_directory(folder) ? isInside(target, folder) : sameFile(kept, target)) {
      refuse(path, "it is part of the project ('" + kept + "')");
    }
  }
}

void checkOutputPath(const std::string& path, const OutputRules& rules) {
  if (path.empty()) throw OutputRefused("the output path is empty");
  const fs::path target = landing(path);
  struct stat status {};
  const bool existing = ::lstat(target.c_str(), &status) == 0;
  if (existing && S_ISLNK(status.st_mode)) {
    refuse(path, "it is a symbolic link, and writing would replace the file it points to");
  }
  if (existing && S_ISDIR(status.st_mode)) refuse(path, "it is a folder");
  if (existing && !S_ISREG(status.st_mode)) {
    refuse(path, "it is not a regular file (a device, FIFO or socket)");
  }
  if (!existing && !fs::is_directory(target.parent_path())) {
    refuse(path, "its folder '" + target.parent_path().string() + "' does not exist");
  }
  for (const std::string& input : rules.inputs) {
    if (!input.empty() && sameFile(input, target)) refuse(path, "it is the file being read");
  }
  refuseStores(path, target, existing);
  refuseGuarded(path, rules.guarded);
  if (existing && rules.ownOutput && !rules.replaceAny && !rules.ownOutput(path)) {
    refuse(path, "it exists and is not a file this command wrote; choose a new name, or " +
                     rules.howToReplace);
  }
}

void writeOutputFile(const std::string& path, const std::string& contents,
                     const OutputRules& rules) {
  checkOutputPath(path, rules);
  writeFileAtomically(path, contents);
}

std::string fileHead(const std::string& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string head(bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(bytes));
  head.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return head;
}

bool startsLike(const std::string& path, const std::string& contents) {
  // The first line (a CSV or table header); for JSON ("[" or "{" alone on it) also the second
  // line's first key, which names what the records are.
  size_t end = contents.find('\n');
  if (end != std::string::npos &&
      (contents.compare(0, end, "[") == 0 || contents.compare(0, end, "{") == 0)) {
    const size_t key = contents.find(':', end + 1);
    const size_t line = contents.find('\n', end + 1);
    end = key != std::string::npos && key < line ? key + 1 : line;
  }
  const std::string head = end == std::string::npos ? contents : contents.substr(0, end);
  return !head.empty() && fileHead(path, head.size()) == head;
}

bool changedSince(const std::string& path, const std::string& lastKnown) {
  try {
    return readWholeFile(path) != lastKnown;
  } catch (const FileReadError&) {
    return false;
  }
}

void rewriteDocument(const std::string& path, const std::string& contents) {
  // Through links: the user's file is what the link names, and stays where it is.
  char real[PATH_MAX];
  std::string target = path;
  if (::realpath(path.c_str(), real) != nullptr) target = real;
  struct stat status {};
  if (::stat(target.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) {
    throw std::runtime_error("cannot save '" + path + "': it is not a regular file");
  }
  writeFileAtomically(target, contents);
}

}  // namespace mrnn::engine
