#!/usr/bin/env python3
"""Turns a `tmux capture-pane -p -e` dump (ANSI colours) into an HTML page that draws the
terminal cell by cell: every character sits in a cell one column wide (two for East Asian wide
characters), so the picture lines up as the terminal does.

    ansi2html.py CAPTURE.txt OUT.html [TITLE]
"""
import html
import re
import sys
import unicodedata

BASE = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5"]
BRIGHT = ["#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]
FG, BG = "#d4d4d4", "#1e1e1e"


def xterm256(n):
    if n < 8:
        return BASE[n]
    if n < 16:
        return BRIGHT[n - 8]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (v, v, v)


def width(ch):
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def parse(text):
    """Yields (char, style) for each visible character, and '\\n' between lines."""
    style = {}
    i = 0
    sgr = re.compile(r"\x1b\[([0-9;:]*)m")
    while i < len(text):
        m = sgr.match(text, i)
        if m:
            codes = [int(c) if c else 0 for c in re.split("[;:]", m.group(1))] or [0]
            j = 0
            while j < len(codes):
                c = codes[j]
                if c == 0:
                    style = {}
                elif c == 1:
                    style["bold"] = True
                elif c == 2:
                    style["dim"] = True
                elif c == 4:
                    style["under"] = True
                elif c == 7:
                    style["rev"] = True
                elif c == 22:
                    style.pop("bold", None)
                    style.pop("dim", None)
                elif c == 24:
                    style.pop("under", None)
                elif c == 27:
                    style.pop("rev", None)
                elif 30 <= c <= 37:
                    style["fg"] = BASE[c - 30]
                elif 90 <= c <= 97:
                    style["fg"] = BRIGHT[c - 90]
                elif 40 <= c <= 47:
                    style["bg"] = BASE[c - 40]
                elif 100 <= c <= 107:
                    style["bg"] = BRIGHT[c - 100]
                elif c == 39:
                    style.pop("fg", None)
                elif c == 49:
                    style.pop("bg", None)
                elif c in (38, 48) and j + 1 < len(codes):
                    key = "fg" if c == 38 else "bg"
                    if codes[j + 1] == 5 and j + 2 < len(codes):
                        style[key] = xterm256(codes[j + 2])
                        j += 2
                    elif codes[j + 1] == 2 and j + 4 < len(codes):
                        style[key] = "#%02x%02x%02x" % tuple(codes[j + 2 : j + 5])
                        j += 4
                j += 1
            i = m.end()
            continue
        if text[i] == "\x1b":
            # Any other escape: skip to its final byte.
            m = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]").match(text, i)
            i = m.end() if m else i + 1
            continue
        yield text[i], dict(style)
        i += 1


def render(text, cols, title):
    out = []
    line_cells = 0
    for ch, st in parse(text):
        if ch == "\n":
            if line_cells < cols:
                out.append('<span class="c" style="width:%dch"></span>' % (cols - line_cells))
            out.append("<br>")
            line_cells = 0
            continue
        w = width(ch)
        if w == 0:
            continue
        fg, bg = st.get("fg", FG), st.get("bg", BG)
        if st.get("rev"):
            fg, bg = bg, fg
        # Half and full blocks are painted, not drawn with the font, so bars join up as they
        # do in a terminal.
        if ch == "\u2580":
            css = "background:linear-gradient(%s 50%%, %s 50%%);width:1ch" % (fg, bg)
            out.append('<span class="c" style="%s"></span>' % css)
            line_cells += 1
            continue
        if ch == "\u2588":
            out.append('<span class="c" style="background:%s;width:1ch"></span>' % fg)
            line_cells += 1
            continue
        css = "color:%s;background:%s;width:%dch" % (fg, bg, w)
        if st.get("bold"):
            css += ";font-weight:bold"
        if st.get("dim"):
            css += ";opacity:0.6"
        if st.get("under"):
            css += ";text-decoration:underline"
        out.append('<span class="c" style="%s">%s</span>' % (css, html.escape(ch)))
        line_cells += w
    return """<!doctype html><meta charset="utf-8"><title>%s</title>
<style>
body { margin: 0; background: %s; }
.t { font-family: "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace; font-size: 16px;
     line-height: 19px; white-space: pre; padding: 6px; }
.c { display: inline-block; height: 19px; overflow: hidden; text-align: center; vertical-align: top; }
</style>
<div class="t">%s</div>
""" % (html.escape(title), BG, "".join(out))


def main():
    src, dst = sys.argv[1], sys.argv[2]
    title = sys.argv[3] if len(sys.argv) > 3 else src
    cols = int(sys.argv[4]) if len(sys.argv) > 4 else 140
    with open(src, encoding="utf-8", errors="replace") as f:
        text = f.read()
    with open(dst, "w", encoding="utf-8") as f:
        f.write(render(text, cols, title))


if __name__ == "__main__":
    main()
