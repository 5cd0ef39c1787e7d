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

## Main results

`tiebreak_gap_one` and `clamp_quarter` (true); `tiebreak_gap_two` and `clamp_third` (false, rejected).
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

end HardSoft

end
