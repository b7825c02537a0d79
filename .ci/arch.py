#!/usr/bin/env python3
"""Architecture measures and checks for Dungeons of Olde, read from the Rust sources (no build).

Measures (docs/architecture.md, "Checked rules"; the architecture review of 28e6722, §1, §3 and §5):
  - import cycles between files: the strongly connected components (Tarjan) of the graph
    file -> file built from `use crate::/super::/self::…`, paths written in code
    (`crate::rules::engine::validate(…)`, `super::x::y`, `engine::validate` after
    `use crate::rules::engine`, a child module's `explore::decide`), `doo_rules::…`/`doo::…`
    from the top crate, and `pub use` re-exports (src/lib.rs re-exports doo_rules' modules, so
    `crate::rules::…` in src/ is doo_rules' rules module; `crate::ai::forecast` is ai/value.rs
    through ai/mod.rs's `pub use`), and the paths serde attributes name in strings
    (`deserialize_with = "crate::data::unique_keys"`). A path resolves to the deepest module file it names
    (`foo.rs` or `foo/mod.rs`, following `mod` nesting); an item resolves to the file that
    defines it. A `use` that only names a module adds no edge; the paths through it do.
  - production files over 600 and 500 lines, functions over 150 lines, lines over 120 characters;
  - the "never" rules (NEVERS below), over the resolved graph and, where a name matters, the code
    text (comments and strings left out).
Production code only: `#[cfg(test)]` items (`mod tests { … }`, `mod props;`, a test helper fn)
are left out, and only files reached through `mod` from the crate roots count, so tests/,
benches/, examples/ and fuzz/ are never read.

Usage:
  python3 .ci/arch.py                 the report
  python3 .ci/arch.py --json          the numbers as JSON
  python3 .ci/arch.py --check         exit 1 when a check in ENFORCED fails (or the self-test)
  python3 .ci/arch.py --check ID …    exit 1 when one of the named checks fails (enforced or not)
  python3 .ci/arch.py --list          every check's id, whether it holds, whether it is enforced
  python3 .ci/arch.py --edges GLOB    the resolved imports of the files matching GLOB
  python3 .ci/arch.py --self-test     the script's own tests (synthetic trees in a temp dir)

To enforce a check once it holds, add its id to ENFORCED (one line).
Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

# --------------------------------------------------------------------------------------------
# Configuration: crates, parts, the "never" rules, the budgets, and which checks are enforced.
# --------------------------------------------------------------------------------------------

# Crate roots (relative to the repository) and the names each crate uses for the others.
CRATES = {
    "doo": "crates/doo_game/src/lib.rs",  # the game without a window (package doo_game, lib name `doo`)
    "doo_headless_bin": "crates/doo_game/src/main.rs",  # the `doo-headless` binary
    "doo_app": "src/lib.rs",  # the top package's library: the window and network play
    "doo_bin": "src/main.rs",  # the `doo` binary
    "doo_rules": "crates/doo_rules/src/lib.rs",
}
EXTERNS = {
    "doo": {"doo_rules": "doo_rules"},
    "doo_headless_bin": {"doo": "doo", "doo_rules": "doo_rules"},
    "doo_app": {"doo": "doo", "doo_rules": "doo_rules"},
    "doo_bin": {"doo": "doo", "doo_app": "doo_app", "doo_rules": "doo_rules"},
    "doo_rules": {},
}

R = "crates/doo_rules/src/"
S = "src/"
G = "crates/doo_game/src/"

# The review's rooms (§3). A part is include globs, optionally minus exclude globs.
# Glob syntax: `**` any path, `*` any name part (no `/`).
PARTS = {
    "Core": ([R + "rules/**"], [R + "rules/a4/**"]),
    "A4": ([R + "rules/a4/**"], []),
    "Judge": ([R + "rules/engine.rs", R + "rules/driver.rs", R + "rules/victory.rs"], []),
    "Rules": ([R + "rules/**"], []),  # all of rules/, a4 included
    "AI": ([R + "ai/**"], []),
    "Data": ([R + "data.rs", R + "data/**", R + "reference.rs"], []),
    "Formats": ([R + "level.rs", R + "level_file.rs", R + "level_file/**", R + "level_crawl.rs", R + "level_crawl/**",
                 R + "script.rs"], []),
    "Saves": ([R + "save.rs", R + "campaign.rs", R + "campaign/**"], []),
    "Game": ([G + "game/**"], []),
    "Headless": ([G + "headless.rs", G + "replay.rs", G + "simulate.rs", G + "campaign_sim.rs"], []),
    "Window": ([S + "window/**"], []),  # the HUD included
    # Every production file but the one that writes to the disk (issue 42: `write_atomic`, `append_text`).
    "NotTheWriter": ([S + "**", G + "**", R + "**"], [R + "data/files.rs"]),
    "Hud": ([S + "window/hud/**"], []),
    "Cli": ([G + "cli.rs", G + "commands.rs", G + "main.rs", S + "main.rs"], []),
}


@dataclass
class Never:
    id: str  # what --check and ENFORCED name
    name: str
    src: list  # parts or globs: the files the rule is about
    dst: list  # parts or globs: the files they must not import
    why: str
    names: list = field(default_factory=list)  # regexes the src files' code must not contain


NEVERS = [
    # §3 "Kept"
    Never("core-no-game-window-ai-saves", "Core never reaches Game, Window, AI or Saves",
          ["Core"], ["Game", "Window", "AI", "Saves"], "the rules are the bottom: engines, AI and files sit on them"),
    Never("judge-no-ai-formats", "Judge ↛ AI/Formats", ["Judge"], ["AI", "Formats"],
          "legality and outcomes never depend on the AI or on a file format"),
    Never("ai-no-game-window-saves", "AI ↛ Game/Window/Saves", ["AI"], ["Game", "Window", "Saves"],
          "the AI reads a Match and returns Commands"),
    Never("data-no-formats", "Data ↛ Formats", ["Data"], ["Formats"], "tables load below the level/script formats"),
    Never("formats-no-ai-saves", "Formats ↛ AI/Saves", ["Formats"], ["AI", "Saves"],
          "a level names behaviours; it does not import the AI or the save format"),
    Never("game-no-window-hud-cli", "Game ↛ Window/Hud/Cli", ["Game"], ["Window", "Hud", "Cli"],
          "the ECS rules run headless"),
    Never("headless-no-window", "Headless ↛ Window", ["Headless"], ["Window"], "the headless app has no window"),
    # §3 "Broken" table
    Never("core-no-data", "Core ↛ Data", ["Core"], ["Data"], "tables are handed in"),
    Never("a4-no-data", "A4 ↛ Data", ["A4"], ["Data"], "A4's book is handed in"),
    Never("ai-no-data", "AI ↛ Data", ["AI"], ["Data"], "the AI is handed its book"),
    Never("a4-no-formats", "A4 ↛ Formats", ["A4"], ["Formats"], "caps travel with the command, not from script.rs"),
    Never("core-no-formats", "Core ↛ Formats", ["Core"], ["Formats"],
          "the formats build matches; the rules never read them"),
    Never("a4-no-ai", "A4 ↛ AI", ["A4"], ["AI"], "the rules never consult the AI"),
    Never("game-no-headless", "Game ↛ Headless", ["Game"], ["Headless"], "plugins do not drive apps"),
    Never("headless-no-cli", "Headless ↛ Cli", ["Headless"], ["Cli"], "the CLI sits on top; nothing below calls it"),
    Never("window-no-cli", "Window ↛ Cli", ["Window"], ["Cli"],
          "the CLI sits on top; the window does not borrow its helpers"),
    Never("hud-no-headless", "Hud ↛ Headless", ["Hud"], ["Headless"], "the HUD only shows"),
    Never("hud-no-ai", "Hud ↛ AI", ["Hud"], ["AI"], "the HUD only shows: forecasts come in the PlayerView",
          names=[r"\bai\s*::\s*forecast\b"]),
    Never("hud-no-judge", "Hud ↛ Judge", ["Hud"], ["Judge"],
          "the HUD only shows: legality and odds come in the PlayerView, not by asking the judge",
          names=[r"\bengine\s*::\s*validate\b", r"\bai\s*::\s*forecast\b"]),
    # R1: the flow exists once, in doo_rules' driver; the ECS calls its steps
    Never("game-no-flow-copy", "Game ↛ the flow's parts (only rules::driver runs resets, rounds, goals)", ["Game", "Headless"], [],
          "the match flow is written once (doo_rules::rules::driver); the systems call its steps",
          names=[r"\bturn\s*::\s*(run_reset|begin_action_phase|advance)\b", r"\bvictory\s*::\s*settle\b",
                 r"\bengine\s*::\s*(apply|close_stale)\b", r"\bexplore\s*::\s*(begin|resume)\b"]),
    # R5: the crate line is named where it is crossed
    Never("no-reexport-of-rules", "src/ never re-exports doo_rules (crossings are written doo_rules::)", ["src/**", G + "**"], [],
          "a reader sees which imports cross the crate firewall", names=[r"\bpub\s+use\s+doo_rules\b"]),
    # Issue 42: a crash mid-save never truncates a file: every file is written through the one
    # atomic writer (doo_rules::data::write_atomic; logs through append_text), in data/files.rs.
    Never("one-file-writer", "production code writes files only through data/files.rs (write_atomic, append_text, make_dir)",
          ["NotTheWriter"], [],
          "a level, a save, settings, a hero or a campaign's progress is whole or untouched after a crash",
          names=[r"\bfs\s*::\s*(write|rename|copy|create_dir_all|create_dir|hard_link)\b", r"\bFile\s*::\s*(create|create_new)\b",
                 r"\bOpenOptions\b"]),
    # docs/architecture.md: the rules crate's layering
    Never("rules-no-upward", "rules/ never imports ai/, level*, script, save, campaign, data", ["Rules"],
          [R + "ai/**", R + "level*.rs", R + "level*/**", R + "script.rs", R + "save.rs", R + "campaign.rs",
           R + "campaign/**", R + "data.rs", R + "data/**"],
          "rules ◄── data ◄── level ◄── level_file ◄── script: the rules are the bottom"),
]

# Budgets: a measure that must not grow past a number (main's values at 97c6a3d: a ratchet). None is
# enforced yet; lower a number when a renovation step lowers the measure.
BUDGETS = {
    # id: (measure key in the JSON, the most it may be)
    # (issue 28: counting a folder's mod.rs registering its own children, the window's plugin
    # folders are the one left; without those edges there is no cycle at all)
    # (issue 31: `Screen`, `Go` and `root_node` moved to a leaf, `screens/screen.rs`: the one cycle
    # of 34 files fell apart into three folders of 9, 7 and 7 whose mod.rs holds the types its
    # children share; the editor's folder shares its own from a leaf, `editor/state.rs`)
    "budget-cycles": ("cycle_count", 3),
    "budget-largest-cycle": ("largest_cycle", 9),
    "budget-files-over-600": ("files_over_600_count", 0),
    "budget-functions-over-150": ("functions_over_150_count", 0),
    "budget-long-lines": ("long_lines", 985),
}

# The checks `--check` (with no names) enforces: each "never" that holds on main today. When a
# renovation step makes another one hold, add its id here — one line.
ENFORCED = [
    "one-file-writer",
    "core-no-game-window-ai-saves",
    "judge-no-ai-formats",
    "ai-no-game-window-saves",
    "data-no-formats",
    "formats-no-ai-saves",
    "game-no-window-hud-cli",
    "headless-no-window",
    "core-no-formats",
    "a4-no-ai",
    # R3, "data flows down": tables handed in, caps with the command, pure helpers in doo_rules
    "core-no-data",
    "a4-no-data",
    "ai-no-data",
    "a4-no-formats",
    "window-no-cli",
    "hud-no-headless",
    "rules-no-upward",
    # R1, one flow: undo, resume and the viewer replay in doo_rules; the HUD only shows
    "game-no-headless",
    "headless-no-cli",
    "hud-no-ai",
    "hud-no-judge",
    "game-no-flow-copy",
    "no-reexport-of-rules",
    # issue 28's measures, held from now on
    "budget-cycles",
    "budget-largest-cycle",
    "budget-files-over-600",
    "budget-functions-over-150",
]

LIMIT_FILE = (600, 500)
LIMIT_FN = 150
LIMIT_LINE = 120

# --------------------------------------------------------------------------------------------
# Reading Rust: blank comments, strings and char literals (positions and newlines kept).
# --------------------------------------------------------------------------------------------

_RAW = re.compile(r'(?:br|cr|r)(#*)"')
_CHAR = re.compile(r"'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]{1,6}\}|.)|[^\\'\n])'")
_IDENT_CH = re.compile(r"[A-Za-z0-9_]")


def blank(src: str) -> str:
    """The source with comments, string and char literals replaced by spaces (newlines kept)."""
    out = list(src)
    n = len(src)
    i = 0

    def wipe(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if c == "/" and i + 1 < n and src[i + 1] == "/":
            j = src.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif c == "/" and i + 1 < n and src[i + 1] == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif c in "rbc" and (i == 0 or not _IDENT_CH.match(src[i - 1])) and (m := _RAW.match(src, i)):
            end = src.find('"' + m.group(1), m.end())
            end = n if end < 0 else end + 1 + len(m.group(1))
            wipe(m.end(), end - 1 - len(m.group(1)))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            wipe(i + 1, min(j, n))
            i = j + 1
        elif c == "'":
            m = _CHAR.match(src, i)
            if m:
                wipe(i + 1, m.end() - 1)
                i = m.end()
            else:
                i += 1  # a lifetime or a label
        else:
            i += 1
    return "".join(out)


def match_brace(code: str, open_at: int) -> int:
    """The offset of the `}` closing the `{` at open_at (in blanked code), or len(code)."""
    depth = 0
    for k in range(open_at, len(code)):
        ch = code[k]
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code)


def item_end(code: str, start: int) -> tuple[int, int | None]:
    """From start (an item's first keyword), the end of the item: after its `;` or its body's
    `}`, whichever closes it first at the top level. Returns (end offset, body `{` or None)."""
    depth = 0
    k = start
    n = len(code)
    while k < n:
        ch = code[k]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth <= 0 and ch == ";":
            return k + 1, None
        elif depth <= 0 and ch == "{":
            close = match_brace(code, k)
            return close + 1, k
        k += 1
    return n, None


_ATTR = re.compile(r"#\s*!?\s*\[")


def skip_attrs(code: str, k: int) -> int:
    """Past the attributes (and blanks) starting at k."""
    n = len(code)
    while True:
        while k < n and code[k].isspace():
            k += 1
        m = _ATTR.match(code, k)
        if not m:
            return k
        depth, j = 0, m.end() - 1
        while j < n:
            if code[j] == "[":
                depth += 1
            elif code[j] == "]":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        k = j + 1


_CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
_MOD_DECL = r"(?<![A-Za-z0-9_])(?:pub\s*(?:\([^)]*\))?\s*)?mod\s+(r#)?([A-Za-z_][A-Za-z0-9_]*)\s*([;{])"
_MOD_OR_BLOCK = re.compile(_MOD_DECL + r"|\{")


# --------------------------------------------------------------------------------------------
# The module tree and the per-file facts.
# --------------------------------------------------------------------------------------------


@dataclass
class Use:
    segs: list  # the path, e.g. ["crate", "rules", "engine"]
    alias: str | None  # the name it brings in (None for a glob)
    glob: bool
    line: int
    text: str
    off: int  # where the leaf stands in its file
    lo: int  # the scope it is visible in (offsets in the file)
    hi: int
    module_scope: bool  # at the top of its module (visible to `super::name` from children)


@dataclass
class Module:
    crate: str
    path: tuple
    file: str
    parent: "Module | None"
    lo: int = 0  # the module's span in its file (an inline module's braces)
    hi: int = 0
    children: dict = field(default_factory=dict)
    uses: list = field(default_factory=list)  # module-scope `use`s


@dataclass
class FileFacts:
    path: str
    text: str
    raw: str  # blanked (comments, strings and chars), tests kept
    code: str  # blanked, tests wiped as well
    test_spans: list  # (lo, hi) of #[cfg(test)] items
    line_starts: list
    modules: list  # the modules whose code is in this file, outermost first
    uses: list = field(default_factory=list)

    def line_of(self, off: int) -> int:
        return bisect.bisect_right(self.line_starts, off)

    def in_test(self, off: int) -> bool:
        return any(a <= off < b for a, b in self.test_spans)

    def module_at(self, off: int) -> Module:
        best = self.modules[0]
        for m in self.modules[1:]:
            if m.lo <= off < m.hi:
                best = m  # later ones are nested deeper or disjoint
        return best


def glob_re(pattern: str) -> re.Pattern:
    out = ""
    i = 0
    while i < len(pattern):
        if pattern.startswith("**", i):
            out += ".*"
            i += 2
        elif pattern[i] == "*":
            out += "[^/]*"
            i += 1
        else:
            out += re.escape(pattern[i])
            i += 1
    return re.compile(out + r"\Z")


class Tree:
    """The production code of the workspace: modules, files, uses and the resolved edges."""

    def __init__(self, root: str, crates: dict | None = None, externs: dict | None = None):
        self.root = root
        self.crates = crates or CRATES
        self.externs = externs or EXTERNS
        self.files: dict[str, FileFacts] = {}
        self.roots: dict[str, Module] = {}
        self.test_files: list[str] = []  # module files declared #[cfg(test)] (left out)
        self.missing: list[str] = []  # `mod x;` with no file found
        self.unresolved: list[str] = []  # a crate/self/super path that names nothing (a resolver gap)
        for crate, rel in self.crates.items():
            if os.path.exists(os.path.join(root, rel)):
                m = Module(crate, (), rel, None)
                self.roots[crate] = m
                self._load(m)
        self.edges = []  # (src file, line, text, dst file)
        for f in self.files.values():
            self._collect_uses(f)
        for f in self.files.values():
            self._edges_of(f)

    # ---- loading

    def _read(self, rel: str) -> FileFacts:
        with open(os.path.join(self.root, rel), encoding="utf-8") as fh:
            text = fh.read()
        code = blank(text)
        spans = []
        for m in _CFG_TEST.finditer(code):
            k = skip_attrs(code, m.start())
            end, _ = item_end(code, k)
            spans.append((m.start(), end))
        wiped = list(code)
        for a, b in spans:
            for k in range(a, b):
                if wiped[k] != "\n":
                    wiped[k] = " "
        starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        return FileFacts(rel, text, code, "".join(wiped), spans, starts, [])

    def _load(self, mod: Module):
        if mod.file not in self.files:
            f = self._read(mod.file)
            self.files[mod.file] = f
        f = self.files[mod.file]
        mod.lo, mod.hi = 0, len(f.code)
        f.modules.append(mod)
        self._scan_mods(f, mod, 0, len(f.code), self._child_dir(mod.file))

    @staticmethod
    def _child_dir(rel: str) -> str:
        d, base = os.path.split(rel)
        if base in ("mod.rs", "lib.rs", "main.rs"):
            return d
        return os.path.join(d, base[:-3])

    def _scan_mods(self, f: FileFacts, mod: Module, lo: int, hi: int, child_dir: str):
        """The `mod` items directly inside [lo, hi) of f (nested blocks skipped), tests included
        (a #[cfg(test)] `mod x;` names a test file to leave out)."""
        raw = f.raw  # tests not wiped: to see which module files are test files
        k = lo
        while k < hi:
            m = _MOD_OR_BLOCK.search(raw, k, hi)
            if not m:
                break
            k = m.start()
            if m.group(0) == "{":
                # a nested block (a fn, an impl …): its modules are not this module's children
                k = match_brace(raw, k) + 1
                continue
            name = m.group(2)
            is_test = f.in_test(k)
            if m.group(3) == ";":
                cands = [os.path.join(child_dir, name + ".rs"), os.path.join(child_dir, name, "mod.rs")]
                found = next((c for c in cands if os.path.exists(os.path.join(self.root, c))), None)
                if is_test:
                    if found:
                        self.test_files.append(found)
                elif not found:
                    self.missing.append(f"{f.path}:{f.line_of(k)} mod {name}")
                else:
                    child = Module(mod.crate, mod.path + (name,), found, mod)
                    mod.children[name] = child
                    self._load(child)
                k = m.end()
            else:
                open_at = m.end() - 1
                close = match_brace(raw, open_at)
                if not is_test:
                    child = Module(mod.crate, mod.path + (name,), f.path, mod, open_at, close + 1)
                    mod.children[name] = child
                    f.modules.append(child)
                    self._scan_mods(f, child, open_at + 1, close, os.path.join(child_dir, name))
                k = close + 1
            continue

    # ---- uses and paths

    _USE = re.compile(r"(?<![A-Za-z0-9_])use\s+([^;]*);")
    _TOK = re.compile(r"\s*(::|[A-Za-z_][A-Za-z0-9_]*|r#[A-Za-z_][A-Za-z0-9_]*|[{},*])")

    def _parse_use_tree(self, body: str, base_off: int):
        """[(segments, alias, glob, offset)] of a use tree's leaves."""
        toks = []
        pos = 0
        while pos < len(body):
            m = self._TOK.match(body, pos)
            if not m:
                if body[pos:].strip() == "":
                    break
                pos += 1
                continue
            toks.append((m.group(1).removeprefix("r#"), base_off + m.start(1)))
            pos = m.end()
        out = []

        def tree(i, prefix):
            segs = list(prefix)
            while i < len(toks):
                t, off = toks[i]
                if t == "::":
                    i += 1
                elif t == "{":
                    i += 1
                    while i < len(toks) and toks[i][0] != "}":
                        i = tree(i, segs)
                        if i < len(toks) and toks[i][0] == ",":
                            i += 1
                    return i + 1
                elif t == "*":
                    out.append((segs, None, True, off))
                    return i + 1
                elif t in (",", "}"):
                    return i
                elif t == "as":
                    alias = toks[i + 1][0] if i + 1 < len(toks) else None
                    out.append((segs, alias, False, off))
                    return i + 2
                else:
                    segs = segs + [t]
                    nxt = toks[i + 1][0] if i + 1 < len(toks) else None
                    if nxt != "::" and nxt != "as":
                        if t == "self":
                            segs = segs[:-1]
                            alias = segs[-1] if segs else None
                        else:
                            alias = t
                        out.append((segs, alias, False, off))
                        return i + 1
                    i += 1
            return i

        i = 0
        while i < len(toks):
            i = tree(i, [])
            if i < len(toks) and toks[i][0] == ",":
                i += 1
        return out

    def _block_span(self, code: str, off: int) -> tuple[int, int]:
        """The innermost `{ … }` containing off, or the whole file."""
        depth = 0
        k = off - 1
        while k >= 0:
            ch = code[k]
            if ch == "}":
                depth += 1
            elif ch == "{":
                if depth == 0:
                    return k, match_brace(code, k) + 1
                depth -= 1
            k -= 1
        return 0, len(code)

    def _collect_uses(self, f: FileFacts):
        for m in self._USE.finditer(f.code):
            lo, hi = self._block_span(f.code, m.start())
            mod = f.module_at(m.start())
            module_scope = (lo, hi) == (0, len(f.code)) and mod.lo == 0 or (mod.lo, mod.hi) == (lo, hi)
            for segs, alias, glob, off in self._parse_use_tree(m.group(1), m.start(1)):
                if not segs:
                    continue
                u = Use(segs, alias, glob, f.line_of(off), " ".join(m.group(0).split()), off, lo, hi, module_scope)
                f.uses.append(u)
                if module_scope:
                    mod.uses.append(u)

    def _edges_of(self, f: FileFacts):
        # the use statements themselves
        for u in f.uses:
            mod = f.module_at(u.off)
            r = self.resolve(mod, u.segs)
            if r is None:
                continue
            target, item = r
            if item is None and not u.glob:
                continue  # a module brought in by name: the paths through it make the edges
            self._edge(f, u.line, u.text, target.file)
        # paths written in code (use statements blanked first), and the paths serde attributes
        # name in strings (`deserialize_with = "crate::data::unique_keys"`)
        code = self._USE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), f.code)
        found = [(m.start(), m.group(0)) for m in _PATH.finditer(code)]
        for m in _SERDE_PATH.finditer(f.text):
            if f.code[m.start()] == f.text[m.start()]:  # the key is code, not a comment or a test
                found.append((m.start(), m.group(0)))
        for off, text in sorted(found):
            path = _SERDE_PATH.match(text).group(1) if text.endswith('"') else text
            segs = [s.removeprefix("r#") for s in re.split(r"\s*::\s*", path)]
            mod = f.module_at(off)
            first = segs[0]
            if first not in ("crate", "self", "super") and first not in self.externs[mod.crate] \
                    and first not in mod.children:
                alias = self._alias(f, first, off)
                if alias is None:
                    continue
                amod = f.module_at(alias.off)
                ar = self.resolve(amod, alias.segs)
                if ar is None or ar[1] is not None:
                    continue  # external, or an item: its `use` made the edge already
                r = self._walk(ar[0], segs[1:], 0)
            else:
                r = self.resolve(mod, segs)
                if r is None and first in ("crate", "self", "super"):
                    self.unresolved.append(f"{f.path}:{f.line_of(off)} {path}")
            if r is None:
                continue
            self._edge(f, f.line_of(off), " ".join(text.split()), r[0].file)

    def _alias(self, f: FileFacts, name: str, off: int) -> Use | None:
        best = None
        for u in f.uses:
            if u.alias == name and u.lo <= off < u.hi:
                if best is None or (u.hi - u.lo) < (best.hi - best.lo):
                    best = u
        return best

    def _edge(self, f: FileFacts, line: int, text: str, dst: str):
        if dst != f.path:
            self.edges.append((f.path, line, text, dst))

    def resolve(self, mod: Module, segs: list, depth: int = 0):
        """(module, item or None) that the path names from inside mod, or None (outside the
        workspace: std, bevy, …)."""
        if depth > 30 or not segs:
            return None
        first, rest = segs[0], segs[1:]
        if first == "crate":
            m = self.roots.get(mod.crate)
        elif first == "self":
            m = mod
        elif first == "super":
            m = mod.parent
            while rest and rest[0] == "super" and m is not None:
                m, rest = m.parent, rest[1:]
        elif first in self.externs.get(mod.crate, {}):
            m = self.roots.get(self.externs[mod.crate][first])
        elif first in mod.children:
            m = mod.children[first]
        else:
            # a name the module itself imports (`use book::X` after `use …::book`)
            u = next((u for u in mod.uses if u.alias == first), None)
            if u is None or u.segs == segs:
                return None
            r = self.resolve(mod, u.segs, depth + 1)
            if r is None:
                return None
            if r[1] is not None:
                return r
            return self._walk(r[0], rest, depth + 1)
        if m is None:
            return None
        return self._walk(m, rest, depth + 1)

    def _walk(self, m: Module, rest: list, depth: int):
        for i, seg in enumerate(rest):
            if seg in m.children:
                m = m.children[seg]
                continue
            if seg in ("super",):
                m = m.parent
                if m is None:
                    return None
                continue
            u = next((u for u in m.uses if u.alias == seg), None)
            if u is not None:
                r = self.resolve(m, u.segs + list(rest[i + 1:]), depth + 1)
                if r is not None:
                    return r
            return (m, seg)  # an item defined in m
        return (m, None)

    # ---- queries

    def graph(self) -> dict:
        g = {p: set() for p in self.files}
        for s, _, _, d in self.edges:
            g[s].add(d)
        return g


