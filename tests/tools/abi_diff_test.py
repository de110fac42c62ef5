#!/usr/bin/env python3
"""Tests of tools/abi_diff/abi_diff.py, on this project's own header.

    abi_diff_test.py TOOL HEADER

  - the header compared with itself: exit 0, "0 difference(s)";
  - a copy with one macro's value changed, one typedef's signature changed,
    two struct fields swapped and one function removed: exit 1, and each of
    the four is reported in its category.

Skipped (exit 77) where clang is not installed: the tool needs it.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(tool, upstream, ours):
    result = subprocess.run([sys.executable, tool, upstream, ours],
                            capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def expect(condition, what, output):
    if not condition:
        print("FAIL: " + what)
        print(output)
        sys.exit(1)
    print("ok: " + what)


def mutate(text):
    def sub(pattern, replacement):
        nonlocal text
        new, count = re.subn(pattern, replacement, text, count=1, flags=re.S)
        if count != 1:
            print("FAIL: the header no longer has " + pattern)
            sys.exit(1)
        text = new

    sub(r"#define ZEND_ASYNC_IO_WRITE_FAILED \(1 << 7\)",
        "#define ZEND_ASYNC_IO_WRITE_FAILED (1 << 8)")
    sub(r"typedef void \(\*zend_async_thread_release_transferred_zvals_t\)\(zval \*\*roots,",
        "typedef void (*zend_async_thread_release_transferred_zvals_t)(zval *roots,")
    # struct _zend_async_timer_event_s { base; timeout; is_periodic; }
    sub(r"(struct _zend_async_timer_event_s \{\s*zend_async_event_t base;\s*)"
        r"(unsigned int timeout;[^\n]*\n)(\s*bool is_periodic;\n)",
        r"\1\3\2")
    sub(r"ZEND_API void zend_async_fork_register\(.*?\);", "")
    return text


def main(argv):
    tool, header = argv[1], argv[2]
    if shutil.which("clang") is None:
        print("ZAR_SKIP: clang is not installed")
        return 77

    code, output = run(tool, header, header)
    expect(code == 0 and "\n0 difference(s)" in output,
           "a header compared with itself has no difference", output)

    with tempfile.TemporaryDirectory() as tmp:
        changed = os.path.join(tmp, "zend_async_API.h")
        with open(header) as f:
            text = f.read()
        with open(changed, "w") as f:
            f.write(mutate(text))
        code, output = run(tool, header, changed)
        expect(code == 1, "a changed copy fails the comparison", output)
        expect(re.search(r"macro: 1 difference.*ZEND_ASYNC_IO_WRITE_FAILED",
                         output, re.S) is not None,
               "the changed macro value is reported", output)
        expect(re.search(r"typedef: 1 difference.*"
                         r"zend_async_thread_release_transferred_zvals_t",
                         output, re.S) is not None,
               "the changed signature is reported", output)
        expect(re.search(r"struct: 1 difference.*_zend_async_timer_event_s",
                         output, re.S) is not None,
               "the swapped fields are reported", output)
        expect(re.search(r"function: 1 difference.*only upstream: "
                         r"zend_async_fork_register", output, re.S) is not None,
               "the missing function is reported", output)
        expect("\n4 difference(s)" in output, "nothing else is reported",
               output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
