"""Packaging: one installed namespace (hardsoft), data shipped inside it, sensible places outside a repository."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from hardsoft import locations
from hardsoft.spec.examples import EXAMPLES
from hardsoft.spec.modelio import load_model, model_to_dict

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **env}, timeout=300)


def test_importing_hardsoft_adds_no_top_level_spec_smt_checks(tmp_path: Path) -> None:
    # Run from an empty folder so that the repository's own spec/, smt/, checks/ folders are not on sys.path.
    code = ("import sys, hardsoft, hardsoft.spec.bounds, hardsoft.smt.core, hardsoft.checks.cli, hardsoft.checks.runner\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'spec', 'smt', 'checks', 'lean'}))")
    p = _python(code, tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"
    # The planted defect: a module that imports a top-level name is seen by the same probe.
    planted = _python("import sys; sys.modules['spec'] = object(); "
                      "print(sorted({m.split('.')[0] for m in sys.modules} & {'spec', 'smt', 'checks', 'lean'}))", tmp_path)
    assert planted.stdout.strip() == "['spec']"


def test_version_and_python_m(tmp_path: Path) -> None:
    from hardsoft import __version__

    for cmd in ([sys.executable, "-m", "hardsoft", "--version"],):
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, timeout=120)
        assert p.returncode == 0 and p.stdout.strip() == f"hardsoft {__version__}", p.stderr
    assert __version__ != "0+unknown"


def test_shipped_data_is_found_through_the_package() -> None:
    vectors = json.loads(locations.spec_data("statements.json").read_text())
    assert {"E", "Z", "T"} <= set(vectors)
    lean = locations.lean_sources()
    assert (lean / "lakefile.toml").is_file() and (lean / "HardSoft.lean").is_file()
    assert (lean / "wasm" / "package-lock.json").is_file()
    assert set(locations.example_model_files()) == {"has-a", "last-a"}


@pytest.mark.parametrize("name", ["has-a", "last-a"])
def test_shipped_example_models_equal_their_builders(name: str) -> None:
    shipped = model_to_dict(load_model(locations.example_model_files()[name]))
    built = model_to_dict(EXAMPLES[name]())
    shipped.pop("description", None), built.pop("description", None)
    assert shipped == built


def test_toolchain_home_outside_a_source_tree(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(locations.TOOLCHAIN_ENV, raising=False)
    assert locations.source_tree() == ROOT
    assert locations.toolchain_home() == ROOT / ".toolchain"
    monkeypatch.setattr(locations, "source_tree", lambda: None)
    assert locations.toolchain_home() == locations.user_cache_dir() / "toolchain"
    monkeypatch.setenv(locations.TOOLCHAIN_ENV, str(tmp_path))
    assert locations.toolchain_home() == tmp_path.resolve()


def test_lean_toolchain_missing_is_undecided_with_the_install_command(tmp_path: Path) -> None:
    # No npm on PATH, no native lake, an empty toolchain home: the Lean family cannot run.
    env = {**os.environ, "PATH": str(tmp_path / "nobin"), locations.TOOLCHAIN_ENV: str(tmp_path / "tc")}
    p = subprocess.run([sys.executable, "-m", "hardsoft", "check", "--only", "spec,lean", "--out", str(tmp_path / "r")],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert p.returncode == 3, (p.stdout, p.stderr)
    assert "Traceback" not in p.stderr + p.stdout
    doc = json.loads((tmp_path / "r" / "report.json").read_text())
    rows = {r["name"]: r for r in doc["results"]}
    assert rows["lean.toolchain"]["outcome"] == "undecided"
    assert rows["lean.toolchain"]["verdict"] == "toolchain missing"
    assert "hardsoft install-lean" in rows["lean.toolchain"]["detail"]
    spec_rows = [r for r in doc["results"] if r["family"] == "spec"]
    assert spec_rows and all(r["outcome"] == "ok" for r in spec_rows)


def test_wheel_has_one_top_level_package(tmp_path: Path) -> None:
    # --no-isolation: the test extra installs build and setuptools>=77, so no download happens here.
    # built from a copy of the tracked files: a build/ folder left in the tree would put stale files in the wheel
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files"], capture_output=True, text=True).stdout.split()
    assert tracked, "git ls-files listed nothing (not a git checkout?)"
    src = tmp_path / "src"
    for f in tracked:
        if (ROOT / f).is_file():
            (src / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, src / f)
    p = subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(src)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    (wheel,) = tmp_path.glob("hardsoft-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/", 1)[0] for n in names}
    dist_info = {t for t in tops if t.endswith(".dist-info")}
    assert tops - dist_info == {"hardsoft"}, sorted(tops)
    for needed in ("hardsoft/lean/HardSoft.lean", "hardsoft/lean/lakefile.toml", "hardsoft/lean/wasm/package-lock.json",
                   "hardsoft/spec/data/statements.json", "hardsoft/spec/models/has-a.json", "hardsoft/__main__.py",
                   "hardsoft/checks/cli.py", "hardsoft/checks/families/lean/family.py", "hardsoft/checks/families/lean/toolchain.py", "hardsoft/smt/core.py", "hardsoft/spec/bounds.py"):
        assert needed in names, needed
    assert any(n.startswith("hardsoft/lean/HardSoft/") and n.endswith(".lean") for n in names)
    # every tracked Python module and Lean file of the shipped folders is in the wheel (a new package or Lean folder
    # left out of pyproject.toml would break the installed command or the installed Lean check)
    roots = {"spec": "hardsoft/spec", "constructive": "hardsoft/constructive", "smt": "hardsoft/smt",
             "interchange": "hardsoft/interchange", "checks": "hardsoft/checks", "hardsoft": "hardsoft", "lean": "hardsoft/lean"}
    want = {roots[f.split("/", 1)[0]] + "/" + f.split("/", 1)[1] for f in tracked
            if "/" in f and f.split("/", 1)[0] in roots and f.endswith((".py", ".lean"))}
    assert not want - set(names), sorted(want - set(names))
    meta = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in meta and "Classifier:" in meta and "Project-URL:" in meta


def test_pin_module_text_is_the_same_installed_and_in_the_tree(tmp_path: Path) -> None:
    # The Lean verdict's cache key covers the pin module's text, whose comments cite registry origins
    # (file:line): an installed package (no source tree) must name them as the tree does, or the wheel
    # check rebuilds Lean instead of reusing the verdict (the defect this pins: "lean_statements.py:133"
    # installed against "spec/lean_statements.py:133" in the tree).
    import shutil

    site = tmp_path / "site"
    pkg = site / "hardsoft"
    shutil.copytree(ROOT / "hardsoft", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for sub in ("spec", "constructive", "smt", "interchange", "checks", "lean"):
        shutil.copytree(ROOT / sub, pkg / sub, ignore=shutil.ignore_patterns("__pycache__", ".lake", "build", "wasm"))
    code = ("from hardsoft.checks.families.lean import pins; import hashlib; import hardsoft.locations as L; "
            "s, c = pins.registry_pins(); t, _p, _q = pins.pin_module(s, c, ['HardSoft']); "
            "print(L.source_tree() is None, hashlib.sha256(t.encode()).hexdigest())")
    runs = []
    for prefix in (f"import sys; sys.path.insert(0, {str(site)!r}); ", ""):
        p = subprocess.run([sys.executable, "-c", prefix + code], capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert p.returncode == 0, p.stderr[-2000:]
        runs.append(p.stdout.split())
    (installed_no_tree, installed), (tree_no_tree, tree) = runs
    assert installed_no_tree == "True" and tree_no_tree == "False"  # the copy really has no source tree; the tree does
    assert installed == tree


def test_the_loadgroup_guard_refuses_the_pair_that_loses_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/conftest.py refuses `--dist loadgroup` with pytest >= 9.2 and pytest-xdist <= 3.8 (the pair that ran the Lean
    tests on both workers at once); the test extra's own pin (pytest < 9.2) passes it."""
    import xdist

    from tests import conftest as cf

    assert not cf._loadgroup_lost()  # what `make test` installs
    monkeypatch.setattr(pytest, "version_tuple", (9, 2, 0))
    monkeypatch.setattr(xdist, "__version__", "3.8.0")
    assert cf._loadgroup_lost()
    monkeypatch.setattr(xdist, "__version__", "3.9.0")  # a pytest-xdist that may have caught up is not refused
    assert not cf._loadgroup_lost()
    monkeypatch.setattr(pytest, "version_tuple", (9, 1, 1))
    monkeypatch.setattr(xdist, "__version__", "3.8.0")
    assert not cf._loadgroup_lost()
