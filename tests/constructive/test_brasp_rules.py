"""B-RASP's translation to temporal logic, rule by rule: every attention rule checked against the definition on every word,
the ``all`` masks' far and near sides included, and the random program generator shown to reach every rule.

``brasp.attention_formula`` turns ``P = DIR MASK [K] V default D`` into a TL formula.  For the ``all``
masks it splits on where the chosen key lies: the near side (leftmost: before i), the query itself,
and the far side (leftmost: after i, where the chosen key is the NEAREST one).  Random programs and the
library rarely put several selected keys with different values on the far side, so a wrong far side
went unnoticed; here every rule is compared with the definition, written out independently
(``_reference``), on every word up to length 6 with values that tell the positions apart, and a wrong
far side (and a wrong near side) is planted and must be caught, also through compiling and verifying a
whole program.  ``test_generator_covers_every_translation_rule`` runs the property test's generator
(tests/lang_strategies.py) and prints how often each rule of ``brasp.TRANSLATION_RULES`` fires.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings

from hardsoft.checks.engine.programs import verify_program
from hardsoft.constructive import logic as lg
from hardsoft.constructive.lang import brasp as B
from tests.lang_strategies import brasp_programs

ALPHABET = ("a", "b")
MAX_LEN = 6
a, b = lg.Atom("a"), lg.Atom("b")
#: Key selectors (key-only formulas at j), values at j that differ between positions with the same symbol, defaults at i.
KEYS = (a, b, lg.Const(True), lg.Or(a, lg.Prev(b)))
VALUES = (lg.Prev(b), lg.Next(a), lg.Not(lg.Prev(lg.Prev(a))), b)
DEFAULTS = (a, lg.Not(a))


def _words() -> list[str]:
    return ["".join(w) for n in range(1, MAX_LEN + 1) for w in itertools.product(ALPHABET, repeat=n)]


def _truth(f: lg.Formula, word: str) -> list[bool]:
    """Return f's truth value at every position of word (the last column of the logic's evaluation: f itself)."""
    return [bool(x) for x in lg.evaluate(f, word, ALPHABET)[:, -1]]


def _visible(mask: str, i: int, j: int) -> bool:
    """The mask M(i, j) of B-RASP, written out: past j < i, future j > i, all every j."""
    return {"past": j < i, "future": j > i, "all": True}[mask]


def _reference(direction: str, mask: str, K: lg.Formula, V: lg.Formula, D: lg.Formula, word: str) -> list[bool]:
    """DIR_j [M(i, j), K(j)] V(j) : D(i) by its definition (the sub-formulas evaluated by the logic's own semantics)."""
    k, v, d = (_truth(f, word) for f in (K, V, D))
    out = []
    for i in range(len(word)):
        keys = [j for j in range(len(word)) if _visible(mask, i, j) and k[j]]
        if not keys:
            out.append(bool(d[i]))
        else:
            out.append(bool(v[min(keys) if direction == "leftmost" else max(keys)]))
    return out


def _mismatches(directions: tuple[str, ...] = B.DIRECTIONS, masks: tuple[str, ...] = B.MASKS) -> list[str]:
    """Return every (rule, K, V, D, word) where the translation differs from the definition (empty: none)."""
    words = _words()
    bad = []
    for direction, mask, K, V, D in itertools.product(directions, masks, KEYS, VALUES, DEFAULTS):
        f = B.attention_formula(direction, mask, K, V, D)
        for w in words:
            got, want = _truth(f, w), _reference(direction, mask, K, V, D, w)
            if got != want:
                bad.append(f"{direction} {mask} [{K}] {V} default {D} on {w!r}: translated {got}, defined {want}")
                break
    return bad


def test_every_attention_rule_matches_the_definition_on_every_word() -> None:
    assert _mismatches() == []


def test_the_all_masks_far_side_is_exercised() -> None:
    """The values above distinguish the nearest from the farthest key on the far side: with the far side swapped the
    reference itself gives a different answer on some word (so the check above can see a wrong far side)."""
    swapped = {"leftmost": "rightmost", "rightmost": "leftmost"}
    for direction in B.DIRECTIONS:
        far_mask = "future" if direction == "leftmost" else "past"
        assert any(
            _reference(direction, far_mask, K, V, D, w) != _reference(swapped[direction], far_mask, K, V, D, w)
            for K, V, D in itertools.product(KEYS, VALUES, DEFAULTS)
            for w in _words()
        )


def _plant(monkeypatch: pytest.MonkeyPatch, side: str) -> None:
    """Swap one side of the all masks for the other direction's key: far picks the farthest key, or near the nearest."""
    real = B.all_mask_sides

    def wrong(direction, *, lp, rf, lf, rp, past_any, fut_any):  # noqa: ANN001, ANN202
        near, here, far, far_any = real(direction, lp=lp, rf=rf, lf=lf, rp=rp, past_any=past_any, fut_any=fut_any)
        if side == "far":
            far = rf if direction == "leftmost" else lp  # the last key after i / the first before i
        else:
            near = rp if direction == "leftmost" else lf  # the nearest key before i / after i
        return near, here, far, far_any

    monkeypatch.setattr(B, "all_mask_sides", wrong)


@pytest.mark.parametrize("side", ["far", "near"])
@pytest.mark.parametrize("direction", B.DIRECTIONS)
def test_a_wrong_side_of_an_all_mask_is_caught(monkeypatch: pytest.MonkeyPatch, side: str, direction: str) -> None:
    _plant(monkeypatch, side)
    bad = _mismatches(directions=(direction,), masks=("all",))
    assert bad and all(f"{direction} all" in m for m in bad), bad


#: A program whose output reads an all-mask attention's far side: the value of the chosen key, "the position before
#: it holds b", differs between the nearest and the farthest a after (leftmost) or before (rightmost) the query.
FAR_SIDE_PROGRAM = "prevb = rightmost past [true] Q_b default false\np = {direction} all [Q_a@j] prevb default false\noutput p"


@pytest.mark.parametrize("direction", B.DIRECTIONS)
def test_a_wrong_far_side_fails_program_verification(monkeypatch: pytest.MonkeyPatch, direction: str) -> None:
    text = FAR_SIDE_PROGRAM.format(direction=direction)
    assert verify_program(B.compile_program(text), MAX_LEN).ok
    _plant(monkeypatch, "far")
    B.clear_translation_caches()
    rep = verify_program(B.compile_program(text), MAX_LEN)
    assert not rep.ok and any(rep.per_mode[m].wrong_cells > 0 for m in ("hard", "soft")), rep.summary()


def test_generator_covers_every_translation_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """The property test's generator (``brasp_programs``, derandomized here) reaches every rule of the translation; the
    histogram of rule firings is printed (run with -s to see it)."""
    hits: Counter[str] = Counter()
    programs = 0

    @settings(max_examples=300, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(brasp_programs(max_ops=4))
    def collect(p: B.Program) -> None:
        nonlocal programs
        with B.rule_hits() as h:
            try:
                B.to_formulas(p)
            except ValueError:
                return  # a selector reading too many query vectors: outside the translated fragment
        programs += 1
        hits.update(h)

    collect()
    width = max(len(r) for r in B.TRANSLATION_RULES)
    table = "\n".join(f"  {r:<{width}}  {hits[r]:>7}" for r in B.TRANSLATION_RULES)
    with capsys.disabled():
        print(f"\nB-RASP translation rules fired by {programs} generated programs:\n{table}")
    assert set(hits) <= set(B.TRANSLATION_RULES), set(hits) - set(B.TRANSLATION_RULES)
    assert all(hits[r] >= 3 for r in B.TRANSLATION_RULES), table
