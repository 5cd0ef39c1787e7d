"""hardsoft: a machine-checked companion to Yang, Strobl, Chiang and Angluin, "Simulating Hard Attention Using Soft Attention".

One installed namespace.  The repository keeps its readers' layout (spec/, smt/,
checks/, lean/ at the top); pyproject.toml maps those folders to the subpackages
``hardsoft.spec`` (the executable specification), ``hardsoft.smt`` (bounded SMT
checks), ``hardsoft.checks`` (the runner and the ``hardsoft`` command) and
``hardsoft.lean`` (the Lean sources, shipped as package data).  Importing this
package imports none of them.
"""

from __future__ import annotations

import os
from importlib import metadata

# numpy's OpenBLAS starts its thread team for every matrix product; the simulator's products are many small batched ones
# (one per input of a batch), for which starting and synchronising the team costs up to 50 times the product itself on a
# loaded 2-core machine (measured: 1.33 s against 0.026 s for (256, 17, 348) @ (348, 272)).  One thread, unless the user
# chose otherwise; it takes effect when hardsoft is imported before numpy, as the hardsoft command does.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

try:
    __version__: str = metadata.version("hardsoft")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
