"""Tests of the SMT check definitions (smt/check.py, smt/registry.py) and the issue-18 trust fixes on the SMT side:
a check is defined in one place; an assumed lemma not proved in the same run makes the check undecided; a second
solver's answer counts only when unambiguous; every detail names exactly the sizes it ran."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

z3 = pytest.importorskip("z3")

from hardsoft.checks import trust  # noqa: E402
from hardsoft.checks.families import smt as F  # noqa: E402
from hardsoft.checks.result import Outcome  # noqa: E402
from hardsoft.smt import e_softmax as E  # noqa: E402
from hardsoft.smt import registry  # noqa: E402
from hardsoft.smt import s_lipschitz as S  # noqa: E402
from hardsoft.smt.check import Coverage, Expect, Lemma, SmtCheck  # noqa: E402
from hardsoft.smt.core import PROVED, UNKNOWN, Verdict, prove, to_smt2  # noqa: E402
from hardsoft.smt.runs import CheckRun, run_sizes, sizes_phrase  # noqa: E402
from hardsoft.smt.solvers import cvc5 as K  # noqa: E402
from hardsoft.smt.solvers import yices as Y  # noqa: E402
from hardsoft.smt.solvers.child import run_child  # noqa: E402

T = 20.0

# --------------------------------------------------------------------------- one place per check

EXTRA = "smt.T.test_square_nonnegative"


def _square(n: int) -> tuple[list[z3.BoolRef], z3.BoolRef]:
    """Return a toy statement at size n: x_0^2 + ... + x_(n-1)^2 >= 0 for real x (hypotheses, claim)."""
    xs = [z3.Real(f"x_{i}") for i in range(n)]
    return [xs[0] >= -1], z3.Sum([x * x for x in xs]) >= 0


def run_extra(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """The extra check's runner: the toy statement proved for n = 1..bound."""
    run = CheckRun(EXTRA, "T", "proved", size_label="n")
    return run_sizes(run, list(range(1, st["bound"] + 1)), lambda n: [(prove(*_square(n), timeout_s=st["timeout"], name=f"sq{n}"), None)])


