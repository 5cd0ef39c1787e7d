"""The ``hardsoft`` command: outputs, exit codes, and bad input (exit 2, one line, no traceback, no report left behind)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hardsoft.spec.examples import build_last_a
from hardsoft.spec.modelio import save_model
from tests.cli_run import run_hardsoft


hardsoft = run_hardsoft  # in this process (tests/cli_run.py)


def test_temperature_json_uniform() -> None:
    p = hardsoft("temperature", "--gap", "0.1", "--n", "32", "--xmax", "1", "--depth", "2", "--K", "1", "--R", "10",
                 "--eps", "0.01", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["sufficient"]["certified_bound"] <= 0.01 and doc["tightest"]["certified_bound"] <= 0.01
    assert doc["tightest"]["tau"] >= doc["sufficient"]["tau"]


def test_temperature_from_model_file(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    save_model(build_last_a(), f)
    p = hardsoft("temperature", "--gap", "0.125", "--n", "8", "--xmax", "1", "--depth", "1", "--model", str(f), "--eps", "1e-3")
    assert p.returncode == 0, p.stderr
    assert "tightest" in p.stdout and "sufficient" in p.stdout


def test_simulate_example_enumerated() -> None:
    p = hardsoft("simulate", "--example", "last-a", "--enumerate", "6", "--eps", "0.01", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["inputs"] == 64 and max(doc["layer_errors"]) <= 0.01


@pytest.mark.parametrize("args,msg", [
    (["temperature", "--gap", "0", "--n", "8", "--xmax", "1", "--depth", "2", "--K", "1", "--R", "2", "--eps", "0.1"], "--gap must be > 0"),
    (["temperature", "--gap", "nan", "--n", "8", "--xmax", "1", "--depth", "2", "--K", "1", "--R", "2", "--eps", "0.1"], "finite"),
    (["temperature", "--gap", "0.1", "--n", "8", "--xmax", "1", "--depth", "2", "--K", "1", "--R", "2", "--eps", "0"], "(0, 1]"),
    (["temperature", "--gap", "0.1", "--n", "8", "--xmax", "1", "--depth", "2", "--K", "1", "--R", "2", "--eps", "1.5"], "(0, 1]"),
    (["temperature", "--gap", "0.1", "--n", "8", "--xmax", "1", "--depth", "2", "--K", "1", "--eps", "0.1"], "--K needs --R"),
    (["temperature", "--gap", "0.1", "--n", "8", "--xmax", "1", "--model", "/nonexistent.json", "--eps", "0.1"], "cannot read model file"),
    (["simulate", "--example", "last-a", "--inputs", "ab", "aba", "--tau", "1"], "one length"),
    (["simulate", "--example", "last-a", "--inputs", "ab", "--tau", "-1"], "--tau must be > 0"),
    (["simulate", "--example", "last-a", "--inputs", "ab", "--tau", "inf"], "finite"),
    (["check", "--only", "nonsense"], "unknown family or claim"),
    (["check", "--only", "smt,E", "--smt-bound", "0"], "must be >= 1"),
    (["check", "--only", "smt,E", "--smt-bound", "100000"], "exceeds the documented maximum"),
    (["check", "--only", "smt,C", "--smt-timeout", "0"], "timeout must be > 0"),
    (["check", "--only", "smt,C", "--smt-timeout", "1e9"], "exceeds the maximum"),
    (["check", "--only", "spec", "--smt-bound", "4"], "need the smt family"),
    (["check", "--preset", "huge"], "invalid choice"),
    (["check", "--only", "fuzz,C", "--seed", "-1"], "--seed must be an integer in [0, 2^64 - 1]"),
    (["check", "--only", "fuzz,C", "--seed", "x"], "invalid int value"),
    (["check", "--only", "spec", "--seed", "3"], "--seed needs the fuzz family"),
])
def test_bad_input_one_line_exit_2(args: list[str], msg: str, tmp_path: Path) -> None:
    p = hardsoft(*args, cwd=tmp_path)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hardsoft: error:") and msg in lines[0], p.stderr
    assert "Traceback" not in p.stderr
    assert not (tmp_path / "report").exists()


def test_malformed_model_file_from_cli(tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text('{"format": "hardsoft-model/1", "alphabet": ["a"]}')
    p = hardsoft("simulate", "--model", str(f), "--inputs", "a", "--tau", "1")
    assert p.returncode == 2 and "missing field" in p.stderr and "Traceback" not in p.stderr


def test_check_spec_writes_complete_report(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.json").write_text('{"complete": true, "stale": true}')  # a stale report must not survive
    p = hardsoft("check", "--only", "spec,E", "--out", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "report.json").read_text())
    assert doc["complete"] and "stale" not in doc and doc["exit_code"] == 0
    assert all(r["claim"] in (None, "E") for r in doc["results"])
    md = (out / "report.md").read_text()
    assert "## Traceability" in md and (out / "sweep.png").stat().st_size > 0


def test_check_bad_only_leaves_no_report(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.json").write_text("{}")
    p = hardsoft("check", "--only", "spec,NOPE", "--out", str(out))
    assert p.returncode == 2
    # bad input is refused before anything is touched
    assert (out / "report.json").read_text() == "{}"


def test_check_smt_with_explicit_bound(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    p = hardsoft("check", "--only", "smt,C", "--smt-bound", "3", "--smt-timeout", "30", "--out", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "report.json").read_text())
    smt = [r for r in doc["results"] if r["family"] == "smt"]
    assert smt and all(r["claim"] == "C" for r in smt)
    assert all(r["data"]["bound_reached"] <= 3 for r in smt if "bound_reached" in r["data"])


def test_check_fuzz_seed_is_recorded(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    p = hardsoft("check", "--only", "fuzz,C", "--seed", "12345", "--out", str(out))
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads((out / "report.json").read_text())
    assert doc["fuzz_seed"] == 12345
    assert {r["data"]["seed"] for r in doc["results"] if not r["name"].endswith(".twin")} == {12345}
    assert "Fuzz seed 12345" in (out / "report.md").read_text()


def test_closed_stdout_is_quiet_exit_141_not_an_internal_error() -> None:
    """`hardsoft examples | head -1`: the reader closes the pipe; no traceback, no 'internal error', exit 141."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is already gone: the first flush raises BrokenPipeError
    try:
        p = subprocess.run([sys.executable, "-m", "hardsoft", "examples"], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=600)
    finally:
        os.close(write_end)
    assert p.returncode == 141, p.stderr
    assert "internal error" not in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_the_command_line_starts_without_ml_dtypes_and_names_every_format() -> None:
    """The parser is built without importing lowprec's ml_dtypes (about 1 s of CPU at every start), and the audit's
    default formats (named in the command module for that reason) are exactly lowprec's FORMATS."""
    code = "import sys, hardsoft.checks.cli as c; c.build_parser(); print('ml_dtypes' in sys.modules)"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and p.stdout.strip() == "False", (p.stdout, p.stderr)
    from hardsoft.checks.commands.audit import DEFAULT_FORMATS
    from hardsoft.constructive.lowprec import FORMATS

    assert DEFAULT_FORMATS == tuple(FORMATS)
