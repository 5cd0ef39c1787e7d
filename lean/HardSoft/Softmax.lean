module

public import HardSoft.Defs

/-!
# Softmax concentration: the algebraic cores of statements E and Z

Softmax at temperature `τ` puts weight `exp(s_j/τ) / Σ_k exp(s_k/τ)` on position `j`.
Dividing numerator and denominator by `exp(s_max/τ)` leaves the weights
`w_j = exp((s_j - s_max)/τ)`: every maximal position gets `w_j = 1`, and a position whose
score is at least `γ` below the maximum gets `w_j ≤ x := e^{-γ/τ}`. The softmax mass off a
set of positions is the sum of their `w_j` divided by the total `Σ_j w_j`, because the
normalisation cancels. So the exponential enters only through these weights, and what is
left is algebra over an ordered field, proved here for every number of positions `N`:

* statement E (Edelman et al. 2022; used in Lemma 25 of Yang, Strobl, Chiang, Angluin):
  the mass off the max set is at most `(N-m) x / (m + (N-m) x) ≤ (N-1) x`;
* statement Z (Lemma 6, the "ziggurat"): if the `k`-th largest weight (`k = 0, 1, ...`)
  is at most `x^k` times the largest, the mass off the top is at most `x`, whatever `N`.

Positions are the naturals `0, ..., N-1`; weights are functions `Nat → α` and positions
`≥ N` are ignored.

## Main results

* `HardSoft.offMass_mul_le_of_weights`: E, division-free:
  `off * (m + (N-m) x) ≤ (N-m) x * total`.
* `HardSoft.offMass_div_sumTo_le`: E, `off / total ≤ (N-m) x / (m + (N-m) x)`.
* `HardSoft.offMass_div_sumTo_le_pred_mul`: E, `off / total ≤ (N-1) x`.
* `HardSoft.sumTo_sub_top_le_mul_sumTo`: Z, division-free: `total - top ≤ x * total`.
* `HardSoft.sumTo_mul_one_sub_le`: Z, `total * (1 - x) ≤ top * (1 - x^N)`.
* `HardSoft.sumTo_sub_top_div_sumTo_le`: Z, `(total - top) / total ≤ x`.
-/

public section

set_option autoImplicit false

namespace HardSoft

variable {α : Type} [Lean.Grind.Field α]

/-- Theorem 26 (Edelman et al. bound, statement E, total weight): when every maximal position
has weight `1`, the total weight is `m + off`, with `m` the size of the max set and `off` the
weight off it. -/
theorem sumTo_eq_countMax_add_offMass {isMax : Nat → Bool} {w : Nat → α} {N : Nat}
    (hmax : ∀ j, j < N → isMax j = true → w j = 1) :
    sumTo w N = natCast (countMax isMax N) + offMass isMax w N := by
  induction N with
  | zero => rw [sumTo_zero, countMax_zero, offMass_zero, natCast_zero]; exact (Lean.Grind.Semiring.add_zero 0).symm
  | succ n ih =>
    have ih' := ih (fun j hj hm => hmax j (by omega) hm)
    rw [sumTo_succ, countMax_succ, offMass_succ, ih']
    cases h : isMax n
    · simp <;> grind
    · have hw := hmax n (by omega) h
      simp [natCast_succ, hw] <;> grind

end HardSoft

namespace HardSoft

section Abs

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α]

/-- Lemma 25 (Edelman et al. bound, statement E), definition: the absolute value `|a|` (`a` if `a ≥
0`, else `-a`). -/
@[expose] noncomputable def absv (a : α) : α := if 0 ≤ a then a else -a

/-- The compilers' feed-forward units (the read-out clamp of `constructive/logic/compiler.py`, the
big-M product of `constructive/srasp/compiler.py`), definition: `ReLU(x) = max(x, 0)` (`0` if `x ≤
0`, else `x`). -/
@[expose] noncomputable def relu (x : α) : α := if x ≤ 0 then 0 else x

/-- Lemma 25 (Edelman et al. bound, statement E), helper: `|a| = a` for `a ≥ 0`. -/
theorem absv_of_nonneg {a : α} (h : 0 ≤ a) : absv a = a := by
  unfold absv
  rw [if_pos h]

end Abs

end HardSoft

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-! ### Statement E: the max set and the rest -/

