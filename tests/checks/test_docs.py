"""The documents stay true: the directory map (docs/design.md) matches the tree, and no document cites issue numbers or files outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"  # holds the directory map

#: Folders whose Python packages (a folder with __init__.py, the folder itself included) the map must list.
PACKAGE_ROOTS: tuple[str, ...] = ("spec", "constructive", "smt", "interchange", "checks", "hardsoft")
#: Hidden top-level folders the map must list all the same.
HIDDEN_KEPT: frozenset[str] = frozenset({".ci"})
#: Files that must not cite issue numbers or documents outside the repository (documents and code; the paths
#: and links of the Markdown files among them must also exist).
REFERENCE_GLOBS: tuple[str, ...] = (
    "README.md", "docs/*.md", "lean/README.md", "lean/**/*.lean",
    "spec/**/*.py", "constructive/**/*.py", "smt/**/*.py", "checks/**/*.py", "hardsoft/*.py",
    "benchmarks/*.py", "scripts/*", "Makefile", ".ci/run", "pyproject.toml",
)

#: "issue 7", "issue #12", "issue-9", "issues 3 and 4", "(issue 10 item 3)".
ISSUE_NUMBER = re.compile(r"\bissues?[\s-]*#?\d+", re.IGNORECASE)
#: Paths to documents that are not in the repository: ../shared/..., shared/notes/..., /work/...
OUTSIDE_PATH = re.compile(r"(?:\.\./)+shared/|(?<![\w./-])shared/notes/|(?<![\w.-])/work/")


def tracked_files(root: Path = ROOT) -> list[str]:
    """Return the repository's tracked files (git), or every file outside ignored folders when git is not available."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout
        files = [line for line in out.splitlines() if line]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    skip = {".git", ".venv", ".toolchain", ".lint", ".hypothesis", ".pytest_cache", "__pycache__", "report", "build", "dist"}
    return [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and not skip & set(p.relative_to(root).parts)]


def required_folders(files: list[str]) -> set[str]:
    """Return the folders the map must list: every top-level folder (hidden ones only if kept) and every package."""
    need: set[str] = set()
    for f in files:
        parts = f.split("/")
        if len(parts) > 1 and (not parts[0].startswith(".") or parts[0] in HIDDEN_KEPT):
            need.add(parts[0])
        if parts[-1] == "__init__.py" and parts[0] in PACKAGE_ROOTS:
            need.add("/".join(parts[:-1]))
    return need


