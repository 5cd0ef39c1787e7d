"""Where hardsoft finds what it ships and where it puts what it installs.

Shipped data is located through ``importlib.resources`` (it lies beside the code that
reads it, inside the installed package): the Lean project (``hardsoft.lean``), the
50-digit vectors (``hardsoft.spec/data``), the example model files
(``hardsoft.spec/models``).  Installed things go to:

* the embedded Lean toolchain: ``$HARDSOFT_TOOLCHAIN_DIR`` if set; in a source tree
  (an editable install of the repository) ``<repository>/.toolchain``; otherwise the
  platform's user cache (``platformdirs.user_cache_dir("hardsoft")``, e.g.
  ``~/.cache/hardsoft`` on Linux);
* reports: ``./report`` in the current directory unless ``--out`` says otherwise.
"""

from __future__ import annotations

import os
import tomllib
from importlib import resources
from pathlib import Path

#: Environment variable that overrides where the embedded Lean toolchain is installed.
TOOLCHAIN_ENV = "HARDSOFT_TOOLCHAIN_DIR"


def _package_dir(package: str) -> Path:
    """Return the directory of an installed (sub)package of hardsoft as a file-system path."""
    root = resources.files(package)
    if not isinstance(root, Path):  # pragma: no cover - hardsoft is never installed zipped
        raise RuntimeError(f"package {package} is not installed as a directory: {root}")
    return root


def lean_sources() -> Path:
    """Return the directory of the shipped Lean project (lakefile.toml, HardSoft/, wasm/)."""
    return _package_dir("hardsoft.lean")


def spec_data(name: str) -> Path:
    """Return the path of a data file shipped in hardsoft.spec's data/ folder (e.g. statements.json)."""
    return _package_dir("hardsoft.spec") / "data" / name


def example_model_files() -> dict[str, Path]:
    """Return the example model files shipped in hardsoft.spec's models/ folder, by name."""
    return {p.stem: p for p in sorted((_package_dir("hardsoft.spec") / "models").glob("*.json"))}


def source_tree() -> Path | None:
    """Return the repository root when hardsoft runs from its source tree (editable install), else None.

    The source tree is recognised by the shipped Lean folder lying directly in a folder whose
    pyproject.toml names the project ``hardsoft`` (an installed wheel has no pyproject.toml there).
    """
    candidate = lean_sources().parent
    pyproject = candidate / "pyproject.toml"
    if not pyproject.is_file():
        return None
    try:
        name = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {}).get("name")
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return candidate if name == "hardsoft" else None


def user_cache_dir() -> Path:
    """Return the platform's user cache folder for hardsoft (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("hardsoft", appauthor=False))


def toolchain_home() -> Path:
    """Return the folder the embedded Lean toolchain is installed into (see the module docstring)."""
    env = os.environ.get(TOOLCHAIN_ENV)
    if env:
        return Path(env).expanduser().resolve()
    tree = source_tree()
    return tree / ".toolchain" if tree is not None else user_cache_dir() / "toolchain"
