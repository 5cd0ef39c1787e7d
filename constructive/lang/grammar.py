"""The Lark setup every program language shares: grammars loaded from package data, parse errors as one line.

``load_parser(filename)`` returns the LALR parser of a ``.lark`` file shipped beside this module
(cached: Lark builds its tables once); ``parse_text(parser, text, describe)`` parses and turns
Lark's ``UnexpectedInput`` into ``ValueError("line L, column C: expected X, got Y")``, X being
the readable names of the terminals Lark would have accepted (``describe`` maps terminal names
to them).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources
from typing import Any

import lark

#: Readable names of the terminals Lark generates for punctuation (anonymous string terminals).
PUNCTUATION: dict[str, str] = {
    "EQUAL": "'='",
    "LSQB": "'['",
    "RSQB": "']'",
    "LPAR": "'('",
    "RPAR": "')'",
    "BANG": "'!'",
    "AMPERSAND": "'&'",
    "VBAR": "'|'",
    "PLUS": "'+'",
    "MINUS": "'-'",
    "STAR": "'*'",
    "QMARK": "'?'",
    "COLON": "':'",
    "HASH": "'#'",
    "LESSTHAN": "'<'",
    "MORETHAN": "'>'",
    "_NL": "a new line",
    "$END": "end of input",
}
#: Longest input echoed in an error message.
MAX_SHOWN = 20


@functools.cache
def load_parser(filename: str) -> lark.Lark:
    """Return the LALR parser of a grammar file shipped in this package (built once per process)."""
    text = resources.files(__package__).joinpath(filename).read_text(encoding="utf-8")
    return lark.Lark(text, parser="lalr", maybe_placeholders=False, propagate_positions=True)


def _name(terminal: str, describe: Mapping[str, str]) -> str:
    """Return the readable name of one terminal."""
    if terminal in describe:
        return describe[terminal]
    if terminal in PUNCTUATION:
        return PUNCTUATION[terminal]
    if terminal.startswith("__ANON") or terminal.isupper():
        return terminal.lower().replace("_", " ").strip()
    return terminal


def _expected(terminals: Any, describe: Mapping[str, str]) -> str:
    """Return the readable list of expected terminals ('a name', "one of 'x', 'y'")."""
    names = sorted({_name(t, describe) for t in terminals or ()})
    if not names:
        return "something else"
    return names[0] if len(names) == 1 else "one of " + ", ".join(names)


def _shown(text: str) -> str:
    """Return a short quoted excerpt of the offending input."""
    if not text:
        return "end of input"
    if text in ("\n", "\r\n"):
        return "end of line"
    t = text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."
    return repr(t)


def parse_text(parser: lark.Lark, text: str, describe: Mapping[str, str] = {}) -> lark.Tree:
    """Return the parse tree of text, or raise ValueError('line L, column C: expected X, got Y')."""
    if not isinstance(text, str):
        raise ValueError(f"a program must be a string, got {type(text).__name__}")
    try:
        return parser.parse(text)
    except lark.exceptions.UnexpectedToken as e:
        at_end = e.token.type == "$END"
        got = "end of input" if at_end else _shown(str(e.token))
        line, col = _end_position(text) if at_end or e.line in (None, -1) else (e.line, e.column)
        raise ValueError(f"line {line}, column {col}: expected {_expected(_acceptable(e), describe)}, got {got}") from None
    except lark.exceptions.UnexpectedCharacters as e:
        pos = e.pos_in_stream or 0
        got = _shown(text[pos : pos + 1])
        raise ValueError(f"line {e.line}, column {e.column}: expected {_expected(e.allowed, describe)}, got {got}") from None
    except lark.exceptions.UnexpectedEOF as e:
        line, col = _end_position(text)
        raise ValueError(f"line {line}, column {col}: expected {_expected(e.expected, describe)}, got end of input") from None
    except RecursionError:
        raise ValueError("the program is nested too deeply for the parser") from None


def _acceptable(e: lark.exceptions.UnexpectedToken) -> Any:
    """Return the terminals the parser really accepts at the error (LALR's expected set includes merged states' terminals)."""
    try:
        return e.interactive_parser.accepts() or e.expected
    except Exception:  # an interactive parser is not always available; fall back to Lark's expected set
        return e.expected


def _end_position(text: str) -> tuple[int, int]:
    """Return the (line, column) just past the end of text (1-based)."""
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1
