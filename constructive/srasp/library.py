"""S-RASP, the program library: the .srasp files shipped as package data (``programs/``), loaded by name.

Each file's header comment names its source (Strobl et al. 2025 for the transductions, the DYCK-k
application for Dyck-k); docs/srasp.md lists them with their measured gap and temperature.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from hardsoft.constructive.srasp.language import Program
from hardsoft.constructive.srasp.parser import parse_program

#: The package folder holding the library's programs.
PROGRAMS = "programs"


def library_names() -> tuple[str, ...]:
    """Return the names of the library's programs (file names without .srasp), sorted."""
    folder = resources.files("hardsoft.constructive.srasp").joinpath(PROGRAMS)
    return tuple(sorted(p.name[: -len(".srasp")] for p in folder.iterdir() if p.name.endswith(".srasp")))


def library_text(name: str) -> str:
    """Return the text of a library program; ValueError naming the known ones otherwise."""
    if name not in library_names():
        raise ValueError(f"no S-RASP library program {name!r}; known: {', '.join(library_names())}")
    return resources.files("hardsoft.constructive.srasp").joinpath(PROGRAMS, f"{name}.srasp").read_text(encoding="utf-8")


@cache
def load_library(name: str) -> Program:
    """Return a library program, parsed (once)."""
    return parse_program(library_text(name))
