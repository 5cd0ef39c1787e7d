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

# One BLAS thread per process unless the user set another count (before numpy loads its BLAS): hardsoft's parallel work is
# processes (the verification engine's pool, Dask workers), and BLAS threads beside them oversubscribe the cores; the
# simulator's products are small or blocked, where a second BLAS thread costs more in synchronisation than it saves
# (measured: a 57-layer compiled model at n = 2,000 runs 2.3x faster with one thread on a loaded 2-core machine).
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

try:
    __version__: str = metadata.version("hardsoft")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
