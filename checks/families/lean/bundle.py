"""The wasm build's bundle: the library's source files concatenated, in import order, into one module.

Every wasm Lean process spends 15-30 s starting and importing before it reads a line, so
the wasm build compiles the whole library as ONE generated module (named ``HardSoft``, the
library's root, so that the pin module can ``public import`` it) in one process, instead of
one process per file.  The bundle is

    module
    <imports of modules outside the library, hoisted from the files>
    -- one comment line per file: where its lines are
    section                       -- opened by the bundle around each file
    <file 1, verbatim, except that its `module` keyword and its imports are blanked out>
    end                           -- closes the bundle's section
    public theorem HardSoftBundle.reached_<file 1> : True := True.intro
    section
    <file 2 ...>
    end
    public theorem HardSoftBundle.reached_<file 2> : True := True.intro
    ...

Blanking replaces those tokens by spaces, so every other character keeps its line and
column: line ``n`` of a file is line ``n + offset`` of the bundle, and ``Bundle.locate``
maps any bundle line back to the original file and line (Lean's messages are reported
there, e.g. ``HardSoft/Layer.lean:57``).  The section the bundle opens around each file
keeps a top-level ``open``, ``variable`` or ``set_option`` of one file from reaching the
next; the audit (``checks.families.lean.audit``) also requires every file to close each section and
namespace it opens, so the bundle's ``end`` closes the bundle's own section.

The marker after each file (outside it, named in a namespace no project declaration may
use: ``checks.families.lean.audit`` refuses any root but ``HardSoft``) is what tells that Lean
compiled the file to its end: the pin module (``checks.families.lean.pins``) must find each
marker in the compiled bundle, so a file cut short (``#exit``, or anything else that stops
Lean early without an error) is "not compiled", never "built".

How the bundle differs from separate modules: a later file sees every declaration of every
earlier file (also those of files it does not import, its ``private`` ones, and the bodies
of definitions not marked ``@[expose]``), not only its imports' public interface.  This can
make a file elaborate that would not on its own; it cannot make a false statement pass:
bundling only adds declarations to the environment, everything that could change what a
statement means (notation, instances, attributes after the fact, options, ...) is refused
by the audit, and the pins are checked in a separate process against the compiled bundle.
The native build (``lake build``, module by module) is the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hardsoft.checks.families.lean.messages import LeanMessage
from hardsoft.checks.families.lean.sources import LeanSyntaxError, Module, commands, tokenize


class BundleError(ValueError):
    """A file cannot be bundled (unreadable, or its header cannot be blanked token by token): file, line and why."""

    def __init__(self, path: str, line: int, why: str) -> None:
        super().__init__(f"{path}:{line}: {why}")
        self.path, self.line, self.why = path, line, why


@dataclass(frozen=True)
class Segment:
    """One source file in the bundle: module name, path (relative to the source root), first bundle line, line count."""

    module: str
    path: str
    first: int  # the bundle line of the file's line 1
    lines: int  # the file's number of lines

    @property
    def offset(self) -> int:
        """Return the bundle line minus the file line (same for every line of the file)."""
        return self.first - 1

    @property
    def last(self) -> int:
        """Return the bundle line of the file's last line."""
        return self.first + self.lines - 1


@dataclass(frozen=True)
class Bundle:
    """The generated bundle: its module name, text and the line-offset table of its files (in import order)."""

    name: str
    text: str
    segments: tuple[Segment, ...]
    hoisted: tuple[tuple[int, str, int], ...] = ()  # (bundle line, file, line in the file) of each hoisted import

    @property
    def reached(self) -> list[tuple[str, str]]:
        """Return (module, marker constant) for each file: the constant declared right after the file in the bundle."""
        return [(s.module, reached_marker(s.module)) for s in self.segments]

    @property
    def file(self) -> str:
        """Return the bundle's file name (relative to the staging root)."""
        return str(Path(*self.name.split(".")).with_suffix(".lean"))

    def locate(self, line: int) -> tuple[Segment | None, int]:
        """Return (file segment, line in that file) for a bundle line.

        A line of the bundle's own header is (None, line).  The ``section`` line the bundle
        puts before a file is that file's line 0; the ``end`` after it, its last line + 1; its marker, + 2.
        """
        for s in self.segments:
            if s.first - 1 <= line <= s.last + 2:
                return s, line - s.offset
        return None, line

    def map_message(self, m: LeanMessage) -> tuple[Segment | None, LeanMessage]:
        """Return (file segment or None, the message with the original file and line) for a Lean message.

        Messages of other files (or with no file) are returned unchanged with segment None.
        """
        if not m.file or not (m.file == self.file or m.file.endswith("/" + self.file)):
            return None, m
        seg, line = self.locate(m.line)
        if seg is None:
            for at, path, orig in self.hoisted:
                if at == m.line:
                    return next((s for s in self.segments if s.path == path), None), LeanMessage(
                        path, orig, 0, m.severity, f"(import hoisted to the bundle's header) {m.text}"
                    )
            return None, LeanMessage(f"{self.file} (bundle header)", m.line, m.col, m.severity, m.text)
        text = m.text
        if line < 1 or line > seg.lines:
            text = f"(at the section the bundle puts around {seg.path}) {text}"
        return seg, LeanMessage(seg.path, line, m.col, m.severity, text)


