#!/usr/bin/env python3
"""Every source file under 600 lines and every function under 100.

    sizes.py DIR...

Reads the C++ files (.h, .cpp) under each DIR. A file of more than
MAX_FILE lines, or a function whose body (from the line of its opening
brace to the line of its closing one) spans more than MAX_FUNCTION lines,
is printed as FILE:LINE: what, and the exit code is 1.

A function body is a brace block opened where only namespaces, classes
and extern "C" blocks enclose it, after a closing parenthesis (with
const, override, noexcept, a trailing return type or a constructor's
initialiser list between). Lambdas and blocks inside a function count
towards it. Comments, strings and character literals are skipped, so a
brace in them does not count. A reader of C++ by braces, not a parser:
what it cannot classify (a macro that opens a scope) is a block that is
not a function, so it errs towards saying nothing.
"""
import pathlib
import re
import sys

MAX_FILE = 600
MAX_FUNCTION = 100

# Strings (raw ones included), characters and comments, replaced by
# spaces of the same lines so that line numbers hold.
LEXEME = re.compile(r'R"([^(\s]*)\((?:.|\n)*?\)\1"'
                    r'|"(?:\\.|[^"\\\n])*"'
                    r"|'(?:\\.|[^'\\\n])*'"
                    r"|//[^\n]*"
                    r"|/\*(?:.|\n)*?\*/")
SCOPE_WORD = re.compile(r"\b(namespace|class|struct|union|enum)\b")


def blank(text):
    """TEXT with comments, strings and characters turned into spaces."""
    def keep_lines(match):
        return re.sub(r"[^\n]", " ", match.group(0))
    return LEXEME.sub(keep_lines, text)


def head_kind(head):
    """What a brace opens, from the text between it and the statement
    before: 'function', 'scope' (namespace, class, extern) or 'other'."""
    head = re.sub(r"^\s*#[^\n]*$", "", head, flags=re.M).strip()
    if not head:
        return "other"
    if head.startswith("extern"):
        return "scope"
    # A class or namespace head has its keyword before any parenthesis
    # (template<...> class X : Base<(N > 1)> is rare enough).
    paren = head.find("(")
    scope = SCOPE_WORD.search(head)
    if scope and (paren < 0 or scope.start() < paren):
        return "scope"
    if head.endswith("=") or head.endswith("return"):
        return "other"
    # f(...) [const] [override] [noexcept] [-> T] [: a(x), b{y}]
    if re.search(r"\)\s*(const|override|final|noexcept|mutable|&|\s)*"
                 r"(->[^{;]*)?$", head):
        return "function"
    if re.search(r"\)\s*(const|noexcept|\s)*:\s*[^;]*[)}]$", head):
        return "function"
    return "other"


def functions(text):
    """(first line, last line) of each function body in TEXT."""
    code = blank(text)
    stack = []  # (kind, line of the brace)
    start = 0  # where the current statement's head begins
    line = 1
    for i, ch in enumerate(code):
        if ch == "\n":
            line += 1
        elif ch == "{":
            inside = [kind for kind, _ in stack]
            if all(kind == "scope" for kind in inside):
                kind = head_kind(code[start:i])
            else:
                kind = "block"
            stack.append((kind, line))
            start = i + 1
        elif ch == "}":
            if stack:
                kind, first = stack.pop()
                if kind == "function":
                    yield first, line
            start = i + 1
        elif ch == ";":
            start = i + 1


def problems(paths):
    for path in paths:
        text = path.read_text(errors="replace")
        lines = text.count("\n")
        if lines > MAX_FILE:
            yield f"{path}:1: {lines} lines (at most {MAX_FILE})"
        for first, last in functions(text):
            length = last - first + 1
            if length > MAX_FUNCTION:
                name = text.splitlines()[first - 1].strip()
                yield (f"{path}:{first}: a function of {length} lines "
                       f"(at most {MAX_FUNCTION}): {name[:60]}")


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    paths = []
    for folder in argv[1:]:
        root = pathlib.Path(folder)
        if not root.is_dir():
            print(f"sizes.py: {folder}: no such folder", file=sys.stderr)
            return 2
        paths += sorted(p for p in root.rglob("*")
                        if p.suffix in (".h", ".cpp") and p.is_file())
    found = list(problems(paths))
    for problem in found:
        print(problem)
    print(f"sizes: {len(paths)} files, {len(found)} over the limits")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
