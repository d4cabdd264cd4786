#!/usr/bin/env python3
"""Lists the Swift functions, initialisers, accessors and closures whose bodies run over a
limit of lines, and exits 1 when there is one (`make lint` runs it over Sources).

    scripts/long-functions.py [--max N] [--all] [--allow FILE] [PATH ...]

A body's length is the lines between its braces (the lines holding `{` and `}` not counted),
blank and comment lines included: what a reader scrolls through. A closure counts on its own
and again as part of the function around it. Type bodies and control flow (`if`, `for`,
`switch` …) are not functions; their lines count towards the function they stand in.

swift-format has no such rule and the compiler's syntax tree is not reachable from a script
without building a tool, so this reads the text: comments and string literals (with their
interpolations) are skipped, braces are paired, and the words before each `{` say what it opens.

`--allow FILE` names bodies still waiting to be split, one `path: name` a line (`#` comments):
they are listed but do not fail; an entry that is no longer long is reported so it can go.
"""

import argparse
import os
import re
import sys

TYPE_WORDS = re.compile(r"^(struct|class|enum|extension|protocol|actor)\b")
FUNC_WORDS = re.compile(r"^(func|init|deinit|subscript)\b|^init[?!]")
ACCESSOR_WORDS = re.compile(r"^(get|set|didSet|willSet|_modify|_read)\b")
CONTROL_WORDS = re.compile(
    r"^(if|else|guard|for|while|switch|do|catch|repeat|defer|case|default)\b|^}?\s*(else|catch)\b")
PROPERTY_WORDS = re.compile(r"^(var|let)\b")
MODIFIERS = re.compile(
    r"^((public|private|fileprivate|internal|open|package|static|class(?=\s+(?:func|var|let|subscript|override|final)\b)|final|override|mutating|"
    r"nonmutating|convenience|required|lazy|weak|unowned|nonisolated|isolated|indirect|dynamic|"
    r"optional|consuming|borrowing|distributed)(\([^)]*\))?\s+|@\w+(\([^)]*\))?\s*)+")
CONTINUES_NEXT = re.compile(r"([,(\[=:?]|->|&&|\|\||[+\-*/<>]|\bin)\s*$")
CONTINUES_PREVIOUS = re.compile(r"^\s*([.,)\]:?=]|->|&&|\|\||where\b|throws\b|async\b|rethrows\b)")


def strip_code(text):
    """The text with comments and string literals blanked (newlines kept), so braces and words
    in them do not count. Interpolations inside strings are kept: they are code."""
    out = []
    i, n = 0, len(text)
    # Each entry: the closing delimiter of a string being read, or ")" counts for interpolations.
    modes = []  # ("string", delimiter, raw_hashes) or ("interp", paren_depth)
    while i < n:
        c = text[i]
        if modes and modes[-1][0] == "string":
            _, delim, hashes = modes[-1]
            closing = delim + "#" * hashes
            if text.startswith(closing, i):
                modes.pop()
                out.append(" " * len(closing))
                i += len(closing)
                continue
            escape = "\\" + "#" * hashes
            if text.startswith(escape, i):
                after = i + len(escape)
                if after < n and text[after] == "(":
                    modes.append(["interp", 1])
                    out.append(" " * (after - i) + "(")
                    i = after + 1
                    continue
                out.append(" " * (after + 1 - i))
                i = after + 1
                continue
            out.append("\n" if c == "\n" else " ")
            i += 1
            continue
        if modes and modes[-1][0] == "interp":
            if c == "(":
                modes[-1][1] += 1
            elif c == ")":
                modes[-1][1] -= 1
                if modes[-1][1] == 0:
                    modes.pop()
                    out.append(")")
                    i += 1
                    continue
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        m = re.match(r'(#*)("""|")', text[i:i + 16])
        if m and (m.group(1) == "" or c == "#"):
            hashes = len(m.group(1))
            delim = m.group(2)
            modes.append(("string", delim, hashes))
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
            continue
        out.append(c)
        i += 1
    return "".join(out)


def drop_directives(code):
    """Blanks `#if`/`#else`/`#endif` lines: they sit between a declaration and what precedes it."""
    return re.sub(r"(?m)^[ \t]*#(if|elseif|else|endif)\b[^\n]*", lambda m: " " * len(m.group(0)), code)


def statement_of(header):
    """The statement a `{` ends: the header's last line, joined with the lines before it while one
    continues the other (a multi-line signature, `where` clauses, a chained call)."""
    lines = [line.strip() for line in header.split("\n")]
    lines = [line for line in lines if line]
    if not lines:
        return ""
    parts = [lines.pop()]
    while lines and (CONTINUES_PREVIOUS.match(parts[0]) or CONTINUES_NEXT.search(lines[-1])):
        parts.insert(0, lines.pop())
    return " ".join(parts)


