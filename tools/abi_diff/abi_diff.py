#!/usr/bin/env python3
"""Compares two Zend/zend_async_API.h headers as a compiler sees them.

    tools/abi_diff/abi_diff.py UPSTREAM_HEADER [OURS_HEADER]

Each header is compiled (clang, C11, non-ZTS) against this project's mock
engine headers, and what it declares is compared with what the other
declares:

  macros     name and body (tokens; parameter names do not matter)
  typedefs   name and type (function-pointer signatures included)
  structs    name, then every field in order: name and type
  enums      every constant and its value
  functions  name and signature
  globals    every extern variable and its type

Only what the header itself adds counts: what the engine and system headers
declare (compiled alone, as a baseline) is left out. Types are compared as
spelled, with white space folded and the `struct _x_s` / `x_t` spellings of
one type taken as equal.

The output lists each difference under its category; deliberate ones (the
project's documented deviations, DELIBERATE below) are listed apart and do
not fail the run. Exit status: 0 when nothing else differs, 1 otherwise,
2 when a header does not compile.

Needs clang (Debian's clang package). UPSTREAM_HEADER is a copy of
true-async/php-src's Zend/zend_async_API.h at the commit to compare with;
it is read, never copied into this tree.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OURS = os.path.join(ROOT, "abi", "include", "Zend", "zend_async_API.h")
ENGINE_INCLUDES = [
    os.path.join(ROOT, "mock_zend", "include"),
    os.path.join(ROOT, "mock_zend", "include", "Zend"),
    os.path.join(ROOT, "mock_zend", "include", "main"),
    os.path.join(ROOT, "mock_zend", "include", "TSRM"),
]
# What either header includes besides itself: the baseline declares it, so
# it is not counted as the header's own.
BASELINE = """
#include "zend_API.h"
#include "zend_atomic.h"
#include "zend_globals.h"
#include "zend_stream.h"
#include <limits.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
"""

# Differences the project keeps on purpose, each documented in the header.
DELIBERATE = {
    # Upstream's macro passes `parent` to a function type that takes no
    # argument, so it cannot compile; ours evaluates and ignores it.
    ("macro", "ZEND_ASYNC_NEW_CONTEXT"),
    # Ours adds casts that C++ needs (a void * does not convert implicitly).
    ("macro", "ZEND_ASYNC_FCALL_DEFINE"),
}


def compile_tu(source, include_dir, args):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tu.c")
        with open(path, "w") as f:
            f.write(source)
        cmd = ["clang", "-std=gnu11", "-x", "c"]
        if include_dir:
            cmd.append("-I" + include_dir)
        for inc in ENGINE_INCLUDES:
            cmd.append("-I" + inc)
        cmd += args + [path]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            sys.stderr.write(result.stderr)
            sys.exit(2)
        return result.stdout


# ---- macros ---------------------------------------------------------------

TOKEN = re.compile(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|##|#|->|<<|>>|[<>=!]=|&&|\|\||\S")


def macros(header_dir):
    source = BASELINE + '#include "Zend/zend_async_API.h"\n' if header_dir else BASELINE
    out = compile_tu(source, header_dir, ["-E", "-dM"])
    result = {}
    for line in out.splitlines():
        m = re.match(r"#define (\w+)(\([^)]*\))?\s?(.*)$", line)
        if not m:
            continue
        name, params, body = m.group(1), m.group(2), m.group(3)
        tokens = TOKEN.findall(body)
        if params is not None:
            names = [p.strip() for p in params[1:-1].split(",") if p.strip()]
            rename = {p: "$%d" % i for i, p in enumerate(names)}
            tokens = [rename.get(t, t) for t in tokens]
            result[name] = ("(%d)" % len(names), " ".join(tokens))
        else:
            result[name] = ("", " ".join(tokens))
    return result


# ---- declarations ---------------------------------------------------------

def spell(qual_type):
    text = re.sub(r"\s+", " ", qual_type).strip()
    text = re.sub(r"\s*([*(),\[\]])\s*", r"\1", text)
    return text


def fields_of(record, struct_names):
    fields = []
    anon = 0
    for inner in record.get("inner", []):
        if inner.get("kind") == "FieldDecl":
            name = inner.get("name", "")
            type_text = spell(inner["type"]["qualType"])
            if not name:
                name = "<anonymous %d>" % anon
                anon += 1
                type_text = "<anonymous>"
            fields.append((name, canonical(type_text, struct_names)))
        elif inner.get("kind") == "RecordDecl" and not inner.get("name"):
            nested = fields_of(inner, struct_names)
            fields.append(("<%s>" % inner.get("tagUsed", "record"), tuple(nested)))
    return fields


def canonical(type_text, struct_names):
    # `struct _zend_async_event_s` and its typedef name are one type.
    def repl(m):
        return struct_names.get(m.group(1), "struct " + m.group(1))
    text = re.sub(r"struct (\w+)", repl, type_text)
    text = re.sub(r"union (\w+)", lambda m: struct_names.get(m.group(1), "union " + m.group(1)), text)
    text = re.sub(r"(?:struct|union|enum)?\((?:anonymous|unnamed) [^)]*\)", "<anonymous>", text)
    return text


def enum_value(constant):
    for inner in constant.get("inner", []):
        if "value" in inner:
            return inner["value"]
        value = enum_value(inner)
        if value is not None:
            return value
    return None


def declarations(header_dir):
    source = BASELINE + '#include "Zend/zend_async_API.h"\n' if header_dir else BASELINE
    out = compile_tu(source, header_dir, ["-fsyntax-only", "-Xclang", "-ast-dump=json"])
    tu = json.loads(out)
    decls = tu.get("inner", [])
    # Typedef name of each tag, for canonical spelling.
    struct_names = {}
    for d in decls:
        if d.get("kind") == "TypedefDecl":
            m = re.fullmatch(r"(?:struct|union|enum) (\w+)", d["type"]["qualType"])
            if m:
                struct_names.setdefault(m.group(1), d["name"])
    result = {"typedef": {}, "struct": {}, "enum": {}, "function": {}, "global": {}}
    for d in decls:
        kind, name = d.get("kind"), d.get("name")
        if d.get("isImplicit") or not name and kind != "EnumDecl":
            continue
        if kind == "TypedefDecl":
            result["typedef"][name] = canonical(spell(d["type"]["qualType"]), struct_names)
        elif kind == "RecordDecl" and d.get("completeDefinition"):
            result["struct"][name] = tuple(fields_of(d, struct_names))
        elif kind == "EnumDecl":
            for c in d.get("inner", []):
                if c.get("kind") == "EnumConstantDecl":
                    result["enum"][c["name"]] = enum_value(c)
        elif kind == "FunctionDecl":
            result["function"][name] = canonical(spell(d["type"]["qualType"]), struct_names)
        elif kind == "VarDecl" and d.get("storageClass") == "extern":
            result["global"][name] = canonical(spell(d["type"]["qualType"]), struct_names)
    return result


def header_view(header):
    """Everything the header adds over the baseline, by category."""
    tmp = tempfile.mkdtemp()
    os.makedirs(os.path.join(tmp, "Zend"))
    os.symlink(os.path.abspath(header), os.path.join(tmp, "Zend", "zend_async_API.h"))
    view = {"macro": macros(tmp)}
    view.update(declarations(tmp))
    return view


def baseline_view():
    view = {"macro": macros(None)}
    view.update(declarations(None))
    return view


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    upstream = argv[1]
    ours = argv[2] if len(argv) > 2 else OURS
    base = baseline_view()
    up, ou = header_view(upstream), header_view(ours)

    failures = 0
    deliberate = []
    counts = {}
    for category in ("macro", "typedef", "struct", "enum", "function", "global"):
        a = {k: v for k, v in up[category].items() if k not in base[category]}
        b = {k: v for k, v in ou[category].items() if k not in base[category]}
        counts[category] = len(a)
        lines = []
        for name in sorted(set(a) | set(b)):
            if name not in b:
                line = "only upstream: %s = %s" % (name, a[name])
            elif name not in a:
                line = "only ours:     %s = %s" % (name, b[name])
            elif a[name] != b[name]:
                line = "differs:       %s\n    upstream: %s\n    ours:     %s" % (name, a[name], b[name])
            else:
                continue
            if (category, name) in DELIBERATE:
                deliberate.append("%s %s" % (category, line))
            else:
                lines.append(line)
        if lines:
            print("%s: %d difference(s)" % (category, len(lines)))
            for line in lines:
                print("  " + line)
            failures += len(lines)
    print("compared: " + ", ".join("%d %ss" % (counts[c], c) for c in counts))
    if deliberate:
        print("deliberate (documented in the header):")
        for line in deliberate:
            print("  " + line)
    print("%d difference(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
