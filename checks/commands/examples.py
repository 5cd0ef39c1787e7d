"""``hardsoft examples``: the program library, one line per program; ``--show NAME`` prints one.

Two shelves: the B-RASP and C-RASP programs of ``constructive/lang/library`` and the S-RASP
programs of ``constructive/srasp/programs``.  Each line names the program, its language and
alphabet, and what it computes; the programs compile with
``hardsoft compile --lang LANG --file ...`` (``--show NAME`` piped to a file).  A name that is
on both shelves (majority, anbn) needs ``--lang`` to be shown.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Entry:
    """One library program as listed: name, language, alphabet, one-line description, source paper, text."""

    name: str
    language: str
    alphabet: tuple[str, ...]
    description: str
    source: str
    text: str


def register(sub: Any) -> None:
    """Add the examples subcommand."""
    e = sub.add_parser("examples", help="list the program library (B-RASP, C-RASP, S-RASP); --show NAME prints a program")
    e.add_argument("--show", metavar="NAME", help="print the program NAME")
    e.add_argument("--lang", choices=("brasp", "crasp", "srasp"), help="only this language's programs")
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(func=run)


def _comment(text: str) -> str:
    """Return the leading '#' comment block of a program as one line."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].strip())
    return " ".join(lines)


def entries() -> list[Entry]:
    """Return every library program of both shelves, B-RASP/C-RASP first, each sorted by name."""
    from hardsoft.constructive.lang.library import library
    from hardsoft.constructive.srasp.library import library_names, library_text, load_library

    out = [Entry(x.name, x.language, x.alphabet, x.description, x.source, x.text) for x in library().values()]
    for name in library_names():
        text, prog = library_text(name), load_library(name)
        head = _comment(text)
        description, _, source = head.partition("Source:")
        out.append(Entry(name, "srasp", prog.alphabet, description.strip(), source.strip().split(";")[0].rstrip("."), text))
    return out


def run(args: argparse.Namespace) -> int:
    """List the library or print one program."""
    shelf = [e for e in entries() if args.lang in (None, e.language)]
    if args.show is not None:
        found = [e for e in shelf if e.name == args.show]
        if not found:
            raise ValueError(f"--show {args.show!r}: no such program; expected one of {', '.join(sorted({e.name for e in shelf}))}")
        if len(found) > 1:
            raise ValueError(f"--show {args.show!r}: a program of {' and '.join(e.language for e in found)}; add --lang to choose")
        ex = found[0]
        if args.json:
            print(json.dumps({"name": ex.name, "language": ex.language, "alphabet": list(ex.alphabet), "text": ex.text}, indent=1))
        else:
            print(ex.text, end="" if ex.text.endswith("\n") else "\n")
        return 0
    if args.json:
        rows = [
            {"name": x.name, "language": x.language, "alphabet": list(x.alphabet), "description": x.description, "source": x.source} for x in shelf
        ]
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(x.name) for x in shelf)
    for x in shelf:
        print(f"{x.name:<{width}}  {x.language:<6} {','.join(x.alphabet):<6} {x.description}")
    return 0
