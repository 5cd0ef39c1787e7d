module

public import HardSoft.Cert.Heads

/-!
# Certificates, part 7b: comparisons of counts

The arithmetic of an inclusive comparison of counts `g = [N > 0]`,
`N = Σ_k c_k #<=[x_k](i) + const`, `const = r - 1/2` a half-integer, as the compiler builds it
(`constructive/logic/compiler.py`, "comparison of counts"): the count head's columns add up to
`V = N/(i+1)` exactly in both modes (every key ties; the constant column reads `is_first`, one
key); the two `W` units give `[N < 0]` at `n = 1` and `0` at `n ≥ 2`; `V` has the sign head's form
`±(2m+1)/(2D)`, positive exactly when `g` holds; and at `n = 1` the sign head has one key of
weight `1`, so its output is its value `1 - W = [N > 0]`.

## Main results

* `HardSoft.Cert.tie_out_first`, `HardSoft.Cert.lsum_cmp`, `HardSoft.Cert.val_of_cols`,
  `HardSoft.Cert.val_pos_iff`, `HardSoft.Cert.val_sign_form`, `HardSoft.Cert.single_one`,
  `HardSoft.Cert.single_big`, `HardSoft.Cert.sign_out_one`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Count

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

attribute [local instance] Lean.Grind.Ring.intCast

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- The recursive cast of a natural number is the ring's integer cast. -/
theorem natCast_eq_intCast (k : Nat) : (natCast k : α) = ((k : Int) : α) := by
  induction k with
  | zero => rw [natCast_zero, show ((0 : Nat) : Int) = 0 from rfl, Lean.Grind.Ring.intCast_zero]
  | succ k ih =>
    rw [natCast_succ, ih, show ((k + 1 : Nat) : Int) = (k : Int) + 1 by omega, Lean.Grind.Ring.intCast_add,
      Lean.Grind.Ring.intCast_one]

