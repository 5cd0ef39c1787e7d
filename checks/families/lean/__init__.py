"""The Lean driver of ``hardsoft check`` (family ``lean``), one package with no import cycle.

Modules, each importing only those listed before it:

* ``toolchain`` -- install and locate Lean: native ``lake``, or the embedded wasm build with
  its verified lean.js patch (``hardsoft install-lean``);
* ``messages`` -- Lean's output: noise filter, message parser;
* ``sources`` -- the tokenizer, top-level commands, modules and import order;
* ``audit`` -- the allowlist of commands, the refused words, balanced sections;
* ``bundle`` -- the wasm build's one generated module of all files, and its line-offset table;
* ``olean`` -- the reader of the wasm32 ``.olean`` files: declarations, axioms of every proof;
* ``environment`` -- the verdict from those facts, and the byte search of the raw sources;
* ``inventory`` -- ``#print axioms`` lines for a native toolchain;
* ``build`` -- compiling the modules (native: ``lake build``; wasm: the bundle, then the pins);
* ``pins`` -- the module generated from the registry that pins each claimed theorem's statement;
* ``cache`` -- the honest cache of a build's verdict;
* ``family`` -- ``run``: the family itself, and ``markdown_section`` for the report.

``run`` and ``markdown_section`` are re-exported here (imported on first use, so that
``python -m hardsoft.checks.families.lean.toolchain`` loads only what it needs).
"""

from __future__ import annotations

from typing import Any


def run(*args: Any, **kwargs: Any) -> Any:
    """Run the lean family (see ``checks.families.lean.family.run``)."""
    from hardsoft.checks.families.lean.family import run as _run

    return _run(*args, **kwargs)


def markdown_section(*args: Any, **kwargs: Any) -> Any:
    """Return the report's Lean section (see ``checks.families.lean.family.markdown_section``)."""
    from hardsoft.checks.families.lean.family import markdown_section as _md

    return _md(*args, **kwargs)
