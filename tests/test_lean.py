"""Tests of the Lean family: the real build (every theorem proved, audit clean), a wrong file
that must fail, the source audit, the noise filter and the message parser.

The tests marked ``lean`` run the Lean toolchain (minutes; deselect with ``-m 'not lean'``).
One session-scoped fixture starts both Lean runs at once, the real project and the wrong
file; they share two Lean process slots (``checks.lean_family.LEAN_SLOTS``).
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from hardsoft.checks import lean_family as lf
from hardsoft.checks.result import Outcome

HERE = Path(__file__).resolve().parent
WRONG_DIR = HERE / "lean_wrong"


# --------------------------------------------------------------------------- the Lean runs

class _Runs:
    """The two Lean runs of the session, started together in threads."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.real: list | None = None
        self.wrong: tuple | None = None
        self.errors: dict[str, BaseException] = {}
        self.messages: list[str] = []

    def _real(self) -> None:
        try:
            self.real = lf.run("tiny", self.out / "real", self.messages.append)
        except BaseException as e:  # noqa: BLE001 - reported by the tests
            self.errors["real"] = e

    def _wrong(self) -> None:
        try:
            self.wrong = lf.check_sources(WRONG_DIR, self.out / "wrong", self.messages.append, names=["Wrong"])
        except BaseException as e:  # noqa: BLE001
            self.errors["wrong"] = e

    def start(self) -> None:
        threads = [threading.Thread(target=self._real), threading.Thread(target=self._wrong)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


@pytest.fixture(scope="session")
def lean_runs(tmp_path_factory: pytest.TempPathFactory) -> _Runs:
    """Run the real Lean project and the wrong file (in parallel); skip when no toolchain can be had."""
    from hardsoft.checks.lean_toolchain import ToolchainError, ensure_wasm_toolchain, find_native
    if find_native() is None:
        try:
            ensure_wasm_toolchain()
        except ToolchainError as e:
            pytest.skip(f"no Lean toolchain: {e}")
    runs = _Runs(tmp_path_factory.mktemp("lean"))
    runs.start()
    return runs


@pytest.mark.lean
def test_real_project_every_theorem_proved(lean_runs: _Runs) -> None:
    assert "real" not in lean_runs.errors, lean_runs.errors.get("real")
    results = lean_runs.real
    assert results, "the lean family returned nothing"
    bad = [(r.name, r.outcome.value, r.detail) for r in results if r.outcome is not Outcome.OK]
    assert not bad, bad
    theorems = [r for r in results if r.name.startswith("lean.theorem.")]
    assert {r.name.removeprefix("lean.theorem.") for r in theorems} == set(lf.theorem_claims())
    assert all(r.verdict == "proved" for r in theorems)
    assert {r.claim for r in theorems} >= {"C", "E", "Z"}
    units = {r.name: r for r in results if r.name.startswith("lean.build.")}
    for m in ("HardSoft.Defs", "HardSoft.Recursion", "HardSoft.Softmax", "HardSoft.Main"):
        assert units[f"lean.build.{m}"].verdict == "built" and units[f"lean.build.{m}"].seconds > 0
    audit = next(r for r in results if r.name == "lean.audit")
    assert audit.verdict == "clean"
    md = lf.markdown_section(results)
    assert "## Lean" in md and "HardSoft.composition_err_le_eps" in md and "Trust audit" in md


def _marked_range(path: Path, tag: str) -> range:
    """Return the line range between ``-- WRONG-<tag>-BEGIN`` and ``-- WRONG-<tag>-END``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    begin = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- WRONG-{tag}-BEGIN")
    end = next(i for i, s in enumerate(lines, 1) if s.strip() == f"-- WRONG-{tag}-END")
    return range(begin, end + 1)


@pytest.mark.lean
def test_wrong_file_rejected(lean_runs: _Runs) -> None:
    assert "wrong" not in lean_runs.errors, lean_runs.errors.get("wrong")
    units, findings, _tc = lean_runs.wrong
    unit = units["Wrong"]
    assert not unit.ok and unit.status == "error"
    src = WRONG_DIR / "Wrong.lean"
    a, b = _marked_range(src, "A"), _marked_range(src, "B")
    # (a) the bootstrap without the guard B_L <= 1 does not check
    assert any(m.severity == "error" and m.line in a for m in unit.messages), [m.short() for m in unit.messages]
    # (b) the sorry is reported by Lean itself ...
    assert any(m.is_sorry and m.line in b for m in unit.messages), [m.short() for m in unit.messages]
    # ... and by the source audit
    assert any(f.kind == "sorry" and f.line in b for f in findings)
    # and the family-level verdict of such a unit is FAILED
    assert lf._unit_result(unit, "wasm").outcome is Outcome.FAILED


# --------------------------------------------------------------------------- source audit (fast)

@pytest.fixture()
def lean_copy(tmp_path: Path) -> Path:
    """A temporary copy of the Lean sources."""
    dest = tmp_path / "lean"
    shutil.copytree(lf.LEAN_DIR, dest, ignore=shutil.ignore_patterns(".lake", "build", "wasm"))
    return dest


def test_audit_clean_on_real_sources() -> None:
    assert lf.audit_sources(lf.lean_sources(lf.LEAN_DIR), lf.LEAN_DIR) == []


@pytest.mark.parametrize("planted, kind", [
    ("theorem planted_sorry : 1 = 1 := by\n  sorry\n", "sorry"),
    ("theorem planted_admit : 1 = 1 := by admit\n", "admit"),
    ("axiom foo : False\n", "axiom"),
    ("private axiom bar : 1 = 2\n", "axiom"),
    ("theorem planted_nd : 2 + 2 = 4 := by native_decide\n", "native_decide"),
    ("theorem planted_dn : 2 + 2 = 4 := by decide +native\n", "native_decide"),
    ("@[implemented_by id] def planted_ib (n : Nat) : Nat := n\n", "implemented_by"),
    ("@[extern \"c_fn\"] opaque planted_ex : Nat → Nat\n", "extern"),
])
def test_audit_detects_planted(lean_copy: Path, planted: str, kind: str) -> None:
    target = lean_copy / "HardSoft" / "Recursion.lean"
    target.write_text(target.read_text(encoding="utf-8").replace("end HardSoft", planted + "\nend HardSoft"),
                      encoding="utf-8")
    findings = lf.audit_sources(lf.lean_sources(lean_copy), lean_copy)
    assert [f.kind for f in findings] == [kind]
    assert findings[0].file == "HardSoft/Recursion.lean"


def test_audit_ignores_comments_and_strings(lean_copy: Path) -> None:
    target = lean_copy / "HardSoft" / "Defs.lean"
    extra = ('/-- A docstring may say sorry, axiom and native_decide. -/\n'
             'def planted_str : String := "sorry axiom native_decide"\n'
             '-- a comment: sorry admit\n/- nested /- sorry -/ still comment -/\n')
    target.write_text(target.read_text(encoding="utf-8").replace("end HardSoft", extra + "end HardSoft"),
                      encoding="utf-8")
    assert lf.audit_sources(lf.lean_sources(lean_copy), lean_copy) == []


def test_audit_requires_autoimplicit_off(lean_copy: Path) -> None:
    target = lean_copy / "HardSoft" / "Softmax.lean"
    target.write_text(target.read_text(encoding="utf-8").replace("set_option autoImplicit false", ""),
                      encoding="utf-8")
    findings = lf.audit_sources(lf.lean_sources(lean_copy), lean_copy)
    assert [(f.file, f.kind) for f in findings] == [("HardSoft/Softmax.lean", "autoImplicit")]


def test_registered_theorems_exist_in_sources() -> None:
    decls = lf.declarations(lf.lean_sources(lf.LEAN_DIR))
    missing = [n for n in lf.theorem_claims() if n not in decls]
    assert not missing, missing
    assert all(decls[n].name == "Main.lean" for n in lf.theorem_claims())


def test_modules_and_import_order() -> None:
    mods = lf.discover_modules(lf.LEAN_DIR)
    order = lf.import_order(mods)
    assert order.index("HardSoft.Defs") < order.index("HardSoft.Recursion") < order.index("HardSoft.Main")
    assert order.index("HardSoft.Softmax") < order.index("HardSoft.Main") < order.index("HardSoft")
    assert mods["HardSoft"].import_only and not mods["HardSoft.Main"].import_only
    for m in mods.values():
        text = m.path.read_text(encoding="utf-8")
        assert text.startswith("module\n"), m.name
        assert "/-!" in text and "## Main results" in text, m.name


def test_unknown_preset_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        lf.run("huge", tmp_path, lambda s: None)


def test_toolchain_missing_is_undecided(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hardsoft.checks.lean_toolchain import ToolchainError

    def fail(*a: object, **k: object) -> None:
        raise ToolchainError("npm is not on PATH")

    monkeypatch.setattr(lf, "find_native", lambda: None)
    monkeypatch.setattr(lf, "ensure_wasm_toolchain", fail)
    results = lf.run("tiny", tmp_path, lambda s: None)
    assert any(r.name == "lean.toolchain" and r.outcome is Outcome.UNDECIDED for r in results)
    theorems = [r for r in results if r.name.startswith("lean.theorem.")]
    assert theorems and all(r.outcome is Outcome.UNDECIDED for r in theorems)
    assert not any(r.outcome is Outcome.OK and r.name.startswith("lean.theorem.") for r in results)


# --------------------------------------------------------------------------- noise filter and parser (fast)

NOISY = """[DEBUG:A] lean_main entered, argc=2
[DEBUG:F] Input file content (first 200 chars): module

/-!
# Echoed header
[DEBUG:G] run_shell_main entered, building args list
[DEBUG:FIND] Init.Data.String.Lemmas.Basic: found 1 parts
  - /tmp/x/lib/Init/Data/String/Lemmas/Basic.olean
  mainModule? = true
{"caption":"","data":"unused variable `h`","endPos":{"column":5,"line":3},"fileName":"A.lean","isSilent":false,"keepFullRange":false,"kind":"linter.unusedVariables","pos":{"column":2,"line":3},"severity":"warning"}
{"caption":"","data":"declaration uses `sorry`","endPos":null,"fileName":"A.lean","isSilent":false,"keepFullRange":false,"kind":"hasSorry","pos":{"column":8,"line":7},"severity":"warning"}
{"caption":"","data":"`grind` failed\\ncase grind\\n⊢ False","endPos":null,"fileName":"A.lean","isSilent":false,"keepFullRange":false,"kind":"","pos":{"column":4,"line":12},"severity":"error"}
[DEBUG:N] Reporting complete, hasErrors = true
"""


def test_filter_noise_drops_debug_echo_and_olean_lines() -> None:
    out = lf.filter_noise(NOISY)
    assert "[DEBUG" not in out and "Echoed header" not in out and ".olean" not in out and "mainModule" not in out
    assert out.count("\n") == 3 and "declaration uses" in out


def test_parse_json_messages() -> None:
    msgs = lf.parse_messages(NOISY)
    assert [(m.severity, m.line) for m in msgs] == [("warning", 3), ("warning", 7), ("error", 12)]
    assert [m.is_sorry for m in msgs] == [False, True, False]
    assert msgs[2].text.startswith("`grind` failed") and msgs[2].file == "A.lean"
    assert lf._classify(1, msgs) == "error" and lf._classify(0, msgs[:2]) == "sorry" and lf._classify(0, msgs[:1]) == "ok"


def test_parse_text_messages() -> None:
    text = ("HardSoft/A.lean:4:2: error: unknown identifier 'foo'\n"
            "  more detail\n"
            "⊢ False\n"
            "warning: HardSoft/B.lean:9:0: declaration uses 'sorry'\n"
            "HardSoft/C.lean:1:0: error(lean.unknownIdentifier): Unknown constant `X`\n"
            "✔ [3/5] Built HardSoft.Defs (2.1s)\n"
            "error: no such file or directory (error code: 44)\n")
    msgs = lf.parse_messages(text)
    assert [(m.file, m.line, m.severity) for m in msgs] == [
        ("HardSoft/A.lean", 4, "error"), ("HardSoft/B.lean", 9, "warning"), ("HardSoft/C.lean", 1, "error"),
        ("", 0, "error")]
    assert "more detail" in msgs[0].text and "⊢ False" in msgs[0].text
    assert msgs[1].is_sorry and not msgs[0].is_sorry


def test_parse_axioms() -> None:
    out = ("'HardSoft.a' depends on axioms: [propext, Classical.choice,\n Quot.sound]\n"
           "'HardSoft.b' does not depend on any axioms\n")
    got = lf.parse_axioms(out, ["HardSoft.a", "HardSoft.b", "HardSoft.c"])
    assert got == {"HardSoft.a": ["propext", "Classical.choice", "Quot.sound"], "HardSoft.b": [], "HardSoft.c": None}


def test_inventory_lists_every_theorem() -> None:
    from hardsoft.checks.lean_inventory import inventory_text, theorem_names
    names = theorem_names(lf.lean_sources(lf.LEAN_DIR))
    assert set(lf.theorem_claims()) <= set(names)
    text = inventory_text(names)
    assert text.count("#print axioms") == len(names) and "import HardSoft" in text


def test_wasm_visibility() -> None:
    from hardsoft.checks.lean_toolchain import is_wasm_visible
    assert is_wasm_visible(Path("/tmp/x")) and is_wasm_visible(Path("/home/u/y"))
    assert not is_wasm_visible(Path("/work/main")) and not is_wasm_visible(Path("/tmpfoo"))


def test_leandojo_extra_skips_with_reason(tmp_path: Path) -> None:
    from hardsoft.checks import leandojo_extra
    ok, why = leandojo_extra.availability()
    if not ok:
        pytest.skip(f"LeanDojo trace cannot run here: {why}")
    traced = leandojo_extra.trace_project(tmp_path / "dojo")
    assert traced.exists()


def test_claims_without_lean_theorems_skip_the_build(tmp_path: Path) -> None:
    assert lf.run("tiny", tmp_path, lambda s: None, claims={"S"}) == []


# --------------------------------------------------------------------------- native path, with stand-ins for lake/lean

_FAKE_LEAN = """#!/bin/sh
echo "Lean (version 4.28.0-rc1, x86_64-unknown-linux-gnu, commit 0000, Release)"
"""
_FAKE_LAKE = """#!/bin/sh
if [ "$1" = "build" ]; then
  for m in HardSoft.Defs HardSoft.Recursion HardSoft.Softmax HardSoft.Main HardSoft; do
    echo "✔ [1/5] Built $m (1.5s)"
  done
  echo "Build completed successfully."
  exit 0
fi
if [ "$1" = "env" ]; then
  sed -n 's/^#print axioms \\(.*\\)$/\\1/p' "$3" | while read n; do
    if [ "$n" = "$FAKE_BAD" ]; then
      echo "'$n' depends on axioms: [propext, sorryAx]"
    else
      echo "'$n' depends on axioms: [propext,"
      echo " Classical.choice, Quot.sound]"
    fi
  done
  exit 0
fi
exit 2
"""


@pytest.fixture()
def fake_native(tmp_path: Path, lean_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Put stand-ins for a native ``lake`` and ``lean`` on PATH and point the family at a copy of lean/."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    for name, text in (("lean", _FAKE_LEAN), ("lake", _FAKE_LAKE)):
        (bindir / name).write_text(text, encoding="utf-8")
        (bindir / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{bindir}:{__import__('os').environ['PATH']}")
    monkeypatch.setattr(lf, "LEAN_DIR", lean_copy)
    return lean_copy


def test_native_path_builds_and_checks_axioms(fake_native: Path, tmp_path: Path) -> None:
    results = lf.run("tiny", tmp_path / "out", lambda s: None)
    by = {r.name: r for r in results}
    assert by["lean.toolchain"].data["toolchain"] == "native" and "4.28.0-rc1" in by["lean.toolchain"].detail
    assert by["lean.build.HardSoft.Defs"].outcome is Outcome.OK and by["lean.build.HardSoft.Defs"].seconds == 1.5
    assert by["lean.audit"].outcome is Outcome.OK and "#print axioms within" in by["lean.audit"].detail
    theorems = [r for r in results if r.name.startswith("lean.theorem.")]
    assert theorems and all(r.verdict == "proved" for r in theorems)
    assert (tmp_path / "out" / "lean" / "axioms.log").is_file()


def test_native_path_rejects_sorry_axiom(fake_native: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_BAD", "HardSoft.composition_err_le_eps")
    results = lf.run("tiny", tmp_path / "out", lambda s: None)
    by = {r.name: r for r in results}
    assert by["lean.audit"].outcome is Outcome.FAILED and "sorryAx" in by["lean.audit"].detail
    assert by["lean.theorem.HardSoft.composition_err_le_eps"].outcome is Outcome.FAILED
    assert by["lean.theorem.HardSoft.composition_err_le_bound"].outcome is Outcome.OK
