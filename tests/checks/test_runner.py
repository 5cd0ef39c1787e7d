"""The runner's meaning: the exit code over every mix of outcomes, and a crashing check is a FAILED row, not exit 2."""

from __future__ import annotations

import itertools
import os
import threading
import time
import json
import sys
import types
from pathlib import Path

import pytest

from hardsoft.checks import cli, runner
from hardsoft.checks.families import spec as spec_family
from hardsoft.checks.result import CheckResult, Outcome


def _row(outcome: Outcome, name: str = "x") -> CheckResult:
    return CheckResult("spec", name, None, outcome, outcome.value, 0.0)


def _expected(outcomes: tuple[Outcome, ...]) -> int:
    """The documented rule, written independently: any FAILED -> 1; else any UNDECIDED or nothing run -> 3; else 0."""
    if Outcome.FAILED in outcomes:
        return 1
    if Outcome.UNDECIDED in outcomes or not outcomes:
        return 3
    return 0


@pytest.mark.parametrize("outcomes", [c for k in range(4) for c in itertools.product(list(Outcome), repeat=k)],
                         ids=lambda c: "+".join(o.value for o in c) or "empty")
def test_exit_code_over_every_mix_of_outcomes(outcomes: tuple[Outcome, ...]) -> None:
    """Every sequence of up to 3 outcomes, in every order (so 'the last one wins' or 'the first one wins' is caught)."""
    assert runner.exit_code([_row(o) for o in outcomes]) == _expected(outcomes)


def test_exit_code_constants_are_distinct() -> None:
    assert (runner.EXIT_OK, runner.EXIT_FAILED, runner.EXIT_BAD_INPUT, runner.EXIT_UNDECIDED) == (0, 1, 2, 3)


def test_summarize_counts_each_outcome() -> None:
    rs = [_row(Outcome.OK), _row(Outcome.OK), _row(Outcome.FAILED), _row(Outcome.UNDECIDED)]
    assert runner.summarize(rs) == {"ok": 2, "failed": 1, "undecided": 1}
    assert runner.summarize([]) == {"ok": 0, "failed": 0, "undecided": 0}


def test_guarded_turns_an_exception_into_a_failed_row() -> None:
    def bad() -> CheckResult:
        raise ValueError("the gap must be > 0, got 0.0")

    (r,) = runner.guarded("spec", "spec.sweep", "C", bad)
    assert (r.family, r.name, r.claim, r.outcome, r.verdict) == ("spec", "spec.sweep", "C", Outcome.FAILED, "error")
    assert "ValueError" in r.detail and "the gap must be > 0" in r.detail and r.data["exception"] == "ValueError"
    ok = _row(Outcome.OK)
    assert runner.guarded("spec", "y", None, lambda: ok) == [ok]
    assert runner.guarded("spec", "y", None, lambda: [ok, ok]) == [ok, ok]


