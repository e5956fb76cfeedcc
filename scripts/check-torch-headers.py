#!/usr/bin/env python3
"""Compiles (syntax only) every engine, bench and test source that includes LibTorch against the
headers of a newer LibTorch than the one the build uses: Debian's own libtorch-dev of a later
release (sid: the newest PyTorch Debian ships, trixie: 2.6), unpacked into the build folder and
never installed. A GPU machine's pip torch is 2.x while this machine's LibTorch is 1.13; what
PyTorch renamed or removed in between fails here, in minutes, rather than on a GPU whose time is
counted. Linking is not tried (those libraries need a newer glibc).

usage: scripts/check-torch-headers.py [--suite sid|trixie|...] [--build DIR] [--jobs N]
                                      [--cuda DIR] [--only TEXT]

  --suite   the Debian release whose libtorch-dev to check against (default: sid)
  --build   a configured build folder, for its compile_commands.json (default: build/ci)
  --jobs    compilers run at once (default: the number of processors)
  --cuda    a CUDA toolkit's include folder; where it holds cuda.h and nccl.h, the NCCL branch
            of the collective (USE_C10D_NCCL) is compiled too (default: /usr/local/cuda/include)
  --only    only the compiler commands whose file path contains TEXT (in a unity build, the
            batch's path names its target): again after a fix, say

The archive's InRelease is checked with gpgv against Debian's keyring, and each download against
the SHA-256 the signed index gives. Exit status: 0 every source compiled, 1 some did not (their
errors are printed), 77 skipped (the archive could not be reached), 2 bad usage.
"""

import argparse
import concurrent.futures
import hashlib
import json
import lzma
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

MIRROR = "http://deb.debian.org/debian"
KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"
PACKAGES = ("libtorch-dev", "libgloo-dev")
API_INCLUDE = "torch/csrc/api/include"
SKIPPED = 77


class Unreachable(Exception):
    """The archive could not be read: the check is skipped, not failed."""


def say(text):
    print(f"check-torch-headers: {text}", flush=True)


def download(url, timeout=120):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read()
    except (urllib.error.URLError, OSError) as error:
        raise Unreachable(f"could not download {url} ({error})") from error


def verified_release(suite, workdir):
    """The suite's InRelease text, once gpgv has accepted its signature."""
    signed = download(f"{MIRROR}/dists/{suite}/InRelease")
    path = os.path.join(workdir, "InRelease")
    with open(path, "wb") as out:
        out.write(signed)
    if not shutil.which("gpgv") or not os.path.exists(KEYRING):
        sys.exit(f"check-torch-headers: gpgv or {KEYRING} is missing; cannot check the archive")
    result = subprocess.run(["gpgv", "--keyring", KEYRING, path], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check-torch-headers: the signature of {suite}'s InRelease did not verify:\n"
                 + result.stderr)
    return signed.decode("utf-8", "replace")


def sha256_of(release_text, name):
    in_sha256 = False
    for line in release_text.splitlines():
        if not line.startswith(" "):
            in_sha256 = line.startswith("SHA256:")
            continue
        fields = line.split()
        if in_sha256 and len(fields) == 3 and fields[2] == name:
            return fields[0]
    sys.exit(f"check-torch-headers: InRelease lists no SHA-256 for {name}")


def checked(data, expected, what):
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        sys.exit(f"check-torch-headers: {what} has SHA-256 {actual}, the index says {expected}")
    return data


def stanzas(index_text, wanted):
    found = {}
    for block in index_text.split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z0-9-]+): (.*)$", block, flags=re.M))
        if fields.get("Package") in wanted and fields.get("Architecture") == "amd64":
            found[fields["Package"]] = fields
    missing = [name for name in wanted if name not in found]
    if missing:
        sys.exit(f"check-torch-headers: the index has no {', '.join(missing)}")
    return found


def unpacked_headers(suite, cache):
    """Unpacks the suite's libtorch-dev (and Gloo's headers) once; returns (root, version)."""
    with tempfile.TemporaryDirectory() as workdir:
        release = verified_release(suite, workdir)
        index_name = "main/binary-amd64/Packages.xz"
        index = checked(download(f"{MIRROR}/dists/{suite}/{index_name}", timeout=300),
                        sha256_of(release, index_name), index_name)
        packages = stanzas(lzma.decompress(index).decode("utf-8", "replace"), PACKAGES)
        version = packages["libtorch-dev"]["Version"]
        root = os.path.join(cache, f"{suite}-{version.replace(':', '_')}")
        if os.path.exists(os.path.join(root, ".complete")):
            return root, version
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(root)
        for name, fields in packages.items():
            deb = checked(download(f"{MIRROR}/{fields['Filename']}", timeout=300),
                          fields["SHA256"], fields["Filename"])
            path = os.path.join(workdir, f"{name}.deb")
            with open(path, "wb") as out:
                out.write(deb)
            subprocess.run(["dpkg-deb", "-x", path, root], check=True)
        # CUDA builds of LibTorch generate this header; a CPU package does not ship it.
        stub = os.path.join(root, "stub", "c10", "cuda", "impl")
        os.makedirs(stub)
        with open(os.path.join(stub, "cuda_cmake_macros.h"), "w") as out:
            out.write("#pragma once\n#define C10_CUDA_BUILD_SHARED_LIBS\n")
        open(os.path.join(root, ".complete"), "w").close()
        return root, version