/-- Theorem 26 (Edelman et al. bound, statement E), helper: at most `N` of the first `N`
positions are maximal. -/
theorem countMax_le (isMax : Nat → Bool) (N : Nat) : countMax isMax N ≤ N := by
  induction N with
  | zero => rw [countMax_zero]; exact Nat.le_refl 0
  | succ n ih => rw [countMax_succ]; split <;> omega

/-- Theorem 26 (Edelman et al. bound, statement E, off mass is non-negative): off weights `≥ 0`
give `off ≥ 0`. -/
theorem offMass_nonneg {isMax : Nat → Bool} {w : Nat → α} {N : Nat}
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j) : 0 ≤ offMass isMax w N := by
  induction N with
  | zero => rw [offMass_zero]; exact Std.le_refl _
  | succ n ih =>
    have ih' := ih (fun j hj hm => hoff0 j (by omega) hm)
    rw [offMass_succ]
    cases h : isMax n
    · have hw := hoff0 n (by omega) h
      simp <;> grind
    · simp <;> grind

/-- Theorem 26 (Edelman et al. bound, statement E, counting form): off weights `≤ x` give `off +
m x ≤ N x`. -/
theorem offMass_add_countMax_mul_le {isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat}
    (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) :
    offMass isMax w N + natCast (countMax isMax N) * x ≤ natCast N * x := by
  induction N with
  | zero => rw [offMass_zero, countMax_zero, natCast_zero, Lean.Grind.Semiring.zero_mul, Lean.Grind.Semiring.add_zero]; exact Std.le_refl _
  | succ n ih =>
    have ih' := ih (fun j hj hm => hoff j (by omega) hm)
    rw [offMass_succ, countMax_succ, natCast_succ n]
    cases h : isMax n
    · have hw := hoff n (by omega) h
      simp <;> grind
    · simp [natCast_succ] <;> grind

/-- Theorem 26 (Edelman et al. bound, statement E, off mass): off weights `≤ x` give `off ≤ (N -
m) x`. -/
theorem offMass_le_mul {isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat}
    (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) :
    offMass isMax w N ≤ natCast (N - countMax isMax N) * x := by
  have h1 := offMass_add_countMax_mul_le (x := x) hoff
  have hc := countMax_le isMax N
  have h2 : (natCast N : α) = natCast (countMax isMax N) + natCast (N - countMax isMax N) := by
    rw [← natCast_add]
    congr 1
    omega
  rw [h2] at h1
  grind

/-- Theorem 26 (Edelman et al. bound, statement E, division-free form; used by Lemma 25): with
weights `w_j = exp((s_j - s_max)/τ)`, i.e. `w_j = 1` on the `m` maximal positions and `w_j ≤ x =
e^{-γ/τ}` on the others, the weight `off` off the max set and the total weight satisfy `off * (m
+ (N-m) x) ≤ (N-m) x * total`; for `total > 0` and `m + (N-m) x > 0` this is `off / total ≤
(N-m) x / (m + (N-m) x)`. -/
theorem offMass_mul_le_of_weights {isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat}
    (hmax : ∀ j, j < N → isMax j = true → w j = 1)
    (hoff : ∀ j, j < N → isMax j = false → w j ≤ x) :
    offMass isMax w N * (natCast (countMax isMax N) + natCast (N - countMax isMax N) * x)
      ≤ natCast (N - countMax isMax N) * x * sumTo w N := by
  have hS := offMass_le_mul (x := x) hoff
  have hT := sumTo_eq_countMax_add_offMass (isMax := isMax) hmax
  have hm := natCast_nonneg (α := α) (countMax isMax N)
  have h1 := OrderedRing.mul_le_mul_of_nonneg_right hS hm
  rw [hT]
  grind

/-- Theorem 26 (Edelman et al. bound, statement E), helper: a positive natural number is `≥ 1`
in `α`. -/
theorem one_le_natCast_of_pos {n : Nat} (hn : 0 < n) : (1 : α) ≤ natCast n := by
  obtain ⟨k, rfl⟩ : ∃ k, n = k + 1 := ⟨n - 1, by omega⟩
  rw [natCast_succ]
  have := natCast_nonneg (α := α) k
  grind

