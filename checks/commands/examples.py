"""``hardsoft examples``: the program library (constructive/lang/library), one line per program; ``--show NAME`` prints one.

Each line names the program, its language and alphabet, and what it recognizes; the programs
compile with ``hardsoft compile --lang LANG --file ...`` (or ``--show NAME`` piped to a file).
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: Any) -> None:
    """Add the examples subcommand."""
    e = sub.add_parser("examples", help="list the program library (B-RASP, C-RASP); --show NAME prints a program")
    e.add_argument("--show", metavar="NAME", help="print the program NAME")
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """List the library or print one program."""
    from hardsoft.constructive.lang.library import library

    lib = library()
    if args.show is not None:
        if args.show not in lib:
            raise ValueError(f"--show {args.show!r}: no such program; expected one of {', '.join(lib)}")
        ex = lib[args.show]
        if args.json:
            print(json.dumps({"name": ex.name, "language": ex.language, "alphabet": list(ex.alphabet), "text": ex.text}, indent=1))
        else:
            print(ex.text, end="" if ex.text.endswith("\n") else "\n")
        return 0
    if args.json:
        rows = [
            {"name": x.name, "language": x.language, "alphabet": list(x.alphabet), "description": x.description, "source": x.source}
            for x in lib.values()
        ]
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(n) for n in lib)
    for x in lib.values():
        print(f"{x.name:<{width}}  {x.language:<6} {','.join(x.alphabet):<6} {x.description}")
    return 0
