#!/usr/bin/env python3
"""check_layout.py BUILD_DIR - the house rules that the build can check.

1. Dependencies point down: clients -> roles -> common; no role folder
   (master, hmaster, slave, treesched, sim) includes another's headers, and
   nothing outside clients/ and tests/ includes a clients/ header.  common/
   is a stack of libraries (COMMON below, lowest first): a library includes
   its own headers and those of the libraries below it, never above.
2. No circle of files: among the objects of the build, a file that calls a
   function of another must not be called back by it, directly or around a
   longer loop (strongly connected components of the call graph, by nm).
3. Library code never exits: no object of libdls (the cores) calls exit().
4. libdls.so exports exactly the functions the public headers (include/dls/)
   declare: nothing private leaks, nothing public is missing; and every
   name those headers define begins with dls_ or DLS_.

Prints every violation and exits 1, or prints a one-line summary and exits 0.
"""
import os
import re
import subprocess
import sys

ROLES = ["master", "hmaster", "slave", "treesched", "sim"]
# common/'s libraries, lowest first (the Makefile's COMMON_LIBS)
COMMON = ["base", "sched", "files", "workload", "policy", "journal", "trust", "serve", "report",
          "orb"]
LIBS = ["common/" + lib for lib in COMMON]
FOLDERS = ROLES + ["clients"] + LIBS + ["common/cli", "include/dls"]


def headers_of(folder):
    return {f for f in os.listdir(folder) if f.endswith((".h", ".hh"))} if os.path.isdir(folder) else set()


def check_includes(errors):
    owner = {}
    for folder in FOLDERS:
        for h in headers_of(folder):
            owner.setdefault(h, folder)
    for folder in [f for f in ROLES + LIBS + ["common/cli"] if os.path.isdir(f)]:
        for f in sorted(os.listdir(folder)):
            if not f.endswith((".c", ".cc", ".h", ".hh")):
                continue
            path = os.path.join(folder, f)
            for inc in re.findall(r'#include "([^"]+)"', open(path).read()):
                home = owner.get(inc)
                if inc in headers_of(folder) or home in (None, "include/dls"):
                    continue
                if home in LIBS and (folder not in LIBS or
                                     LIBS.index(home) < LIBS.index(folder)):
                    continue
                if home == "common/cli" and (f == "main.c" or folder == "common/cli"):
                    continue
                errors.append(f"{path} includes {home}/{inc}: dependencies point down")


def nm(obj):
    out = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TDBR":
            defined.add(parts[2])
        elif len(parts) == 2 and parts[0] == "U":
            used.add(parts[1])
    return defined, used


def source_of(build, obj):
    """The source an object was built from; None for a stale object."""
    stem = os.path.relpath(obj, build)[:-2]
    for ext in (".c", ".cc"):
        if os.path.exists(stem + ext):
            return stem + ext
    return None


def check_circles(build, errors):
    objs = []
    for root, _, files in os.walk(build):
        if "/tests" in root or "/idl" in root or "/san" in root[len(build):]:
            continue
        objs += [os.path.join(root, f) for f in files if f.endswith(".o") and
                 source_of(build, os.path.join(root, f))]
    defs, uses = {}, {}
    for o in objs:
        d, u = nm(o)
        uses[o] = u
        for s in d:
            defs[s] = o
    edges = {o: {defs[s] for s in uses[o] if s in defs and defs[s] != o} for o in objs}
    # Tarjan's strongly connected components
    index, low, stack, on, comps, n = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(comp)

    sys.setrecursionlimit(10000)
    for v in objs:
        if v not in index:
            visit(v)
    for comp in comps:
        names = sorted(os.path.relpath(c, build)[:-2] for c in comp)
        errors.append("circle of files: " + " <-> ".join(names))
    return len(objs)


def check_no_exit(build, errors):
    for folder in LIBS + ROLES:
        d = os.path.join(build, folder)
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if f.endswith(".o") and f != "main.o" and source_of(build, os.path.join(d, f)):
                _, used = nm(os.path.join(d, f))
                if "exit" in used:
                    errors.append(f"{folder}/{f[:-2]} calls exit(): library code never exits")


def check_exports(build, errors):
    so = os.path.join(build, "lib", "libdls.so")
    if not os.path.exists(so):
        errors.append(f"{so} is missing")
        return 0
    out = subprocess.run(["nm", "-D", "--defined-only", so], capture_output=True, text=True,
                         check=True).stdout
    names = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
    names = {subprocess.run(["c++filt", n], capture_output=True, text=True).stdout.strip()
             .split("(")[0] for n in names if not re.fullmatch(r"DLS_\d+", n)}
    text = "".join(open(os.path.join("include/dls", h)).read() for h in headers_of("include/dls"))
    declared = set(re.findall(r"^[A-Za-z][\w\s\*]*?\b(\w+)\(", text, re.M))
    declared -= {"if", "while", "return", "sizeof"}
    for n in sorted(names - declared):
        errors.append(f"libdls.so exports {n}, which no public header declares")
    for n in sorted(declared - names):
        errors.append(f"{n} is declared in include/dls/ but libdls.so does not export it")
    # every public name is the API's own: dls_ or DLS_ (CORBA's excepted)
    public = set(re.findall(r"\b(?:struct|enum)\s+(\w+)\s*\{", text))
    public |= set(re.findall(r"^#define\s+(\w+)", text, re.M)) | declared
    for n in sorted(n for n in public if not re.match(r"(dls_|DLS_)", n)):
        errors.append(f"include/dls/ names {n}: a public name begins with dls_ or DLS_")
    return len(names)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    errors = []
    check_includes(errors)
    nobj = check_circles(build, errors)
    check_no_exit(build, errors)
    nexp = check_exports(build, errors)
    for e in errors:
        print("check_layout:", e)
    if errors:
        return 1
    print(f"check_layout: {nobj} objects, no upward include, no circle of files, no exit() in a "
          f"core; libdls.so exports the {nexp} public functions and nothing else")
    return 0


if __name__ == "__main__":
    sys.exit(main())