_PATH = re.compile(r"(?<![A-Za-z0-9_:])(?:r#)?[A-Za-z_][A-Za-z0-9_]*(?:\s*::\s*(?:r#)?[A-Za-z_][A-Za-z0-9_]*)+")


_SERDE_PATH = re.compile(r'(?<![A-Za-z0-9_])(?:deserialize_with|serialize_with|with|default)\s*=\s*"'
                         r'((?:r#)?[A-Za-z_][A-Za-z0-9_]*(?:::(?:r#)?[A-Za-z_][A-Za-z0-9_]*)*)"')


def tarjan(g: dict) -> list:
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def strong(v):
        work = [(v, iter(sorted(g[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                elif w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == node:
                            break
                    out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return out


# --------------------------------------------------------------------------------------------
# Measures
# --------------------------------------------------------------------------------------------

_FN = re.compile(r"(?<![A-Za-z0-9_])fn\s+(?:r#)?([A-Za-z_][A-Za-z0-9_]*)")


def functions(f: FileFacts) -> list:
    out = []
    for m in _FN.finditer(f.code):
        end, body = item_end(f.code, m.end())
        if body is None:
            continue
        a, b = f.line_of(m.start()), f.line_of(end - 1)
        out.append((m.group(1), a, b - a + 1))
    return out


def part_files(tree: Tree, spec: str) -> set:
    incl, excl = PARTS[spec] if spec in PARTS else ([spec], [])
    inc = [glob_re(p) for p in incl]
    exc = [glob_re(p) for p in excl]
    return {p for p in tree.files if any(r.match(p) for r in inc) and not any(r.match(p) for r in exc)}


def cycles_of(g: dict) -> list:
    return sorted((c for c in tarjan(g) if len(c) > 1), key=lambda c: (-len(c), c))


def measure(tree: Tree) -> dict:
    g = tree.graph()
    sccs = cycles_of(g)
    lines_of = {}
    for s_, line, _, d in tree.edges:
        lines_of.setdefault((s_, d), set()).add(line)
    cycles = []
    for c in sccs:
        members = set(c)
        two_way = [f"{short(a)}:{min(lines_of[(a, b)])} ↔ {short(b)}:{min(lines_of[(b, a)])}"
                   for a in c for b in sorted(g[a]) if b in members and a < b and a in g[b]]
        cycles.append({"size": len(c), "files": c, "two_way": two_way})
    # The same graph without a parent module's edges to its own child files (a mod.rs that
    # registers `child::plugin`): what is left is the knot the children make between them.
    child_of = {(m.parent.file, m.file) for f in tree.files.values() for m in f.modules
                if m.parent is not None and m.parent.file != m.file}
    g2 = {a: {b for b in bs if (a, b) not in child_of} for a, bs in g.items()}
    sccs2 = cycles_of(g2)
    files = []
    long_lines = long_all = 0
    fns = []
    for p, f in sorted(tree.files.items()):
        lines = f.text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        prod_lines = 0
        for i, line in enumerate(lines):
            test = f.in_test(f.line_starts[i] + len(line) - len(line.lstrip()))
            if not test:
                prod_lines += 1
            if len(line) > LIMIT_LINE:
                long_all += 1
                if not test:
                    long_lines += 1
        files.append((p, len(lines), prod_lines))
        for name, line, length in functions(f):
            if length > LIMIT_FN:
                fns.append({"file": p, "line": line, "name": name, "lines": length})
    fns.sort(key=lambda x: (-x["lines"], x["file"], x["line"]))
    over = {lim: [{"file": p, "lines": n, "without_tests": k} for p, n, k in sorted(files, key=lambda x: (-x[1], x[0]))
                  if n > lim] for lim in LIMIT_FILE}
    nevers = [evaluate(tree, nv) for nv in NEVERS]
    res = {
        "production_files": len(files),
        "production_lines": sum(n for _, n, _ in files),
        "edges": len({(s, d) for s, _, _, d in tree.edges}),
        "cycle_count": len(sccs),
        "largest_cycle": len(sccs[0]) if sccs else 0,
        "cycles": cycles,
        "cycle_sizes_without_parent_to_child": [len(c) for c in sccs2],
        "files_over_600_count": len(over[600]),
        "files_over_600": over[600],
        "files_over_500_count": len(over[500]),
        "files_over_500": over[500],
        "functions_over_150_count": len(fns),
        "functions_over_150": fns,
        "long_lines": long_lines,
        "long_lines_with_inline_tests": long_all,
        "nevers": nevers,
        "test_module_files_left_out": sorted(tree.test_files),
        "unresolved_mod_declarations": tree.missing,
        "unresolved_paths": tree.unresolved,
    }
    checks = {nv["id"]: nv["holds"] for nv in nevers}
    for bid, (key, most) in BUDGETS.items():
        checks[bid] = res[key] <= most
    res["checks"] = checks
    res["enforced"] = list(ENFORCED)
    return res


def evaluate(tree: Tree, nv: Never) -> dict:
    src = set().union(*(part_files(tree, s) for s in nv.src))
    dst = set().union(*(part_files(tree, d) for d in nv.dst))
    evidence = []
    seen = set()
    # A rule over no files would hold for nothing: when a move empties a part, say so.
    for side, files, specs in (("from", src, nv.src), ("to", dst, nv.dst)):
        if not files and specs:  # (a rule of names only has no "to" side)
            evidence.append(f"no production file matches the {side} side ({', '.join(specs)}): update PARTS")
    for s, line, text, d in sorted(tree.edges):
        if s in src and d in dst and (s, line, d) not in seen:
            seen.add((s, line, d))
            evidence.append(f"{s}:{line} {text} → {d}")
    for p in sorted(src):
        f = tree.files[p]
        for rx in nv.names:
            for m in re.finditer(rx, f.code):
                evidence.append(f"{p}:{f.line_of(m.start())} names `{' '.join(m.group(0).split())}`")
    return {"id": nv.id, "name": nv.name, "why": nv.why, "holds": not evidence, "from_files": len(src),
            "to_files": len(dst), "evidence": evidence}


def short(p: str) -> str:
    return p.removeprefix(R).removeprefix("crates/") if p.startswith(R) else p


def report(res: dict, commit: str) -> str:
    out = [f"Architecture measures at {commit}: {res['production_files']} production files, "
           f"{res['production_lines']} lines, {res['edges']} file→file imports",
           f"(doo_rules' files are shown relative to {R}; the top crate's start with {S})", ""]
    out.append(f"## Import cycles: {res['cycle_count']} (largest {res['largest_cycle']} files)")
    for i, c in enumerate(res["cycles"], 1):
        out.append(f"{i}. {c['size']} files: " + ", ".join(short(p) for p in c["files"]))
        out.append(f"   two-way pairs ({len(c['two_way'])}): " + "; ".join(c["two_way"]))
    out.append("Without a parent module's edges to its own children (`mod.rs` registering `child::plugin`), "
               "the cycles have " + (", ".join(map(str, res["cycle_sizes_without_parent_to_child"])) or "no")
               + " files.")
    out.append("")
    for lim in LIMIT_FILE:
        rows = res[f"files_over_{lim}"]
        out.append(f"## Production files over {lim} lines: {len(rows)}")
        for r in rows:
            extra = f" ({r['without_tests']} without tests)" if r["without_tests"] != r["lines"] else ""
            out.append(f"  {r['lines']:5}  {r['file']}{extra}")
        out.append("")
    out.append(f"## Functions over {LIMIT_FN} lines: {res['functions_over_150_count']}")
    for r in res["functions_over_150"]:
        out.append(f"  {r['lines']:4}  {r['file']}:{r['line']} {r['name']}")
    out.append("")
    out.append(f"## Lines over {LIMIT_LINE} characters: {res['long_lines']} in production code "
               f"({res['long_lines_with_inline_tests']} with the #[cfg(test)] blocks inside production files)")
    out.append("")
    held = sum(1 for n in res["nevers"] if n["holds"])
    out.append(f"## The \"never\" rules: {held} hold, {len(res['nevers']) - held} broken")
    for n in res["nevers"]:
        mark = "holds " if n["holds"] else "BROKEN"
        enf = " [enforced]" if n["id"] in res["enforced"] else ""
        out.append(f"  {mark}  {n['name']}  ({n['id']}{enf}; {n['why']})")
        for e in n["evidence"]:
            out.append(f"            {e}")
    out.append("")
    out.append("## Budgets (not enforced unless listed in ENFORCED)")
    for bid, (key, most) in BUDGETS.items():
        out.append(f"  {'holds ' if res['checks'][bid] else 'BROKEN'}  {bid}: {key} = {res[key]} (at most {most})"
                   + (" [enforced]" if bid in res["enforced"] else ""))
    if res["test_module_files_left_out"]:
        out.append("")
        out.append("Left out as test code (#[cfg(test)] mod x;): " + ", ".join(res["test_module_files_left_out"]))
    if res["unresolved_mod_declarations"]:
        out.append("Unresolved `mod` declarations: " + ", ".join(res["unresolved_mod_declarations"]))
    if res["unresolved_paths"]:
        out.append("Paths that name nothing the script can find (a gap in its resolver): "
                   + ", ".join(res["unresolved_paths"]))
    return "\n".join(out)


def git_commit(root: str) -> str:
    try:
        return subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "(no git)"


# --------------------------------------------------------------------------------------------
# Self-test: synthetic trees, so the script cannot silently report zero.
# --------------------------------------------------------------------------------------------


def self_test(quiet: bool = False) -> int:
    failures = []

    def expect(cond, what):
        if not quiet or not cond:
            print(("ok    " if cond else "FAIL  ") + what)
        if not cond:
            failures.append(what)

    def write(root, files):
        for rel, text in files.items():
            p = os.path.join(root, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8") as fh:
                fh.write(text)

    with tempfile.TemporaryDirectory() as tmp:
        # 1. a cycle a -> b -> a (a use one way, a path in code the other), and the top crate
        #    reaching a module through lib.rs's re-export and through a child module's re-export.
        t1 = os.path.join(tmp, "cycle")
        write(t1, {
            R + "lib.rs": "pub mod a;\npub mod b;\npub mod rules;\n",
            R + "a.rs": "use crate::b::X;\npub struct Y;\n",
            R + "b.rs": "pub struct X;\npub fn f() -> crate::a::Y { crate::a::Y }\n",
            R + "rules/mod.rs": "pub mod engine;\nmod value;\npub use value::forecast;\n",
            R + "rules/engine.rs": "pub fn validate() {}\n",
            R + "rules/value.rs": "pub fn forecast() {}\n",
            S + "lib.rs": "pub use doo_rules::{a, rules};\npub mod window;\n",
            S + "window/mod.rs": "pub mod hud;\n",
            S + "window/hud/mod.rs": "use crate::rules::engine;\n"
                                     "fn g() { engine::validate(); crate::rules::forecast(); }\n",
        })
        tree = Tree(t1)
        res = measure(tree)
        judge = next(n for n in res["nevers"] if n["id"] == "hud-no-judge")
        expect(not judge["holds"] and any("window/hud/mod.rs:2" in e for e in judge["evidence"]),
               "Hud ↛ Judge is broken by hud/mod.rs:2 engine::validate")
        cyc = [c["files"] for c in res["cycles"]]
        expect(cyc == [[R + "a.rs", R + "b.rs"]], f"cycle a.rs <-> b.rs found (got {cyc})")
        hud = {(d) for s, _, _, d in tree.edges if s == S + "window/hud/mod.rs"}
        expect(hud == {R + "rules/engine.rs", R + "rules/value.rs"},
               f"crate::rules::… in src/ resolves through lib.rs's pub use, items to their file (got {sorted(hud)})")

        # 2. imports inside #[cfg(test)] (a tests block, a test module file) make no edge.
        t2 = os.path.join(tmp, "tests")
        write(t2, {
            R + "lib.rs": "pub mod a;\npub mod b;\n#[cfg(test)]\nmod testkit;\n",
            R + "a.rs": "use crate::b::X;\npub struct Y;\n",
            R + "b.rs": "pub struct X;\n\n#[cfg(test)]\nmod tests {\n    use crate::a::Y;\n    #[test]\n"
                        "    fn t() { let _ = crate::a::Y; }\n}\n",
            R + "testkit.rs": "use crate::a::Y;\nuse crate::b::X;\n",
        })
        tree = Tree(t2)
        res = measure(tree)
        expect(res["cycle_count"] == 0, f"a #[cfg(test)] mod tests import is ignored (cycles: {res['cycles']})")
        expect(R + "testkit.rs" not in tree.files and res["test_module_files_left_out"] == [R + "testkit.rs"],
               "a #[cfg(test)] mod file is left out")
        expect([(s, d) for s, _, _, d in tree.edges] == [(R + "a.rs", R + "b.rs")],
               f"only the production edge a.rs -> b.rs remains (got {tree.edges})")

        # 3. a function of 151 lines counts, one of 150 does not; braces in strings, chars and
        #    comments do not fool the matcher; a line of 121 characters counts.
        body150 = "".join(f"    let _x{i} = {i};\n" for i in range(148))
        tricky = '    let s = "}}}"; let c = \'}\'; // }\n    /* } { */ let r = r#"}"#;\n'
        t3 = os.path.join(tmp, "fns")
        write(t3, {R + "lib.rs": "pub mod long;\n"})
        # build exact sizes: a function's length is from its `fn` line to its `}` line
        f151 = "pub fn long_one() {\n" + tricky + "".join(f"    let _x{i} = {i};\n" for i in range(151 - 4)) + "}\n"
        f150 = "fn short_one() {\n" + "".join(f"    let _z{i} = {i};\n" for i in range(150 - 2)) + "}\n"
        write(t3, {R + "long.rs": f151 + "\n" + f150 + "// " + "x" * 118 + "\n"})
        tree = Tree(t3)
        res = measure(tree)
        got = [(r["name"], r["lines"]) for r in res["functions_over_150"]]
        expect(got == [("long_one", 151)], f"a 151-line function is counted, a 150-line one is not (got {got})")
        expect(res["long_lines"] == 1, f"one line over 120 characters (got {res['long_lines']})")

    if not quiet or failures:
        print("self-test:", "FAILED" if failures else "passed")
    return 1 if failures else 0


# --------------------------------------------------------------------------------------------


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--json", action="store_true", help="the numbers as JSON")
    ap.add_argument("--check", nargs="*", metavar="ID", help="exit 1 if a check fails (default: ENFORCED)")
    ap.add_argument("--list", action="store_true", help="every check, whether it holds and is enforced")
    ap.add_argument("--edges", metavar="GLOB", help="the resolved imports of the files matching GLOB")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args(argv)
    if a.self_test:
        return self_test()
    tree = Tree(a.root)
    if not tree.files:
        print(f"arch.py: no crate root found under {a.root}", file=sys.stderr)
        return 2
    if a.edges:
        rx = glob_re(a.edges)
        for s, line, text, d in sorted(set(tree.edges)):
            if rx.match(s):
                print(f"{s}:{line} {text} → {d}")
        return 0
    res = measure(tree)
    commit = git_commit(a.root)
    if res["edges"] == 0:
        print("arch.py: no import between files was found: the resolver is broken", file=sys.stderr)
        return 2
    if a.list:
        for cid, ok in res["checks"].items():
            print(f"{'holds ' if ok else 'BROKEN'}  {'enforced' if cid in ENFORCED else '        '}  {cid}")
        return 0
    if a.check is not None:
        if self_test(quiet=True):
            return 1  # the script's own tests first: a broken resolver must not pass as "holds"
        names = a.check or ENFORCED
        unknown = [n for n in names if n not in res["checks"]]
        if unknown:
            print("arch.py: unknown check(s): " + ", ".join(unknown) + " (see --list)", file=sys.stderr)
            return 2
        failed = [n for n in names if not res["checks"][n]]
        byid = {n["id"]: n for n in res["nevers"]}
        for n in names:
            ok = res["checks"][n]
            print(f"{'holds ' if ok else 'BROKEN'}  {n}" + (f": {byid[n]['name']}" if n in byid else ""))
            if not ok and n in byid:
                for e in byid[n]["evidence"]:
                    print(f"          {e}")
            elif not ok:
                key, most = BUDGETS[n]
                print(f"          {key} = {res[key]}, at most {most}")
        print(f"arch: {len(names) - len(failed)} of {len(names)} checks hold"
              + (f"; FAIL: {', '.join(failed)}" if failed else ""))
        return 1 if failed else 0
    if a.json:
        res["commit"] = commit
        print(json.dumps(res, indent=1, ensure_ascii=False))
    else:
        print(report(res, commit))
    return 0


if __name__ == "__main__":
    sys.exit(main())
