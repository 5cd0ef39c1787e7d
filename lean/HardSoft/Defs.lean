module

/-!
# Definitions: layer-error bounds and softmax weight sums

Definitions shared by `HardSoft.Recursion` (statement C, Theorem 26 of Yang, Strobl, Chiang,
Angluin, "Simulating Hard Attention Using Soft Attention", arXiv 2412.09925) and
`HardSoft.Softmax` (statements E and Z, the algebra behind Lemma 6 and the Edelman et al.
bound), generic over an ordered field `α`.

The field context is the one core Lean provides without Mathlib:
`[Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
[Lean.Grind.OrderedRing α]`; `Rat` is an instance (see `HardSoft.Main`).

## Main definitions

* `HardSoft.natCast n`: the natural number `n` in `α` (core's `Semiring.natCast` is not a
  global instance, so a cast written `(n : α)` does not elaborate in this context).
* `HardSoft.bound r a l`: the layer-error bound `B 0 = 0`, `B (l+1) = r l * B l + a l`.
* `HardSoft.sumTo f N`: `f 0 + ... + f (N-1)`.
* `HardSoft.countMax isMax N`, `HardSoft.offMass isMax w N`: the size of the max set and the
  weight off it among the positions `0, ..., N-1`.

## Main results

* `HardSoft.bound_zero`, `HardSoft.bound_succ`: the defining equations of `bound`.
* `HardSoft.natCast_succ`, `HardSoft.natCast_nonneg`: the cast is `+ 1` per step and `≥ 0`.
* `HardSoft.pow_succ_eq`, `HardSoft.one_le_pow_of_one_le`, `HardSoft.pow_nonneg_of_nonneg`:
  powers, handled by rewriting (see the note at `pow_zero_eq`).
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft

variable {α : Type} [Lean.Grind.Field α]

/-- Theorem 26 and statement E, helper definition: the natural number `n` as an element of `α`:
`natCast 0 = 0`, `natCast (n+1) = natCast n + 1`. -/
def natCast : Nat → α
  | 0 => 0
  | n + 1 => natCast n + 1

/-- Theorem 26 (statement C): the layer-error bound `B 0 = 0`, `B (l+1) = r l * B l + a l`,
where `r l` is the factor by which layer `l` amplifies its input error and `a l` the error it
adds (for softmax attention, `a l = 2 (1 + Lip F) X (N-1) e^{-γ/τ} Σ_h |B^h|_col`). -/
def bound (r a : Nat → α) : Nat → α
  | 0 => 0
  | l + 1 => r l * bound r a l + a l

/-- Lemma 6 and statement E, definition: the sum `f 0 + f 1 + ... + f (N-1)` (zero for `N = 0`).
-/
def sumTo (f : Nat → α) : Nat → α
  | 0 => 0
  | n + 1 => sumTo f n + f n

/-- Theorem 26 (statement E), definition: the number of positions `j < N` with `isMax j = true`
(the size `m` of the max set). -/
def countMax (isMax : Nat → Bool) : Nat → Nat
  | 0 => 0
  | n + 1 => countMax isMax n + (if isMax n then 1 else 0)

/-- Theorem 26 (statement E), definition: the total weight `w j` over the positions `j < N` with
`isMax j = false`. -/
def offMass (isMax : Nat → Bool) (w : Nat → α) : Nat → α
  | 0 => 0
  | n + 1 => offMass isMax w n + (if isMax n then 0 else w n)

/-- Theorem 26 (statement C), defining equation: `B 0 = 0`. -/
theorem bound_zero (r a : Nat → α) : bound r a 0 = 0 := rfl

/-- Theorem 26 (statement C), defining equation: `B (l+1) = r l * B l + a l`. -/
theorem bound_succ (r a : Nat → α) (l : Nat) : bound r a (l + 1) = r l * bound r a l + a l :=
  rfl

/-- Theorem 26 and statement E, helper (cast): `natCast 0 = 0`. -/
theorem natCast_zero : (natCast 0 : α) = 0 := rfl

/-- Theorem 26 and statement E, helper (cast): `natCast (n+1) = natCast n + 1`. -/
theorem natCast_succ (n : Nat) : (natCast (n + 1) : α) = natCast n + 1 := rfl


/-- Theorem 26 and statement E, helper (cast): `natCast (n + k) = natCast n + natCast k`. -/
theorem natCast_add (n k : Nat) : (natCast (n + k) : α) = natCast n + natCast k := by
  induction k with
  | zero => rw [Nat.add_zero, natCast_zero, Lean.Grind.AddCommMonoid.add_zero]
  | succ k ih => rw [← Nat.add_assoc, natCast_succ, natCast_succ, ih, Lean.Grind.AddCommMonoid.add_assoc]

