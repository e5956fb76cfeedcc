#!/usr/bin/env python3
"""Checks that no file of the GUI (widgets/, app/gui/, tests/widgets/) reaches LibTorch's
headers through its includes: the engine talks to the GUI in torch-free types
(docs/architecture.md), which keeps each Qt file's compile short and lets the Qt targets
compile in batches. Names each file at fault with the chain of includes that gets there.
CTest's gui_headers_torch_free runs it. usage: scripts/check-gui-headers.py"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
GUI_FOLDERS = ["widgets", "app/gui", "tests/widgets"]
# The one file of the widget suites' support that may: it compiles beside the engine and
# hands the suites what they need from LibTorch behind a torch-free header.
ALLOWED = {"tests/widgets/support/model_files.cpp"}
TORCH = re.compile(r"^(torch|ATen|c10|caffe2)/")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def includes(path):
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        return INCLUDE.findall(f.read())


def resolve(including, name):
    """A quoted include as a path from the root: beside the file, else from the root."""
    for base in (os.path.dirname(including), "", "tests/widgets/support", "tests/support"):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(ROOT, candidate)):
            return candidate
    return None


def torch_chain(path, seen):
    """The chain of includes from `path` to a LibTorch header, or None."""
    if path in seen:
        return None
    seen.add(path)
    for kind, name in includes(path):
        if TORCH.match(name):
            return [path, name]
        if kind == '"':
            found = resolve(path, name)
            if found:
                chain = torch_chain(found, seen)
                if chain:
                    return [path] + chain
    return None


def main():
    faults = []
    checked = 0
    for folder in GUI_FOLDERS:
        for directory, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.relpath(os.path.join(directory, name), ROOT)
                if path in ALLOWED:
                    continue
                checked += 1
                chain = torch_chain(path, set())
                if chain:
                    faults.append(" -> ".join(chain))
    if faults:
        print("these GUI files reach LibTorch's headers (give the engine header a torch-free "
              "type, or move the LibTorch part into an engine .cpp):")
        for fault in faults:
            print("  " + fault)
        return 1
    print(f"{checked} GUI files, none reaching LibTorch's headers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