#: The namespace of the bundle's end-of-file markers (generated; project declarations may only use ``HardSoft``).
MARKER_NAMESPACE = "HardSoftBundle"


def reached_marker(module: str) -> str:
    """Return the constant the bundle declares right after the file of ``module`` (``HardSoftBundle.reached_HardSoft_Defs``)."""
    return f"{MARKER_NAMESPACE}.reached_{module.replace('.', '_')}"


def _blank(lines: list[str], line: int, col: int, text: str, path: str) -> None:
    """Replace ``text`` at (1-based line, 0-based col) of ``lines`` by spaces."""
    if "\n" in text or lines[line - 1][col : col + len(text)] != text:
        raise BundleError(path, line, f"cannot blank {text!r}")
    s = lines[line - 1]
    lines[line - 1] = s[:col] + " " * len(text) + s[col + len(text) :]


def make_bundle(mods: dict[str, Module], order: list[str], src_root: Path, name: str, texts: dict[str, str] | None = None) -> Bundle:
    """Return the bundle of ``mods`` in ``order`` as module ``name`` (``texts``: source texts by module, else read from disk).

    In each file the ``module`` keyword and every import are blanked; imports of modules
    outside ``mods`` are hoisted to the bundle's header (each once, in order of appearance).
    """
    bodies: list[tuple[Module, list[str]]] = []
    hoisted: list[str] = []
    origins: list[tuple[str, int]] = []
    for n in order:
        m = mods[n]
        src = texts[n] if texts and n in texts else m.path.read_text(encoding="utf-8")
        lines = src.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        rel = _rel(m.path, src_root)
        try:
            cmds = commands(tokenize(src))
        except LeanSyntaxError as e:
            raise BundleError(rel, e.line, f"unreadable: {e}") from e
        for c in cmds:
            body = [t.text for t in c.body]
            is_import = "import" in body[:3] and all(b in ("public", "meta", "private", "import", "all") for b in body[: body.index("import")])
            if body == ["module"] or is_import:
                if c.doc is not None or c.attrs or c.prefix_in:
                    raise BundleError(rel, c.line, f"`{' '.join(body)}` with a doc comment, attributes or prefix")
                target = body[-1]
                if is_import and target not in mods:
                    line = " ".join(body)
                    if line not in hoisted:
                        hoisted.append(line)
                        origins.append((rel, c.line))
                for t in c.tokens:
                    _blank(lines, t.line, t.col, t.text, rel)
        bodies.append((m, lines))
    out = [
        "module",
        *hoisted,
        "",
        f"-- Generated by hardsoft.checks.families.lean.bundle: {len(bodies)} files in import order, each in a section of its own.",
    ]
    out.extend("" for _ in bodies)  # the table of offsets, filled in below (same number of lines)
    segments: list[Segment] = []
    for m, lines in bodies:
        rel = _rel(m.path, src_root)
        out.append("section")
        seg = Segment(m.name, rel, len(out) + 1, len(lines))
        segments.append(seg)
        out.extend(lines)
        out.append("end")
        out.append(f"public theorem {reached_marker(m.name)} : True := True.intro")
    for k, seg in enumerate(segments):  # fill in the offsets (header lines, same count)
        out[2 + len(hoisted) + 1 + k] = f"-- {seg.path}: line n of the file is line n + {seg.offset} of the bundle"
    at = tuple((2 + k, path, line) for k, (path, line) in enumerate(origins))
    return Bundle(name, "\n".join(out) + "\n", tuple(segments), at)


def _rel(path: Path, root: Path) -> str:
    """Return ``path`` relative to ``root`` (as given when outside it)."""
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
