"""The program library: example programs of the papers the languages follow, shipped as package data (docs/languages.md).

Each file ``NAME.SUFFIX`` (the suffix names the language: .brasp, .crasp) starts with header
comments ``# description: ...``, ``# source: ...`` (the paper), ``# alphabet: ...`` and
``# recognizes: ...``.  ``library()`` returns them by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

#: The header fields every library program has.
FIELDS = ("description", "source", "alphabet", "recognizes")


@dataclass(frozen=True)
class Example:
    """One library program: its name, language, alphabet, one-line description, paper, language recognized, text."""

    name: str
    language: str
    alphabet: tuple[str, ...]
    description: str
    source: str
    recognizes: str
    text: str


def _header(text: str, name: str) -> dict[str, str]:
    """Return the header fields of a program file (ValueError naming a missing one)."""
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].partition(":")
        if key.strip() in FIELDS:
            out[key.strip()] = value.strip()
    missing = [f for f in FIELDS if f not in out]
    if missing:
        raise ValueError(f"library program {name}: no '# {missing[0]}:' header line")
    return out


def library() -> dict[str, Example]:
    """Return every library program by name (sorted), its language read from the file suffix."""
    from hardsoft.constructive.lang.registry import LANGUAGES

    suffixes = {lang.suffix: lang.name for lang in LANGUAGES.values()}
    out: dict[str, Example] = {}
    for entry in sorted(resources.files(__package__).iterdir(), key=lambda e: e.name):
        stem, dot, ext = entry.name.rpartition(".")
        if not dot or "." + ext not in suffixes:
            continue
        text = entry.read_text(encoding="utf-8")
        h = _header(text, entry.name)
        alphabet = tuple(s.strip() for s in h["alphabet"].split(",")) if "," in h["alphabet"] else tuple(h["alphabet"])
        out[stem] = Example(stem, suffixes["." + ext], alphabet, h["description"], h["source"], h["recognizes"], text)
    return out
