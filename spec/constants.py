"""Constants of the project, each defined once and named after where it comes from.

Every numeric tolerance in the tests and checks is derived from these, never a
bare literal.
"""

from __future__ import annotations

import numpy as np

#: Unit roundoff of IEEE binary64 (2^-52): the scale of every float tolerance.
FLOAT64_EPS: float = float(np.finfo(np.float64).eps)

#: Relative tie tolerance of the float hard-attention modes (Definition of AHAT,
#: floating-point reading): scores of one query row within
#: ``TIE_RTOL * max(1, max|s|)`` of the row maximum count as tied.  A d-term dot
#: product in binary64 has relative error at most ~d * eps (Higham, Thm 3.1); 2^10 eps
#: covers d up to 1024 with room.  The exact mode (``tie_rtol=0``) is the default
#: of the attention functions; the transformer's hard modes use this value so that
#: ties that hold in exact arithmetic are not broken by rounding.
TIE_RTOL: float = 1024.0 * FLOAT64_EPS

#: Unit roundoff of IEEE binary32 (2^-23), the format of weights imported from float32 files.
FLOAT32_EPS: float = float(np.finfo(np.float32).eps)

#: Default tie tolerance of a model whose weights came from float32 (model format 3, ``tie_rtol``):
#: the same 1024-ulp rule as ``TIE_RTOL``, in float32 ulps (about 1.2e-4 relative).  Weights
#: computed in float32 carry float32 rounding although they are stored exactly in float64; a
#: tie of exact arithmetic then shows up as, say, 100.0000477 against 100 (4 ulp32), which
#: this tolerance still reads as a tie.  Scores tied only within the tolerance enter the
#: bounds through the tie spread (spec.bounds, ``RecursionConstants.a2``).
TIE_RTOL_FLOAT32: float = 1024.0 * FLOAT32_EPS

#: Largest per-model tie tolerance a model file may set (relative): beyond it "tied" stops meaning rounding.
TIE_RTOL_MAX: float = 1e-2

#: Largest integer literal of the temporal logic (a count comparison's constant or coefficient,
#: mod(m, r)'s m, a position predicate's coefficient) and of a numerical-predicate position feature
#: of model format 4 (``spec.transformer.predicate_feature``).  The compiled count comparison decides
#: sum_k c_k #_k + c_0 >= 0 with a margin of 1/2 in these integer units, carried in float64 next to
#: counts up to n; literals up to 10^6 keep that margin exactly representable for every n up to
#: 2^20 (10^6 * 2^20 < 2^53 / 8), larger ones would silently lose it.  The position features are
#: 0/1 values computed from Python ints, exact for every n; they share the bound so that every
#: predicate the logic accepts has a feature and every feature a formula.
MAX_INTEGER: int = 10**6

#: The temporal-logic compiler's per-head mass budget (Lemma 6 as the compiler uses it, claim ZU): its temperature constants are
#: c = 1/ln(ZU_MASS_DIVISOR m) with K = 1 (bounded regime, tau = c/n, gap 1/n) and K = ln(ZU_MASS_DIVISOR m) with tau = 1
#: (unbounded, gap K), m the most approximate leaves of one Boolean node, so every tie-breaking and one-sided lookup head has
#: mass off its hard choice <= e^{-gap/tau} = 1/(ZU_MASS_DIVISOR m) (constructive.logic.compiler; smt.z_ziggurat's ZU checks).
ZU_MASS_DIVISOR: int = 16
#: The temporal-logic compiler's two regimes of that rule (``spec.bounds.compute_zu_rule``).
ZU_REGIMES: tuple[str, ...] = ("bounded", "unbounded")

#: Mask kinds (Section 2, the model): which key positions j query i sees.
#:   none: all j; causal: j <= i; strict: j < i; anticausal: j >= i; strict_anticausal: j > i.
MASK_KINDS: tuple[str, ...] = ("none", "causal", "strict", "anticausal", "strict_anticausal")

#: Attention modes of one transformer: the hard ones (Section 2: AHAT, and UHAT with
#: leftmost / rightmost tie-breaking) and softmax with temperature (tau-SMAT).
HARD_MODES: tuple[str, ...] = ("average", "leftmost", "rightmost")
ATTENTION_MODES: tuple[str, ...] = HARD_MODES + ("soft",)

#: Axioms a Lean proof may use (style note 6; issue: Lean trust audit).
ALLOWED_LEAN_AXIOMS: tuple[str, ...] = ("propext", "Classical.choice", "Quot.sound")

#: Decimal digits of the mpmath references used where float64 cannot decide.
MP_DPS: int = 50

#: Temperatures the spec promises to handle stably (tau in [1e-12, 1e6]).
TAU_MIN_STABLE: float = 1e-12
TAU_MAX_STABLE: float = 1e6
#: Score magnitudes the softmax is promised to handle stably.
SCORE_MAX_STABLE: float = 1e6

#: End-to-end rounding allowance (tests/checks/test_end_to_end.py), the same at every layer (never amplified by r^l):
#:   E2E_ROUNDING_FACTOR * FLOAT64_EPS * d * X * (n + max(1, S) * sum_h |B^h|_col / tau)
#: with X the largest activation of both runs and S the largest score bound |A|_sum X^2.  First term: a
#: layer's d-term products and n-term sums in binary64; second: scores rounded by ~d eps max(1, |s|), which
#: statement S turns into a weight error of that over tau and a head output error X |B|_col times that.
#: Measured on 1500 draws like the ci profile's: the 5 draws whose error exceeded the certified B_l did so
#: by at most 2.4e-4 of this allowance (factor 1), and the allowance never exceeded 2% of eps.
E2E_ROUNDING_FACTOR: float = 2.0
#: The end-to-end test fails if the allowance decides a draw (error above B_l) while exceeding this fraction of eps.
E2E_ALLOWANCE_MAX_FRACTION: float = 0.125