/-- Lemma 6 and statement E, helper (sums): `sumTo f 0 = 0`. -/
theorem sumTo_zero (f : Nat → α) : sumTo f 0 = 0 := rfl

/-- Lemma 6 and statement E, helper (sums): `sumTo f (n+1) = sumTo f n + f n`. -/
theorem sumTo_succ (f : Nat → α) (n : Nat) : sumTo f (n + 1) = sumTo f n + f n := rfl

/-- Theorem 26 (statement E), helper (max set): `countMax isMax 0 = 0`. -/
theorem countMax_zero (isMax : Nat → Bool) : countMax isMax 0 = 0 := rfl

/-- Theorem 26 (statement E), helper (max set): one more position adds one when it is maximal.
-/
theorem countMax_succ (isMax : Nat → Bool) (n : Nat) :
    countMax isMax (n + 1) = countMax isMax n + (if isMax n then 1 else 0) := rfl

/-- Theorem 26 (statement E), helper (off mass): `offMass isMax w 0 = 0`. -/
theorem offMass_zero (isMax : Nat → Bool) (w : Nat → α) : offMass isMax w 0 = 0 := rfl

/-- Theorem 26 (statement E), helper (off mass): one more position adds its weight when it is
not maximal. -/
theorem offMass_succ (isMax : Nat → Bool) (w : Nat → α) (n : Nat) :
    offMass isMax w (n + 1) = offMass isMax w n + (if isMax n then 0 else w n) := rfl

/-- Theorem 26 and Lemma 6, helper (powers): `x ^ 0 = 1`, for the `^` this context elaborates
(its instance is not the one `grind`'s ring module expects, so proofs rewrite powers with these
two lemmas). -/
theorem pow_zero_eq (x : α) : x ^ 0 = 1 := Lean.Grind.Semiring.pow_zero x

/-- Theorem 26 and Lemma 6, helper (powers): `x ^ (n+1) = x ^ n * x`. -/
theorem pow_succ_eq (x : α) (n : Nat) : x ^ (n + 1) = x ^ n * x := Lean.Grind.Semiring.pow_succ x n

/-- Theorem 26 and Lemma 6, helper (division): `b ≠ 0` gives `a / b * b = a`. -/
theorem div_mul_cancel_of_ne_zero {a b : α} (hb : b ≠ 0) : a / b * b = a := by
  rw [Lean.Grind.Field.div_eq_mul_inv, Lean.Grind.Semiring.mul_assoc,
    Lean.Grind.CommSemiring.mul_comm b⁻¹ b, Lean.Grind.Field.mul_inv_cancel hb,
    Lean.Grind.Semiring.mul_one]

section Order

open Lean.Grind