def test_a_family_that_crashes_is_one_failed_row(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("hardsoft_fake_family")

    def run(preset, out_dir, progress, claims):
        raise RuntimeError("worker pool died")

    fake.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hardsoft_fake_family", fake)
    monkeypatch.setitem(runner.FAMILIES, "fake", "hardsoft_fake_family")
    rs, mod = runner.run_family("fake", "tiny", Path("."), lambda m: None, None)
    assert mod is fake and len(rs) == 1 and rs[0].outcome is Outcome.FAILED and "worker pool died" in rs[0].detail
    assert runner.exit_code(rs) == runner.EXIT_FAILED


def test_a_value_error_inside_a_check_is_failed_not_bad_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """hardsoft check exits 1 with a complete report whose row carries the message; exit 2 stays for bad arguments."""
    def raising(out_dir: Path) -> CheckResult:
        raise ValueError("x_max must be > 0, got 0.0")

    quick = CheckResult("spec", "spec.registry", None, Outcome.OK, "passed", 0.0)
    monkeypatch.setattr(spec_family, "check_sweep", raising)
    monkeypatch.setattr(spec_family, "check_registry", lambda: quick)
    monkeypatch.setattr(spec_family, "check_vectors", lambda: [])
    monkeypatch.setattr(spec_family, "check_doctests", lambda: [])
    monkeypatch.setattr(spec_family, "check_errata", lambda: [])
    out = tmp_path / "rep"
    assert cli.main(["check", "--only", "spec", "--out", str(out)]) == runner.EXIT_FAILED
    doc = json.loads((out / "report.json").read_text())
    (row,) = [r for r in doc["results"] if r["name"] == "spec.sweep"]
    assert row["outcome"] == "failed" and row["verdict"] == "error" and "x_max must be > 0" in row["detail"]
    assert doc["exit_code"] == runner.EXIT_FAILED
    # the user's bad input is still exit 2, before any check runs and without a report
    out2 = tmp_path / "rep2"
    assert cli.main(["check", "--only", "spec,NOPE", "--out", str(out2)]) == runner.EXIT_BAD_INPUT
    assert not out2.exists()


def test_rows_time_the_check_itself() -> None:
    """A failed row's seconds is the check's own duration: small and non-negative (not a clock reading)."""
    def bad() -> CheckResult:
        raise ValueError("boom")

    (r,) = runner.guarded("spec", "s", None, bad)
    assert 0.0 <= r.seconds < 0.5


def test_an_unimportable_family_is_one_undecided_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(runner.FAMILIES, "ghost", "hardsoft_no_such_module_anywhere")
    rs, mod = runner.run_family("ghost", "tiny", Path("."), lambda m: None, None)
    assert mod is None and len(rs) == 1
    (r,) = rs
    assert (r.family, r.name, r.outcome, r.verdict) == ("ghost", "ghost.available", Outcome.UNDECIDED, "unavailable")
    assert "family ghost cannot run" in r.detail and 0.0 <= r.seconds < 0.5


def test_a_crashing_family_row_times_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("hardsoft_fake_family2")
    fake.run = lambda *a, **k: 1 / 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hardsoft_fake_family2", fake)
    monkeypatch.setitem(runner.FAMILIES, "fake2", "hardsoft_fake_family2")
    (r,), _ = runner.run_family("fake2", "tiny", Path("."), lambda m: None, None)
    assert r.name == "fake2.crashed" and r.family == "fake2" and r.claim is None and 0.0 <= r.seconds < 0.5
    assert "ZeroDivisionError" in r.detail


def test_run_family_passes_options_through(monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}
    fake = types.ModuleType("hardsoft_fake_family3")

    def run(preset, out_dir, progress, claims, **options):
        seen.update(preset=preset, claims=claims, options=options)
        return [_row(Outcome.OK)]

    fake.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "hardsoft_fake_family3", fake)
    monkeypatch.setitem(runner.FAMILIES, "fake3", "hardsoft_fake_family3")
    rs, _ = runner.run_family("fake3", "paper", Path("."), lambda m: None, {"E"}, {"bound": 3})
    assert seen == {"preset": "paper", "claims": {"E"}, "options": {"bound": 3}} and len(rs) == 1
    runner.run_family("fake3", "tiny", Path("."), lambda m: None, None)
    assert seen["options"] == {}


@pytest.mark.parametrize("only,families,claims", [
    (None, list(runner.FAMILIES), None),
    ("spec", ["spec"], None),
    ("spec, smt", ["spec", "smt"], None),
    ("E,C", list(runner.FAMILIES), {"E", "C"}),
    ("fuzz,E", ["fuzz"], {"E"}),
])
def test_parse_only(only, families, claims) -> None:
    assert runner.parse_only(only) == (families, claims)


@pytest.mark.parametrize("only,msg", [("spec,,smt", "empty name"), ("spec,NOPE", "unknown family or claim 'NOPE'"), ("", "empty name")])
def test_parse_only_rejects(only, msg) -> None:
    with pytest.raises(ValueError, match=msg):
        runner.parse_only(only)