def cvc5_extra(n: int, st: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The extra check's cvc5 query at size n."""
    return [(f"square n={n}", to_smt2(*_square(n)), "unsat")]


def _extra_check() -> SmtCheck:
    settings = {"bound": 2, "timeout": T, "budget": 60, "cvc5": [2], "cvc5_timeout": 10, "yices": "all"}
    return SmtCheck(
        name=EXTRA,
        claim="T",
        expect=Expect.PROVED,
        run=run_extra,
        presets={"tiny": settings, "paper": dict(settings, bound=3)},
        size_label="n",
        min_size=1,
        max_size=8,
        cover=Coverage(fixed={"x": "symbolic reals"}, assumed=("nothing (toy statement)",)),
        z3_only="nothing",
    )


def test_adding_a_check_is_one_place(monkeypatch, tmp_path):
    """An SmtCheck appended to the one list is run by the family and listed by the trust ledger, with nothing else edited."""
    monkeypatch.setattr(registry, "CHECKS", registry.CHECKS + (_extra_check(),))
    assert registry.validate(registry.CHECKS) == []
    res = F.run("tiny", tmp_path, lambda m: None, claims={"T"})
    assert [r.name for r in res] == [EXTRA]
    r = res[0]
    assert r.outcome is Outcome.OK and r.verdict == PROVED and r.claim == "T", r.detail
    assert r.detail.startswith("proved for every n in 1..2"), r.detail
    assert r.data["second_solver"]["confirmed"] or not Y.yices_available()
    assert r.data["covered"]["fixed"] == {"x": "symbolic reals"}
    ledger = trust.trust_ledger()
    line = next(ln for ln in ledger.splitlines() if EXTRA in ln)
    assert "proves: n in 1..2 (tiny); n in 1..3 (paper)" in line and "x symbolic reals" in line and "Z3-only: nothing" in line
    monkeypatch.undo()
    assert EXTRA not in trust.trust_ledger()


def test_a_check_its_claim_does_not_list_is_reported(monkeypatch):
    """The claim registry's smt index (the traceability table) and the defined checks must agree both ways."""
    from hardsoft.checks.registry import validate_registry

    monkeypatch.setattr(registry, "CHECKS", registry.CHECKS + (_extra_check(),))
    assert any(EXTRA in p and "'T'" in p for p in validate_registry())


def test_registry_refuses_a_check_without_every_preset_or_with_a_typo():
    good = _extra_check()
    assert registry.validate((good,)) == []
    assert any("presets" in p for p in registry.validate((dataclasses.replace(good, presets={"tiny": good.presets["tiny"]}),)))
    typo = dataclasses.replace(good, presets={p: dict(st, bonud=3) for p, st in good.presets.items()})
    assert any("unknown settings ['bonud']" in p for p in registry.validate((typo,)))
    too_big = dataclasses.replace(good, max_size=1)
    assert any("outside 1..1" in p for p in registry.validate((too_big,)))
    assert any("duplicate" in p for p in registry.validate((good, good)))
    twin = dataclasses.replace(good, name="smt.T.twin", expect=Expect.TWIN)
    assumes_twin = dataclasses.replace(good, assumes=(Lemma("smt.T.twin", "twin", "bound"),))
    assert any("not a statement check" in p for p in registry.validate((twin, assumes_twin)))
    assert any("names no check" in p for p in registry.validate((dataclasses.replace(good, assumes=(Lemma("smt.nope", "X", "bound"),)),)))


def test_runner_must_return_its_own_check():
    """A definition whose runner returns another check's run is an error, not a silently mislabelled row."""
    wrong = dataclasses.replace(registry.get("smt.C.monotone"), name="smt.C.other")
    with pytest.raises(ValueError, match="smt.C.other"):
        F.run_check(wrong, dict(wrong.presets["tiny"], bound=1), None)


def test_family_has_no_check_names_and_trust_no_private_imports():
    family = Path(F.__file__).read_text()
    assert "smt.E." not in family and "smt.S." not in family and "smt.P." not in family and "smt.C." not in family
    assert "from hardsoft.checks.families" not in Path(trust.__file__).read_text()
    assert "to_smt2" not in family and "encode_" not in family  # the encodings live in smt/, beside their checks


# --------------------------------------------------------------------------- assumed lemmas


def fake_lemma_S(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """A planted S: proved at n = 2, unknown at n = 3 (as if Z3 had timed out)."""
    run = CheckRun("smt.S.lipschitz", "S", "proved", size_label="n")
    return run_sizes(run, [2, 3], lambda n: [(Verdict(PROVED if n == 2 else UNKNOWN, 0.0), None)])


def fake_lemma_S_proved(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """A planted S proved for every n in 2..bound (the control)."""
    run = CheckRun("smt.S.lipschitz", "S", "proved", size_label="n")
    return run_sizes(run, list(range(2, st["bound"] + 1)), lambda n: [(Verdict(PROVED, 0.0), None)])


def fake_lemma_E(st: Mapping[str, Any], keep_dir: Path | None) -> CheckRun:
    """A planted E proved for every n in 1..bound."""
    run = CheckRun("smt.E.softmax_vs_hardmax", "E", "proved", size_label="n")
    return run_sizes(run, list(range(1, st["bound"] + 1)), lambda n: [(Verdict(PROVED, 0.0), None)])


def _plant(monkeypatch, s_run, s_bound: int = 16) -> None:
    """Replace S and E by planted runs and make P cheap (d = 1, one head, one position, width 1; N <= 16 as in tiny)."""
    quiet = {"cvc5": [], "yices": [], "yices_bound": False}
    by = registry.by_name()
    planted = {
        "smt.S.lipschitz": dataclasses.replace(
            by["smt.S.lipschitz"], run=s_run, reformulation=None, presets={p: dict(st, bound=s_bound, **quiet) for p, st in by["smt.S.lipschitz"].presets.items()}
        ),
        "smt.E.softmax_vs_hardmax": dataclasses.replace(
            by["smt.E.softmax_vs_hardmax"], run=fake_lemma_E, presets={p: dict(st, bound=16, **quiet) for p, st in by["smt.E.softmax_vs_hardmax"].presets.items()}
        ),
        "smt.P.layer_steps": dataclasses.replace(
            by["smt.P.layer_steps"],
            presets={p: dict(st, bound=1, n_head=1, heads=1, ffn_widths=[1], n_keys_max=16, **quiet) for p, st in by["smt.P.layer_steps"].presets.items()},
        ),
    }
    monkeypatch.setattr(registry, "CHECKS", tuple(planted.get(c.name, c) for c in registry.CHECKS))


def test_P_is_undecided_when_its_lemma_S_is_undecided(monkeypatch, tmp_path):
    """P's own queries are proved, but S (assumed inside P's composition) is unknown in this run: P is UNDECIDED, naming S."""
    _plant(monkeypatch, fake_lemma_S)
    res = {r.name: r for r in F.run("tiny", tmp_path, lambda m: None, claims={"P"})}
    assert set(res) == {"smt.P.layer_steps", "smt.S.lipschitz", "smt.E.softmax_vs_hardmax"}  # P brings its lemmas
    assert res["smt.S.lipschitz"].outcome is Outcome.UNDECIDED
    p = res["smt.P.layer_steps"]
    assert p.data["verdict"] == PROVED  # P's own steps ...
    assert p.outcome is Outcome.UNDECIDED and p.verdict == F.LEMMA_NOT_PROVED  # ... but not P
    assert "S NOT proved in this run (unknown" in p.detail and "needed for every n <= 16" in p.detail
    assert [lem["ok"] for lem in p.data["lemmas"]] == [False, True]


def test_P_is_undecided_when_S_is_proved_below_the_size_it_needs(monkeypatch, tmp_path):
    _plant(monkeypatch, fake_lemma_S_proved, s_bound=8)
    p = {r.name: r for r in F.run("tiny", tmp_path, lambda m: None, claims={"P"})}["smt.P.layer_steps"]
    assert p.outcome is Outcome.UNDECIDED and "S proved in this run for every n in 2..8, needed for every n <= 16" in p.detail


def test_P_is_ok_when_S_and_E_are_proved_up_to_the_size_it_needs(monkeypatch, tmp_path):
    _plant(monkeypatch, fake_lemma_S_proved)
    p = {r.name: r for r in F.run("tiny", tmp_path, lambda m: None, claims={"P"})}["smt.P.layer_steps"]
    assert p.outcome is Outcome.OK and p.verdict == PROVED, p.detail
    assert "S proved in this run for every n in 2..16" in p.data["covered"]["assumed"][-1]


def test_lemmas_needed_for_every_size_are_never_covered():
    """n_keys_max = None (every N) cannot be covered by a bounded run of S and E: P stays UNDECIDED."""
    rows = [[n, 0.0, PROVED] for n in range(1, 65)]
    results = {
        name: F.CheckResult("smt", name, name.split(".")[1], Outcome.OK, PROVED, 0.0, "d", {"rows": rows, "bound_reached": 64, "covered": {"assumed": []}})
        for name in ("smt.P.layer_steps", "smt.S.lipschitz", "smt.E.softmax_vs_hardmax")
    }
    F.apply_assumptions(results, {"smt.P.layer_steps": {"n_keys_max": None}})
    assert results["smt.P.layer_steps"].outcome is Outcome.UNDECIDED and "n_keys_max = None" in results["smt.P.layer_steps"].detail
    assert results["smt.S.lipschitz"].outcome is Outcome.OK


# --------------------------------------------------------------------------- second solvers answer unambiguously

PLANTS = {
    "unsat then exit 1": ("print('unsat')", 1, "error"),
    "unsat plus an error line": ("print('unsat'); print('(error \"line 3: boom\")')", 0, "error"),
    "two verdicts": ("print('unsat'); print('sat')", 0, "error"),
    "unsat with stderr": ("print('unsat'); print('warning: bad', file=sys.stderr)", 0, "error"),
    "no output": ("pass", 0, "error"),
    "unsat": ("print('unsat')", 0, "unsat"),
    "sat": ("print(); print('sat')", 0, "sat"),
    "unknown": ("print('unknown')", 0, "unknown"),
}


def _fake_solver(tmp_path: Path, body: str, code: int) -> Path:
    """Return an executable fake solver: reads its query, runs body, exits with code."""
    script = tmp_path / "fake_solver"
    script.write_text(f"#!{sys.executable}\nimport sys\nsys.stdin.read()\n{body}\nsys.exit({code})\n")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_yices_answer_counts_only_when_unambiguous(plant, tmp_path, monkeypatch):
    body, code, expected = PLANTS[plant]
    script = _fake_solver(tmp_path, body, code)
    monkeypatch.setattr(Y, "yices_binary", lambda: str(script))
    r = Y.run_yices("(check-sat)", 10)
    assert r["status"] == expected, (plant, r)
    if expected == "error":
        assert r["detail"]


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_cvc5_answer_counts_only_when_unambiguous(plant, tmp_path, monkeypatch):
    body, code, expected = PLANTS[plant]
    script = _fake_solver(tmp_path, body, code)
    monkeypatch.setattr(K, "cvc5_available", lambda: True)
    monkeypatch.setattr(K, "cvc5_command", lambda limit_ms: [str(script)])
    assert K.run_cvc5("(check-sat)", 10)["status"] == expected, plant


def test_a_dying_cvc5_is_no_agreement(tmp_path, monkeypatch):
    """The case found in review: a query that prints unsat and then dies used to be labelled "agree"."""
    script = _fake_solver(tmp_path, "print('unsat')", 1)
    monkeypatch.setattr(K, "cvc5_available", lambda: True)
    monkeypatch.setattr(K, "cvc5_command", lambda limit_ms: [str(script)])
    check = registry.get("smt.C.monotone")
    op = F.run_cvc5_opinion(check, dict(check.presets["tiny"], cvc5=[2]))
    assert op["opinion"].startswith("error") and "exit status 1" in op["opinion"] and not op["disagree"]


def test_child_answer_reads_exit_status_stderr_and_lines():
    ok = run_child([sys.executable, "-c", "print('unsat')"], "", 30)
    assert ok.answer(30) == {"status": "unsat", "seconds": ok.seconds, "detail": ""}
    died = run_child([sys.executable, "-c", "import sys; print('sat'); sys.exit(3)"], "", 30).answer(30)
    assert died["status"] == "error" and "exit status 3" in died["detail"]
    slow = run_child([sys.executable, "-c", "import time; time.sleep(30)"], "", 0.5).answer(0.5)
    assert slow["status"] == "timeout"


# --------------------------------------------------------------------------- details name the sizes run


def test_sizes_phrase_names_exactly_the_sizes():
    assert sizes_phrase("n", [2, 3, 4, 5, 6]) == "every n in 2..6"
    assert sizes_phrase("n", [1, 2, 3, 4, 8, 16]) == "n in {1, 2, 3, 4, 8, 16} (only these sizes)"
    assert sizes_phrase("d", [1]) == "d = 1"
    assert sizes_phrase("L", []) == "no L"


def test_twin_and_S_details_name_their_first_size():
    """The E twin does not exist at n = 1 and S starts at n = 2: the details say so (they said "every n <= bound")."""
    assert E.check_E_wrong(3, T).detail == "refuted for every n in 2..3"
    assert S.check_S(3, T).detail == "proved for every n in 2..3"
    run = run_sizes(CheckRun("t", "S", "proved"), [2, 3, 4], lambda n: [(Verdict(PROVED if n < 4 else UNKNOWN, 0.0), None)])
    assert run.detail == "unknown at n = 4 (expected proved; proved for every n in 2..3)"


def test_every_definition_plans_the_sizes_its_runner_checks():
    """planned_sizes (what the ledger prints) starts at min_size, the smallest size each runner accepts."""
    for c in registry.CHECKS:
        st = dict(c.presets["tiny"])
        assert c.planned_sizes(st)[0] == c.min_size and c.planned_sizes(st)[-1] == st["bound"], c.name
        if c.min_size > 1:
            with pytest.raises(ValueError):
                c.run(dict(st, bound=c.min_size - 1), None)


@pytest.mark.parametrize(
    "printed, line",
    [("unknown (TIMEOUT)", "unknown"), ("unknown (INCOMPLETE)", "unknown"), ("unsat", "unsat"), ("sat", "sat"),
     ("unknown (TIMEOUT)\nunsat", "unknown (TIMEOUT)\nunsat"), ("(error \"x\")", "(error \"x\")")],
)
def test_cvc5_unknown_with_a_reason_is_no_opinion_and_nothing_else_is_rewritten(printed: str, line: str) -> None:
    from hardsoft.smt.solvers.cvc5 import verdict_line

    assert verdict_line(printed) == line


def test_cvc5_timeout_of_its_own_is_no_opinion_not_an_error() -> None:
    from hardsoft.smt.solvers import cvc5 as cv

    if not cv.cvc5_available():
        pytest.skip("cvc5 not installed")
    hard = "(set-logic QF_NRA)(declare-const x Real)(declare-const y Real)(assert (> (* x x x y) (+ (* y y y) 7.5)))(assert (< (* x y y) (- 3.0 (* x x))))(assert (= (* x x x x x) (+ y 2.25)))(check-sat)"
    r = cv.run_cvc5(hard, 0.001)
    assert r["status"] in ("sat", "unsat", "unknown", "timeout"), r