def without_attributes(text):
    """The text after its leading attributes (`@MainActor`, `@Suite(.serialized, .timeLimit(…))`)."""
    while True:
        text = text.lstrip()
        m = re.match(r"@[\w.]+\s*", text)
        if not m:
            return text
        text = text[m.end():]
        if text.startswith("("):
            depth = 0
            for i, c in enumerate(text):
                depth += {"(": 1, ")": -1}.get(c, 0)
                if depth == 0:
                    text = text[i + 1:]
                    break


def classify(statement):
    """("type", name), ("function", name), ("control", "") or ("closure", "")."""
    bare = statement
    while True:  # attributes and modifiers, in any order
        stripped = MODIFIERS.sub("", without_attributes(bare)).strip()
        if stripped == bare:
            break
        bare = stripped
    if TYPE_WORDS.match(bare):
        words = bare.split()
        name = re.match(r"[\w.]+", words[1]).group(0) if len(words) > 1 else "?"
        return "type", name
    if FUNC_WORDS.match(bare):
        m = re.match(r"func\s+([^\s(<]+)", bare)
        return "function", m.group(1) if m else re.match(r"\w+", bare).group(0)
    if ACCESSOR_WORDS.match(bare):
        return "function", bare.split()[0]
    if CONTROL_WORDS.match(bare) or statement.startswith("}"):
        return "control", ""
    if PROPERTY_WORDS.match(bare) and "=" not in bare:
        m = re.match(r"(?:var|let)\s+(\w+)", bare)
        return "function", m.group(1) if m else "var"
    return "closure", ""


def long_bodies(path, limit):
    with open(path, encoding="utf-8") as f:
        code = drop_directives(strip_code(f.read()))
    found = []
    stack = []  # (kind, name, line, saved_header, inside_parens)
    types = []
    functions = []  # the functions the reader is inside, to name the closures in them
    header = []
    parens = [0]  # paren/bracket depth of the statement being read, one entry per brace level
    line = 1
    for c in code:
        if c == "\n":
            line += 1
            header.append("\n" if parens[-1] == 0 else " ")
            continue
        if c in "([":
            parens[-1] += 1
        elif c in ")]":
            parens[-1] = max(0, parens[-1] - 1)
        if c == "{":
            kind, name = classify(statement_of("".join(header)))
            stack.append((kind, name, line, "".join(header), parens[-1] > 0))
            if kind == "type":
                types.append(name)
            elif kind == "function":
                functions.append(name)
            header = []
            parens.append(0)
            continue
        if c == "}":
            if not stack:
                continue
            kind, name, start, saved, inside = stack.pop()
            parens.pop()
            if kind == "type":
                types.pop()
            elif kind != "control":
                if kind == "function":
                    functions.pop()
                body = line - start - 1
                if body > limit:
                    owner = ".".join(types)
                    label = name if kind == "function" else "closure" + (" in " + functions[-1] if functions else "")
                    found.append((path, start, f"{owner}.{label}" if owner else label, body))
            # A closure inside an argument list belongs to the statement around it.
            header = list(saved + "{}") if inside else ["}"]
            continue
        header.append(c)
    return found


def swift_files(roots):
    for root in roots:
        if os.path.isfile(root):
            yield root
            continue
        for folder, _, files in os.walk(root):
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max", type=int, default=60, help="most lines a body may have (60)")
    parser.add_argument("--all", action="store_true", help="list every body over 20 lines, longest first")
    parser.add_argument("--allow", help="bodies over the limit still to be split (path: name a line)")
    parser.add_argument("paths", nargs="*", default=["Sources"])
    args = parser.parse_args()
    allowed = read_allowed(args.allow) if args.allow else set()
    limit = 20 if args.all else args.max
    found = []
    for path in sorted(swift_files(args.paths)):
        found.extend(long_bodies(path, limit))
    found.sort(key=lambda row: -row[3])
    over = []
    for path, start, name, body in found:
        waiting = body > args.max and (path, name) in allowed
        print(f"{path}:{start}: {name} has {body} lines" + (" (allowed, still to split)" if waiting else ""))
        if body > args.max and not waiting:
            over.append(name)
    long_now = {(path, name) for path, _, name, body in found if body > args.max}
    for path, name in sorted(allowed - long_now):
        print(f"{args.allow}: {path}: {name} is no longer over {args.max} lines: remove the entry")
    if over:
        print(f"{len(over)} bodies over {args.max} lines: split them into named steps", file=sys.stderr)
        return 1
    return 0


def read_allowed(path):
    entries = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                file, name = (part.strip() for part in line.rsplit(":", 1))
                entries.add((file, name))
    return entries


if __name__ == "__main__":
    sys.exit(main())