omit [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- The embedding of `Rat` sends an integer to its cast. -/
theorem RatEmb.map_intCast (R : RatEmb α) (z : Int) : R.cast (z : Rat) = (z : α) := by
  cases z with
  | ofNat k =>
    rw [show (Int.ofNat k : Rat) = ((k : Nat) : Rat) from Rat.intCast_natCast k, R.map_natCast,
      natCast_eq_intCast]; rfl
  | negSucc k =>
    have e : Int.negSucc k = -((k + 1 : Nat) : Int) := rfl
    rw [e, Rat.intCast_neg, R.map_neg, Rat.intCast_natCast, R.map_natCast, natCast_eq_intCast,
      Lean.Grind.Ring.intCast_neg]

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- Certificates, comparison of counts: `Σ_k c_k #_k`, summed in `α`, is the cast of the integer
`cmpSum`. -/
theorem lsum_cmp (cnt : Nat → CountDir → Nat) : ∀ (ts : List (Int × CountDir × Nat)),
    lsum ts (fun t => ((t.1 : Int) : α) * natCast (cnt t.2.2 t.2.1)) = ((cmpSum cnt ts : Int) : α)
  | [] => by rw [lsum_nil]; simp only [cmpSum]; rw [Lean.Grind.Ring.intCast_zero]
  | t :: ts => by
    rw [lsum_cons, lsum_cmp cnt ts, natCast_eq_intCast]
    simp only [cmpSum, Lean.Grind.Ring.intCast_add, Lean.Grind.Ring.intCast_mul]

/-- Exactly one of the positions `0, ..., i` is the first. -/
theorem countMax_first : ∀ i : Nat, countMax (fun j => decide (j = 0)) (i + 1) = 1
  | 0 => rfl
  | i + 1 => by rw [countMax_succ, countMax_first i]; simp

/-- Certificates, comparison of counts (the count head's constant column, `is_first`): over the
`i + 1` keys of a causal head whose scores all tie, the value `[key = 0]` averages to `1/(i+1)`,
in average-hard mode and in softmax at any temperature. -/
theorem tie_out_first (mode : Mode α) {s : Nat → α} {c : α} {i : Nat} (hs : ∀ k, k < i + 1 → s k = c) :
    sumTo (fun k => weights mode s (i + 1) k * ind (k = 0)) (i + 1) = 1 / natCast (i + 1) := by
  rw [tie_out_eq mode hs (fun k => k = 0),
    countMax_congr (q := fun j => decide (j = 0)) (fun j _ => by by_cases h : j = 0 <;> simp [h]),
    countMax_first, natCast_succ, natCast_zero]
  grind

/-- Certificates, comparison of counts: the count head's columns, `S/D` (the weighted counts) and
`((2r-1)/2)/D` (the constant), add up to `V = ((2(S+r)-1)/2)/D`. -/
theorem val_of_cols (S r : Int) {D : Nat} (hD : 0 < D) :
    (S : α) / natCast D + (((2 * r - 1 : Int) : α) / 2) / natCast D
      = ((2 * (S + r) - 1 : Int) : α) / 2 / natCast D := by
  have hd : (natCast D : α) ≠ 0 := by
    have := one_le_natCast_of_pos (α := α) hD
    intro h; rw [h] at this; exact absurd this (Std.not_le.mpr Lean.Grind.OrderedRing.zero_lt_one)
  simp only [Lean.Grind.Ring.intCast_sub, Lean.Grind.Ring.intCast_mul, Lean.Grind.Ring.intCast_add]
  generalize (natCast D : α) = d at *
  grind

/-- An integer's cast: at least `1` if positive, at most `0` otherwise. -/
theorem intCast_cases (z : Int) : (0 < z ∧ (1 : α) ≤ (z : α)) ∨ (z ≤ 0 ∧ (z : α) ≤ 0) := by
  by_cases h : 0 < z
  · left
    obtain ⟨k, hk⟩ : ∃ k : Nat, z = (k : Int) + 1 := ⟨(z - 1).toNat, by omega⟩
    refine ⟨h, ?_⟩
    rw [hk, Lean.Grind.Ring.intCast_add, Lean.Grind.Ring.intCast_one, ← natCast_eq_intCast]
    have := natCast_nonneg (α := α) k
    grind
  · right
    obtain ⟨k, hk⟩ : ∃ k : Nat, z = -(k : Int) := ⟨(-z).toNat, by omega⟩
    refine ⟨by omega, ?_⟩
    rw [hk, Lean.Grind.Ring.intCast_neg, ← natCast_eq_intCast]
    have := natCast_nonneg (α := α) k
    grind

/-- Certificates, comparison of counts: `V = ((2A-1)/2)/D` (`D ≥ 1`) has the sign head's form
`±(2m+1)/(2D)`, with the sign `+` exactly when `A > 0`. -/
theorem val_sign_form (A : Int) (D : Nat) :
    ∃ m : Nat, ((2 * A - 1 : Int) : α) / 2 / natCast D
      = (if decide (0 < A) then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)) := by
  by_cases h : 0 < A
  · refine ⟨(A - 1).toNat, ?_⟩
    rw [if_pos (decide_eq_true h), natCast_eq_intCast (2 * (A - 1).toNat + 1),
      show (((2 * (A - 1).toNat + 1 : Nat) : Int)) = 2 * A - 1 by omega]
    grind
  · refine ⟨(-A).toNat, ?_⟩
    rw [if_neg (by simpa using h), natCast_eq_intCast (2 * (-A).toNat + 1),
      show (((2 * (-A).toNat + 1 : Nat) : Int)) = -(2 * A - 1) by omega, Lean.Grind.Ring.intCast_neg]
    grind

/-- Certificates, comparison of counts (the two `W` units at `n = 1`, where `V = N = A - 1/2`):
`ReLU(1/2 - V) - ReLU(-1/2 - V) = [N < 0] = [A ≤ 0]`. -/
theorem single_one (A : Int) :
    relu (-(((2 * A - 1 : Int) : α) / 2) + 1 / 2) - relu (-(((2 * A - 1 : Int) : α) / 2) + -(1 / 2))
      = if decide (0 < A) then 0 else 1 := by
  have e : ((2 * A - 1 : Int) : α) = 2 * (A : α) - 1 := by
    rw [Lean.Grind.Ring.intCast_sub, Lean.Grind.Ring.intCast_mul, Lean.Grind.Ring.intCast_one]
    rw [show ((2 : Int) : α) = 2 by
      rw [show (2 : Int) = 1 + 1 by rfl, Lean.Grind.Ring.intCast_add, Lean.Grind.Ring.intCast_one]; grind]
  rw [e]
  have a1 : -((2 * (A : α) - 1) / 2) + 1 / 2 = 1 - (A : α) := by grind
  have a2 : -((2 * (A : α) - 1) / 2) + -(1 / 2) = -(A : α) := by grind
  rw [a1, a2]
  rcases intCast_cases (α := α) A with ⟨h, hA⟩ | ⟨h, hA⟩
  · rw [if_pos (decide_eq_true h)]
    unfold relu
    rw [if_pos (by grind), if_pos (by grind)]; grind
  · rw [if_neg (by simpa using (show ¬ 0 < A by omega))]
    rw [relu_of_nonneg (by grind), relu_of_nonneg (by grind)]; grind

/-- Certificates, comparison of counts (the two `W` units at `n ≥ 2`: `is_first + is_last ≤ 1`):
with `V ≥ 1/2 - M`, both units' arguments `-V + M f + M l + (±1/2 - 2M)` are `≤ 0`, so `W = 0`. -/
theorem single_big {V M f l : α} (hM : 0 ≤ M) (hfl : f + l ≤ 1)
    (hV : 1 / 2 - M ≤ V) :
    relu (-V + f * M + l * M + (1 / 2 - 2 * M)) = 0 ∧ relu (-V + f * M + l * M + (-(1 / 2) - 2 * M)) = 0 := by
  have h1 : (f + l) * M ≤ 1 * M := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right hfl hM
  unfold relu
  constructor
  · rw [if_pos (by grind)]
  · rw [if_pos (by grind)]

/-- Certificates, comparison of counts: `Σ_k c_k #_k ≥ -D Σ_k |c_k|` when every count is at most
`D`. -/
theorem cmpSum_lower (cnt : Nat → CountDir → Nat) (D : Nat) : ∀ (ts : List (Int × CountDir × Nat)),
    (∀ t, t ∈ ts → cnt t.2.2 t.2.1 ≤ D) →
      -((D : Int) * ((ts.map (fun t => (t.1.natAbs : Int))).sum)) ≤ cmpSum cnt ts
  | [], _ => by simp [cmpSum]
  | t :: ts, h => by
    have ih := cmpSum_lower cnt D ts (fun t' ht' => h t' (by simp [ht']))
    have ht := h t (by simp)
    simp only [cmpSum, List.map_cons, List.sum_cons]
    have hterm : -((D : Int) * (t.1.natAbs : Int)) ≤ t.1 * (cnt t.2.2 t.2.1 : Int) := by
      by_cases hc : 0 ≤ t.1
      · have : 0 ≤ t.1 * (cnt t.2.2 t.2.1 : Int) := Int.mul_nonneg hc (by omega)
        have : 0 ≤ (D : Int) * (t.1.natAbs : Int) := Int.mul_nonneg (by omega) (by omega)
        omega
      · have e : (t.1.natAbs : Int) = -t.1 := by omega
        rw [e]
        have : t.1 * (D : Int) ≤ t.1 * (cnt t.2.2 t.2.1 : Int) :=
          Int.mul_le_mul_of_nonpos_left (by omega) (by omega)
        have e2 : -((D : Int) * -t.1) = t.1 * (D : Int) := by rw [Int.mul_neg, Int.neg_neg, Int.mul_comm]
        omega
    rw [Int.mul_add]
    omega

/-- Certificates, comparison of counts (the sign head at `n = 1`): one key, of weight `1` in
average-hard mode and in softmax at any temperature, so the head outputs its value at key `0`. -/
theorem sign_out_one (mode : Mode α) (s v : Nat → α) :
    sumTo (fun j => weights mode s 1 j * v j) 1 = v 0 := by
  have hw := weights_of_tie mode (s := s) (c := s 0) (N := 1) (fun k hk => by rw [show k = 0 by omega]) 0 (by omega)
  rw [sumTo_succ, sumTo_zero, hw, natCast_succ, natCast_zero]
  grind

/-- Certificates, comparison of counts (the sign head's value at `n = 1`):
`(1 + p_0)/2 - W = 1 - [A ≤ 0] = [A > 0]`. -/
theorem sign_val_one (A : Int) (W : α) (hW : W = if decide (0 < A) then 0 else 1) :
    (1 : α) * (1 / 2) + (1 : α) * (1 / 2) + W * (-1) = if decide (0 < A) then 1 else 0 := by
  rw [hW]; split <;> grind

end Count

end HardSoft.Cert

end
