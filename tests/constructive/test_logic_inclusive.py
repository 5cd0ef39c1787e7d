"""The inclusive past count #<=[f] (positions j <= i): syntax, semantics and its compilation, hard and soft."""

from __future__ import annotations

import pytest

from hardsoft.constructive import logic as lg
from hardsoft.constructive.logic import check_compiled, evaluate, parse
from hardsoft.constructive.logic import compiler as tc

FORMULAS = ("#<=[a] > #<=[b]", "2*#<=[a] - 3 >= 0", "#<=[a] - #<=[b] <= 0 & #<=[a & Y b] < 2", "#<=[#<=[a] > 1] >= 1")


def test_inclusive_count_parses_and_prints() -> None:
    f = parse("#<=[a] - 2*#<[b] >= 1")
    assert isinstance(f, lg.Compare) and f.lhs.terms[0][1] == lg.Count("<=", lg.Atom("a"))
    assert parse(str(f)) == f and str(f) == "#<=[a] - 2*#<[b] >= 1"
    with pytest.raises(ValueError, match="count direction"):
        lg.Count("=>", lg.Atom("a"))


def test_inclusive_count_semantics_by_hand() -> None:
    # on 'aba': #<=[a] = 1, 1, 2 and #<[a] = 0, 1, 1
    assert evaluate(parse("#<=[a] >= 2"), "aba")[:, -1].tolist() == [False, False, True]
    assert evaluate(parse("#<[a] >= 2"), "aba")[:, -1].tolist() == [False, False, False]


def _check(f: str, regime: str, max_len: int = 6) -> bool:
    """Return whether the compiled formula agrees with the evaluator on every word to max_len, hard and soft."""
    return bool(check_compiled(tc.compile_formula(f, ("a", "b"), regime), max_len)["ok"])


@pytest.mark.parametrize("regime", ["bounded", "unbounded"])
@pytest.mark.parametrize("f", FORMULAS)
def test_inclusive_comparisons_compile_exactly(f: str, regime: str) -> None:
    assert _check(f, regime)


def test_a_missing_length_one_correction_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Planted defect: without W the sign head answers 1 on every one-letter word.
    assert _check("#<=[a] > #<=[b]", "bounded", 3)
    monkeypatch.setattr(tc, "_inclusive_units", lambda *a: [])
    assert not _check("#<=[a] > #<=[b]", "bounded", 3)


def test_mixing_inclusive_and_strict_counts_is_refused() -> None:
    for f in ("#<=[a] > #<[b]", "#<=[a] > #>[b]"):
        with pytest.raises(ValueError, match="inclusive counts #<= with strict counts"):
            tc.compile_formula(f, ("a", "b"))