def cxx_standard(include, repo):
    """The standard the build takes for these headers: the rule of cmake/MrnnTorchStandard.cmake."""
    result = subprocess.run(["cmake", f"-DINCLUDE={include}", "-P",
                             os.path.join(repo, "cmake", "MrnnTorchStandard.cmake")],
                            capture_output=True, text=True, check=True)
    return result.stderr.strip()


def rewritten(command, include, extra):
    """The build's compile command, pointed at the other headers and checking syntax only."""
    args = shlex.split(command)
    old_bases = {a[: -len(API_INCLUDE)].rstrip("/") for a in args if a.endswith(API_INCLUDE)}
    out, i = [args[0], "-fsyntax-only"], 1
    while i < len(args):
        arg = args[i]
        value = args[i + 1] if i + 1 < len(args) else ""
        if arg in ("-o", "-include", "-MF", "-MT", "-MQ"):
            i += 2  # outputs, and the precompiled header built for the other LibTorch
            continue
        if arg in ("-c", "-Winvalid-pch", "-Werror", "-MD", "-MMD"):
            i += 1
            continue
        if arg in ("-isystem", "-I") and (value.endswith(API_INCLUDE) or
                                         (value in old_bases and value != "/usr/include")):
            i += 2
            continue
        out.append(arg)
        i += 1
    source = out.pop()  # the source comes last in CMake's commands
    return out + ["-isystem", include, "-isystem", os.path.join(include, API_INCLUDE)] + extra + [
        source
    ]


def sources(build, gui_dirs=("/widgets/", "/app/gui/")):
    with open(os.path.join(build, "compile_commands.json")) as db:
        entries = json.load(db)
    chosen = []
    for entry in entries:
        command = entry.get("command") or shlex.join(entry["arguments"])
        if API_INCLUDE not in command or "cmake_pch" in entry["file"]:
            continue
        if any(part in entry["file"] for part in gui_dirs) or "/tests/fuzz/" in entry["file"]:
            continue  # no GUI file reaches LibTorch; fuzz targets share the engine's sources
        chosen.append((entry["file"], command, entry["directory"]))
    return chosen


def project_lines(text, kind, repo):
    return [line for line in text.splitlines() if f" {kind}: " in line and line.startswith(repo)]


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__, usage=argparse.SUPPRESS,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="sid")
    parser.add_argument("--build", default=os.path.join(repo, "build", "ci"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--cuda", default="/usr/local/cuda/include")
    parser.add_argument("--only", default="")
    options = parser.parse_args()
    if not os.path.exists(os.path.join(options.build, "compile_commands.json")):
        parser.error(f"{options.build} has no compile_commands.json: configure a build first")
    try:
        root, version = unpacked_headers(options.suite,
                                         os.path.join(options.build, "torch-headers"))
    except Unreachable as reason:
        say(f"skipped: {reason}")
        return SKIPPED
    include = os.path.join(root, "usr", "include")
    extra = ["-isystem", os.path.join(root, "stub")]
    standard = cxx_standard(include, repo)
    extra.append(f"-std=c++{standard}")  # after the build's own: the last one counts
    nccl = all(os.path.exists(os.path.join(options.cuda, h)) for h in ("cuda.h", "nccl.h"))
    if nccl:
        extra += ["-DUSE_C10D_NCCL", "-isystem", options.cuda]
    jobs = [(f, rewritten(c, include, extra), d) for f, c, d in sources(options.build)
            if options.only in f]
    say(f"{len(jobs)} sources against Debian {options.suite}'s libtorch-dev {version}, "
        f"C++{standard}, NCCL branch {'on' if nccl else 'off (no cuda.h and nccl.h)'}")

    def compile_one(job):
        name, args, directory = job
        result = subprocess.run(args, cwd=directory, capture_output=True, text=True)
        return name, result.returncode, result.stderr

    started, failed, warnings = time.monotonic(), 0, []
    with concurrent.futures.ThreadPoolExecutor(max(1, options.jobs)) as pool:
        for name, code, errors in pool.map(compile_one, jobs):
            warnings += project_lines(errors, "warning", repo)
            if code != 0:
                failed += 1
                print(f"--- {os.path.relpath(name, options.build)}")
                lines = project_lines(errors, "error", repo) or [
                    line for line in errors.splitlines() if "error" in line]
                print("\n".join(lines[:20]))
    for line in sorted(set(warnings)):
        print(line)
    minutes, seconds = divmod(int(time.monotonic() - started), 60)
    say(f"{len(jobs) - failed} of {len(jobs)} compiled, {failed} failed, "
        f"{len(set(warnings))} warnings in the project's files ({minutes} min {seconds} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
