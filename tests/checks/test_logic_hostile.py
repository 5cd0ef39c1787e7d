"""Hostile formula arguments to ``hardsoft compile`` / ``hardsoft verify``: exit 0 or 2 with one line, never a traceback, never 1 or 4."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hardsoft.checks.cli import main
from hardsoft.constructive.logic.syntax import MAX_DEPTH, MAX_INTEGER

TOKENS = ["a", "b", "c", "zz", "mod", "true", "first", "last", "!", "Y", "X", "&", "|", "S", "U", "(", ")", "#<[", "#>[", "]",
          "<", "<=", ">", ">=", "+", "-", "*", ",", "mod(2, 1)", "mod(3, 1)", "mod(", "pos(", "pos(2*i < n)", "i", "n", "0", "7", "@", "\u00e9", "\t", "#", "=", "[", "{"]


def _integer(k: int) -> str:
    return "1" + "0" * k


@st.composite
def hostile(draw) -> str:
    """A formula argument: random tokens, a huge integer in a comparison, or a nest of one operator, deep or just above MAX_DEPTH."""
    kind = draw(st.sampled_from(["tokens", "integer", "nest", "mixed"]))
    if kind == "tokens":
        return " ".join(draw(st.lists(st.sampled_from(TOKENS), min_size=0, max_size=30)))
    if kind == "integer":
        k = draw(st.one_of(st.integers(0, 20), st.integers(300, 5000)))
        pattern = draw(st.sampled_from(["#<[a] > {}", "{}*#<[a] >= {}", "mod({}, 1)", "pos({}*i + n > {})", "#>[b] + {} < 2*#<[a]", "-{}*#<[a] > -{}"]))
        return pattern.replace("{}", _integer(k))
    if kind == "nest":
        # below the bound at depths a few hundred deep (each level of Y, X or S is a layer: a nest at MAX_DEPTH takes some 5 s
        # to compile and verify, which test_the_deepest_accepted_formula_compiles_and_verifies_from_the_cli does once); above it
        d = draw(st.one_of(st.integers(190, 260), st.integers(MAX_DEPTH + 1, MAX_DEPTH + 60)))
        op = draw(st.sampled_from(["!", "Y ", "X ", "(", "#<[", "a S (", "a & ("]))
        close = {"(": ")", "#<[": "] > 0", "a S (": ")", "a & (": ")"}.get(op, "")
        return op * d + "b" + close * d
    return draw(st.text(alphabet="ab!YXSU&|()#<>[]0123456789 +-*", max_size=40))


def _run(capsys, *args: str) -> tuple[int, str]:
    try:
        code = main(list(args))
    except SystemExit as e:  # argparse's own usage errors exit 2
        code = int(e.code)
    return code, capsys.readouterr().err


def _assert_clean(code: int, err: str, text: str) -> None:
    assert code in (0, 2), (code, text[:200], err[:500])
    assert "Traceback" not in err, err[:2000]
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("hardsoft: error:") and len(lines[0]) < 1000, err[:2000]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(hostile())
def test_compile_and_verify_never_crash_on_hostile_formulas(capsys, text: str) -> None:
    code, err = _run(capsys, "compile", text, "--verify-up-to", "2")
    _assert_clean(code, err, text)
    code2, err2 = _run(capsys, "verify", text, "--up-to", "2", "--workers", "1")
    _assert_clean(code2, err2, text)


@pytest.mark.parametrize("text, needle", [
    ("#<[a] > " + _integer(400), f"above the bound {MAX_INTEGER}"),
    (_integer(16) + "*#<[a] >= " + _integer(16), f"above the bound {MAX_INTEGER}"),
    ("mod(" + _integer(7) + ", 1)", f"above the bound {MAX_INTEGER}"),
    ("!" * (MAX_DEPTH + 1) + "a", f"the bound is {MAX_DEPTH}"),
    ("a S (" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1), f"the bound is {MAX_DEPTH}"),
    ("pos(" + _integer(7) + "*i > n)", f"above the bound {MAX_INTEGER}"),
])
@pytest.mark.parametrize("command", [("compile",), ("verify", "--up-to", "2", "--workers", "1")])
def test_refusals_name_the_bound(capsys, text: str, needle: str, command: tuple[str, ...]) -> None:
    code, err = _run(capsys, command[0], text, *command[1:])
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1, err[:500]


def test_the_deepest_accepted_formula_compiles_and_verifies_from_the_cli(capsys) -> None:
    """The deepest formula the bound admits compiles from the CLI; a chain of 2,000 levels is also verified (a chain at the
    bound is a 32,768-layer model: its verification runs for many minutes, too long for the suite)."""
    code, err = _run(capsys, "compile", "Y " * MAX_DEPTH + "a")
    assert code == 0, err
    code, err = _run(capsys, "compile", "Y " * 2000 + "a", "--verify-up-to", "2")
    assert code == 0, err
