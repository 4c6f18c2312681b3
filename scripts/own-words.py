#!/usr/bin/env python3
"""Finds Chinese sentences in locklab's lessons, decks and glossaries that share a run of 12 or
more Chinese characters with a folder of reference notes, outside code and SQL.

The notes are not shipped with locklab, so this is a script for authors rather than a check
`locklab check` can run: point it at the notes (by default ../shared/seeds beside the
repository) and it prints each shared run with the file and line it is in, and exits 1 if it
finds any. Without the folder it says so and exits 0.

    scripts/own-words.py [NOTES_DIR] [--min 12]

Text is compared after dropping punctuation and spaces and turning every run of Latin letters,
digits and symbols into one placeholder, so "会话在 20 秒后过期" and "会话在 30 秒后过期" still
match around the number. A run only counts when all of its characters are Chinese.
"""

import argparse
import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
FENCE = re.compile(r"^(```|~~~)")
INLINE_CODE = re.compile(r"`[^`]*`")
# SQL keeps its English keywords; a line that reads like a statement is code.
SQL = re.compile(r"\b(SELECT|UPDATE|INSERT|DELETE|WHERE|SET)\b")
PLACEHOLDER = "·"


def normalise(text):
    """Chinese characters kept, every other run of visible characters one placeholder."""
    out = []
    other = False
    for ch in text:
        if CJK.match(ch):
            out.append(ch)
            other = False
        elif ch.isalnum() and not other:
            out.append(PLACEHOLDER)
            other = True
    return "".join(out)


def prose_lines(text):
    """(line number, text) of every line outside fenced code, inline code removed."""
    in_code = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line.strip()):
            in_code = not in_code
            continue
        if in_code or SQL.search(line):
            continue
        yield n, INLINE_CODE.sub(" ", line)


def grams(s, k):
    for i in range(len(s) - k + 1):
        g = s[i : i + k]
        if PLACEHOLDER not in g:
            yield i, g


def to_simplified():
    """Notes written in Traditional characters are compared after conversion, when OpenCC's
    Python package is installed; without it they are compared as they are, and a warning says so."""
    try:
        import opencc
    except ImportError:
        print("warning: the opencc package is missing; Traditional notes are compared unconverted")
        return lambda text: text
    return opencc.OpenCC("t2s").convert


def seed_grams(folder, k):
    seen = set()
    simplified = to_simplified()
    for f in sorted(folder.glob("*")):
        if f.suffix not in (".txt", ".md") or f.name == "README.md":
            continue
        text = simplified(f.read_text(encoding="utf-8", errors="replace"))
        for _, line in prose_lines(text):
            seen.update(g for _, g in grams(normalise(line), k))
    return seen


def toml_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from toml_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from toml_strings(v)


def units():
    """(file, line, text) of every Chinese text unit locklab ships."""
    for f in sorted((ROOT / "content").rglob("*.md")):
        for n, line in prose_lines(f.read_text(encoding="utf-8")):
            yield f, n, line
    for f in sorted(list((ROOT / "quizzes").glob("*.toml")) + list((ROOT / "content").rglob("*.toml"))):
        text = f.read_text(encoding="utf-8")
        for s in toml_strings(tomllib.loads(text)):
            if not CJK.search(s):
                continue
            for part in s.splitlines():
                if not part.strip() or SQL.search(part):
                    continue
                at = text.find(part[:30])
                line = text.count("\n", 0, at) + 1 if at >= 0 else 0
                yield f, line, INLINE_CODE.sub(" ", part)


def shared_runs(s, seen, k):
    """The maximal runs of `s` made of k-grams found in `seen`."""
    hits = [i for i, g in grams(s, k) if g in seen]
    runs = []
    for i in hits:
        if runs and i <= runs[-1][1]:
            runs[-1][1] = i + k
        else:
            runs.append([i, i + k])
    return [s[a:b] for a, b in runs]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("notes", nargs="?", default=str(ROOT.parent / "shared" / "seeds"))
    ap.add_argument("--min", type=int, default=12, help="shortest shared run to report")
    args = ap.parse_args()
    folder = pathlib.Path(args.notes)
    if not folder.is_dir():
        print(f"no reference notes at {folder}; nothing to compare")
        return 0
    seen = seed_grams(folder, args.min)
    found = 0
    for f, line, text in units():
        for run in shared_runs(normalise(text), seen, args.min):
            found += 1
            print(f"{f.relative_to(ROOT)}:{line}: {len(run)} characters shared: {run}")
    print(f"{found} shared run(s) of {args.min} or more Chinese characters")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
