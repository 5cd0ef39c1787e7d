"""Compiled B-RASP / C-RASP programs verified by the engine: every vector at every position, hard and soft, against the interpreter."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from hardsoft.checks.engine.programs import target_from_program, verify_program
from hardsoft.constructive.lang import LANGUAGES
from hardsoft.constructive.lang import brasp as B
from hardsoft.constructive.lang import crasp as C
from hardsoft.constructive.lang.library import library
from tests.lang_strategies import brasp_programs, crasp_programs

REGIMES = ("bounded", "unbounded")


#: Every library program is verified on every string up to this length (three-letter ones too).
LIBRARY_MAX_LEN = 8


@pytest.mark.parametrize("name", sorted(library()))
def test_library_program_verified_hard_and_soft_bounded(name: str) -> None:
    ex = library()[name]
    lang = LANGUAGES[ex.language]
    cp = lang.to_model(lang.parse(ex.text), ex.alphabet, "bounded")
    rep = verify_program(cp, LIBRARY_MAX_LEN)
    assert rep.ok, rep.summary()
    assert rep.modes == ("hard", "soft") and rep.strings == sum(len(ex.alphabet) ** n for n in range(1, LIBRARY_MAX_LEN + 1))
    assert cp.vectors[-1] == lang.parse(ex.text).output and len(cp.vectors) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(library()))
def test_library_program_verified_hard_and_soft_unbounded(name: str) -> None:
    ex = library()[name]
    lang = LANGUAGES[ex.language]
    rep = verify_program(lang.to_model(lang.parse(ex.text), ex.alphabet, "unbounded"), LIBRARY_MAX_LEN)
    assert rep.ok, rep.summary()


#: The refusals of the TL compiler's limits (a Boolean node with more than 12 leaves, too many count cases):
#: programs outside the compiled fragment, not counterexamples; any other error fails the test.
LIMIT_REFUSALS = ("the temporal-logic compiler", "cases at the current position")


def _compiled_or_skip(compile_program, p, regime: str):
    try:
        return compile_program(p, ("a", "b"), regime)
    except ValueError as e:
        assume(not any(r in str(e) for r in LIMIT_REFUSALS))
        raise


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(brasp_programs(max_ops=4), st.sampled_from(REGIMES))
def test_random_brasp_programs_agree_with_the_interpreter(p: B.Program, regime: str) -> None:
    rep = verify_program(_compiled_or_skip(B.compile_program, p, regime), 5)
    assert rep.ok, (B.format_program(p), rep.summary())


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(crasp_programs(max_ops=4), st.sampled_from(REGIMES))
def test_random_crasp_programs_agree_with_the_interpreter(p: C.Program, regime: str) -> None:
    rep = verify_program(_compiled_or_skip(C.compile_program, p, regime), 5)
    assert rep.ok, (C.format_program(p), rep.summary())


# --------------------------------------------------------------------------- planted defects the verification must catch

RIGHT = "x = rightmost past [true] Q_a default false\ny = x | !x\noutput y"
LEFT = "x = leftmost past [true] Q_a default false\ny = x | !x\noutput y"


def test_a_model_compiled_from_another_program_is_caught_at_an_inner_vector() -> None:
    good = B.compile_program(RIGHT)
    assert verify_program(good, 5).ok
    # The planted mapping: the model of LEFT presented as RIGHT's. Both accept every word; only the inner x differs.
    planted = dataclasses.replace(B.compile_program(LEFT), program=B.parse(RIGHT))
    rep = verify_program(planted, 5)
    assert not rep.ok
    for mode in ("hard", "soft"):
        t = rep.per_mode[mode]
        assert t.wrong_accept == 0 and t.wrong_cells > 0 and t.counterexamples[0]["coordinate"] == "x"


def test_a_wrong_column_mapping_is_caught() -> None:
    cp = C.compile_program("ca = #[Q_a]\ncb = #[Q_b]\nge = ca >= cb\nle = ca <= cb\nboth = ge & le\noutput both")
    assert verify_program(cp, 5).ok and cp.vectors[:2] == ("ge", "le")
    swapped = dataclasses.replace(cp, columns=(cp.columns[1], cp.columns[0], *cp.columns[2:]))
    assert not verify_program(swapped, 5).ok


def test_a_target_whose_readout_is_not_the_output_is_refused() -> None:
    cp = B.compile_program(RIGHT)
    with pytest.raises(ValueError, match="is not the output vector at the last position"):
        target_from_program(dataclasses.replace(cp, columns=(*cp.columns[:-1], cp.columns[0])))


#: Seven counts of non-symbol Booleans in one sum: the translation through strict counts split it into 2^7 = 128 cases
#: (refused above 64); through the inclusive count #<= it is one comparison.
MANY_COUNTS = "\n".join(
    [f"g{k} = #[Q_a] > {k}" for k in range(7)]
    + [f"c{k} = #[g{k}]" for k in range(7)]
    + ["s = c0 + c1 + c2 + c3 + c4 + c5 + c6", "nb = #[Q_b]", "p = s > nb", "output p"]
)


@pytest.mark.parametrize("regime", REGIMES)
def test_a_sum_of_seven_counts_compiles_and_verifies(regime: str) -> None:
    cp = C.compile_program(MANY_COUNTS, ("a", "b"), regime)
    rep = verify_program(cp, 7)
    assert rep.ok and rep.modes == ("hard", "soft"), rep.summary()


def test_an_inclusive_count_compiled_as_strict_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    prog = "c = #[Q_a]\nnb = #[Q_b]\np = c > nb\noutput p"
    assert verify_program(C.compile_program(prog), 5).ok
    monkeypatch.setattr(C, "COUNT_DIRECTION", "<")  # planted: #[j <= i] P translated to #<[P]
    assert not verify_program(C.compile_program(prog), 5).ok
