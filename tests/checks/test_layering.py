"""The packages' layering and the absence of import cycles, read from every module's AST (lazy imports included).

Layers: spec <- constructive <- checks, spec <- smt <- checks and spec <- interchange <- checks.
A module of spec/ imports only spec (and the root package's own modules, ``hardsoft`` and
``hardsoft.locations``); constructive/, smt/ and interchange/ import spec and themselves, never
each other and never checks/; checks/ may import anything.  Every ``import`` and ``from ... import`` counts wherever it stands
(module level, inside a function, under ``if TYPE_CHECKING``), so a lazy import cannot hide a
back-edge or a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Repository folder -> installed package (pyproject's package-dir mapping).
FOLDERS: dict[str, str] = {
    "hardsoft": "hardsoft",
    "spec": "hardsoft.spec",
    "constructive": "hardsoft.constructive",
    "smt": "hardsoft.smt",
    "interchange": "hardsoft.interchange",
    "checks": "hardsoft.checks",
}
#: Layer of each top package -> the top packages it may import.
ALLOWED: dict[str, set[str]] = {
    "root": {"root"},
    "spec": {"root", "spec"},
    "constructive": {"root", "spec", "constructive"},
    "smt": {"root", "spec", "smt"},
    "interchange": {"root", "spec", "interchange"},
    "checks": {"root", "spec", "constructive", "smt", "interchange", "checks"},
    "entry": {"root", "checks"},
}


def layer_of(module: str) -> str | None:
    """Return the layer of a hardsoft module name (None outside hardsoft)."""
    parts = module.split(".")
    if parts[0] != "hardsoft":
        return None
    if len(parts) == 1:
        return "root"
    if parts[1] in ("spec", "constructive", "smt", "interchange", "checks"):
        return parts[1]
    if parts[1] == "__main__":
        return "entry"
    return "root"  # hardsoft.locations, hardsoft.__init__'s siblings


def module_files(root: Path, folders: dict[str, str]) -> dict[str, Path]:
    """Return installed module name -> file for every .py file under the mapped folders."""
    out: dict[str, Path] = {}
    for folder, package in folders.items():
        for path in sorted((root / folder).rglob("*.py")):
            rel = path.relative_to(root / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([package, *parts])] = path
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Return the hardsoft modules that module ``name`` imports anywhere in its file (resolved to known modules)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_pkg = path.name == "__init__.py"
    here = name if is_pkg else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for t in targets:
            # the longest known module that the target names (a.b.c.attr -> a.b.c)
            parts = t.split(".")
            for k in range(len(parts), 0, -1):
                cand = ".".join(parts[:k])
                if cand in known:
                    if cand != name:
                        found.add(cand)
                    break
    return found


def import_graph(root: Path = ROOT, folders: dict[str, str] = FOLDERS) -> dict[str, set[str]]:
    """Return module -> the hardsoft modules it imports (every import statement in its AST)."""
    files = module_files(root, folders)
    known = set(files)
    return {m: imports_of(m, p, known) for m, p in files.items()}


def layering_violations(graph: dict[str, set[str]]) -> list[str]:
    """Return one line per import that goes against the layering."""
    out = []
    for m, deps in sorted(graph.items()):
        lm = layer_of(m)
        for d in sorted(deps):
            ld = layer_of(d)
            if lm is not None and ld is not None and ld not in ALLOWED[lm]:
                out.append(f"{m} ({lm}) imports {d} ({ld})")
    return out


def _package_edges(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Return the graph without the edges a module has to its own parent packages (``a.b.c`` importing ``a.b`` runs ``a/b/__init__``)."""
    return {m: {d for d in deps if not m.startswith(d + ".")} for m, deps in graph.items()}


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the import cycles (strongly connected components with more than one module, or a self-loop)."""
    graph = _package_edges(graph)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    sccs: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        # iterative Tarjan: (node, iterator over its successors)
        work: list[tuple[str, Iterable[str]]] = [(v, iter(sorted(graph.get(v, ()))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph.get(node, ()):
                    sccs.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sccs


def test_every_import_follows_the_layering() -> None:
    graph = import_graph()
    assert len(graph) > 60  # every module of the five folders was read
    assert layering_violations(graph) == []


def test_no_import_cycle_lazy_imports_included() -> None:
    assert import_cycles(import_graph()) == []


def _plant(tmp: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for rel, text in files.items():
        p = tmp / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    folders = {k: v for k, v in FOLDERS.items() if k != "hardsoft" and (tmp / k).is_dir()}
    return import_graph(tmp, folders)


def test_a_lazy_back_edge_is_caught(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "spec/__init__.py": "",
            "spec/claims.py": "def f():\n    from hardsoft.checks import runner  # lazy back-edge\n    return runner\n",
            "constructive/__init__.py": "",
            "constructive/heads.py": "import hardsoft.smt.core\n",
            "smt/__init__.py": "",
            "smt/core.py": "from hardsoft.spec import claims\n",
            "checks/__init__.py": "",
            "checks/runner.py": "from hardsoft.spec.claims import f\n",
        },
    )
    v = layering_violations(graph)
    assert "hardsoft.spec.claims (spec) imports hardsoft.checks.runner (checks)" in v
    assert "hardsoft.constructive.heads (constructive) imports hardsoft.smt.core (smt)" in v
    assert not any(line.startswith("hardsoft.smt.core") or line.startswith("hardsoft.checks.runner") for line in v)


def test_a_cycle_through_a_lazy_import_is_caught(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "checks/__init__.py": "",
            "checks/engine/__init__.py": "",
            "checks/engine/verify.py": "def g():\n    from hardsoft.checks.engine.formulas import h\n    return h\n",
            "checks/engine/formulas.py": "from hardsoft.checks.engine import verify as vf\n",
            "checks/engine/theorem26.py": "from hardsoft.checks.engine import verify\n",
        },
    )
    assert import_cycles(graph) == [["hardsoft.checks.engine.formulas", "hardsoft.checks.engine.verify"]]


def test_interchange_importing_checks_or_constructive_is_caught(tmp_path: Path) -> None:
    graph = _plant(
        tmp_path,
        {
            "interchange/__init__.py": "",
            "interchange/freeze.py": "def f():\n    from hardsoft.checks.commands import export  # lazy back-edge\n    return export\n",
            "interchange/tracr.py": "from hardsoft.constructive import heads\nfrom hardsoft.spec import transformer\n",
            "constructive/__init__.py": "",
            "constructive/heads.py": "from hardsoft.interchange import tracr\n",
            "checks/__init__.py": "",
            "checks/commands/__init__.py": "",
            "checks/commands/export.py": "from hardsoft.interchange import freeze\n",
        },
    )
    v = layering_violations(graph)
    assert "hardsoft.interchange.freeze (interchange) imports hardsoft.checks.commands.export (checks)" in v
    assert "hardsoft.interchange.tracr (interchange) imports hardsoft.constructive.heads (constructive)" in v
    assert "hardsoft.constructive.heads (constructive) imports hardsoft.interchange.tracr (interchange)" in v
    assert not any(line.startswith("hardsoft.checks.commands.export") for line in v)


@pytest.mark.parametrize("stmt", ["from . import formulas", "from .formulas import h", "import hardsoft.checks.engine.formulas as f"])
def test_relative_and_aliased_imports_are_resolved(tmp_path: Path, stmt: str) -> None:
    graph = _plant(
        tmp_path,
        {
            "checks/__init__.py": "",
            "checks/engine/__init__.py": "",
            "checks/engine/verify.py": stmt + "\n",
            "checks/engine/formulas.py": "h = 1\n",
        },
    )
    assert "hardsoft.checks.engine.formulas" in graph["hardsoft.checks.engine.verify"]
