"""hardsoft: a machine-checked companion to Yang, Strobl, Chiang and Angluin, "Simulating Hard Attention Using Soft Attention".

One installed namespace.  The repository keeps its readers' layout (spec/, smt/,
checks/, lean/ at the top); pyproject.toml maps those folders to the subpackages
``hardsoft.spec`` (the executable specification), ``hardsoft.smt`` (bounded SMT
checks), ``hardsoft.checks`` (the runner and the ``hardsoft`` command) and
``hardsoft.lean`` (the Lean sources, shipped as package data).  Importing this
package imports none of them.
"""

from __future__ import annotations

from importlib import metadata

try:
    __version__: str = metadata.version("hardsoft")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