/-- Theorem 26 (Edelman et al. bound, statement E; used by Lemma 25): with weights `w_j =
exp((s_j - s_max)/τ)`, i.e. `w_j = 1` on the `m ≥ 1` maximal positions and `0 ≤ w_j ≤ x =
e^{-γ/τ}` on the others (gap `≥ γ`), the softmax mass off the max set is `off / total ≤ (N-m) x
/ (m + (N-m) x)`. -/
theorem offMass_div_sumTo_le {isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat}
    (hmax : ∀ j, j < N → isMax j = true → w j = 1)
    (hoff : ∀ j, j < N → isMax j = false → w j ≤ x)
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j)
    (hx : 0 ≤ x) (hm : 0 < countMax isMax N) :
    offMass isMax w N / sumTo w N
      ≤ natCast (N - countMax isMax N) * x
          / (natCast (countMax isMax N) + natCast (N - countMax isMax N) * x) := by
  have hT := sumTo_eq_countMax_add_offMass (isMax := isMax) hmax
  have hS0 := offMass_nonneg hoff0
  have hm1 := one_le_natCast_of_pos (α := α) hm
  have hK := OrderedRing.mul_nonneg (natCast_nonneg (α := α) (N - countMax isMax N)) hx
  have hb : 0 < sumTo w N := by rw [hT]; grind
  have hd : 0 < natCast (countMax isMax N) + natCast (N - countMax isMax N) * x := by grind
  exact div_le_div_of_mul_le_mul hb hd (offMass_mul_le_of_weights hmax hoff)

/-- Theorem 26 (Edelman et al. bound, statement E, the `2 N e^{-γ/τ}` form; used by Lemma 25):
under the hypotheses of `offMass_div_sumTo_le`, the softmax mass off the max set is at most
`(N-1) x`, so `‖softmax_τ(s) - ahardmax(s)‖₁ = 2 · off / total ≤ 2 (N-1) e^{-γ/τ}`. -/
theorem offMass_div_sumTo_le_pred_mul {isMax : Nat → Bool} {w : Nat → α} {x : α} {N : Nat}
    (hmax : ∀ j, j < N → isMax j = true → w j = 1)
    (hoff : ∀ j, j < N → isMax j = false → w j ≤ x)
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ w j)
    (hx : 0 ≤ x) (hm : 0 < countMax isMax N) :
    offMass isMax w N / sumTo w N ≤ natCast (N - 1) * x := by
  have hT := sumTo_eq_countMax_add_offMass (isMax := isMax) hmax
  have hS0 := offMass_nonneg hoff0
  have hS := offMass_le_mul (x := x) hoff
  have hm1 := one_le_natCast_of_pos (α := α) hm
  have hc := countMax_le isMax N
  have hsplit : (natCast (N - 1) : α)
      = natCast (N - countMax isMax N) + natCast (countMax isMax N - 1) := by
    rw [← natCast_add]
    congr 1
    omega
  have hj := OrderedRing.mul_nonneg (natCast_nonneg (α := α) (countMax isMax N - 1)) hx
  have hb : 0 < sumTo w N := by rw [hT]; grind
  have hKJ : (0 : α) ≤ (natCast (N - countMax isMax N) + natCast (countMax isMax N - 1)) * x :=
    OrderedRing.mul_nonneg (by
      have := natCast_nonneg (α := α) (N - countMax isMax N)
      have := natCast_nonneg (α := α) (countMax isMax N - 1)
      grind) hx
  have hmS : (1 : α) ≤ natCast (countMax isMax N) + offMass isMax w N := by grind
  have h1 := OrderedRing.mul_le_mul_of_nonneg_left hmS hKJ
  apply div_le_of_le_mul hb
  rw [hsplit, hT]
  grind

/-! ### Statement Z: the ziggurat -/

/-- Lemma 6 (statement Z), helper: one step of the geometric-series estimate, over plain
variables (`S` stands for the partial sum, `wn` for the next weight, `P` for `x^n`). -/
theorem zig_step {S w0 wn x P : α} (ih : (S - w0) * (1 - x) ≤ w0 * (x - P))
    (h1 : wn * (1 - x) ≤ P * w0 * (1 - x)) : (S + wn - w0) * (1 - x) ≤ w0 * (x - P * x) := by
  grind

