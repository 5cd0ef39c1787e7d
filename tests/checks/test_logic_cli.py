"""``hardsoft compile``: shape, temperature, verification, saved model runs in simulate; bad input is one line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import run_cli as _run
from tests.cli_run import run_hardsoft


def test_compile_prints_shape_temperature_and_verification(capsys) -> None:
    code, out, err = _run(capsys, "compile", "a S b", "--verify-up-to", "6")
    assert code == 0, err
    assert "1 layer(s), 1 head(s)" in out and "tau(n) = 0.360674/n" in out and "verified  OK: 126 words" in out


def test_compile_json_unbounded_alphabet(capsys) -> None:
    code, out, err = _run(capsys, "compile", "#<[x] > #<[y] & Y z", "--alphabet", "xyz", "--regime", "unbounded",
                          "--verify-up-to", "4", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["regime"] == "unbounded" and doc["temperature"] == "tau(n) = 1" and doc["alphabet"] == ["x", "y", "z"]
    assert doc["verification"]["ok"] and doc["verification"]["words"] == 3 + 9 + 27 + 81
    assert doc["layers"] == 2 and doc["d"] > 0


def test_saved_model_runs_in_simulate(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    p = run_hardsoft("compile", "(Y a) U b", "--save-model", str(f))
    assert p.returncode == 0, p.stderr
    assert json.loads(f.read_text())["format"] == "hardsoft-model/2"
    p = run_hardsoft("simulate", "--model", str(f), "--enumerate", "5", "--tau", "0.05", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["inputs"] == 32 and doc["accepted_hard"] == doc["accepted_soft"]


@pytest.mark.parametrize("args,msg", [
    (["compile", "a &"], "column 4: expected a formula"),
    (["compile", "a ) b"], "column 3"),
    (["compile", "c S a"], "atom 'c' is not in the alphabet"),
    (["compile", "a", "--verify-up-to", "0"], "must be >= 1"),
    (["compile", "a", "--verify-up-to", "x"], "must be an integer"),
    (["compile", "a S b", "--verify-up-to", "40"], "operations"),
    (["compile", "a", "--alphabet", "aa"], "repeats a symbol"),
    (["compile", "a", "--regime", "huge"], "invalid choice"),
])
def test_bad_input_one_line_exit_2_nothing_written(args: list[str], msg: str, tmp_path: Path, capsys) -> None:
    target = tmp_path / "m.json"
    code, out, err = _run(capsys, *args, "--save-model", str(target))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hardsoft: error:") and msg in lines[0], err
    assert not target.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("regime,rule", [("unbounded", "1/(max(n-1,1) ln(32*2))"), ("bounded", "1/(n^2 max(n-1,1) ln(32*2))")])
def test_mixed_comparison_compiles_and_verifies_with_its_own_temperature_rule(capsys, regime: str, rule: str) -> None:
    code, out, err = _run(capsys, "compile", "#<[a] > #>[b]", "--regime", regime, "--verify-up-to", "8")
    assert code == 0, err
    assert f"tau(n) = {rule}" in out and "(the mixed comparisons' rule)" in out and "position-lookup" in out
    assert "verified  OK: 510 words" in out


def test_newer_model_file_refused(tmp_path: Path, capsys) -> None:
    f = tmp_path / "m.json"
    assert _run(capsys, "compile", "a S b", "--save-model", str(f))[0] == 0
    f.write_text(f.read_text().replace("hardsoft-model/2", "hardsoft-model/7"))
    code, out, err = _run(capsys, "simulate", "--model", str(f), "--inputs", "ab", "--tau", "1")
    assert code == 2 and "newer than this hardsoft" in err and len(err.strip().splitlines()) == 1


def test_check_spec_family_runs_the_compiled_formula_subset() -> None:
    from hardsoft.checks.result import Outcome
    from hardsoft.checks.families.spec import check_logic

    r = check_logic(3)
    assert r.outcome is Outcome.OK and r.claim == "ZU" and r.data["problems"] == []


def test_deeply_nested_formula_is_refused_in_one_line(capsys) -> None:
    from hardsoft.constructive.logic.syntax import MAX_DEPTH

    code, out, err = _run(capsys, "compile", "!" * (MAX_DEPTH + 5) + "a")
    assert code == 2 and "nested too deeply" in err and len(err.strip().splitlines()) == 1 and len(err) < 300
    assert f"line 1, column {MAX_DEPTH + 2}:" in err, err  # the first prefix operator past the bound
