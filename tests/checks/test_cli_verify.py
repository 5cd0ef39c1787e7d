"""``hardsoft verify`` and ``hardsoft temperature`` measuring gap and x_max: outputs, exit codes, bad input (exit 2, one line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hardsoft.spec import transformer as tf
from hardsoft.spec.examples import build_last_a
from hardsoft.spec.modelio import save_model
from tests.cli_run import run_hardsoft


hardsoft = run_hardsoft  # in this process (tests/cli_run.py)


def test_verify_example_json() -> None:
    p = hardsoft("verify", "--example", "last-a", "--up-to", "8", "--workers", "1", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["ok"] and doc["strings"] == 2**9 - 2 and set(doc["per_mode"]) == {"hard", "soft"}


@pytest.mark.parametrize("args, message", [
    (["--up-to", "0"], "--up-to must be >= 1"),
    (["--up-to", "30", "--max-seconds", "60"], "estimated"),
    (["--up-to", "4", "--modes", "warm"], "--modes"),
    (["--up-to", "4", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),
])
def test_verify_bad_input(args: list[str], message: str) -> None:
    p = hardsoft("verify", "--example", "has-a", *args)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("hardsoft: error: ") and message in p.stderr and p.stderr.count("\n") == 1


def test_temperature_measures_gap_and_xmax(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    save_model(build_last_a(), f)
    p = hardsoft("temperature", "--model", str(f), "--n", "8", "--eps", "0.01", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    meas = tf.measure(build_last_a(), 8)
    assert doc["measured_over_inputs"] == 2**8 and doc["gap"] == meas.gap and doc["x_max"] == meas.x_max
    assert doc["tightest"]["certified_bound"] <= 0.01


def test_temperature_refuses_with_the_estimate(tmp_path: Path) -> None:
    f = tmp_path / "m.json"
    save_model(build_last_a(), f)
    p = hardsoft("temperature", "--model", str(f), "--n", "40", "--eps", "0.01")
    assert p.returncode == 2 and "2^40" in p.stderr and "estimated" in p.stderr and p.stderr.count("\n") == 1
    p = hardsoft("temperature", "--K", "1", "--R", "2", "--depth", "1", "--n", "8", "--eps", "0.01")
    assert p.returncode == 2 and "need --gap and --xmax" in p.stderr


def test_compile_verifies_with_the_engine(tmp_path: Path) -> None:
    p = hardsoft("compile", "a S b", "--verify-up-to", "6", "--workers", "1", "--json")
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)["verification"]
    assert rep["ok"] and rep["words"] == 126 and rep["backend"] == "serial"
    assert [r["n"] for r in rep["per_length"]] == list(range(1, 7))
    out = tmp_path / "m.json"
    p = hardsoft("compile", "a S b", "--verify-up-to", "3", "--scheduler", "tcp://127.0.0.1:9", "--save-model", str(out))
    assert p.returncode == 2 and "cannot reach the Dask scheduler" in p.stderr and not out.exists()
