"""Each layer of the Lean verdict, tested alone: the source audit and the compiled-environment check.

A registered theorem counts as proved only if both the source audit (``checks.families.lean.audit``,
with the family's registered-kind check) and the facts of the compiled environment
(``checks.families.lean.environment``) accept it.  A defect that both layers refuse could slip
through unnoticed if one layer were weakened, because the other still refuses today's sources; so
for each planted defect each layer is shown to reject it ON ITS OWN, and each realistic weakening
of one layer (the mutation that a reviewer planted: an allowed axiom added, the theorem-kind check
loosened, an import allowed, a module prefix matched without its dot) is shown to make that
layer's own check accept the defect while the other layer still refuses it.  So a regression in
either layer fails a test here even while the other layer holds.

The defects: a theorem resting on ``Lean.ofReduceBool`` (native evaluation), a registered name
compiled as a ``def``, ``import Lean``, and a module named with the project's prefix but outside
it (``HardSoftEvil``).  The audit reads planted source copies (no Lean); the environment layer
reads facts shaped as the .olean reader returns them (the reader itself, and the same defects
compiled for real, are tested in ``tests/checks/test_lean_environment.py``'s planted module).
The namespace guard's plant (``def Std : Nat := 0`` inside ``namespace HardSoft`` making
``HardSoft.Std.X`` look owned) is refused by both layers too.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hardsoft.checks.families.lean import audit, environment, olean
from hardsoft.checks.families.lean import family as lf
from hardsoft.checks.families.lean.sources import LEAN_DIR, lean_sources

#: A registered theorem the plants redeclare (its file and the text that declares it).
REGISTERED = "HardSoft.bound_monotone"
REGISTERED_FILE = "HardSoft/Main.lean"
REGISTERED_TEXT = "theorem bound_monotone "

#: The source plant of each defect: (file, text to insert before the file's last `end HardSoft`, or a replacement).
SOURCE_PLANTS: dict[str, tuple[str, str]] = {
    "ofReduceBool": (
        "HardSoft/Defs.lean",
        "/-- planted -/\ntheorem planted_native (h : Lean.reduceBool true = true) : true = true :=\n  Lean.ofReduceBool true true h\n",
    ),
    "def": (REGISTERED_FILE, "def bound_monotone "),
    "import Lean": ("HardSoft/Defs.lean", "import Lean\n"),
    "prefix": ("HardSoft/Defs.lean", "import HardSoftEvil\n"),
    "namespace": ("HardSoft/Defs.lean", "/-- planted -/\ndef Std : Nat := 0\n\n/-- planted -/\ntheorem Std.IsLinearOrder : True := trivial\n"),
}
#: The finding kind the audit must report for each.
AUDIT_KIND = {
    "ofReduceBool": "ofReduceBool",
    "def": "registered theorem not a theorem",
    "import Lean": "import",
    "prefix": "import",
    "namespace": "namespace redirection",
}


def _planted_copy(tmp_path: Path, defect: str) -> Path:
    """Return a copy of the Lean sources with ``defect`` planted."""
    copy = tmp_path / "lean"
    shutil.copytree(LEAN_DIR, copy, ignore=shutil.ignore_patterns(".lake", "build", "wasm", "__pycache__"))
    rel, text = SOURCE_PLANTS[defect]
    f = copy / rel
    src = f.read_text(encoding="utf-8")
    if defect == "def":
        assert REGISTERED_TEXT in src, "the registered theorem moved: update REGISTERED_FILE"
        src = src.replace(REGISTERED_TEXT, text, 1)
    elif text.startswith("import"):
        src = src.replace("module\n", "module\n\n" + text, 1)
    else:
        at = src.rindex("end HardSoft")
        src = src[:at] + text + "\n" + src[at:]
    f.write_text(src, encoding="utf-8")
    return copy


def audit_rejects(tmp_path: Path, defect: str) -> list[str]:
    """Return the source layer's findings of the planted defect's kind (the family's step 1, with the registry's theorems)."""
    copy = _planted_copy(tmp_path, defect)
    _files, findings = lf._audit(copy, lf.theorem_claims())
    return [f.short() for f in findings if f.kind == AUDIT_KIND[defect]]


def _facts(defect: str | None) -> olean.ProjectFacts:
    """Return compiled-environment facts of a project ``HardSoft`` with one registered theorem, and ``defect`` planted in them."""
    decls = [
        olean.Declaration("inductive", "HardSoft.ExpLike", "HardSoft", None, None),
        olean.Declaration("ctor", "HardSoft.ExpLike.mk", "HardSoft", None, None),
        olean.Declaration("theorem", "HardSoft.ExpLike.mk.injEq", "HardSoft", None, None),
        olean.Declaration("def", "HardSoft.natCast", "HardSoft", None, None),
        olean.Declaration("def", "HardSoft.natCast.match_1", "HardSoft", None, None),
        olean.Declaration("theorem", REGISTERED, "HardSoft", None, None),
    ]
    axioms = {REGISTERED: olean.AxiomReport(REGISTERED, ["propext"], [], 0, [], 1)}
    modules = ["HardSoft"]
    imports = [olean.ImportInfo("Init", False, True, False)]
    if defect == "ofReduceBool":
        axioms[REGISTERED] = olean.AxiomReport(REGISTERED, ["Lean.ofReduceBool", "propext"], [], 0, [], 1)
    elif defect == "def":
        decls[-1] = olean.Declaration("def", REGISTERED, "HardSoft", None, None)
    elif defect == "import Lean":
        imports.append(olean.ImportInfo("Lean", False, True, False))
    elif defect == "prefix":
        modules.append("HardSoftEvil")
        imports.append(olean.ImportInfo("HardSoftEvil", False, True, False))
    elif defect == "namespace":
        decls += [
            olean.Declaration("def", "HardSoft.Std", "HardSoft", None, None),
            olean.Declaration("theorem", "HardSoft.Std.IsLinearOrder", "HardSoft", None, None),
        ]
    return olean.ProjectFacts(
        "HardSoft", modules, decls, axioms, [], [], [], {"HardSoft": imports}, {"HardSoft": {"Lean.declRangeExt": 1}},
        "4.28.0-pre", "38f3", 0.1, {}, {}, {"HardSoft": []},
    )  # fmt: skip


def environment_rejects(defect: str | None) -> list[str]:
    """Return why the compiled-environment layer alone refuses the registered theorem (empty: it accepts it)."""
    facts = _facts(defect)
    problems = environment.global_problems(facts)
    verdict = environment.theorem_verdicts(facts, [REGISTERED], problems)[REGISTERED]
    return [] if verdict.proved else [verdict.why, *problems]


#: The realistic weakening of each layer for each defect (monkeypatches: the mutation a reviewer planted).
def _weaken_audit(mp: pytest.MonkeyPatch, defect: str) -> None:
    if defect == "ofReduceBool":
        mp.setattr(audit, "FORBIDDEN_WORDS", {k: v for k, v in audit.FORBIDDEN_WORDS.items() if k not in ("ofReduceBool", "reduceBool")})
    elif defect == "def":
        mp.setattr(audit, "THEOREM_KEYWORDS", audit.THEOREM_KEYWORDS | {"def"})
    elif defect == "import Lean":
        mp.setattr(audit, "_importable", lambda module: True)
    elif defect == "prefix":
        mp.setattr(audit, "_importable", lambda module: module.startswith((audit.LIB_NAME, "Init")))
    elif defect == "namespace":
        mp.setattr(audit, "NAMESPACE_OWNERS", audit.NAMESPACE_OWNERS | {"def"})


def _weaken_environment(mp: pytest.MonkeyPatch, defect: str) -> None:
    if defect == "ofReduceBool":
        mp.setattr(olean, "STANDARD_AXIOMS", olean.STANDARD_AXIOMS | {"Lean.ofReduceBool"})
    elif defect == "def":
        mp.setattr(environment, "THEOREM_KINDS", environment.THEOREM_KINDS | {"def"})
    elif defect == "import Lean":
        mp.setattr(environment, "ALLOWED_IMPORTS", environment.ALLOWED_IMPORTS | {"Lean"})
    elif defect == "prefix":
        mp.setattr(environment, "is_project_module", lambda module, root: module.startswith(root))
    elif defect == "namespace":
        mp.setattr(environment, "NAMESPACE_OWNER_KINDS", environment.NAMESPACE_OWNER_KINDS | {"def"})


DEFECTS = sorted(SOURCE_PLANTS)


def test_clean_sources_and_facts_pass_both_layers(tmp_path: Path) -> None:
    _files, findings = lf._audit(LEAN_DIR, lf.theorem_claims())
    assert findings == [], [f.short() for f in findings]
    assert environment_rejects(None) == []


@pytest.mark.parametrize("defect", DEFECTS)
def test_audit_alone_rejects(tmp_path: Path, defect: str) -> None:
    """The source audit by itself refuses the planted defect, naming the file and the class."""
    hits = audit_rejects(tmp_path, defect)
    assert hits and all(SOURCE_PLANTS[defect][0] in h for h in hits), hits


@pytest.mark.parametrize("defect", DEFECTS)
def test_environment_alone_rejects(defect: str) -> None:
    """The compiled-environment check by itself refuses the registered theorem when the defect is in the facts."""
    why = environment_rejects(defect)
    assert why and all(w.startswith(environment.PREFIX) for w in why), why


@pytest.mark.parametrize("defect", DEFECTS)
def test_weakened_audit_is_noticed_while_the_environment_holds(tmp_path: Path, defect: str) -> None:
    """With the audit weakened for the defect, the audit accepts it (so ``test_audit_alone_rejects`` would fail) and the
    compiled-environment layer still refuses it on its own."""
    with pytest.MonkeyPatch.context() as mp:
        _weaken_audit(mp, defect)
        assert audit_rejects(tmp_path, defect) == []
        assert environment_rejects(defect)


@pytest.mark.parametrize("defect", DEFECTS)
def test_weakened_environment_is_noticed_while_the_audit_holds(tmp_path: Path, defect: str) -> None:
    """With the environment check weakened for the defect, it accepts the facts (so ``test_environment_alone_rejects``
    would fail) and the source audit still refuses the defect on its own."""
    with pytest.MonkeyPatch.context() as mp:
        _weaken_environment(mp, defect)
        assert environment_rejects(defect) == []
        assert audit_rejects(tmp_path, defect)


def test_namespace_plant_named_in_both_layers(tmp_path: Path) -> None:
    """``def Std : Nat := 0`` inside ``namespace HardSoft`` does not make ``HardSoft.Std.IsLinearOrder`` legal: the audit
    names the declaration and the namespace, the environment the constant; a structure's namespace stays owned."""
    hits = audit_rejects(tmp_path, "namespace")
    assert len(hits) == 1 and "HardSoft.Std.IsLinearOrder" in hits[0] and "namespace HardSoft.Std" in hits[0], hits
    why = environment.namespace_problems(_facts("namespace"))
    assert why == [
        "environment: namespace redirection: theorem HardSoft.Std.IsLinearOrder puts HardSoft.Std, which is not a namespace "
        "the project owns (a project type's), inside HardSoft"
    ], why
    assert environment.namespace_problems(_facts(None)) == []  # HardSoft.ExpLike.mk.injEq, HardSoft.natCast.match_1


def test_every_registered_theorem_is_declared_as_a_theorem() -> None:
    assert audit.registered_kind_findings(lean_sources(LEAN_DIR), lf.theorem_claims(), LEAN_DIR) == []
