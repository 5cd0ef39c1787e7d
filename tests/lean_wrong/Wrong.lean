module

/-!
# Wrong on purpose: the Lean checker must reject this file

Used by `tests/checks/test_lean.py`: one run of `checks.lean.family.check_sources` on this file must
report (a) an error in `err_le_bound_without_guard`, the bootstrap of Theorem 26 WITHOUT the
guard `B L ≤ 1` (false: `HardSoft.composition_guard_necessary` is a counterexample), and
(b) the warning "declaration uses `sorry`" for `bound_le_one_by_sorry`.

## Main results

None: both statements are deliberately unproved.
-/

public section

set_option autoImplicit false

namespace HardSoftWrong

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- The layer-error bound `B 0 = 0`, `B (l+1) = r l * B l + a l` (as in `HardSoft.bound`). -/
def bound (r a : Nat → α) : Nat → α
  | 0 => 0
  | l + 1 => r l * bound r a l + a l

-- WRONG-A-BEGIN
/-- Theorem 26 WITHOUT the bootstrapping fix (wrong on purpose, case a): the guarded step
`e l ≤ 1 → e (l+1) ≤ r l * e l + a l` with no hypothesis `B L ≤ 1`. The induction cannot
discharge the guard `e l ≤ 1`, so this proof must fail. -/
theorem err_le_bound_without_guard {r a e : Nat → α} {L : Nat}
    (he0 : e 0 = 0) (hstep : ∀ l, e l ≤ 1 → e (l + 1) ≤ r l * e l + a l)
    (hr : ∀ l, 1 ≤ r l) (ha : ∀ l, 0 ≤ a l) : e L ≤ bound r a L := by
  induction L with
  | zero => show e 0 ≤ 0; grind
  | succ l ih =>
    have hguard : e l ≤ 1 := by grind
    have h1 := hstep l hguard
    have h0 : (0 : α) ≤ r l := by have := OrderedRing.zero_le_one (R := α); have := hr l; grind
    have h2 := OrderedRing.mul_le_mul_of_nonneg_left ih h0
    show e (l + 1) ≤ r l * bound r a l + a l
    grind
-- WRONG-A-END

-- WRONG-B-BEGIN
/-- Theorem 26 (wrong on purpose, case b): a statement "proved" by `sorry`. -/
theorem bound_le_one_by_sorry {r a : Nat → α} (L : Nat) : bound r a L ≤ 1 := by
  sorry
-- WRONG-B-END

end HardSoftWrong

end