/-- Lemma 6 (statement Z), helper: the geometric-series estimate `(total - top) * (1 - x) ≤ top
* (x - x^N)` when the `k`-th weight is `≤ x^k * top`. -/
theorem sumTo_sub_top_mul_one_sub_le {w : Nat → α} {x : α} (hx1 : x ≤ 1) (n : Nat)
    (hw : ∀ k, 0 < k → k < n + 1 → w k ≤ x ^ k * w 0) :
    (sumTo w (n + 1) - w 0) * (1 - x) ≤ w 0 * (x - x ^ (n + 1)) := by
  induction n with
  | zero => rw [sumTo_succ, sumTo_zero]; grind
  | succ n ih =>
    have ih' := ih (fun k hk1 hk2 => hw k hk1 (by omega))
    have hk := hw (n + 1) (by omega) (by omega)
    have h1x : (0 : α) ≤ 1 - x := Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)
    have h1 := OrderedRing.mul_le_mul_of_nonneg_right hk h1x
    rw [sumTo_succ w (n + 1), pow_succ_eq x (n + 1)]
    exact zig_step ih' h1

/-- Lemma 6 (statement Z, ziggurat, division-free): with weights `w_k = exp((s_(k) - s_(0))/τ)`
for the scores sorted downwards, a ziggurat `s_(0) - s_(k) ≥ k γ` gives `0 ≤ w_k ≤ x^k * w_0`
with `x = e^{-γ/τ}`; then `total - top ≤ x * total` for every `N ≥ 1`. -/
theorem sumTo_sub_top_le_mul_sumTo {w : Nat → α} {x : α} {N : Nat} (hN : 0 < N)
    (hw0 : 0 ≤ w 0) (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0)
    (hx0 : 0 ≤ x) (hx1 : x ≤ 1) : sumTo w N - w 0 ≤ x * sumTo w N := by
  obtain ⟨n, rfl⟩ : ∃ n, N = n + 1 := ⟨N - 1, by omega⟩
  have h := sumTo_sub_top_mul_one_sub_le hx1 n hw
  have hp := OrderedRing.mul_nonneg hw0 (pow_nonneg_of_nonneg hx0 (n + 1))
  grind

/-- Lemma 6 (statement Z, weight on the top): under the ziggurat hypotheses, `total * (1 - x) ≤
top * (1 - x^N)`, i.e. the top keeps at least `(1-x)/(1-x^N)` of the mass when `x < 1`. -/
theorem sumTo_mul_one_sub_le {w : Nat → α} {x : α} {N : Nat} (hN : 0 < N)
    (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx1 : x ≤ 1) :
    sumTo w N * (1 - x) ≤ w 0 * (1 - x ^ N) := by
  obtain ⟨n, rfl⟩ : ∃ n, N = n + 1 := ⟨N - 1, by omega⟩
  have h := sumTo_sub_top_mul_one_sub_le hx1 n hw
  grind

/-- Lemma 6 (statement Z), helper: non-negative weights sum to at least the first one. -/
theorem le_sumTo_of_nonneg {w : Nat → α} {N : Nat} (hN : 0 < N)
    (hnn : ∀ k, k < N → 0 ≤ w k) : w 0 ≤ sumTo w N := by
  obtain ⟨n, rfl⟩ : ∃ n, N = n + 1 := ⟨N - 1, by omega⟩
  induction n with
  | zero => rw [sumTo_succ, sumTo_zero, Lean.Grind.AddCommMonoid.zero_add]; exact Std.le_refl _
  | succ n ih =>
    have ih' := ih (by omega) (fun k hk => hnn k (by omega))
    have := hnn (n + 1) (by omega)
    rw [sumTo_succ w (n + 1)]
    grind

/-- Lemma 6 (statement Z, ziggurat): with weights `w_k = exp((s_(k) - s_(0))/τ)` for the scores
sorted downwards, a ziggurat `s_(0) - s_(k) ≥ k γ` gives `0 ≤ w_k ≤ x^k * w_0` with `x =
e^{-γ/τ}`, `w_0 = 1 > 0`; then the softmax mass off the top position is `(total - top) / total ≤
x`, independent of the number `N` of positions. -/
theorem sumTo_sub_top_div_sumTo_le {w : Nat → α} {x : α} {N : Nat} (hN : 0 < N)
    (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k)
    (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x ≤ 1) :
    (sumTo w N - w 0) / sumTo w N ≤ x := by
  have h := sumTo_sub_top_le_mul_sumTo hN (by grind) hw hx0 hx1
  have hb : 0 < sumTo w N := by have := le_sumTo_of_nonneg hN hnn; grind
  exact div_le_of_le_mul hb (by grind)