variable [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Theorem 26 and Lemma 6, helper (order): `0 < a` gives `a ≠ 0`. -/
theorem ne_zero_of_zero_lt {a : α} (h : 0 < a) : a ≠ 0 := fun he => Lean.Grind.Preorder.lt_irrefl a (he ▸ h)

/-- Theorem 26 and Lemma 6, helper (order): `1 ≤ a` gives `0 < a`. -/
theorem zero_lt_of_one_le {a : α} (h : 1 ≤ a) : 0 < a := Std.lt_of_lt_of_le OrderedRing.zero_lt_one h

/-- Theorem 26 and statement E, helper (cast): a natural number is non-negative in `α`. -/
theorem natCast_nonneg (n : Nat) : (0 : α) ≤ natCast n := by
  induction n with
  | zero => exact Std.le_refl 0
  | succ n ih =>
    rw [natCast_succ]
    have h1 := OrderedAdd.add_le_add ih (OrderedRing.zero_le_one (R := α))
    rwa [Semiring.add_zero] at h1

/-- Theorem 26, helper (order): `1 ≤ p` and `1 ≤ r` give `1 ≤ p * r`. -/
theorem one_le_mul_of_one_le {p r : α} (hp : 1 ≤ p) (hr : 1 ≤ r) : 1 ≤ p * r := by
  have h1 := OrderedRing.mul_le_mul_of_nonneg_left hr (Std.le_trans OrderedRing.zero_le_one hp)
  rw [Semiring.mul_one] at h1
  exact Std.le_trans hp h1

/-- Theorem 26 and Lemma 6, helper (powers): `1 ≤ r` gives `1 ≤ r ^ n`. -/
theorem one_le_pow_of_one_le {r : α} (hr : 1 ≤ r) (n : Nat) : 1 ≤ r ^ n := by
  induction n with
  | zero => rw [pow_zero_eq]; exact Std.le_refl 1
  | succ n ih => rw [pow_succ_eq]; exact one_le_mul_of_one_le ih hr

/-- Theorem 26 and Lemma 6, helper (powers): `0 ≤ x` gives `0 ≤ x ^ n`. -/
theorem pow_nonneg_of_nonneg {x : α} (hx : 0 ≤ x) (n : Nat) : 0 ≤ x ^ n := by
  induction n with
  | zero => rw [pow_zero_eq]; exact Lean.Grind.OrderedRing.zero_le_one
  | succ n ih => rw [pow_succ_eq]; exact Lean.Grind.OrderedRing.mul_nonneg ih hx

/-- Theorem 26 and Lemma 6, helper (division): `a * d ≤ c * b` with `b, d > 0` gives `a / b ≤ c
/ d`. -/
theorem div_le_div_of_mul_le_mul {a b c d : α} (hb : 0 < b) (hd : 0 < d)
    (h : a * d ≤ c * b) : a / b ≤ c / d := by
  have hbd := OrderedRing.mul_pos hb hd
  have hb0 : b ≠ 0 := ne_zero_of_zero_lt hb
  have hd0 : d ≠ 0 := ne_zero_of_zero_lt hd
  have e1 : (a / b) * (b * d) = a * d := by
    rw [Field.div_eq_mul_inv, Semiring.mul_assoc, ← Semiring.mul_assoc b⁻¹ b d,
      CommSemiring.mul_comm b⁻¹ b, Field.mul_inv_cancel hb0, Semiring.one_mul]
  have e2 : (c / d) * (b * d) = c * b := by
    rw [Field.div_eq_mul_inv, CommSemiring.mul_comm b d, Semiring.mul_assoc,
      ← Semiring.mul_assoc d⁻¹ d b, CommSemiring.mul_comm d⁻¹ d, Field.mul_inv_cancel hd0,
      Semiring.one_mul]
  have key : (a / b) * (b * d) ≤ (c / d) * (b * d) := by rw [e1, e2]; exact h
  exact (Field.IsOrdered.mul_le_mul_iff_of_pos_right hbd).mp key

/-- Theorem 26 and Lemma 6, helper (division): `a ≤ c * b` with `b > 0` gives `a / b ≤ c`. -/
theorem div_le_of_le_mul {a b c : α} (hb : 0 < b) (h : a ≤ c * b) : a / b ≤ c := by
  have e1 : (a / b) * b = a := by
    rw [Field.div_eq_mul_inv, Semiring.mul_assoc, CommSemiring.mul_comm b⁻¹ b,
      Field.mul_inv_cancel (ne_zero_of_zero_lt hb), Semiring.mul_one]
  have key : (a / b) * b ≤ c * b := by rw [e1]; exact h
  exact (Field.IsOrdered.mul_le_mul_iff_of_pos_right hb).mp key

/-- Lemma 25 (statement P), helper: `a ≤ b` and `τ > 0` give `a / τ ≤ b / τ`. -/
theorem div_le_div_of_le {a b tau : α} (htau : 0 < tau) (h : a ≤ b) : a / tau ≤ b / tau := by
  have := OrderedRing.mul_le_mul_of_nonneg_right h (Std.le_of_lt htau)
  exact div_le_div_of_mul_le_mul htau htau this

/-- Lemma 25 (statement P), helper: `a ≥ 0` and `τ > 0` give `a / τ ≥ 0`. -/
theorem div_nonneg_of_nonneg {a tau : α} (ha : 0 ≤ a) (htau : 0 < tau) : 0 ≤ a / tau := by
  have h1 := OrderedRing.zero_lt_one (R := α)
  have e : (0 : α) * tau ≤ a * 1 := by rw [Semiring.zero_mul, Semiring.mul_one]; exact ha
  have := div_le_div_of_mul_le_mul (a := 0) (c := a) h1 htau e
  rwa [Field.div_eq_mul_inv, Semiring.zero_mul] at this

/-- Lemma 25 (statement P), helper: `a > 0` and `τ > 0` give `a / τ > 0`. -/
theorem zero_lt_div_of_zero_lt {a tau : α} (ha : 0 < a) (htau : 0 < tau) : 0 < a / tau := by
  have h0 := div_nonneg_of_nonneg (Std.le_of_lt ha) htau
  have hne : a / tau ≠ 0 := by
    intro h
    have e := div_mul_cancel_of_ne_zero (a := a) (ne_zero_of_zero_lt htau)
    rw [h, Semiring.zero_mul] at e
    exact ne_zero_of_zero_lt ha e.symm
  exact Std.lt_of_le_of_ne h0 (fun h => hne h.symm)

end Order

end HardSoft

end