def _fake_families(monkeypatch: pytest.MonkeyPatch, lean_gate: "threading.Event", log: list) -> None:
    """Replace run_family: the lean family blocks until ``lean_gate`` is set; every call is logged with its options."""

    def fake(name, preset, out_dir, progress, claims, options=None):  # noqa: ANN001, ANN202 - run_family's signature
        log.append(("start", name, dict(options or {})))
        if name == runner.BESIDE:
            time.sleep(0.3)  # the Python work before its first Lean process
            log.append(("compiling", name))
            progress(f"{runner.BESIDE_STARTED} the bundle")
            assert lean_gate.wait(10), "the families before lean never ran while lean was running"
        log.append(("end", name))
        return [CheckResult(name, f"{name}.x", None, Outcome.OK, "ok", 0.0, "")], None

    monkeypatch.setattr(runner, "run_family", fake)
    monkeypatch.setattr(runner, "start_early", lambda name, *a: log.append(("early", name)))


def test_lean_runs_beside_the_families_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lean family starts first in a thread; spec..smt run while it runs (smt with one worker fewer); certify waits for it."""
    gate, log = threading.Event(), []
    _fake_families(monkeypatch, gate, log)
    families = list(runner.FAMILIES)
    real = runner.run_family

    def release_after_smt(*a, **k):  # noqa: ANN002, ANN003, ANN202
        out = real(*a, **k)
        if a[0] == "smt":
            gate.set()
        return out

    monkeypatch.setattr(runner, "run_family", release_after_smt)
    got = runner.run_families(families, "tiny", Path("."), lambda m: None, None, {"smt": {"bound": 3}})
    assert [rs[0].family for rs, _ in got] == families  # every family's rows in FAMILIES order
    # certify (after lean) may start early, before lean does; the others start once lean's first Lean process has (its
    # Python work before it has the interpreter to itself)
    assert log[0] == ("early", "certify") and log[1][:2] == ("start", "lean"), log[:2]
    assert log[2] == ("compiling", "lean") and log[3][:2] == ("start", "spec"), log[:4]
    assert ("end", "smt") in log and log.index(("end", "smt")) < log.index(("end", "lean"))
    assert log.index(("end", "lean")) < log.index(next(e for e in log if e[:2] == ("start", "certify")))
    smt = next(e for e in log if e[:2] == ("start", "smt"))
    assert smt[2] == {"bound": 3, "workers": max(1, (os.cpu_count() or 1) - 1)}


def test_families_start_when_lean_ends_without_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lean family that starts no Lean process (a cached verdict) lets the others start as soon as it ends."""
    log: list = []

    def fake(name, preset, out_dir, progress, claims, options=None):  # noqa: ANN001, ANN202 - run_family's signature
        log.append(("start", name))
        if name == runner.BESIDE:
            time.sleep(0.2)
            progress("lean: cached verdict reused")
        log.append(("end", name))
        return [CheckResult(name, f"{name}.x", None, Outcome.OK, "ok", 0.0, "")], None

    monkeypatch.setattr(runner, "run_family", fake)
    t0 = time.perf_counter()
    runner.run_families(["spec", "lean"], "tiny", Path("."), lambda m: None, None, {})
    assert time.perf_counter() - t0 < runner.BESIDE_HEAD_START / 2
    assert log == [("start", "lean"), ("end", "lean"), ("start", "spec"), ("end", "spec")]


def test_lean_alone_or_first_runs_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """With lean first (or alone) no thread is started: the families run one after another, smt with its own options."""
    gate, log = threading.Event(), []
    gate.set()
    _fake_families(monkeypatch, gate, log)
    got = runner.run_families(["lean", "smt", "certify"], "tiny", Path("."), lambda m: None, None, {})
    assert [rs[0].family for rs, _ in got] == ["lean", "smt", "certify"]
    assert [e[:2] for e in log] == [
        ("start", "lean"), ("compiling", "lean"), ("end", "lean"), ("start", "smt"), ("end", "smt"), ("start", "certify"), ("end", "certify")
    ]
    assert next(e for e in log if e[:2] == ("start", "smt"))[2] == {}


def test_beside_started_is_the_lean_builds_progress_line() -> None:
    """The line the runner waits for is the one the wasm build prints when its Lean process starts (a renamed line would
    make every ``hardsoft check`` wait BESIDE_HEAD_START seconds instead)."""
    import inspect

    from hardsoft.checks.families.lean import build

    src = inspect.getsource(build.build_wasm)
    assert f'progress(f"{runner.BESIDE_STARTED} ' in src
