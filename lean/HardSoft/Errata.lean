module

public import HardSoft.Temperature

/-!
# The errata of Theorem 26, for every size (ERR1, ERR2, ERR3)

Three points of the printed proof of Theorem 26 of Yang, Strobl, Chiang, Angluin, "Simulating Hard
Attention Using Soft Attention" (arXiv 2412.09925) need repair; the SMT checks refute the printed
forms at listed sizes, and this file proves the repaired forms and the failure of the printed ones
for every `N` and every depth `L`:

* ERR1: the offset printed as `a = K x_max n e^{+γ/τ}` is never below `K x_max n`, grows as `τ`
  shrinks and so certifies no `ε < K x_max n` at any temperature; with `e^{-γ/τ}` the proof's
  temperature choice `e^{γ/τ} ε ≥ K x_max n` gives `a ≤ ε`.
* ERR2: the condition printed as `ε(n) ≤ α/n^β` lets `ε` be arbitrarily small, and no
  temperature chosen without `ε` certifies every such `ε` (even one layer's offset exceeds some
  of them); read as `ε(n) ≥ α/n^β`, one temperature chosen from `α/n^β` alone (statement T with
  `α/n^β` in place of `ε`) certifies every admissible `ε`.
* ERR3: Lemma 25 holds only for input errors `≤ 1`; without `B_L ≤ 1`, at every depth `L ≥ 2`
  some error sequence obeys every guarded step and exceeds any bound, although the recursion's
  bound `B_L` is finite.

## Main results

* `HardSoft.corrected_offset_le_eps`, `HardSoft.printed_offset_not_le` (ERR1).
* `HardSoft.eps_upper_bound_not_certified`, `HardSoft.bound_le_eps_of_eps_lower_bound` (ERR2).
* `HardSoft.unguarded_err_unbounded` (ERR3).
-/

public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-! ### Erratum 1: the sign of the offset's exponent -/

/-- Erratum 1 (the corrected offset, for every `N`): for an exponential with `ExpLike`'s
properties and `τ > 0`, the proof's temperature choice `e^{γ/τ} ε ≥ K X N` gives the corrected
offset `K X N e^{-γ/τ} ≤ ε`. -/
theorem corrected_offset_le_eps (E : ExpLike α) {K X gamma eps tau : α} {N : Nat}
    (hchoice : K * X * natCast N ≤ E.exp (gamma / tau) * eps) :
    K * X * natCast N * E.exp (-gamma / tau) ≤ eps := by
  have h := OrderedRing.mul_le_mul_of_nonneg_right hchoice (Std.le_of_lt (E.pos (-gamma / tau)))
  have e : E.exp (gamma / tau) * E.exp (-gamma / tau) = 1 := by
    rw [CommSemiring.mul_comm, show -gamma / tau = -(gamma / tau) by grind]
    exact E.exp_neg_mul _
  have e2 : E.exp (gamma / tau) * eps * E.exp (-gamma / tau) = eps := by
    rw [Semiring.mul_assoc, CommSemiring.mul_comm eps, ← Semiring.mul_assoc, e, Semiring.one_mul]
  rw [e2] at h
  exact h