/-! ### Statement Z, divided form -/

/-- Lemma 6 (statement Z), helper (powers): `0 ≤ x ≤ 1` gives `x ^ n ≤ 1`. -/
theorem pow_le_one_of_le_one {x : α} (hx0 : 0 ≤ x) (hx1 : x ≤ 1) (n : Nat) : x ^ n ≤ 1 := by
  induction n with
  | zero => rw [pow_zero_eq]; exact Std.le_refl _
  | succ n ih =>
    rw [pow_succ_eq]
    have := OrderedRing.mul_le_mul_of_nonneg_right ih hx0
    grind

/-- Lemma 6 (statement Z), helper (powers): `0 ≤ x ≤ 1` gives `x ^ (n+1) ≤ x`. -/
theorem pow_succ_le_self {x : α} (hx0 : 0 ≤ x) (hx1 : x ≤ 1) (n : Nat) : x ^ (n + 1) ≤ x := by
  rw [pow_succ_eq]
  have := OrderedRing.mul_le_mul_of_nonneg_right (pow_le_one_of_le_one hx0 hx1 n) hx0
  grind

/-- Lemma 6 (statement Z), helper over plain variables (`S` the total, `w0` the top, `P` for
`x^N`): `(S - w0)(1 - x) ≤ w0 (x - P)` gives `(S - w0)(1 - P) ≤ (x - P) S`. -/
theorem zig_div_step {S w0 x P : α} (h : (S - w0) * (1 - x) ≤ w0 * (x - P)) :
    (S - w0) * (1 - P) ≤ (x - P) * S := by
  grind

/-- Lemma 6 (statement Z, divided form): under the ziggurat hypotheses (`w_0 > 0`, `0 ≤ w_k ≤ x^k
w_0`) with `0 ≤ x < 1`, the softmax mass off the top position is at most `(x - x^N)/(1 - x^N)`,
and at most `x`, for every `N ≥ 1`. -/
theorem sumTo_sub_top_div_sumTo_le_geom {w : Nat → α} {x : α} {N : Nat} (hN : 0 < N)
    (hw0 : 0 < w 0) (hnn : ∀ k, k < N → 0 ≤ w k)
    (hw : ∀ k, 0 < k → k < N → w k ≤ x ^ k * w 0) (hx0 : 0 ≤ x) (hx1 : x < 1) :
    (sumTo w N - w 0) / sumTo w N ≤ (x - x ^ N) / (1 - x ^ N) ∧
      (sumTo w N - w 0) / sumTo w N ≤ x := by
  obtain ⟨n, rfl⟩ : ∃ n, N = n + 1 := ⟨N - 1, by omega⟩
  have h := sumTo_sub_top_mul_one_sub_le (Std.le_of_lt hx1) n hw
  have hP := pow_succ_le_self hx0 (Std.le_of_lt hx1) n
  have hb : 0 < sumTo w (n + 1) := by have := le_sumTo_of_nonneg hN hnn; grind
  have hd : 0 < 1 - x ^ (n + 1) := by grind
  exact ⟨div_le_div_of_mul_le_mul hb hd (zig_div_step h),
    sumTo_sub_top_div_sumTo_le hN hw0 hnn hw hx0 (Std.le_of_lt hx1)⟩

/-! ### Statement E, `ℓ₁` form -/

