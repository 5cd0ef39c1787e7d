module

/-!
# Wrong on purpose: construction-head constants the Lean checker must reject

Used by `tests/checks/test_lean_constructions.py`: one run of `checks.families.lean.family.check_sources`
on this file must report an error inside each `WRONG` range and none inside the `RIGHT` ranges,
which hold the true statement next to each wrong one (so the errors come from the constant, not
from the setup):

* (a) Lemma 8 (tie-breaking): the keys `c_j = n [select_j] + j` of the visible keys `j < t`
  lie at least `1` (that is, `K/n` after scaling by `K/n`) below the selected target `c_t = n + t`
  (`RIGHT-A`, proved); a gap of `2` (`2K/n`) is claimed in `WRONG-A` and fails at `j = t - 1`.
* (b) The read-out clamp: a leaf within `1/4` of `1` makes `ReLU(2(u + 3/4)) - ReLU(2(u + 1/4))`,
  `u = x - 1`, exactly `1` (`RIGHT-B`, the compilers' tolerance `1/(4m)` at `m = 1`); within
  `1/3` (`WRONG-B`) it fails at `x = 2/3` (the output is `5/6`).
* (c) S-RASP's big-M product with the gate closed (`HardSoft.big_m_product` at `b = false`): with
  `z` within `e` of `z0`, the slack within `d` of `-M K` and `e + d ≤ 1`, the margin `|z0| + 1 ≤ M
  K` makes `ReLU(z + s) - ReLU(-z + s)` exactly `0` (`RIGHT-C`); without the `+ 1` (`WRONG-C`,
  the compiler's `M = 2C` instead of `2C + 1`) it fails at `z0 = M K = 1`, `z = 3/2`, `s = -1`
  (the output is `1/2`).

## Main results

`tiebreak_gap_one`, `clamp_quarter` and `big_m_closed` (true); `tiebreak_gap_two`, `clamp_third` and
`big_m_closed_no_margin` (false, rejected).
-/

public section

set_option autoImplicit false

namespace HardSoft

/-- `ReLU(x) = max(x, 0)` over `Rat` (as `HardSoft.relu`). -/
def relu (x : Rat) : Rat := if x ≤ 0 then 0 else x

-- RIGHT-A-BEGIN
/-- Lemma 8 (tie-breaking, true): every visible key `j < t` has key `c_j = n [select_j] + j`
at least `1` below the selected target's `n + t`. -/
theorem tiebreak_gap_one (sel : Nat → Bool) {n j t : Nat} (hjt : j < t) :
    (if sel j then n else 0) + j + 1 ≤ n + t := by
  cases sel j <;> simp <;> omega
-- RIGHT-A-END

-- WRONG-A-BEGIN
/-- Lemma 8 with the gap doubled (wrong on purpose): `2K/n` instead of `K/n`. -/
theorem tiebreak_gap_two (sel : Nat → Bool) {n j t : Nat} (hjt : j < t) :
    (if sel j then n else 0) + j + 2 ≤ n + t := by
  cases sel j <;> simp <;> omega
-- WRONG-A-END

-- RIGHT-B-BEGIN
/-- The read-out clamp (true): a leaf within `1/4` of `1` gives exactly `1`. -/
theorem clamp_quarter {x : Rat} (hl : 1 - 1 / 4 ≤ x) (hu : x ≤ 1 + 1 / 4) :
    relu (2 * (x - 1 + 3 / 4)) - relu (2 * (x - 1 + 1 / 4)) = 1 := by
  unfold relu
  split <;> split <;> grind
-- RIGHT-B-END

-- WRONG-B-BEGIN
/-- The read-out clamp with tolerance `1/3` (wrong on purpose): fails at `x = 2/3`. -/
theorem clamp_third {x : Rat} (hl : 1 - 1 / 3 ≤ x) (hu : x ≤ 1 + 1 / 3) :
    relu (2 * (x - 1 + 3 / 4)) - relu (2 * (x - 1 + 1 / 4)) = 1 := by
  unfold relu
  split <;> split <;> grind
-- WRONG-B-END

/-- `|a|` over `Rat` (as `HardSoft.absv`). -/
def absv (a : Rat) : Rat := if 0 ≤ a then a else -a

-- RIGHT-C-BEGIN
/-- The big-M product with the gate closed (true): the margin `|z0| + 1 ≤ M K` gives exactly `0`. -/
theorem big_m_closed {z z0 s M K e d : Rat} (hz : absv (z - z0) ≤ e) (hM : absv z0 + 1 ≤ M * K)
    (hs : absv (s + M * K) ≤ d) (hed : e + d ≤ 1) : relu (z + s) - relu (-z + s) = 0 := by
  unfold absv at hz hM hs
  unfold relu
  split at hz <;> split at hM <;> split at hs <;> split <;> split <;> grind
-- RIGHT-C-END

-- WRONG-C-BEGIN
/-- The big-M product without the margin's `+ 1` (wrong on purpose): fails at `z0 = M K = 1`,
`z = 3/2`, `s = -1`. -/
theorem big_m_closed_no_margin {z z0 s M K e d : Rat} (hz : absv (z - z0) ≤ e)
    (hM : absv z0 ≤ M * K) (hs : absv (s + M * K) ≤ d) (hed : e + d ≤ 1) :
    relu (z + s) - relu (-z + s) = 0 := by
  unfold absv at hz hM hs
  unfold relu
  split at hz <;> split at hM <;> split at hs <;> split <;> split <;> grind
-- WRONG-C-END

end HardSoft

end
