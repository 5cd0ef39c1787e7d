"""The certify family and ``hardsoft certify``: Lean certificates that a compiled program's transformer computes it for every n.

docs/certify.md.  Modules, each importing only those listed before it (and
``checks.families.lean``, ``constructive.logic.certificate``):

* ``mirror`` -- a Python mirror of lean/HardSoft/Cert/Check.lean's ``check``, naming the first failing check;
* ``lean_text`` -- the Lean text of a certificate module (data, the theorem, its pin; ``THEOREM_FORM``);
* ``verdict`` -- Lean's verdict: the module compiled against the kept compiled library, judged from its
  compiled environment, through a verdict cache;
* ``subjects`` -- what is certified (``Subject``), compiled, described and mirrored (``prepare``); the
  programs of the tests and of ``make check``;
* ``decide`` -- the one line and exit status of each certificate (Lean decides, the mirror names);
* ``family`` -- ``run``: the family of ``hardsoft check`` (four certificates in one Lean module), and
  ``markdown_section`` for the report.

``run``, ``start_early`` and ``markdown_section`` are re-exported here (imported on first use).
"""

from __future__ import annotations

from typing import Any


def run(*args: Any, **kwargs: Any) -> Any:
    """Run the certify family (see ``checks.families.certify.family.run``)."""
    from hardsoft.checks.families.certify.family import run as _run

    return _run(*args, **kwargs)


def start_early(*args: Any, **kwargs: Any) -> Any:
    """Compile the family's certificates beside the lean family's pins (see ``checks.families.certify.family.start_early``)."""
    from hardsoft.checks.families.certify.family import start_early as _start

    return _start(*args, **kwargs)


def markdown_section(*args: Any, **kwargs: Any) -> Any:
    """Return the report's certificate section (see ``checks.families.certify.family.markdown_section``)."""
    from hardsoft.checks.families.certify.family import markdown_section as _md

    return _md(*args, **kwargs)