def directory_map(text: str) -> list[str]:
    """Return the folders named in the first column of docs/design.md's "Directory map" table, without the trailing slash."""
    m = re.search(r"^## Directory map\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert m, 'docs/design.md has no "## Directory map" section'
    return [row.group(1) for row in re.finditer(r"^\| `([^`]+?)/?` \|", m.group(1), re.MULTILINE)]


def map_problems(text: str, files: list[str]) -> list[str]:
    """Return what is wrong with the map: required folders it lacks, folders it names that hold no file, duplicates."""
    named = directory_map(text)
    folders = {"/".join(f.split("/")[:k]) for f in files for k in range(1, f.count("/") + 1)}
    problems = [f"missing from the directory map: {d}/" for d in sorted(required_folders(files) - set(named))]
    problems += [f"the directory map names {d}/, which is not a folder of the repository" for d in named if d not in folders]
    problems += [f"the directory map names {d}/ twice" for d in sorted({d for d in named if named.count(d) > 1})]
    return problems


def reference_problems(text: str, where: str) -> list[str]:
    """Return each line of text that cites an issue number or a document outside the repository."""
    found = []
    for i, line in enumerate(text.splitlines(), 1):
        for pat, what in ((ISSUE_NUMBER, "an issue number"), (OUTSIDE_PATH, "a document outside the repository")):
            for m in pat.finditer(line):
                found.append(f"{where}:{i}: cites {what}: {m.group(0)!r}")
    return found


#: A path in backticks that starts with a top-level folder, e.g. `spec/bounds.py` or `tests/spec/test_meaning.py::test_x`.
REPO_PATH = re.compile(r"`((?:\.ci|benchmarks|checks|constructive|docs|hardsoft|lean|scripts|smt|spec|tests)/[\w./-]*)")
#: A relative Markdown link target, without its #anchor.
LINK = re.compile(r"\]\((?!https?:|mailto:|#)([^)#\s]+)")


def path_problems(text: str, doc: Path) -> list[str]:
    """Return the repository paths and relative links in doc's text that name no existing file or folder.

    A path is looked up from the repository root, then (for test ids such as `spec/test_statements.py::test_x`
    in the generated tables) under tests/, then in the document's folder; a link relative to the document.
    """
    found = []
    where = doc.relative_to(ROOT) if doc.is_relative_to(ROOT) else doc
    for i, line in enumerate(text.splitlines(), 1):
        for m in REPO_PATH.finditer(line):
            path = m.group(1).split("::")[0]
            if not any((base / path).exists() for base in (ROOT, ROOT / "tests", doc.parent)):
                found.append(f"{where}:{i}: names {path}, which does not exist")
        for m in LINK.finditer(line):
            if not (doc.parent / m.group(1)).exists():
                found.append(f"{where}:{i}: links to {m.group(1)}, which does not exist")
    return found


def reference_files() -> list[Path]:
    """Return the files REFERENCE_GLOBS names (each glob must match at least one)."""
    paths: list[Path] = []
    for g in REFERENCE_GLOBS:
        hits = sorted(ROOT.glob(g))
        assert hits, f"{g} matches no file"
        paths += hits
    return paths


def test_directory_map_lists_every_folder_and_package_and_only_real_ones() -> None:
    assert map_problems(DESIGN.read_text(), tracked_files()) == []


def test_directory_map_check_catches_a_missing_and_an_invented_folder() -> None:
    text = DESIGN.read_text()
    files = tracked_files()
    row = next(line for line in text.splitlines() if line.startswith("| `smt/solvers/` |"))
    assert map_problems(text.replace(row + "\n", ""), files) == ["missing from the directory map: smt/solvers/"]
    top = next(line for line in text.splitlines() if line.startswith("| `.ci/` |"))
    assert map_problems(text.replace(top + "\n", ""), files) == ["missing from the directory map: .ci/"]
    invented = text.replace(row, row + "\n| `smt/nowhere/` | planted |")
    assert map_problems(invented, files) == ["the directory map names smt/nowhere/, which is not a folder of the repository"]
    # a new package is required as soon as it exists
    assert "missing from the directory map: checks/newfamily/" in map_problems(text, [*files, "checks/newfamily/__init__.py"])
    assert map_problems(text.replace(row, row + "\n" + row), files) == ["the directory map names smt/solvers/ twice"]


def test_required_folders_are_the_packages_and_top_level_folders() -> None:
    need = required_folders(tracked_files())
    assert {"spec", "constructive", "constructive/logic", "smt/solvers", "checks/families/lean", "hardsoft", ".ci", "tests", "lean"} <= need
    assert ".git" not in need and ".gitignore" not in need and "README.md" not in need
    assert "spec/data" not in need  # data folders have no __init__.py: listed inside their package's line


@pytest.mark.parametrize("path", reference_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_issue_numbers_or_outside_documents(path: Path) -> None:
    assert reference_problems(path.read_text(), str(path.relative_to(ROOT))) == []


@pytest.mark.parametrize("path", [p for p in reference_files() if p.suffix == ".md"], ids=lambda p: str(p.relative_to(ROOT)))
def test_paths_and_links_in_documents_exist(path: Path) -> None:
    assert path_problems(path.read_text(), path) == []


def test_path_check_catches_moved_files_and_broken_links() -> None:
    doc = ROOT / "docs" / "design.md"
    planted = "see `spec/srasp.py` and `checks/lean/bundle.py`, [the notes](notes.md), [ok](results.md#smt-checks), `spec/bounds.py`\n"
    assert path_problems(planted, doc) == [
        "docs/design.md:1: names spec/srasp.py, which does not exist",
        "docs/design.md:1: names checks/lean/bundle.py, which does not exist",
        "docs/design.md:1: links to notes.md, which does not exist",
    ]


@pytest.mark.parametrize(
    "planted",
    [
        "as asked in issue 7",
        "see issue #12",
        "(issue 10 item 3)",
        "the issue-9 pass",
        "Issues 3 and 4",
        "described in ../shared/notes/paper.md",
        "see `shared/notes/lean-wasm.md`",
        "cd /work/main && make",
    ],
)
def test_reference_check_catches_planted(planted: str) -> None:
    assert len(reference_problems(f"text\n{planted}\n", "planted.md")) == 1


@pytest.mark.parametrize(
    "innocent",
    [
        "a known issue with Yices",
        "issues are tracked elsewhere",
        "the 2-core machine was shared with other jobs",
        "spec/data/statements.json",
        "tests/checks/test_docs.py",
    ],
)
def test_reference_check_passes_ordinary_text(innocent: str) -> None:
    assert reference_problems(innocent, "ok.md") == []