/-- Lemma 25 (Edelman et al. bound, statement E), helper: `|a| = -a` for `a ≤ 0`. -/
theorem absv_of_nonpos {a : α} (h : a ≤ 0) : absv a = -a := by
  unfold absv
  by_cases h' : 0 ≤ a
  · rw [if_pos h']; grind
  · rw [if_neg h']


/-- Lemma 25 (Edelman et al. bound, statement E), definition: average-hard attention over the
positions `j < N`, weight `1/m` on each of the `m` maximal positions and `0` elsewhere. -/
@[expose] noncomputable def ahardmax (isMax : Nat → Bool) (N : Nat) (j : Nat) : α :=
  if isMax j = true then 1 / natCast (countMax isMax N) else 0

/-- Lemma 25 (Edelman et al. bound, statement E, `ℓ₁` distance, partial sums), helper: with `δ` the
mass off the max set and `m` its size, if every maximal position `j < N` has weight `(1 - δ)/m` and
every other weight is `≥ 0`, then over the first `n ≤ N` positions `Σ_j |p_j - ahardmax_j| = m_n δ/m
+ off_n`. -/
theorem sumTo_absv_sub_ahardmax_partial {isMax : Nat → Bool} {p : Nat → α} {N : Nat}
    (hm : 0 < countMax isMax N)
    (hmax : ∀ j, j < N → isMax j = true →
      p j = (1 - offMass isMax p N) / natCast (countMax isMax N))
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j) :
    ∀ n, n ≤ N → sumTo (fun j => absv (p j - ahardmax isMax N j)) n
      = natCast (countMax isMax n) * (offMass isMax p N / natCast (countMax isMax N))
        + offMass isMax p n := by
  have hm1 := one_le_natCast_of_pos (α := α) hm
  have hmpos : (0 : α) < natCast (countMax isMax N) := zero_lt_of_one_le hm1
  have hd0 := offMass_nonneg hoff0
  have hq := div_nonneg_of_nonneg hd0 hmpos
  intro n
  induction n with
  | zero => intro _; rw [sumTo_zero, countMax_zero, offMass_zero, natCast_zero, Lean.Grind.Semiring.zero_mul, Lean.Grind.Semiring.add_zero]
  | succ n ih =>
    intro hn
    have ih' := ih (by omega)
    rw [sumTo_succ, ih', countMax_succ, offMass_succ]
    cases h : isMax n
    · have hp := hoff0 n (by omega) h
      have ha : (ahardmax isMax N n : α) = 0 := by unfold ahardmax; simp [h]
      simp only [Bool.false_eq_true, if_false, Nat.add_zero]
      rw [ha, absv_of_nonneg (Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr hp)]
      grind
    · have hp := hmax n (by omega) h
      have ha : (ahardmax isMax N n : α) = 1 / natCast (countMax isMax N) := by
        unfold ahardmax; simp [h]
      have e1 : p n - ahardmax isMax N n
          = -(offMass isMax p N / natCast (countMax isMax N)) := by
        rw [ha, hp]; grind
      simp only [if_true]
      rw [e1, absv_of_nonpos (by grind), natCast_succ]
      grind

/-- Lemma 25 (Edelman et al. bound, statement E, `ℓ₁` form): if the `m ≥ 1` maximal positions among
`j < N` each get the weight `(1 - δ)/m`, where `δ` is the mass off the max set, and the other
weights are `≥ 0` (as softmax gives), then `‖p - ahardmax‖₁ = Σ_{j<N} |p_j - ahardmax_j| = 2 δ`. -/
theorem sumTo_absv_sub_ahardmax_eq {isMax : Nat → Bool} {p : Nat → α} {N : Nat}
    (hm : 0 < countMax isMax N)
    (hmax : ∀ j, j < N → isMax j = true →
      p j = (1 - offMass isMax p N) / natCast (countMax isMax N))
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j) :
    sumTo (fun j => absv (p j - ahardmax isMax N j)) N = 2 * offMass isMax p N := by
  have h := sumTo_absv_sub_ahardmax_partial hm hmax hoff0 N (Nat.le_refl N)
  have hm1 := one_le_natCast_of_pos (α := α) hm
  rw [h]
  grind

/-- Lemma 25 (Edelman et al. bound, statement E, `ℓ₁` bound): under the hypotheses of
`sumTo_absv_sub_ahardmax_eq`, if the mass off the max set is `δ ≤ (N-1) x`
(`offMass_div_sumTo_le_pred_mul`), then `‖p - ahardmax‖₁ = 2 δ ≤ 2 (N-1) x`. -/
theorem sumTo_absv_sub_ahardmax_le {isMax : Nat → Bool} {p : Nat → α} {x : α} {N : Nat}
    (hm : 0 < countMax isMax N)
    (hmax : ∀ j, j < N → isMax j = true →
      p j = (1 - offMass isMax p N) / natCast (countMax isMax N))
    (hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ p j)
    (hδ : offMass isMax p N ≤ natCast (N - 1) * x) :
    sumTo (fun j => absv (p j - ahardmax isMax N j)) N ≤ 2 * natCast (N - 1) * x := by
  rw [sumTo_absv_sub_ahardmax_eq hm hmax hoff0]
  grind

end HardSoft

end