/-- Erratum 1 (the printed offset fails, for every `N`): with `K, X, γ ≥ 0` and `τ > 0`, the printed
offset `K X N e^{+γ/τ}` is at least `K X N` (so it never becomes small), it grows as `τ` shrinks
(`0 < τ' ≤ τ`), and no temperature makes it `≤ ε` for any `ε < K X N`. -/
theorem printed_offset_not_le (E : ExpLike α) {K X gamma eps tau : α} {N : Nat} (hK : 0 ≤ K)
    (hX : 0 ≤ X) (hg : 0 ≤ gamma) (htau : 0 < tau) :
    K * X * natCast N ≤ K * X * natCast N * E.exp (gamma / tau) ∧
      (∀ tau', 0 < tau' → tau' ≤ tau →
        K * X * natCast N * E.exp (gamma / tau) ≤ K * X * natCast N * E.exp (gamma / tau')) ∧
      (eps < K * X * natCast N → ¬ K * X * natCast N * E.exp (gamma / tau) ≤ eps) := by
  have hc := OrderedRing.mul_nonneg (OrderedRing.mul_nonneg hK hX) (natCast_nonneg (α := α) N)
  have h1 := E.one_le_exp (div_nonneg_of_nonneg hg htau)
  have hfloor := OrderedRing.mul_le_mul_of_nonneg_left h1 hc
  rw [Semiring.mul_one] at hfloor
  refine ⟨hfloor, fun tau' h0 hle => ?_, fun hlt hle => ?_⟩
  · apply OrderedRing.mul_le_mul_of_nonneg_left _ hc
    apply E.mono
    -- γ/τ ≤ γ/τ' for 0 < τ' ≤ τ: γ τ' ≤ γ τ
    apply div_le_div_of_mul_le_mul htau h0
    have := OrderedRing.mul_le_mul_of_nonneg_left hle hg
    grind
  · grind

/-! ### Erratum 2: the direction of the condition on `ε` -/

/-- Erratum 2 (the printed condition `ε ≤ α/n^β` cannot be met by a temperature chosen without `ε`,
for every `N` and every bound `b = α/n^β > 0`): for an exponential with `ExpLike`'s properties, `A > 0`,
`N ≥ 1` and any temperature `τ`, some `ε` with `0 < ε ≤ b` is not certified: already one layer's
bound `B_1 = A N e^{-γ/τ}` exceeds it (whatever the layer's rate `r`). -/
theorem eps_upper_bound_not_certified (E : ExpLike α) {A gamma tau b : α} {N : Nat} (hA : 0 < A)
    (hN : 0 < N) (hb : 0 < b) (r : Nat → α) :
    ∃ eps : α, 0 < eps ∧ eps ≤ b ∧
      ¬ bound r (fun _ => A * natCast N * E.exp (-gamma / tau)) 1 ≤ eps := by
  have hNc : (0 : α) < natCast N := by
    obtain ⟨k, rfl⟩ : ∃ k, N = k + 1 := ⟨N - 1, by omega⟩
    have := natCast_nonneg (α := α) k; rw [natCast_succ]; grind
  have ha : 0 < A * natCast N * E.exp (-gamma / tau) :=
    OrderedRing.mul_pos (OrderedRing.mul_pos hA hNc) (E.pos _)
  generalize A * natCast N * E.exp (-gamma / tau) = a at ha ⊢
  have hab : 0 < a + b := by grind
  have hab0 : a + b ≠ 0 := ne_zero_of_zero_lt hab
  refine ⟨a * b / (a + b), zero_lt_div_of_zero_lt (OrderedRing.mul_pos ha hb) hab, ?_, ?_⟩
  · apply div_le_of_le_mul hab
    have := OrderedRing.mul_le_mul_of_nonneg_right (by grind : a ≤ a + b) (Std.le_of_lt hb)
    grind
  · rw [bound_succ, bound_zero]
    intro hle
    have h1 := OrderedRing.mul_le_mul_of_nonneg_right hle (Std.le_of_lt hab)
    rw [div_mul_cancel_of_ne_zero hab0] at h1
    have := OrderedRing.mul_pos ha ha
    grind

/-- Erratum 2 (the corrected condition `ε ≥ α/n^β` suffices, for every depth): under the hypotheses of
statement T (`bound_le_eps_of_temperature`) with `b = α/n^β` in place of `ε` (any `ℓ` with
`A N L R^(L-1) (2(L-1)/(e γ))^(L-1) ≤ b e^ℓ` and `1/τ ≥ (2/γ) ℓ`: a temperature chosen from `b`
alone), every `ε ≥ b` is certified: `B_L ≤ ε`. -/
theorem bound_le_eps_of_eps_lower_bound (E : ExpLike α) (hT : ExpLike.Tangent E) {r a : Nat → α}
    {R AN gamma b eps tau ell : α} {L : Nat} (hL : 0 < L) (hAN : 0 ≤ AN) (hg : 0 < gamma)
    (htau : 0 < tau) (hr1 : ∀ l, l < L → 1 ≤ r l) (hr : ∀ l, l < L → r l ≤ R / tau)
    (ha0 : ∀ l, l < L → 0 ≤ a l) (ha : ∀ l, l < L → a l ≤ AN * E.exp (-gamma / tau))
    (hell : AN * natCast L * R ^ (L - 1) * (2 * natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1)
      ≤ b * E.exp ell)
    (ht : 2 / gamma * ell ≤ 1 / tau) (hb : b ≤ eps) :
    bound r a L ≤ eps := by
  have h := OrderedRing.mul_le_mul_of_nonneg_right hb (Std.le_of_lt (E.pos ell))
  exact bound_le_eps_of_temperature E hT hL hAN hg htau hr1 hr ha0 ha (Std.le_trans hell h) ht

/-! ### Erratum 3: Lemma 25 applied layer after layer without the guard -/

/-- Erratum 3 (for every depth `L ≥ 2`): with the rates `r_l = 1` and offsets `a_l = 2` the bound
recursion is finite, `B_L = 2 L`, yet for every `M` some error sequence with `e_0 = 0` and `e ≥ 0`
obeys every guarded step `e_k ≤ 1 → e_(k+1) ≤ r_k e_k + a_k` (`k < L`) and ends with `e_L > M`: once
an intermediate error exceeds `1` (here `B_1 = 2`), Lemma 25 says nothing, so `e_L ≤ B_L` needs the
guard `B_L ≤ 1`. -/
theorem unguarded_err_unbounded {L : Nat} (hL : 2 ≤ L) (M : α) :
    bound (fun _ => (1 : α)) (fun _ => 2) L = 2 * natCast L ∧
      ∃ e : Nat → α, e 0 = 0 ∧
        (∀ k, k < L → e k ≤ 1 → e (k + 1) ≤ (fun _ => (1 : α)) k * e k + (fun _ => (2 : α)) k) ∧
        (∀ k, k ≤ L → 0 ≤ e k) ∧ M < e L := by
  have h01 := OrderedRing.zero_lt_one (R := α)
  refine ⟨?_, exists_err_gt_of_one_lt_bound (l := 1) (fun _ _ => by grind) (fun _ _ => by grind)
    (by omega) (by rw [bound_succ, bound_zero]; grind) M⟩
  rw [bound_const_one]
  grind

end HardSoft

end
