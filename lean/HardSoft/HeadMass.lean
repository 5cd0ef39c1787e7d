module

public import HardSoft.Constructions
public import HardSoft.Applications

/-!
# Head mass bounds for every `n`: output error, the sign head, the two-sided lookup, the rules

The softmax mass bounds of Yang, Strobl, Chiang, Angluin, "Simulating Hard Attention Using Soft
Attention" (arXiv 2412.09925) that `HardSoft.Constructions` and `HardSoft.Applications` leave
open, for every input length `n`:

* a head's output error is at most its mass off: softmax weights over `N` keys and values with
  `|v_j - v_t| ≤ 1` (for example values in `[0, 1]`) give `|Σ_j p_j v_j - v_t| ≤ 1 - p_t`, the mass
  off the hard choice `t`; with a max set whose values are all `c` (average-hard), the error is at
  most the mass off the max set;
* the comparison sign head (`constructive/heads.py`, `sign_head`: scores `K o V p_j`, `p_j =
  (-1)^j`, over the keys `j < n`, `n ≥ 2`, `|V| = (2m+1)/(2D)`, `1 ≤ D ≤ n`): the two parity
  groups have sizes within a ratio `2`, so statement E gives mass off the selected group at most `2
  exp(-gap/τ)`; at the bounded regime's `τ = c/n` that is at most `2 x` when `exp(-K/c) ≤ x`, and
  unbounded (scores `K o V n p_j`) at most `2 exp(-K/τ)`;
* Lemma 7 with both sides visible (`lookup_head` without a mask: scores `K (2tj - j^2)` over all
  keys `j < N`): the keys at distance `d` on either side lose `K d^2 ≥ K d`, so each side is a
  ziggurat of step `K` and the mass off `t` is at most `2x/(1-x)`, `x = exp(-K/τ)` (stated also
  division-free, `mass off · (1 - x) ≤ 2x`, which holds for every `x`); the bounded form
  `K (2 (t/n)(j/n) - (j/n)^2)` at `τ = c/n^2` gives the same with `x = exp(-K/c)`;
* the temperature rules of the other tie-breaking and lookup heads: the bounded future head at
  `τ = c/n` (`K = 1`), and the unbounded heads (past and future tie-breaking, past and future
  one-sided lookup) at `τ = 1`, each with mass off at most `x` when `exp(-1/c) ≤ x` (bounded) or
  `exp(-K) ≤ x` (unbounded); the compilers' `c = 1/ln(16 m)` and `K = ln(16 m)` are `x =
  1/(16 m)`;
* Lemma 7 over positions (`position_lookup_spec`: S-RASP's `Psum` lookup, the temporal-logic
  compiler's mixed comparisons): at a query with prefix sum `S ≥ 0` and average `f = S/D` the
  scores `2 f p - (1/D) p^2 = (1/D)(S^2 - (p - S)^2)` are the two-sided parabola with `K = 1/D`,
  so at the rule `τ = 1/(M L)` (`D ≤ M`, `exp(-L) ≤ x`) the mass off `p = S` is at most
  `2x/(1-x)` (S-RASP: `M = n`, `x = 1/(128 n^3)`; mixed comparisons: `M = max(n-1, 1)`, `x =
  1/(32 C)`; bounded: key features `p/n`, `τ = 1/(n^2 M L)`); a negative prefix sum (`Psum`'s
  clamp at `0`) has mass off `p = 0` at most `x`;
* Lemma 7 over positions, copy error: at the same rules and `x ≤ 1` the head's output `Σ_p w_p p`
  copies `S` with `|Σ_p w_p p - S| (1-x)^2 ≤ 2x` (so `≤ 2x/(1-x)^2` for `x < 1`): the weight at
  distance `k` is at most `x^k`, and `(1-x)^2 Σ_{k=1}^{K} k x^k = x - G_K ≤ x` on each side;
* the gated position head (`gated_position_spec`: the S-RASP compiler's integer selects and
  conditionals, scores `(2 g - 1) j` over the keys `j < N`, value `j`): every key is at least its
  distance below the target (`N - 1` for the gate `g`, `0` otherwise), a ziggurat of step `1`,
  so at any `τ` with `exp(-1/τ) ≤ x ≤ 1` the copy `Σ_p w_p p` of `g (N - 1)` is off by at most
  `x/(1-x)^2` (every key on one side of the target);
* PREC (precision, `constructive/audit.py`'s `predicted_safe`): scores forming a ziggurat of step
  `γ`, each rounded to within half a spacing `u ≤ γ` of the storage format, form a ziggurat of step
  `γ - u`, so statement Z bounds the rounded scores' mass off the top by `exp(-(γ - u)/τ)`, and by
  `margin` wherever the audit's rule `exp(-(γ - u)/τ) ≤ margin` holds (the rounding model itself,
  every score moved by at most `u/2`, is a hypothesis).

As in `tiebreak_past_bounded_at_rule`, a rule's bound is a variable `x` (over `Rat` the only
`ExpLike` is the constant `1`, so `exp(-1/c) ≤ 1/(16 m)` holds there for no `m`).

## Main results

* `HardSoft.softmax_output_err_le`, `HardSoft.softmax_output_err_le_offMass`: output error.
* `HardSoft.sign_head_bounded`, `HardSoft.sign_head_unbounded`: the sign head's mass bound.
* `HardSoft.lookup_two_sided`, `HardSoft.lookup_two_sided_bounded`: Lemma 7, both sides.
* `HardSoft.tiebreak_future_bounded_at_rule`, `HardSoft.tiebreak_past_unbounded_at_rule`,
  `HardSoft.tiebreak_future_unbounded_at_rule`, `HardSoft.lookup_past_at_rule`,
  `HardSoft.lookup_future_at_rule`: the temperature rules.
* `HardSoft.position_lookup_at_rule`, `HardSoft.position_lookup_bounded_at_rule`,
  `HardSoft.position_lookup_neg_at_rule`: Lemma 7 over positions at the compilers' rules.
* `HardSoft.position_lookup_copy_at_rule`, `HardSoft.position_lookup_copy_bounded_at_rule`: its
  copy error at the same rules.
* `HardSoft.gated_position_gap`, `HardSoft.gated_position_copy`: the gated position head.
* `HardSoft.softmax_copy_le_distance_sum`, `HardSoft.softmax_copy_le_of_ziggurat`,
  `HardSoft.softmax_copy_le_of_ziggurat_end`: the copy error of any ziggurat around its target
  (two-sided `2x`, one-sided `x`), which the copy theorems above instantiate.
* `HardSoft.rounded_ziggurat`, `HardSoft.rounded_mass_off_top_le`,
  `HardSoft.rounded_mass_off_top_le_margin`: PREC, the rounded scores.
* `HardSoft.nonvacuous_softmax_output_err_le` and the like: each theorem applied at `Rat`.

Proved in `Applications.lean`, not here: prefix-argmax's mass bound. Not proved: that the
compiler's `V` has the form `(2m+1)/(2D)` and the composition of a compiled formula's layers.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft

variable {α : Type} [Lean.Grind.Field α]

/-- Comparison (sign head), definition: the parity `p_j = (-1)^j` of key `j`. -/
noncomputable def parity (j : Nat) : α := if j % 2 = 0 then 1 else -1

/-- Comparison (`sign_head`, bounded regime), definition: the score of key `j`, `K u p_j` with
`u = o V`. -/
noncomputable def signScore (K u : α) (j : Nat) : α := K * u * parity j

/-- Comparison (`sign_head`, unbounded regime), definition: the score of key `j`, `K u n p_j` with
`u = o V`. -/
noncomputable def signScoreUnbounded (K u : α) (n j : Nat) : α := K * u * natCast n * parity j

/-- Comparison (sign head), definition: the key group the head selects, the even keys when `o V >
0` (`b = true`, output `1`), the odd keys otherwise. -/
def signGroup (b : Bool) (j : Nat) : Bool := (j % 2 == 0) == b

/-- Comparison (sign head), helper: on its group the score is `K q`, off it `K q - 2 K q`, where
`u = ± q` is `o V` (`+` for `b = true`). -/
theorem signScore_group (K q : α) (b : Bool) (j : Nat) :
    (signGroup b j = true → signScore K ((if b then 1 else -1) * q) j = K * q) ∧
      (signGroup b j = false → signScore K ((if b then 1 else -1) * q) j = K * q - 2 * K * q) := by
  unfold signScore parity signGroup
  cases b <;> rcases Nat.mod_two_eq_zero_or_one j with h | h <;> simp [h] <;> grind

/-- Comparison (sign head), helper: among the keys `j < N` there are `⌈N/2⌉` even and `⌊N/2⌋` odd
ones. -/
theorem countMax_signGroup (N : Nat) :
    countMax (signGroup true) N = (N + 1) / 2 ∧ countMax (signGroup false) N = N / 2 := by
  induction N with
  | zero => exact ⟨rfl, rfl⟩
  | succ n ih =>
    rw [countMax_succ, countMax_succ, ih.1, ih.2]
    rcases Nat.mod_two_eq_zero_or_one n with h | h
    · have e1 : signGroup true n = true := by unfold signGroup; simp [h]
      have e2 : signGroup false n = false := by unfold signGroup; simp [h]
      rw [e1, e2, if_pos rfl, if_neg Bool.false_ne_true]
      exact ⟨by omega, by omega⟩
    · have e1 : signGroup true n = false := by unfold signGroup; simp [h]
      have e2 : signGroup false n = true := by unfold signGroup; simp [h]
      rw [e1, e2, if_pos rfl, if_neg Bool.false_ne_true]
      exact ⟨by omega, by omega⟩

/-- Output error, helper: the single-target mask's mass off is the sum without the target. -/
theorem offMass_eq_sumTo_ite (w : Nat → α) (t N : Nat) :
    offMass (fun j => decide (j = t)) w N = sumTo (fun j => if j = t then 0 else w j) N := by
  induction N with
  | zero => rw [offMass_zero, sumTo_zero]
  | succ n ih =>
    rw [offMass_succ, sumTo_succ, ih]
    by_cases h : n = t
    · rw [if_pos (decide_eq_true h), if_pos h]
    · rw [if_neg (fun h' => h (of_decide_eq_true h')), if_neg h]

/-- Lemma 7 (two-sided), helper: `|b - a| = b - a` for `a ≤ b`. -/
theorem natDist_of_le {a b : Nat} (h : a ≤ b) : natDist a b = b - a := by
  unfold natDist
  rw [if_pos h]

/-- Lemma 7 (two-sided), helper: `|b - a| = a - b` for `b ≤ a`. -/
theorem natDist_of_ge {a b : Nat} (h : b ≤ a) : natDist a b = a - b := by
  unfold natDist
  split <;> omega

/-- Lemma 7 (two-sided), helper: the left keys `j ≤ t` and the right keys `j ≥ t` share only `t`. -/
theorem side_split (w : Nat → α) (t j : Nat) :
    w j + (if j = t then w j else 0)
      = (if decide (j ≤ t) then w j else 0) + (if decide (t ≤ j) then w j else 0) := by
  rcases Nat.lt_trichotomy j t with h | h | h
  · rw [if_neg (Nat.ne_of_lt h), if_pos (decide_eq_true (Nat.le_of_lt h)),
      if_neg (fun h' => Nat.not_le_of_lt h (of_decide_eq_true h'))]
  · subst h
    rw [if_pos rfl, if_pos (decide_eq_true (Nat.le_refl _))]
  · rw [if_neg (Nat.ne_of_gt h), if_neg (fun h' => Nat.not_le_of_lt h (of_decide_eq_true h')),
      if_pos (decide_eq_true (Nat.le_of_lt h))] <;> grind

variable [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- The bounded regime's temperature, helper: `c > 0` and `n ≥ 1` give `c/n > 0` and
`-(1/n)/(c/n) = -(1/c)`. -/
theorem rule_tau_pos {c : α} {n : Nat} (hc : 0 < c) (hn : 0 < n) :
    0 < c / natCast n ∧ -((1 : α) / natCast n) / (c / natCast n) = -(1 / c) := by
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hpos : (0 : α) < natCast n := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hn1
  have h0 := div_nonneg_of_nonneg (Std.le_of_lt hc) hpos
  generalize (natCast n : α) = a at *
  have : a ≠ 0 := ne_zero_of_zero_lt hpos
  have : c ≠ 0 := ne_zero_of_zero_lt hc
  have hne : c / a ≠ 0 := by
    intro h0'
    have e : c / a * a = c := by grind
    rw [h0'] at e
    grind
  exact ⟨by grind, by grind⟩

/-! ### A head's output error is at most its mass off -/

/-- Output error, helper: `|a| ≤ 1` gives `a ≤ 1` and `-1 ≤ a`. -/
theorem le_one_of_absv_le_one {a : α} (h : absv a ≤ 1) : a ≤ 1 ∧ -1 ≤ a := by
  have h01 := Lean.Grind.OrderedRing.zero_le_one (R := α)
  unfold absv at h
  by_cases h0 : 0 ≤ a
  · rw [if_pos h0] at h; exact ⟨h, by grind⟩
  · rw [if_neg h0] at h; exact ⟨by grind, by grind⟩

/-- Output error, helper (weights): with `p_j ≥ 0`, `v_j = c` on the max set and `|v_j - c| ≤ 1`
off it, `Σ_j p_j v_j - (Σ_j p_j) c` lies within the weight off the max set. -/
theorem sumTo_mul_sub_le_offMass {isMax : Nat → Bool} {p v : Nat → α} {c : α} {N : Nat}
    (hp : ∀ j, j < N → 0 ≤ p j) (hmax : ∀ j, j < N → isMax j = true → v j = c)
    (hv : ∀ j, j < N → isMax j = false → absv (v j - c) ≤ 1) :
    sumTo (fun j => p j * v j) N - sumTo p N * c ≤ offMass isMax p N ∧
      -offMass isMax p N ≤ sumTo (fun j => p j * v j) N - sumTo p N * c := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero, offMass_zero]; exact ⟨by grind, by grind⟩
  | succ n ih =>
    obtain ⟨ih1, ih2⟩ := ih (fun j hj => hp j (by omega)) (fun j hj => hmax j (by omega))
      (fun j hj => hv j (by omega))
    rw [sumTo_succ, sumTo_succ, offMass_succ]
    have hpn := hp n (by omega)
    generalize sumTo (fun j => p j * v j) n = A at ih1 ih2 ⊢
    generalize sumTo p n = B at ih1 ih2 ⊢
    generalize offMass isMax p n = O at ih1 ih2 ⊢
    cases hb : isMax n with
    | true =>
      rw [hmax n (by omega) hb, if_pos rfl]
      exact ⟨by grind, by grind⟩
    | false =>
      rw [if_neg Bool.false_ne_true]
      obtain ⟨h1, h2⟩ := le_one_of_absv_le_one (hv n (by omega) hb)
      have u1 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h1 hpn
      have u2 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h2 hpn
      exact ⟨by grind, by grind⟩

/-- Output error, helper: a sum of positive terms over `N ≥ 1` positions is positive. -/
theorem sumTo_pos_of_pos {f : Nat → α} {N : Nat} (hN : 0 < N) (h : ∀ k, k < N → 0 < f k) :
    0 < sumTo f N := by
  obtain ⟨n, rfl⟩ : ∃ n, N = n + 1 := ⟨N - 1, by omega⟩
  rw [sumTo_succ]
  have h1 := sumTo_nonneg (f := f) (H := n) (fun k hk => Std.le_of_lt (h k (by omega)))
  have h2 := h n (by omega)
  grind

/-- Output error, helper: softmax weights over `N ≥ 1` keys sum to `1`. -/
theorem sumTo_softmax_eq_one (E : ExpLike α) (tau : α) (s : Nat → α) {N : Nat} (hN : 0 < N) :
    sumTo (softmax E tau s N) N = 1 := by
  have hW := sumTo_pos_of_pos (f := fun k => E.exp (s k / tau)) hN (fun k _ => E.pos _)
  have e : sumTo (softmax E tau s N) N
      = sumTo (fun k => E.exp (s k / tau) / sumTo (fun k => E.exp (s k / tau)) N) N :=
    sumTo_congr (fun k _ => rfl)
  rw [e, sumTo_div_const]
  generalize sumTo (fun k => E.exp (s k / tau)) N = W at *
  have : W ≠ 0 := ne_zero_of_zero_lt hW
  grind

/-- Output error, helper: softmax weights over `N ≥ 1` keys are non-negative. -/
theorem softmax_nonneg (E : ExpLike α) (tau : α) (s : Nat → α) {N : Nat} (hN : 0 < N) (j : Nat) :
    0 ≤ softmax E tau s N j :=
  div_nonneg_of_nonneg (Std.le_of_lt (E.pos _))
    (sumTo_pos_of_pos (f := fun k => E.exp (s k / tau)) hN (fun _ _ => E.pos _))

/-- A head's output error (average-hard, statement E's max set): for softmax weights over `N ≥ 1`
keys and values `v_j` equal to `c` on the max set and within `1` of `c` off it, the head's output
`Σ_j p_j v_j` is within the softmax mass off the max set of the hard output `c`. -/
theorem softmax_output_err_le_offMass (E : ExpLike α) {s v : Nat → α} {isMax : Nat → Bool}
    {c tau : α} {N : Nat} (hN : 0 < N) (hmax : ∀ j, j < N → isMax j = true → v j = c)
    (hv : ∀ j, j < N → isMax j = false → absv (v j - c) ≤ 1) :
    absv (sumTo (fun j => softmax E tau s N j * v j) N - c) ≤ offMass isMax (softmax E tau s N) N := by
  obtain ⟨h1, h2⟩ := sumTo_mul_sub_le_offMass (p := softmax E tau s N)
    (fun j _ => softmax_nonneg E tau s hN j) hmax hv
  rw [sumTo_softmax_eq_one E tau s hN] at h1 h2
  exact absv_le_of_le_of_neg_le (by grind) (by grind)

/-- A head's output error (unique hard choice): for softmax weights over the keys `j < N` with hard
choice `t < N` and values with `|v_j - v_t| ≤ 1` (for example values in `[0, 1]`), the head's
output `Σ_j p_j v_j` is within the softmax mass off `t`, `Σ_j p_j - p_t`, of the hard output `v_t`. -/
theorem softmax_output_err_le (E : ExpLike α) {s v : Nat → α} {tau : α} {N t : Nat} (ht : t < N)
    (hv : ∀ j, j < N → absv (v j - v t) ≤ 1) :
    absv (sumTo (fun j => softmax E tau s N j * v j) N - v t)
      ≤ sumTo (softmax E tau s N) N - softmax E tau s N t := by
  have h := softmax_output_err_le_offMass E (s := s) (isMax := fun j => decide (j = t)) (c := v t)
    (tau := tau) (Nat.lt_of_le_of_lt (Nat.zero_le t) ht)
    (fun j _ h => by rw [of_decide_eq_true h]) (fun j hj _ => hv j hj)
  rw [offMass_eq_sumTo_ite] at h
  have e := sumTo_ite_ne_add (w := softmax E tau s N) ht
  rw [← e]
  generalize sumTo (fun j => if j = t then 0 else softmax E tau s N j) N = A at h ⊢
  generalize softmax E tau s N t = b
  exact Std.le_trans h (by grind)

/-! ### The sign head: two groups of sizes within a ratio `2` -/

/-- Comparison (sign head), statement E for two parity groups: over `n ≥ 2` keys, scores `smax`
on the selected group and `≤ smax - γ` off it, `τ > 0`: the softmax mass off the group is at most
`2 exp(-γ/τ)` (the other group has at most twice as many keys). -/
theorem sign_offMass_le (E : ExpLike α) {s : Nat → α} {smax gamma tau : α} {n : Nat} (b : Bool)
    (hn : 2 ≤ n) (htau : 0 < tau)
    (hmax : ∀ j, j < n → signGroup b j = true → s j = smax)
    (hgap : ∀ j, j < n → signGroup b j = false → s j ≤ smax - gamma) :
    offMass (signGroup b) (softmax E tau s n) n ≤ 2 * E.exp (-gamma / tau) := by
  have hc := countMax_signGroup n
  have hm : 0 < countMax (signGroup b) n := by cases b <;> omega
  have hle : n - countMax (signGroup b) n
      ≤ countMax (signGroup b) n + countMax (signGroup b) n := by cases b <;> omega
  have h := (softmax_offMass_le_of_gap E htau hmax hgap hm).1
  have hA : (natCast (n - countMax (signGroup b) n) : α)
      ≤ natCast (countMax (signGroup b) n) + natCast (countMax (signGroup b) n) := by
    rw [← natCast_add]; exact natCast_le_of_le hle
  have hm1 := one_le_natCast_of_pos (α := α) hm
  have hA0 := natCast_nonneg (α := α) (n - countMax (signGroup b) n)
  have hy := Std.le_of_lt (E.pos (-gamma / tau))
  refine Std.le_trans h ?_
  generalize (natCast (n - countMax (signGroup b) n) : α) = A at *
  generalize (natCast (countMax (signGroup b) n) : α) = m at *
  generalize E.exp (-gamma / tau) = y at *
  have hAy := Lean.Grind.OrderedRing.mul_nonneg hA0 hy
  have hden : 0 < m + A * y := by grind
  apply div_le_of_le_mul hden
  have h1 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right hA hy
  have h2 := Lean.Grind.OrderedRing.mul_nonneg hy hAy
  grind

/-- Comparison (sign head, bounded regime: scores `K o V p_j` over the keys `j < n`, `o V = ± q`
with `q = |V| = (2m+1)/(2D)`, `1 ≤ D ≤ n`, `n ≥ 2` (both parity groups non-empty), `K ≥ 0`, at
`τ = c/n`, `c > 0`): the selected parity group (even for `o V > 0`) is `2Kq ≥ K/n` above the
other, and the softmax mass off it is at most `2x` whenever `exp(-K/c) ≤ x`, for every `n`; the
compilers' `c = 1/ln(16 m)` is `2x = 1/(8 m)`. -/
theorem sign_head_bounded (E : ExpLike α) {K c x : α} {m D n : Nat} (b : Bool) (hK : 0 ≤ K)
    (hc : 0 < c) (hD : 0 < D) (hDn : D ≤ n) (hn2 : 2 ≤ n) (hrule : E.exp (-(K / c)) ≤ x) :
    offMass (signGroup b)
        (softmax E (c / natCast n)
          (signScore K ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D)))) n) n
      ≤ 2 * x := by
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have hn : (0 : α) < natCast n := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hn1
  have htau := (rule_tau_pos (α := α) hc (show 0 < n by omega)).1
  have hg := sign_gap_unbounded (m := m) hK hD hDn
  generalize (natCast (2 * m + 1) / (2 * natCast D) : α) = q at *
  have h := sign_offMass_le E (s := signScore K ((if b then 1 else -1) * q)) (smax := K * q)
    (gamma := 2 * K * q) (n := n) b hn2 htau
    (fun j _ hj => (signScore_group K q b j).1 hj)
    (fun j _ hj => by rw [(signScore_group K q b j).2 hj] <;> exact Std.le_refl _)
  refine Std.le_trans h ?_
  have hexp : E.exp (-(2 * K * q) / (c / natCast n)) ≤ E.exp (-(K / c)) := by
    apply E.mono
    have e : -(2 * K * q) / (c / natCast n) = -(2 * K * q * natCast n) / c := by
      generalize (natCast n : α) = a at *
      have : a ≠ 0 := ne_zero_of_zero_lt hn
      have : c ≠ 0 := ne_zero_of_zero_lt hc
      grind
    rw [e]
    have := div_le_div_of_le hc (show -(2 * K * q * natCast n) ≤ -K by grind)
    grind
  grind

/-- Comparison (sign head, unbounded regime: scores `K o V n p_j` over the keys `j < n`, `o V = ±
q` with `q = (2m+1)/(2D)`, `1 ≤ D ≤ n`, `n ≥ 2`, `K ≥ 0`, `τ > 0`): the softmax mass off the selected
parity group is at most `2 exp(-K/τ)`, for every `n` (at the compilers' `τ = 1`, `K = ln(16 m)`:
`1/(8 m)`). -/
theorem sign_head_unbounded (E : ExpLike α) {K tau : α} {m D n : Nat} (b : Bool) (hK : 0 ≤ K)
    (htau : 0 < tau) (hD : 0 < D) (hDn : D ≤ n) (hn2 : 2 ≤ n) :
    offMass (signGroup b)
        (softmax E tau
          (signScoreUnbounded K ((if b then 1 else -1) * (natCast (2 * m + 1) / (2 * natCast D))) n) n) n
      ≤ 2 * E.exp (-K / tau) := by
  have hg := sign_gap_unbounded (m := m) hK hD hDn
  generalize (natCast (2 * m + 1) / (2 * natCast D) : α) = q at *
  have hs : ∀ j, signScoreUnbounded K ((if b then 1 else -1) * q) n j
      = signScore (K * natCast n) ((if b then 1 else -1) * q) j := by
    intro j
    unfold signScoreUnbounded signScore
    grind
  have h := sign_offMass_le E (s := signScoreUnbounded K ((if b then 1 else -1) * q) n)
    (smax := K * natCast n * q) (gamma := 2 * (K * natCast n) * q) (n := n) b hn2 htau
    (fun j _ hj => by rw [hs]; exact (signScore_group (K * natCast n) q b j).1 hj)
    (fun j _ hj => by
      rw [hs, (signScore_group (K * natCast n) q b j).2 hj] <;> exact Std.le_refl _)
  refine Std.le_trans h ?_
  have hexp : E.exp (-(2 * (K * natCast n) * q) / tau) ≤ E.exp (-K / tau) :=
    E.mono _ _ (div_le_div_of_le htau (by grind))
  grind

/-! ### Lemma 7 with both sides visible: two ziggurats -/

/-- Lemma 7 (two-sided), helper: `a / b ≤ x` with `b > 0` gives `a ≤ x b`. -/
theorem le_mul_of_div_le {a b x : α} (hb : 0 < b) (h : a / b ≤ x) : a ≤ x * b := by
  have e : a / b * b = a := by
    have : b ≠ 0 := ne_zero_of_zero_lt hb
    grind
  have := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right h (Std.le_of_lt hb)
  grind

/-- Lemma 7 (two-sided), helper: the keys a mask `inS` keeps (`t` among them), with `w_t = 1`,
`w_j ≥ 0` and `w_j ≤ x^{d_j}` for pairwise distinct `d_j ≥ 1` on the kept keys `j ≠ t`, `0 ≤ x ≤ 1`:
their total `S` has `S - 1 ≤ x S` (Lemma 6 on the kept keys). -/
theorem masked_mass_le {w : Nat → α} {d : Nat → Nat} {inS : Nat → Bool} {x : α} {N t : Nat}
    (ht : t < N) (hin : inS t = true) (hwt : w t = 1) (hnn : ∀ j, j < N → 0 ≤ w j)
    (hd : ∀ j, j < N → j ≠ t → inS j = true → 0 < d j)
    (hinj : ∀ a b, a < N → b < N → a ≠ t → b ≠ t → inS a = true → inS b = true → d a = d b → a = b)
    (hw : ∀ j, j < N → j ≠ t → w j ≤ x ^ d j) (hx0 : 0 ≤ x) (hx1 : x ≤ 1) :
    sumTo (fun j => if inS j then w j else 0) N - 1
      ≤ x * sumTo (fun j => if inS j then w j else 0) N := by
  obtain ⟨M, hM⟩ := exists_forall_lt d N
  have hwt' : (if inS t then w t else 0) = 1 := by rw [if_pos hin, hwt]
  have hS : (sumTo (fun j => if inS j then w j else 0) N - (if inS t then w t else 0))
      / sumTo (fun j => if inS j then w j else 0) N ≤ x :=
    sumTo_sub_top_div_le_of_distinct (w := fun j => if inS j then w j else 0)
      (d := fun j => if inS j then d j else M + j) ht hwt'
      (fun j hj => by
        show 0 ≤ (if inS j then w j else 0)
        split
        · exact hnn j hj
        · exact Std.le_refl _)
      (fun j hj hjt => by
        show 0 < (if inS j then d j else M + j)
        split
        · exact hd j hj hjt (by assumption)
        · have := hM j hj; omega)
      (fun a b ha hb hat hbt h => by
        have h' : (if inS a then d a else M + a) = (if inS b then d b else M + b) := h
        have hMa := hM a ha
        have hMb := hM b hb
        split at h'
        · split at h'
          · exact hinj a b ha hb hat hbt (by assumption) (by assumption) h'
          · omega
        · split at h'
          · omega
          · omega)
      (fun j hj hjt => by
        show (if inS j then w j else 0) ≤ x ^ (if inS j then d j else M + j)
        split
        · exact hw j hj hjt
        · exact pow_nonneg_of_nonneg hx0 _)
      hx0 hx1
  rw [hwt'] at hS
  have hpos : 0 < sumTo (fun j => if inS j then w j else 0) N := by
    have e : sumTo (fun j => if j = t then 0 else (if inS j then w j else 0)) N
        + (if inS t then w t else 0) = sumTo (fun j => if inS j then w j else 0) N :=
      sumTo_ite_ne_add (w := fun j => if inS j then w j else 0) ht
    rw [hwt'] at e
    have h0 := sumTo_nonneg (f := fun j => if j = t then (0 : α) else (if inS j then w j else 0))
      (H := N) (fun j hj => by
        show 0 ≤ (if j = t then (0 : α) else (if inS j then w j else 0))
        split
        · exact Std.le_refl _
        · split
          · exact hnn j hj
          · exact Std.le_refl _)
    have h01 := Lean.Grind.OrderedRing.zero_lt_one (R := α)
    grind
  exact le_mul_of_div_le hpos hS

/-- Lemma 7 (two-sided), weight form: `w_t = 1`, `w_j ≥ 0` and `w_j ≤ x^{|t - j|}` over the keys
`j < N`, `0 ≤ x ≤ 1`: the weight off `t` as a share of the total, times `1 - x`, is at most `2x`
(one ziggurat on each side). -/
theorem two_sided_mass_mul_le {w : Nat → α} {x : α} {N t : Nat} (ht : t < N) (hwt : w t = 1)
    (hnn : ∀ j, j < N → 0 ≤ w j) (hx0 : 0 ≤ x) (hx1 : x ≤ 1)
    (hw : ∀ j, j < N → j ≠ t → w j ≤ x ^ natDist j t) :
    (sumTo w N - w t) / sumTo w N * (1 - x) ≤ 2 * x := by
  have hL : sumTo (fun j => if decide (j ≤ t) then w j else 0) N - 1
      ≤ x * sumTo (fun j => if decide (j ≤ t) then w j else 0) N :=
    masked_mass_le (inS := fun j => decide (j ≤ t)) (d := fun j => natDist j t) ht
      (decide_eq_true (Nat.le_refl t)) hwt hnn
      (fun j _ hjt hs => by
        have := of_decide_eq_true hs
        show 0 < natDist j t
        unfold natDist
        split <;> omega)
      (fun a b _ _ _ _ ha hb h => by
        have h' : natDist a t = natDist b t := h
        rw [natDist_of_le (of_decide_eq_true ha), natDist_of_le (of_decide_eq_true hb)] at h'
        have := of_decide_eq_true ha
        have := of_decide_eq_true hb
        omega)
      hw hx0 hx1
  have hR : sumTo (fun j => if decide (t ≤ j) then w j else 0) N - 1
      ≤ x * sumTo (fun j => if decide (t ≤ j) then w j else 0) N :=
    masked_mass_le (inS := fun j => decide (t ≤ j)) (d := fun j => natDist j t) ht
      (decide_eq_true (Nat.le_refl t)) hwt hnn
      (fun j _ hjt hs => by
        have := of_decide_eq_true hs
        show 0 < natDist j t
        unfold natDist
        split <;> omega)
      (fun a b _ _ _ _ ha hb h => by
        have h' : natDist a t = natDist b t := h
        rw [natDist_of_ge (of_decide_eq_true ha), natDist_of_ge (of_decide_eq_true hb)] at h'
        have := of_decide_eq_true ha
        have := of_decide_eq_true hb
        omega)
      hw hx0 hx1
  have e1 : sumTo (fun j => w j + (if j = t then w j else 0)) N
      = sumTo w N + sumTo (fun j => if j = t then w j else 0) N := sumTo_add_fun _ _ N
  have e2 : sumTo (fun j => (if decide (j ≤ t) then w j else 0) + (if decide (t ≤ j) then w j else 0)) N
      = sumTo (fun j => if decide (j ≤ t) then w j else 0) N
        + sumTo (fun j => if decide (t ≤ j) then w j else 0) N := sumTo_add_fun _ _ N
  have e3 : sumTo (fun j => if j = t then w j else 0) N = w t :=
    Eq.trans (sumTo_eq_single (f := fun j => if j = t then w j else 0) ht
      (fun j _ hjt => by show (if j = t then w j else 0) = 0; rw [if_neg hjt])) (if_pos rfl)
  have e4 : sumTo (fun j => w j + (if j = t then w j else 0)) N
      = sumTo (fun j => (if decide (j ≤ t) then w j else 0) + (if decide (t ≤ j) then w j else 0)) N :=
    sumTo_congr (fun j _ => side_split w t j)
  have hoff0 : 0 ≤ sumTo w N - 1 := by
    have e := sumTo_ite_ne_add (w := w) ht
    have h0 := sumTo_nonneg (f := fun j => if j = t then (0 : α) else w j) (H := N)
      (fun j hj => by
        show 0 ≤ (if j = t then (0 : α) else w j)
        split
        · exact Std.le_refl _
        · exact hnn j hj)
    rw [hwt] at e
    grind
  rw [e3, hwt] at e1
  rw [hwt]
  generalize sumTo w N = S at *
  generalize sumTo (fun j => if decide (j ≤ t) then w j else 0) N = SL at *
  generalize sumTo (fun j => if decide (t ≤ j) then w j else 0) N = SR at *
  -- `(S - 1)/S ≤ S - 1` and `(S - 1)(1 - x) = (S_L - 1)(1 - x) + (S_R - 1)(1 - x) ≤ 2x`
  have h01 := Lean.Grind.OrderedRing.zero_lt_one (R := α)
  have hS : 0 < S := by grind
  have hq : (S - 1) / S ≤ S - 1 := by
    apply div_le_of_le_mul hS
    have := Lean.Grind.OrderedRing.mul_nonneg hoff0 hoff0
    grind
  have h1x : 0 ≤ 1 - x := Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)
  have hmul := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right hq h1x
  have hSS : S = SL + SR - 1 := by grind
  have hfin : (S - 1) * (1 - x) ≤ 2 * x := by
    subst hSS
    grind
  exact Std.le_trans hmul hfin

/-- Lemma 7 (table lookup, unbounded regime, both sides visible: `s_j = K (2tj - j^2)` over all
keys `j < N`, `t < N`, `K ≥ 0`, `τ > 0`): with `x = exp(-K/τ)` the softmax mass off `t` times `1 -
x` is at most `2x`, and when `x < 1` the mass off `t` is at most `2x/(1-x)` (two ziggurats of step
`K`, one on each side), for every `N`. -/
theorem lookup_two_sided (E : ExpLike α) {K tau : α} {N t : Nat} (hK : 0 ≤ K) (htau : 0 < tau)
    (ht : t < N) :
    (sumTo (softmax E tau (lookupScore K t) N) N - softmax E tau (lookupScore K t) N t)
        * (1 - E.exp (-K / tau)) ≤ 2 * E.exp (-K / tau) ∧
      (E.exp (-K / tau) < 1 →
        sumTo (softmax E tau (lookupScore K t) N) N - softmax E tau (lookupScore K t) N t
          ≤ 2 * E.exp (-K / tau) / (1 - E.exp (-K / tau))) := by
  have hsum : sumTo (softmax E tau (lookupScore K t) N) N - softmax E tau (lookupScore K t) N t
      = (sumTo (fun k => E.exp ((lookupScore K t k - lookupScore K t t) / tau)) N
          - E.exp ((lookupScore K t t - lookupScore K t t) / tau))
        / sumTo (fun k => E.exp ((lookupScore K t k - lookupScore K t t) / tau)) N := by
    have h1 : sumTo (softmax E tau (lookupScore K t) N) N
        = sumTo (fun k => E.exp ((lookupScore K t k - lookupScore K t t) / tau)
            / sumTo (fun k => E.exp ((lookupScore K t k - lookupScore K t t) / tau)) N) N := by
      apply sumTo_congr
      intro k _
      rw [softmax_eq_div_sumTo E tau (lookupScore K t t)]
    rw [h1, sumTo_div_const, softmax_eq_div_sumTo E tau (lookupScore K t t)]
    grind
  have key : (sumTo (fun k => E.exp ((lookupScore K t k - lookupScore K t t) / tau)) N
          - E.exp ((lookupScore K t t - lookupScore K t t) / tau))
        / sumTo (fun k => E.exp ((lookupScore K t k - lookupScore K t t) / tau)) N
        * (1 - E.exp (-K / tau)) ≤ 2 * E.exp (-K / tau) :=
    two_sided_mass_mul_le (w := fun k => E.exp ((lookupScore K t k - lookupScore K t t) / tau)) ht (weight_eq_one_of_eq_max E rfl) (fun j _ => Std.le_of_lt (E.pos _))
    (Std.le_of_lt (E.pos (-K / tau))) (exp_neg_div_le_one E hK htau) (fun j _ _ => by
      apply weight_le_pow_of_ziggurat E htau
      rw [lookupScore_sub, natDist_sq]
      have hsq := natCast_le_sq (α := α) (natDist j t)
      have := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hsq hK
      generalize (natCast (natDist j t) : α) = d at *
      grind)
  rw [← hsum] at key
  refine ⟨key, fun hlt => ?_⟩
  have hpos : 0 < 1 - E.exp (-K / tau) := by grind
  have := div_le_div_of_le hpos key
  generalize sumTo (softmax E tau (lookupScore K t) N) N - softmax E tau (lookupScore K t) N t = q
    at this ⊢
  generalize E.exp (-K / tau) = x at *
  have e : q * (1 - x) / (1 - x) = q := by
    have : 1 - x ≠ 0 := ne_zero_of_zero_lt hpos
    grind
  grind

/-- Lemma 7 (table lookup, bounded regime, both sides visible: `s_j = K (2 (t/n)(j/n) - (j/n)^2)`
over all keys `j < N`, `t < N`, `n ≥ 1`, `K ≥ 0`, at `τ = c/n^2`, `c > 0`): with `x = exp(-K/c)`
the softmax mass off `t` times `1 - x` is at most `2x`, and when `x < 1` the mass off `t` is at
most `2x/(1-x)`, for every `n`. -/
theorem lookup_two_sided_bounded (E : ExpLike α) {K c : α} {n N t : Nat} (hK : 0 ≤ K) (hc : 0 < c)
    (hn : 0 < n) (ht : t < N) :
    (sumTo (softmax E (c / (natCast n * natCast n)) (lookupScoreBounded K n t) N) N
          - softmax E (c / (natCast n * natCast n)) (lookupScoreBounded K n t) N t)
        * (1 - E.exp (-(K / c))) ≤ 2 * E.exp (-(K / c)) ∧
      (E.exp (-(K / c)) < 1 →
        sumTo (softmax E (c / (natCast n * natCast n)) (lookupScoreBounded K n t) N) N
            - softmax E (c / (natCast n * natCast n)) (lookupScoreBounded K n t) N t
          ≤ 2 * E.exp (-(K / c)) / (1 - E.exp (-(K / c)))) := by
  have hf : lookupScoreBounded K n t = lookupScore (K / (natCast n * natCast n)) t :=
    funext fun j => lookupScoreBounded_eq K hn t j
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hnn : (0 : α) < natCast n * natCast n := Lean.Grind.OrderedRing.mul_pos (zero_lt_of_one_le hn1) (zero_lt_of_one_le hn1)
  have htau : 0 < c / (natCast n * natCast n) := by
    have h0 := div_nonneg_of_nonneg (Std.le_of_lt hc) hnn
    have hne : c / (natCast n * natCast n) ≠ 0 := by
      intro h0'
      have e : c / (natCast n * natCast n) * (natCast n * natCast n) = c := by
        generalize (natCast n * natCast n : α) = a at *
        have : a ≠ 0 := ne_zero_of_zero_lt hnn
        grind
      rw [h0'] at e
      grind
    grind
  have h := lookup_two_sided E (N := N) (div_nonneg_of_nonneg hK hnn) htau ht
  have e : -(K / (natCast n * natCast n)) / (c / (natCast n * natCast n)) = -(K / c) := by
    generalize (natCast n * natCast n : α) = a at *
    have : a ≠ 0 := ne_zero_of_zero_lt hnn
    have : c ≠ 0 := ne_zero_of_zero_lt hc
    grind
  rw [e] at h
  rw [hf]
  exact h

/-! ### The temperature rules of the other tie-breaking and lookup heads -/

/-- Lemma 8 with the compilers' temperature rule (bounded regime, future: `K = 1`, `τ = c/n`):
for `i + 1 < n`, `c > 0` and `exp(-1/c) ≤ x`, the future tie-breaking head's softmax mass off its
target is at most `x`, for every `n` and every selection (`c = 1/ln(16 m)`: `x = 1/(16 m)`). -/
theorem tiebreak_future_bounded_at_rule (E : ExpLike α) {c x : α} {n i : Nat} (sel : Nat → Bool)
    (hc : 0 < c) (hin : i + 1 < n) (hrule : E.exp (-(1 / c)) ≤ x) :
    sumTo (softmax E (c / natCast n) (tiebreakFutureBounded 1 n sel i) (n - 1 - i)) (n - 1 - i)
        - softmax E (c / natCast n) (tiebreakFutureBounded 1 n sel i) (n - 1 - i)
          (tiebreakFutureTarget sel n i)
      ≤ x := by
  obtain ⟨htau, e⟩ := rule_tau_pos (α := α) hc (show 0 < n by omega)
  have h := (tiebreak_future_bounded E sel Lean.Grind.OrderedRing.zero_lt_one htau hin).2
  rw [e] at h
  exact Std.le_trans h hrule

/-- Lemma 8 with the compilers' temperature rule (unbounded regime, past: `τ = 1`): for `0 < i ≤
n`, `K > 0` and `exp(-K) ≤ x`, the past tie-breaking head's softmax mass off its target is at most
`x`, for every `n` and every selection (`K = ln(16 m)`: `x = 1/(16 m)`). -/
theorem tiebreak_past_unbounded_at_rule (E : ExpLike α) {K x : α} {n i : Nat} (sel : Nat → Bool)
    (hK : 0 < K) (hi : 0 < i) (hin : i ≤ n) (hrule : E.exp (-K) ≤ x) :
    sumTo (softmax E 1 (tiebreakPastUnbounded K n sel) i) i
        - softmax E 1 (tiebreakPastUnbounded K n sel) i (tiebreakPastTarget sel i)
      ≤ x := by
  have h := (tiebreak_past_unbounded E sel hK Lean.Grind.OrderedRing.zero_lt_one hi hin).2
  have e : -K / (1 : α) = -K := by grind
  rw [e] at h
  exact Std.le_trans h hrule

/-- Lemma 8 with the compilers' temperature rule (unbounded regime, future: `τ = 1`): for `i + 1 <
n`, `K > 0` and `exp(-K) ≤ x`, the future tie-breaking head's softmax mass off its target is at
most `x`, for every `n` and every selection. -/
theorem tiebreak_future_unbounded_at_rule (E : ExpLike α) {K x : α} {n i : Nat} (sel : Nat → Bool)
    (hK : 0 < K) (hin : i + 1 < n) (hrule : E.exp (-K) ≤ x) :
    sumTo (softmax E 1 (tiebreakFutureUnbounded K n sel i) (n - 1 - i)) (n - 1 - i)
        - softmax E 1 (tiebreakFutureUnbounded K n sel i) (n - 1 - i) (tiebreakFutureTarget sel n i)
      ≤ x := by
  have h := (tiebreak_future_unbounded E sel hK Lean.Grind.OrderedRing.zero_lt_one hin).2
  have e : -K / (1 : α) = -K := by grind
  rw [e] at h
  exact Std.le_trans h hrule

/-- Lemma 7 with the compilers' temperature rule (unbounded regime, past mask, `Y`: `τ = 1`): for
`i ≥ 1`, `K ≥ 0` and `exp(-K) ≤ x`, the softmax mass off `t = i - 1` is at most `x`, for every
`i`. -/
theorem lookup_past_at_rule (E : ExpLike α) {K x : α} {i : Nat} (hK : 0 ≤ K) (hi : 0 < i)
    (hrule : E.exp (-K) ≤ x) :
    sumTo (softmax E 1 (lookupScore K (i - 1)) i) i - softmax E 1 (lookupScore K (i - 1)) i (i - 1)
      ≤ x := by
  have h := (lookup_past E hK Lean.Grind.OrderedRing.zero_lt_one hi).2
  have e : -K / (1 : α) = -K := by grind
  rw [e] at h
  exact Std.le_trans h hrule

/-- Lemma 7 with the compilers' temperature rule (unbounded regime, future mask, `X`: `τ = 1`):
for `i + 1 < n`, `K ≥ 0` and `exp(-K) ≤ x`, the softmax mass off `t = i + 1` is at most `x`, for
every `n`. -/
theorem lookup_future_at_rule (E : ExpLike α) {K x : α} {n i : Nat} (hK : 0 ≤ K) (hin : i + 1 < n)
    (hrule : E.exp (-K) ≤ x) :
    sumTo (softmax E 1 (fun k => lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i)) (n - 1 - i)
        - softmax E 1 (fun k => lookupScore K (i + 1) (i + 1 + k)) (n - 1 - i) 0
      ≤ x := by
  have h := (lookup_future E hK Lean.Grind.OrderedRing.zero_lt_one hin).2
  have e : -K / (1 : α) = -K := by grind
  rw [e] at h
  exact Std.le_trans h hrule

/-! ### Lemma 7 over positions: the mass bound at the compilers' temperature rules -/

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- Lemma 7 over positions (`constructive/heads.py`, `position_lookup_spec`: S-RASP's `Psum`
layer B, the temporal-logic compiler's mixed comparisons in the unbounded regime), definition:
the score of key `p` at a query whose average feature is `f` and whose inverse feature is `1/D`
(`D = max(D_i, 1)`), `2 f p - (1/D) p^2`. -/
noncomputable def positionLookupScore (f : α) (D p : Nat) : α :=
  2 * f * natCast p - 1 / natCast D * (natCast p * natCast p)

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- Lemma 7 over positions (`position_lookup_spec` with the scaled keys of the temporal-logic
compiler's bounded mixed comparisons: key features `p/n`, `(p/n)^2`), definition: the score of key
`p`, `2 f (p/n) - (1/D) (p/n)^2`. -/
noncomputable def positionLookupScoreBounded (f : α) (n D p : Nat) : α :=
  2 * f * (natCast p / natCast n) - 1 / natCast D * (natCast p / natCast n * (natCast p / natCast n))

/-- Lemma 7 over positions, helper: at the average `f = S/D` the score is Lemma 7's parabola
`(1/D)(2 S p - p^2)` with target `S`. -/
theorem positionLookupScore_eq {S D : Nat} (hD : 0 < D) :
    positionLookupScore (natCast S / natCast D : α) D = lookupScore (1 / natCast D) S := by
  funext p
  unfold positionLookupScore lookupScore
  have := ne_zero_of_zero_lt (zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hD))
  generalize (natCast D : α) = a at *
  grind

/-- Lemma 7 over positions, helper: at the average `f = S/(D n)` the bounded score is Lemma 7's
parabola `(1/(D n^2))(2 S p - p^2)` with target `S`. -/
theorem positionLookupScoreBounded_eq {S D n : Nat} (hD : 0 < D) (hn : 0 < n) :
    positionLookupScoreBounded (natCast S / (natCast D * natCast n) : α) n D
      = lookupScore (1 / (natCast D * (natCast n * natCast n))) S := by
  funext p
  unfold positionLookupScoreBounded lookupScore
  have := ne_zero_of_zero_lt (zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hD))
  have := ne_zero_of_zero_lt (zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hn))
  generalize (natCast D : α) = a at *
  generalize (natCast n : α) = b at *
  grind

/-- Lemma 7 over positions, helper (the temperature rules): for `1 ≤ D ≤ M`, `a > 0`, `L > 0`, the
step `1/(D a)` at `τ = 1/(a M L)` gives the exponent `-(M L)/D ≤ -L`, and `τ > 0`. -/
theorem position_rule_exponent_le {D M : Nat} {a L : α} (hD : 0 < D) (hDM : D ≤ M) (ha : 0 < a)
    (hL : 0 < L) :
    0 < 1 / (a * natCast M * L) ∧ -(1 / (natCast D * a)) / (1 / (a * natCast M * L)) ≤ -L := by
  have hD1 := one_le_natCast_of_pos (α := α) hD
  have hDp : (0 : α) < natCast D := zero_lt_of_one_le hD1
  have hMD : (natCast D : α) ≤ natCast M := natCast_le_of_le hDM
  have hMp : (0 : α) < natCast M := Std.lt_of_lt_of_le hDp hMD
  have haM : (0 : α) < a * natCast M * L := Lean.Grind.OrderedRing.mul_pos (Lean.Grind.OrderedRing.mul_pos ha hMp) hL
  have e : -(1 / (natCast D * a)) / (1 / (a * natCast M * L)) = -((natCast M * L) / natCast D) := by
    have := ne_zero_of_zero_lt hDp
    have := ne_zero_of_zero_lt ha
    have := ne_zero_of_zero_lt haM
    generalize (natCast D : α) = d at *
    generalize (natCast M : α) = m at *
    grind
  have h1 : L / 1 ≤ (natCast M * L) / natCast D :=
    div_le_div_of_mul_le_mul Lean.Grind.OrderedRing.zero_lt_one hDp (by
      have := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hMD (Std.le_of_lt hL)
      grind)
  refine ⟨zero_lt_div_of_zero_lt Lean.Grind.OrderedRing.zero_lt_one haM, ?_⟩
  rw [e]
  grind

/-- Lemma 7 over positions, helper: softmax mass off a key is non-negative. -/
theorem softmax_mass_off_nonneg (E : ExpLike α) (tau : α) (s : Nat → α) {N t : Nat} (ht : t < N) :
    0 ≤ sumTo (softmax E tau s N) N - softmax E tau s N t := by
  rw [← sumTo_ite_ne_add (w := softmax E tau s N) ht]
  have := sumTo_nonneg (f := fun j => if j = t then (0 : α) else softmax E tau s N j) (H := N)
    (fun j _ => by
      show 0 ≤ (if j = t then (0 : α) else softmax E tau s N j)
      by_cases hjt : j = t
      · rw [if_pos hjt]; exact Std.le_refl _
      · rw [if_neg hjt]; exact softmax_nonneg E tau s (by omega) j)
  generalize sumTo (fun j => if j = t then (0 : α) else softmax E tau s N j) N = A at *
  grind

/-- Lemma 7 over positions, helper: a mass `q ≥ 0` with `q (1 - x') ≤ 2x'` and `x' ≤ x` has
`q (1 - x) ≤ 2x`, and `q ≤ 2x/(1-x)` when `x < 1`. -/
theorem two_sided_mass_of_le {q x' x : α} (hq : 0 ≤ q) (h : q * (1 - x') ≤ 2 * x')
    (hx : x' ≤ x) : q * (1 - x) ≤ 2 * x ∧ (x < 1 → q ≤ 2 * x / (1 - x)) := by
  have hqx := Lean.Grind.OrderedRing.mul_nonneg hq (show 0 ≤ x - x' from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr hx)
  have key : q * (1 - x) ≤ 2 * x := by grind
  refine ⟨key, fun hlt => ?_⟩
  have hpos : 0 < 1 - x := Lean.Grind.OrderedAdd.sub_pos_iff.mpr hlt
  have := div_le_div_of_le hpos key
  have e : q * (1 - x) / (1 - x) = q := by
    have : 1 - x ≠ 0 := ne_zero_of_zero_lt hpos
    grind
  grind

/-- Lemma 7 over positions (`position_lookup_spec`: S-RASP's `Psum` lookup, causal, `D = i`, keys
`p ≤ i`; the temporal-logic compiler's unbounded mixed comparisons, `D = max(D_i, 1) ≤
max(n-1, 1)`, keys `p ≤ i` or all `p < n`): at a query with prefix sum `S ≥ 0` and average `f =
S/D`, the scores `2 f p - (1/D) p^2` over the keys `p < N` (`S < N`, `1 ≤ D ≤ M`) at the
compilers' temperature `τ = 1/(M L)` (`L > 0`, `exp(-L) ≤ x`) have softmax mass off `p = S` times
`1 - x` at most `2x`, and at most `2x/(1-x)` when `x < 1`, for every `n` and every query (S-RASP:
`M = n`, `L = ln(128 n^3)`, `x = 1/(128 n^3)`; mixed comparisons: `M = max(n-1, 1)`, `L = ln(32
C)`, `x = 1/(32 C)`). -/
theorem position_lookup_at_rule (E : ExpLike α) {L x : α} {S D M N : Nat} (hD : 0 < D)
    (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x) :
    (sumTo (softmax E (1 / (natCast M * L)) (positionLookupScore (natCast S / natCast D) D) N) N
          - softmax E (1 / (natCast M * L)) (positionLookupScore (natCast S / natCast D) D) N S)
        * (1 - x) ≤ 2 * x ∧
      (x < 1 →
        sumTo (softmax E (1 / (natCast M * L)) (positionLookupScore (natCast S / natCast D) D) N) N
            - softmax E (1 / (natCast M * L)) (positionLookupScore (natCast S / natCast D) D) N S
          ≤ 2 * x / (1 - x)) := by
  rw [positionLookupScore_eq hD]
  obtain ⟨htau, hexp⟩ := position_rule_exponent_le (α := α) (a := 1) hD hDM
    Lean.Grind.OrderedRing.zero_lt_one hL
  have e1 : (1 : α) / (1 * natCast M * L) = 1 / (natCast M * L) := by grind
  have e2 : -((1 : α) / (natCast D * 1)) = -(1 / natCast D) := by grind
  rw [e1, e2] at hexp
  rw [e1] at htau
  have hK : (0 : α) ≤ 1 / natCast D :=
    div_nonneg_of_nonneg (Lean.Grind.OrderedRing.zero_le_one (R := α))
      (zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hD))
  have h := (lookup_two_sided E (N := N) hK htau hS).1
  exact two_sided_mass_of_le (softmax_mass_off_nonneg E _ _ hS) h
    (Std.le_trans (E.mono _ _ hexp) hrule)

/-- Lemma 7 over positions, bounded (`position_lookup_spec` with key features `p/n`, `(p/n)^2`
and average `f = S/(D n)`: the temporal-logic compiler's bounded mixed comparisons, scores
`(S^2 - (p - S)^2)/(n^2 D)`): over the keys `p < N` (`S < N`, `1 ≤ D ≤ M`, `n ≥ 1`) at the rule
`τ = 1/(n^2 M L)` (`L > 0`, `exp(-L) ≤ x`) the softmax mass off `p = S` times `1 - x` is at most
`2x`, and at most `2x/(1-x)` when `x < 1`, for every `n` (`M = max(n-1, 1)`, `x = 1/(32 C)`). -/
theorem position_lookup_bounded_at_rule (E : ExpLike α) {L x : α} {n S D M N : Nat} (hn : 0 < n)
    (hD : 0 < D) (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x) :
    (sumTo (softmax E (1 / (natCast n * natCast n * natCast M * L))
            (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N) N
          - softmax E (1 / (natCast n * natCast n * natCast M * L))
            (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N S)
        * (1 - x) ≤ 2 * x ∧
      (x < 1 →
        sumTo (softmax E (1 / (natCast n * natCast n * natCast M * L))
              (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N) N
            - softmax E (1 / (natCast n * natCast n * natCast M * L))
              (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N S
          ≤ 2 * x / (1 - x)) := by
  rw [positionLookupScoreBounded_eq hD hn]
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hnn : (0 : α) < natCast n * natCast n :=
    Lean.Grind.OrderedRing.mul_pos (zero_lt_of_one_le hn1) (zero_lt_of_one_le hn1)
  obtain ⟨htau, hexp⟩ := position_rule_exponent_le (α := α) (a := natCast n * natCast n) hD hDM
    hnn hL
  have hK : (0 : α) ≤ 1 / (natCast D * (natCast n * natCast n)) :=
    div_nonneg_of_nonneg (Lean.Grind.OrderedRing.zero_le_one (R := α))
      (Lean.Grind.OrderedRing.mul_pos (zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hD)) hnn)
  have h := (lookup_two_sided E (N := N) hK htau hS).1
  exact two_sided_mass_of_le (softmax_mass_off_nonneg E _ _ hS) h
    (Std.le_trans (E.mono _ _ hexp) hrule)

/-- Lemma 7 over positions, negative prefix sum (S-RASP's `Psum` clamped at `0`: `S = -m ≤ 0`,
average `f = -m/D`, the maximum is the key `p = 0`): over the keys `p < N` (`N ≥ 1`, `1 ≤ D ≤
M`) at `τ = 1/(M L)` (`L > 0`, `exp(-L) ≤ x`) the softmax mass off `p = 0` is at most `x` (key
`p` is `≥ p/D` below it: a ziggurat of step `1/D`), for every `n`. -/
theorem position_lookup_neg_at_rule (E : ExpLike α) {L x : α} {m D M N : Nat} (hD : 0 < D)
    (hDM : D ≤ M) (hL : 0 < L) (hN : 0 < N) (hrule : E.exp (-L) ≤ x) :
    sumTo (softmax E (1 / (natCast M * L)) (positionLookupScore (-natCast m / natCast D) D) N) N
        - softmax E (1 / (natCast M * L)) (positionLookupScore (-natCast m / natCast D) D) N 0
      ≤ x := by
  obtain ⟨htau, hexp⟩ := position_rule_exponent_le (α := α) (a := 1) hD hDM
    Lean.Grind.OrderedRing.zero_lt_one hL
  have e1 : (1 : α) / (1 * natCast M * L) = 1 / (natCast M * L) := by grind
  have e2 : -((1 : α) / (natCast D * 1)) = -(1 / natCast D) := by grind
  rw [e1, e2] at hexp
  rw [e1] at htau
  have hDp := zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hD)
  have hK : (0 : α) ≤ 1 / natCast D := div_nonneg_of_nonneg (Lean.Grind.OrderedRing.zero_le_one (R := α)) hDp
  refine Std.le_trans (softmax_mass_off_top_le_of_distinct E (d := fun p => p) hN htau hK
    (fun p _ hp => by show 0 < p; omega) (fun a b _ _ _ _ h => h) (fun p _ _ => ?_))
    (Std.le_trans (E.mono _ _ hexp) hrule)
  -- `s_0 - s_p = (2 p m + p^2)/D ≥ p/D`
  show natCast p * (1 / natCast D) ≤ positionLookupScore (-natCast m / natCast D) D 0
    - positionLookupScore (-natCast m / natCast D) D p
  unfold positionLookupScore
  rw [natCast_zero]
  have hsq := natCast_le_sq (α := α) p
  have hpm := Lean.Grind.OrderedRing.mul_nonneg (natCast_nonneg (α := α) p) (natCast_nonneg (α := α) m)
  have key : (natCast p : α) ≤ 2 * (natCast p * natCast m) + natCast p * natCast p := by grind
  have := div_le_div_of_le hDp key
  have := ne_zero_of_zero_lt hDp
  generalize (natCast p : α) = q at *
  generalize (natCast m : α) = r at *
  generalize (natCast D : α) = a at *
  grind

/-! ### Lemma 7 over positions: the copy error at the compilers' temperature rules -/

/-- Lemma 7 over positions (copy error), helper: termwise `f_k ≤ g_k` gives `Σ f ≤ Σ g`. -/
theorem sumTo_le_sumTo {f g : Nat → α} {N : Nat} (h : ∀ k, k < N → f k ≤ g k) :
    sumTo f N ≤ sumTo g N := by
  induction N with
  | zero => exact Std.le_refl _
  | succ n ih =>
    rw [sumTo_succ, sumTo_succ]
    have h1 := ih (fun k hk => h k (by omega))
    have h2 := h n (by omega)
    grind

/-- Lemma 7 over positions (copy error), helper: `0 ≤ a ≤ b` gives `a^n ≤ b^n`. -/
theorem pow_le_pow_of_le {a b : α} (ha : 0 ≤ a) (hab : a ≤ b) (n : Nat) : a ^ n ≤ b ^ n := by
  induction n with
  | zero => rw [pow_zero_eq, pow_zero_eq]; exact Std.le_refl _
  | succ n ih =>
    rw [pow_succ_eq, pow_succ_eq]
    exact Std.le_trans (Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right ih ha)
      (Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hab
        (pow_nonneg_of_nonneg (Std.le_trans ha hab) n))

/-- Lemma 7 over positions (copy error), definition: the tail `G_k = (k+1) x^{k+1} - k x^{k+2}`
of `Σ_{j ≥ 1} j x^j (1-x)^2 = x`, so that `(1-x)^2 Σ_{j=1}^{k} j x^j = x - G_k`. -/
noncomputable def copyTail (x : α) (k : Nat) : α :=
  natCast (k + 1) * x ^ (k + 1) - natCast k * x ^ (k + 2)

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- Lemma 7 over positions (copy error), helper: `G_k = G_{k+1} + (k+1) x^{k+1} (1-x)^2`. -/
theorem copyTail_succ (x : α) (k : Nat) :
    copyTail x k = copyTail x (k + 1) + natCast (k + 1) * x ^ (k + 1) * ((1 - x) * (1 - x)) := by
  unfold copyTail
  have e1 : x ^ (k + 2) = x ^ (k + 1) * x := pow_succ_eq x (k + 1)
  have e3 : x ^ (k + 1 + 2) = x ^ (k + 1) * x * x := by
    rw [show k + 1 + 2 = k + 1 + 1 + 1 by omega, pow_succ_eq, pow_succ_eq]
  have e4 : (natCast (k + 1 + 1) : α) = natCast k + 1 + 1 := rfl
  have e5 : (natCast (k + 1) : α) = natCast k + 1 := rfl
  rw [e1, e3, e4, e5]
  generalize x ^ (k + 1) = y
  generalize (natCast k : α) = c
  grind

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- Lemma 7 over positions (copy error), helper: `G_0 = x`. -/
theorem copyTail_zero (x : α) : copyTail x 0 = x := by
  unfold copyTail
  rw [natCast_zero, show (natCast (0 + 1) : α) = 0 + 1 from rfl, pow_succ_eq, pow_zero_eq]
  grind

/-- Lemma 7 over positions (copy error), helper: `0 ≤ x ≤ 1` gives `0 ≤ G_k ≤ x`. -/
theorem copyTail_nonneg_le {x : α} (hx0 : 0 ≤ x) (hx1 : x ≤ 1) (k : Nat) :
    0 ≤ copyTail x k ∧ copyTail x k ≤ x := by
  refine ⟨?_, ?_⟩
  · unfold copyTail
    have e1 : x ^ (k + 2) = x ^ (k + 1) * x := pow_succ_eq x (k + 1)
    have e5 : (natCast (k + 1) : α) = natCast k + 1 := rfl
    rw [e1, e5]
    have hy := pow_nonneg_of_nonneg hx0 (k + 1)
    have hc := natCast_nonneg (α := α) k
    have h1 := Lean.Grind.OrderedRing.mul_nonneg hc (show 0 ≤ 1 - x from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption))
    have h2 := Lean.Grind.OrderedRing.mul_nonneg hy (show 0 ≤ 1 + natCast k * (1 - x) by grind)
    generalize x ^ (k + 1) = y at *
    generalize (natCast k : α) = c at *
    grind
  · induction k with
    | zero => rw [copyTail_zero]; exact Std.le_refl _
    | succ k ih =>
      have e := copyTail_succ x k
      have h := Lean.Grind.OrderedRing.mul_nonneg
        (Lean.Grind.OrderedRing.mul_nonneg (natCast_nonneg (α := α) (k + 1))
          (pow_nonneg_of_nonneg hx0 (k + 1)))
        (Lean.Grind.OrderedRing.mul_nonneg (show 0 ≤ 1 - x from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)) (show 0 ≤ 1 - x from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)))
      grind

/-- Lemma 7 over positions (copy error), helper: `(1-x)^2 Σ_{p<N} |p - S| x^{|p-S|}` in closed
form, `G_{S-N} - G_S` while `N ≤ S` and `2x - G_S - G_{N-1-S}` after. -/
theorem copy_sum_mul_eq (x : α) (S N : Nat) :
    sumTo (fun p => natCast (natDist p S) * x ^ natDist p S) N * ((1 - x) * (1 - x))
      = if N ≤ S then copyTail x (S - N) - copyTail x S
        else 2 * x - copyTail x S - copyTail x (N - 1 - S) := by
  induction N with
  | zero => rw [sumTo_zero, if_pos (Nat.zero_le S)]; grind
  | succ N ih =>
    rw [sumTo_succ]
    rcases Nat.lt_trichotomy N S with h | h | h
    · rw [if_pos (show N ≤ S by omega)] at ih
      rw [if_pos (show N + 1 ≤ S by omega), natDist_of_le (Nat.le_of_lt h)]
      have e := copyTail_succ x (S - (N + 1))
      rw [show S - (N + 1) + 1 = S - N by omega] at e
      generalize sumTo (fun p => natCast (natDist p S) * x ^ natDist p S) N = A at *
      grind
    · subst h
      rw [if_pos (Nat.le_refl N), Nat.sub_self, copyTail_zero] at ih
      rw [if_neg (show ¬ N + 1 ≤ N by omega), natDist_of_le (Nat.le_refl N), Nat.sub_self,
        show N + 1 - 1 - N = 0 by omega, copyTail_zero, natCast_zero]
      generalize sumTo (fun p => natCast (natDist p N) * x ^ natDist p N) N = A at *
      grind
    · rw [if_neg (show ¬ N ≤ S by omega)] at ih
      rw [if_neg (show ¬ N + 1 ≤ S by omega), natDist_of_ge (Nat.le_of_lt h)]
      have e := copyTail_succ x (N - 1 - S)
      rw [show N - 1 - S + 1 = N - S by omega] at e
      rw [show N + 1 - 1 - S = N - S by omega]
      generalize sumTo (fun p => natCast (natDist p S) * x ^ natDist p S) N = A at *
      grind

/-- Lemma 7 over positions (copy error), helper: for `0 ≤ x ≤ 1`, `(1-x)^2 Σ_{p<N} |p - S|
x^{|p-S|} ≤ 2x` (one `Σ_{k ≥ 1} k x^k (1-x)^2 ≤ x` on each side of `S`). -/
theorem copy_sum_mul_le {x : α} (hx0 : 0 ≤ x) (hx1 : x ≤ 1) (S N : Nat) :
    sumTo (fun p => natCast (natDist p S) * x ^ natDist p S) N * ((1 - x) * (1 - x)) ≤ 2 * x := by
  rw [copy_sum_mul_eq]
  have h1 := copyTail_nonneg_le hx0 hx1 S
  split
  · have h2 := copyTail_nonneg_le hx0 hx1 (S - N)
    grind
  · have h2 := copyTail_nonneg_le hx0 hx1 (N - 1 - S)
    grind

/-- Lemma 7 over positions (copy error), helper: `a - b` and `b - a` are at most `|a - b|`. -/
theorem natCast_sub_le_natDist (a b : Nat) :
    (natCast a : α) - natCast b ≤ natCast (natDist a b) ∧
      (natCast b : α) - natCast a ≤ natCast (natDist a b) := by
  rcases Nat.le_total a b with h | h
  · obtain ⟨k, rfl⟩ : ∃ k, b = a + k := ⟨b - a, by omega⟩
    rw [natDist_of_le h, show a + k - a = k by omega, natCast_add]
    have := natCast_nonneg (α := α) k
    exact ⟨by grind, by grind⟩
  · obtain ⟨k, rfl⟩ : ∃ k, a = b + k := ⟨a - b, by omega⟩
    rw [natDist_of_ge h, show b + k - b = k by omega, natCast_add]
    have := natCast_nonneg (α := α) k
    exact ⟨by grind, by grind⟩

/-- Lemma 7 over positions (copy error), helper (weights): with `p_j ≥ 0` and `|v_j - c| ≤ e_j`,
`Σ_j p_j v_j - (Σ_j p_j) c` lies within `Σ_j p_j e_j`. -/
theorem sumTo_mul_sub_le_sumTo_mul {p v e : Nat → α} {c : α} {N : Nat}
    (hp : ∀ j, j < N → 0 ≤ p j) (he : ∀ j, j < N → v j - c ≤ e j ∧ c - v j ≤ e j) :
    sumTo (fun j => p j * v j) N - sumTo p N * c ≤ sumTo (fun j => p j * e j) N ∧
      -sumTo (fun j => p j * e j) N ≤ sumTo (fun j => p j * v j) N - sumTo p N * c := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero, sumTo_zero]; exact ⟨by grind, by grind⟩
  | succ n ih =>
    obtain ⟨ih1, ih2⟩ := ih (fun j hj => hp j (by omega)) (fun j hj => he j (by omega))
    rw [sumTo_succ, sumTo_succ, sumTo_succ]
    obtain ⟨h1, h2⟩ := he n (by omega)
    have u1 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h1 (hp n (by omega))
    have u2 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h2 (hp n (by omega))
    generalize sumTo (fun j => p j * v j) n = A at *
    generalize sumTo p n = B at *
    generalize sumTo (fun j => p j * e j) n = C at *
    exact ⟨by grind, by grind⟩

/-- Lemma 7 over positions (copy error), the general step: scores over the keys `p < N` in which
every key is at least `|p - t| γ` below the target `t` (a ziggurat of step `γ` on each side of
it), at `τ > 0` with `exp(-γ/τ) ≤ x`: each weight is at most `x^{|p - t|}`, so the head's output
`Σ_p w_p p` is off `t` by at most `Σ_{p<N} |p - t| x^{|p - t|}`. -/
theorem softmax_copy_le_distance_sum (E : ExpLike α) {s : Nat → α} {gamma tau x : α} {N t : Nat}
    (ht : t < N) (htau : 0 < tau) (hz : ∀ p, p < N → natCast (natDist p t) * gamma ≤ s t - s p)
    (hx : E.exp (-gamma / tau) ≤ x) :
    absv (sumTo (fun p => softmax E tau s N p * natCast p) N - natCast t)
      ≤ sumTo (fun p => natCast (natDist p t) * x ^ natDist p t) N := by
  have hN : 0 < N := by omega
  have hx0 : 0 ≤ x := Std.le_trans (Std.le_of_lt (E.pos _)) hx
  have hW : 1 ≤ sumTo (fun k => E.exp ((s k - s t) / tau)) N := by
    have e := sumTo_ite_ne_add (w := fun k => E.exp ((s k - s t) / tau)) ht
    have h0 := sumTo_nonneg
      (f := fun j => if j = t then (0 : α) else E.exp ((s j - s t) / tau)) (H := N)
      (fun j _ => by
        show 0 ≤ (if j = t then (0 : α) else E.exp ((s j - s t) / tau))
        split
        · exact Std.le_refl _
        · exact Std.le_of_lt (E.pos _))
    have h1 : E.exp ((s t - s t) / tau) = 1 := weight_eq_one_of_eq_max E rfl
    grind
  -- each weight is at most `x^{|p - t|}`
  have hw : ∀ p, p < N → softmax E tau s N p ≤ x ^ natDist p t := by
    intro p hp
    rw [softmax_eq_div_sumTo E tau (s t)]
    have hz' : E.exp ((s p - s t) / tau) ≤ E.exp (-gamma / tau) ^ natDist p t :=
      weight_le_pow_of_ziggurat E htau (hz p hp)
    have hxp := pow_le_pow_of_le (Std.le_of_lt (E.pos _)) hx (natDist p t)
    have hpos := E.pos ((s p - s t) / tau)
    apply div_le_of_le_mul (Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hW)
    have := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hW
      (pow_nonneg_of_nonneg hx0 (natDist p t))
    generalize sumTo (fun k => E.exp ((s k - s t) / tau)) N = W at *
    grind
  obtain ⟨h1, h2⟩ := sumTo_mul_sub_le_sumTo_mul (p := softmax E tau s N)
    (v := fun p => natCast p) (e := fun p => natCast (natDist p t)) (c := natCast t)
    (fun j _ => softmax_nonneg E tau _ hN j) (fun j _ => natCast_sub_le_natDist j t)
  rw [sumTo_softmax_eq_one E tau _ hN] at h1 h2
  have hT : sumTo (fun j => softmax E tau s N j * natCast (natDist j t)) N
      ≤ sumTo (fun p => natCast (natDist p t) * x ^ natDist p t) N :=
    sumTo_le_sumTo (fun j hj => by
      have := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right (hw j hj)
        (natCast_nonneg (α := α) (natDist j t))
      grind)
  exact absv_le_of_le_of_neg_le (by grind) (by grind)

/-- Lemma 7 over positions (copy error), two-sided: at the hypotheses of
`softmax_copy_le_distance_sum` and `x ≤ 1`, `|Σ_p w_p p - t| (1-x)^2 ≤ 2x` (`copy_sum_mul_le`). -/
theorem softmax_copy_le_of_ziggurat (E : ExpLike α) {s : Nat → α} {gamma tau x : α} {N t : Nat}
    (ht : t < N) (htau : 0 < tau) (hz : ∀ p, p < N → natCast (natDist p t) * gamma ≤ s t - s p)
    (hx : E.exp (-gamma / tau) ≤ x) (hx1 : x ≤ 1) :
    absv (sumTo (fun p => softmax E tau s N p * natCast p) N - natCast t)
      * ((1 - x) * (1 - x)) ≤ 2 * x := by
  have hx0 : 0 ≤ x := Std.le_trans (Std.le_of_lt (E.pos _)) hx
  have hQ : (0 : α) ≤ (1 - x) * (1 - x) :=
    Lean.Grind.OrderedRing.mul_nonneg (show 0 ≤ 1 - x from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)) (show 0 ≤ 1 - x from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption))
  exact Std.le_trans (Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right
    (softmax_copy_le_distance_sum E ht htau hz hx) hQ) (copy_sum_mul_le hx0 hx1 t N)

/-- Lemma 7 over positions (copy error), helper: with the target at an end of the keys (`t = 0`
or `t = N - 1`) only one side is present, and `(1-x)^2 Σ_{p<N} |p - t| x^{|p-t|} = x - G_{N-1} ≤
x`. -/
theorem copy_sum_mul_le_end {x : α} (hx0 : 0 ≤ x) (hx1 : x ≤ 1) {t N : Nat} (ht : t < N)
    (hend : t = 0 ∨ t + 1 = N) :
    sumTo (fun p => natCast (natDist p t) * x ^ natDist p t) N * ((1 - x) * (1 - x)) ≤ x := by
  rw [copy_sum_mul_eq, if_neg (show ¬ N ≤ t by omega)]
  have h1 := copyTail_nonneg_le hx0 hx1 t
  have h2 := copyTail_nonneg_le hx0 hx1 (N - 1 - t)
  rcases hend with h | h
  · subst h
    rw [copyTail_zero]
    grind
  · rw [show N - 1 - t = 0 by omega, copyTail_zero]
    have h3 := copyTail_nonneg_le hx0 hx1 t
    grind

/-- Lemma 7 over positions (copy error), one-sided: at the hypotheses of
`softmax_copy_le_distance_sum`, `x ≤ 1` and the target at an end of the keys (`t = 0` or `t = N -
1`: every key on one side), `|Σ_p w_p p - t| (1-x)^2 ≤ x`. -/
theorem softmax_copy_le_of_ziggurat_end (E : ExpLike α) {s : Nat → α} {gamma tau x : α} {N t : Nat}
    (ht : t < N) (hend : t = 0 ∨ t + 1 = N) (htau : 0 < tau)
    (hz : ∀ p, p < N → natCast (natDist p t) * gamma ≤ s t - s p)
    (hx : E.exp (-gamma / tau) ≤ x) (hx1 : x ≤ 1) :
    absv (sumTo (fun p => softmax E tau s N p * natCast p) N - natCast t)
      * ((1 - x) * (1 - x)) ≤ x := by
  have hx0 : 0 ≤ x := Std.le_trans (Std.le_of_lt (E.pos _)) hx
  have hQ : (0 : α) ≤ (1 - x) * (1 - x) :=
    Lean.Grind.OrderedRing.mul_nonneg (show 0 ≤ 1 - x from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)) (show 0 ≤ 1 - x from Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption))
  exact Std.le_trans (Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_right
    (softmax_copy_le_distance_sum E ht htau hz hx) hQ) (copy_sum_mul_le_end hx0 hx1 ht hend)

/-- Lemma 7 over positions (copy error), the two-sided parabola: the softmax weights of the scores
`K (2 S p - p^2)` (`K ≥ 0`, `τ > 0`) over the keys `p < N` (`S < N`) with `exp(-K/τ) ≤ x ≤ 1`
copy `S` back with `|Σ_p w_p p - S| (1-x)^2 ≤ 2x`: the parabola loses `K d^2 ≥ K d` at distance
`d`, a ziggurat of step `K`. -/
theorem lookup_two_sided_copy (E : ExpLike α) {K tau x : α} {N S : Nat} (hK : 0 ≤ K)
    (htau : 0 < tau) (hS : S < N) (hx : E.exp (-K / tau) ≤ x) (hx1 : x ≤ 1) :
    absv (sumTo (fun p => softmax E tau (lookupScore K S) N p * natCast p) N - natCast S)
      * ((1 - x) * (1 - x)) ≤ 2 * x :=
  softmax_copy_le_of_ziggurat E hS htau (fun p _ => by
    rw [lookupScore_sub, natDist_sq]
    have hsq := natCast_le_sq (α := α) (natDist p S)
    have := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hsq hK
    generalize (natCast (natDist p S) : α) = d at *
    grind) hx hx1

/-- Lemma 7 over positions (copy error), helper: `q Q ≤ y` with `Q > 0` gives `q ≤ y/Q`. -/
theorem le_div_of_mul_le {q Q y : α} (hQ : 0 < Q) (h : q * Q ≤ y) : q ≤ y / Q := by
  have := div_le_div_of_le hQ h
  have e : q * Q / Q = q := by
    have : Q ≠ 0 := ne_zero_of_zero_lt hQ
    grind
  grind

/-- Lemma 7 over positions, copy error (`position_lookup_spec`, `position_lookup_copy_error`: the
head's output `Σ_p w_p p` against the copied count `S`; S-RASP's `Psum` lookup, the
temporal-logic compiler's unbounded mixed comparisons): at the hypotheses of
`position_lookup_at_rule` and `x ≤ 1`, `|Σ_p w_p p - S| (1-x)^2 ≤ 2x`, and `|Σ_p w_p p - S| ≤
2x/(1-x)^2` when `x < 1`, for every `n` and every query. -/
theorem position_lookup_copy_at_rule (E : ExpLike α) {L x : α} {S D M N : Nat} (hD : 0 < D)
    (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x) (hx1 : x ≤ 1) :
    absv (sumTo (fun p => softmax E (1 / (natCast M * L))
          (positionLookupScore (natCast S / natCast D) D) N p * natCast p) N - natCast S)
        * ((1 - x) * (1 - x)) ≤ 2 * x ∧
      (x < 1 →
        absv (sumTo (fun p => softmax E (1 / (natCast M * L))
            (positionLookupScore (natCast S / natCast D) D) N p * natCast p) N - natCast S)
          ≤ 2 * x / ((1 - x) * (1 - x))) := by
  rw [positionLookupScore_eq hD]
  obtain ⟨htau, hexp⟩ := position_rule_exponent_le (α := α) (a := 1) hD hDM
    Lean.Grind.OrderedRing.zero_lt_one hL
  have e1 : (1 : α) / (1 * natCast M * L) = 1 / (natCast M * L) := by grind
  have e2 : -((1 : α) / (natCast D * 1)) = -(1 / natCast D) := by grind
  rw [e1, e2] at hexp
  rw [e1] at htau
  have hK : (0 : α) ≤ 1 / natCast D :=
    div_nonneg_of_nonneg (Lean.Grind.OrderedRing.zero_le_one (R := α))
      (zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hD))
  have h := lookup_two_sided_copy E hK htau hS (Std.le_trans (E.mono _ _ hexp) hrule) hx1
  exact ⟨h, fun hlt => le_div_of_mul_le
    (Lean.Grind.OrderedRing.mul_pos (show 0 < 1 - x by grind) (show 0 < 1 - x by grind)) h⟩

/-- Lemma 7 over positions, bounded, copy error (`position_lookup_spec` with key features `p/n`,
`(p/n)^2`: the temporal-logic compiler's bounded mixed comparisons): at the hypotheses of
`position_lookup_bounded_at_rule` and `x ≤ 1`, `|Σ_p w_p p - S| (1-x)^2 ≤ 2x`, and `≤
2x/(1-x)^2` when `x < 1`, for every `n` (a value `p/n` is off by `1/n` of that). -/
theorem position_lookup_copy_bounded_at_rule (E : ExpLike α) {L x : α} {n S D M N : Nat}
    (hn : 0 < n) (hD : 0 < D) (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x)
    (hx1 : x ≤ 1) :
    absv (sumTo (fun p => softmax E (1 / (natCast n * natCast n * natCast M * L))
          (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N p * natCast p) N
        - natCast S) * ((1 - x) * (1 - x)) ≤ 2 * x ∧
      (x < 1 →
        absv (sumTo (fun p => softmax E (1 / (natCast n * natCast n * natCast M * L))
            (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N p
              * natCast p) N - natCast S)
          ≤ 2 * x / ((1 - x) * (1 - x))) := by
  rw [positionLookupScoreBounded_eq hD hn]
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hnn : (0 : α) < natCast n * natCast n :=
    Lean.Grind.OrderedRing.mul_pos (zero_lt_of_one_le hn1) (zero_lt_of_one_le hn1)
  obtain ⟨htau, hexp⟩ := position_rule_exponent_le (α := α) (a := natCast n * natCast n) hD hDM
    hnn hL
  have hK : (0 : α) ≤ 1 / (natCast D * (natCast n * natCast n)) :=
    div_nonneg_of_nonneg (Lean.Grind.OrderedRing.zero_le_one (R := α))
      (Lean.Grind.OrderedRing.mul_pos (zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hD)) hnn)
  have h := lookup_two_sided_copy E hK htau hS (Std.le_trans (E.mono _ _ hexp) hrule) hx1
  exact ⟨h, fun hlt => le_div_of_mul_le
    (Lean.Grind.OrderedRing.mul_pos (show 0 < 1 - x by grind) (show 0 < 1 - x by grind)) h⟩

/-! ### The gated position head (S-RASP's integer selects) -/

/-- The gated position head (`constructive.heads.gated_position_spec`: causal, scores
`s_ij = (2 g_i - 1) j`, value `j`; the S-RASP compiler's big-M product for integer-valued selects),
definition: the score of key `j` under the gate `g`, `j` when `g` and `-j` otherwise. -/
noncomputable def gatedScore (g : Bool) (j : Nat) : α := if g then natCast j else -natCast j

/-- The gated position head, definition: its hard choice among the keys `j < N`, the rightmost
key `N - 1` when `g` (so the head copies `g (N - 1) = g i`), the leftmost key `0` otherwise. -/
def gatedTarget (g : Bool) (N : Nat) : Nat := if g then N - 1 else 0

/-- The gated position head (`gated_position_spec`): for every gate `g` and every `N ≥ 1` keys, the
target `gatedTarget g N` is the unique maximum and every key `p < N` is at least its distance
`|p - t|` below it: a ziggurat of step `1`, so the gap is `1`, for every `n`. -/
theorem gated_position_gap (g : Bool) {N p : Nat} (hp : p < N) :
    (natCast (natDist p (gatedTarget g N)) : α) ≤ gatedScore g (gatedTarget g N) - gatedScore g p := by
  cases g with
  | true =>
    have hle : p ≤ N - 1 := by omega
    have hd : natDist p (N - 1) = N - 1 - p := natDist_of_le hle
    have e : (natCast (N - 1) : α) = natCast (N - 1 - p) + natCast p := by
      rw [← natCast_add, Nat.sub_add_cancel hle]
    show (natCast (natDist p (N - 1)) : α) ≤ natCast (N - 1) - natCast p
    rw [hd, e]
    grind
  | false =>
    have hd : natDist p 0 = p := by rw [natDist_of_ge (Nat.zero_le p), Nat.sub_zero]
    show (natCast (natDist p 0) : α) ≤ -natCast 0 - -natCast p
    rw [hd, natCast_zero]
    grind

/-- The gated position head, copy error (`gated_position_spec`: the head's output `Σ_p w_p p`
against `g (N - 1)` and `0`): at any `τ > 0` with `exp(-1/τ) ≤ x ≤ 1`, `|Σ_p w_p p - t| (1-x)^2
≤ x` over the keys `p < N`, `t = gatedTarget g N`, for every gate and every `N ≥ 1` (so `≤
x/(1-x)^2` when `x < 1`, tight as `x → 0`: at `N = 2` the error is `x/(1+x)`; every key lies on
one side of the target; the S-RASP compiler's `τ = 1/(n ln(128 S n^3))` gives `x = (128 S
n^3)^{-n}`). -/
theorem gated_position_copy (E : ExpLike α) {tau x : α} (g : Bool) {N : Nat} (hN : 0 < N)
    (htau : 0 < tau) (hx : E.exp (-1 / tau) ≤ x) (hx1 : x ≤ 1) :
    absv (sumTo (fun p => softmax E tau (gatedScore g) N p * natCast p) N
        - natCast (gatedTarget g N)) * ((1 - x) * (1 - x)) ≤ x := by
  have ht : gatedTarget g N < N := by
    cases g
    · show 0 < N
      exact hN
    · show N - 1 < N
      omega
  have hend : gatedTarget g N = 0 ∨ gatedTarget g N + 1 = N := by
    cases g
    · exact Or.inl rfl
    · exact Or.inr (show N - 1 + 1 = N by omega)
  exact softmax_copy_le_of_ziggurat_end E ht hend htau
    (fun p hp => by have := gated_position_gap (α := α) g hp; grind) hx hx1

/-- Helper: `|M y| = M |y|` for `M ≥ 0`. -/
theorem absv_mul_of_nonneg {M y : α} (hM : 0 ≤ M) : absv (M * y) = M * absv y := by
  by_cases hy : 0 ≤ y
  · rw [absv_of_nonneg hy, absv_of_nonneg (Lean.Grind.OrderedRing.mul_nonneg hM hy)]
  · have hy' : y ≤ 0 := by grind
    have h := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hy' hM
    have hMy : M * y ≤ 0 := by grind
    rw [absv_of_nonpos hy', absv_of_nonpos hMy]
    grind

/-- S-RASP's big-M product at the temperature rule (`gated` in `constructive/srasp/compiler.py`,
operands of degree 1): the slack `s = M (P + b) - M N` that the compiler computes from the gated
position head's soft copy `P = Σ_p w_p p` (hard: `b (N - 1) = b i`) over the `N = i + 1` keys is
within `M x/(1-x)^2` of the hard slack `-M N (1 - b)` of `big_m_product`: `|s + M N (1 - b)|
(1-x)^2 ≤ M x` for `M ≥ 0` at any `τ > 0` with `exp(-1/τ) ≤ x ≤ 1`, and so `≤ d` for every `d`
with `M x ≤ d (1-x)^2` when `x < 1`; for every gate and every `N ≥ 1`. -/
theorem gated_slack_at_rule (E : ExpLike α) {tau x M : α} (g : Bool) {N : Nat} (hN : 0 < N)
    (htau : 0 < tau) (hx : E.exp (-1 / tau) ≤ x) (hx1 : x ≤ 1) (hM : 0 ≤ M) :
    absv (M * (sumTo (fun p => softmax E tau (gatedScore g) N p * natCast p) N
        + (if g then 1 else 0)) - M * natCast N + M * natCast N * (if g then 0 else 1))
        * ((1 - x) * (1 - x)) ≤ M * x ∧
      ∀ d : α, M * x ≤ d * ((1 - x) * (1 - x)) → x < 1 →
        absv (M * (sumTo (fun p => softmax E tau (gatedScore g) N p * natCast p) N
          + (if g then 1 else 0)) - M * natCast N + M * natCast N * (if g then 0 else 1)) ≤ d := by
  have hc := gated_position_copy E g hN htau hx hx1
  generalize sumTo (fun p => softmax E tau (gatedScore g) N p * natCast p) N = P at hc ⊢
  have e : M * (P + (if g then 1 else 0)) - M * natCast N + M * natCast N * (if g then 0 else 1)
      = M * (P - natCast (gatedTarget g N)) := by
    obtain ⟨k, rfl⟩ : ∃ k, N = k + 1 := ⟨N - 1, by omega⟩
    cases g
    · show M * (P + 0) - M * natCast (k + 1) + M * natCast (k + 1) * 1 = M * (P - natCast 0)
      rw [natCast_zero]
      grind
    · show M * (P + 1) - M * natCast (k + 1) + M * natCast (k + 1) * 0
        = M * (P - natCast (k + 1 - 1))
      rw [Nat.add_sub_cancel, natCast_succ]
      grind
  rw [e, absv_mul_of_nonneg hM]
  have hq : 0 ≤ (1 - x) * (1 - x) := by
    have : 0 ≤ 1 - x := Lean.Grind.OrderedAdd.sub_nonneg_iff.mpr (by assumption)
    exact Lean.Grind.OrderedRing.mul_nonneg this this
  have h1 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left hc hM
  have hfirst : M * absv (P - natCast (gatedTarget g N)) * ((1 - x) * (1 - x)) ≤ M * x := by
    grind
  refine ⟨hfirst, fun d hd hx1' => ?_⟩
  have hpos : 0 < (1 - x) * (1 - x) := by
    have : 0 < 1 - x := Lean.Grind.OrderedAdd.sub_pos_iff.mpr (by assumption)
    exact Lean.Grind.OrderedRing.mul_pos this this
  generalize M * absv (P - natCast (gatedTarget g N)) = A at hfirst ⊢
  generalize (1 - x) * (1 - x) = q at hfirst hd hpos hq
  by_cases hA : A ≤ d
  · exact hA
  · have : 0 < A - d := by grind
    have := Lean.Grind.OrderedRing.mul_pos this hpos
    grind

/-! ### PREC (precision): rounded scores keep a ziggurat of step `γ - u` -/

/-- PREC (precision), helper: `|a| · 2 ≤ u` gives `a · 2 ≤ u` and `-u ≤ a · 2`. -/
theorem mul_two_bounds_of_absv_mul_two_le {a u : α} (h : absv a * 2 ≤ u) : a * 2 ≤ u ∧ -u ≤ a * 2 := by
  unfold absv at h
  by_cases h0 : 0 ≤ a
  · rw [if_pos h0] at h
    constructor <;> grind
  · rw [if_neg h0] at h
    constructor <;> grind

/-- PREC (precision), rounded ziggurat (`constructive/audit.py`, `predicted_safe`): scores forming a
ziggurat of step `γ` (`s_0 - s_k ≥ k γ` for `0 < k < N`), each rounded to within half a spacing `u ≥
0` (`|r_k - s_k| · 2 ≤ u` for `k < N`: rounding to nearest in a format whose spacing at the scores'
magnitude is `u`), give rounded scores forming a ziggurat of step `γ - u`: `r_0 - r_k ≥ k (γ - u)`
for `0 < k < N`, every `N` (`r_0 - r_k ≥ s_0 - s_k - u ≥ k γ - u ≥ k (γ - u)`, the last step
because `k u ≥ u` for `k ≥ 1`). -/
theorem rounded_ziggurat {s r : Nat → α} {gamma u : α} {N : Nat} (hu : 0 ≤ u)
    (hz : ∀ k, 0 < k → k < N → natCast k * gamma ≤ s 0 - s k)
    (hr : ∀ k, k < N → absv (r k - s k) * 2 ≤ u) :
    ∀ k, 0 < k → k < N → natCast k * (gamma - u) ≤ r 0 - r k := by
  intro k hk hkN
  have h0 := (mul_two_bounds_of_absv_mul_two_le (hr 0 (by omega))).2
  have hk' := (mul_two_bounds_of_absv_mul_two_le (hr k hkN)).1
  have hzk := hz k hk hkN
  have hk1 := one_le_natCast_of_pos (α := α) hk
  have hku := Lean.Grind.OrderedRing.mul_nonneg (show (0 : α) ≤ natCast k - 1 by grind) hu
  grind

/-- PREC (precision), rounded mass bound (`constructive/audit.py`, `predicted_safe`; statement Z at the
rounded step): with `N ≥ 1` scores forming a ziggurat of step `γ`, each rounded to within half a spacing
`u` (`|r_k - s_k| · 2 ≤ u`), `0 ≤ u ≤ γ` and `τ > 0`, the softmax mass off the top of the ROUNDED
scores is at most `exp(-(γ - u)/τ)`, for every `N`. -/
theorem rounded_mass_off_top_le (E : ExpLike α) {s r : Nat → α} {gamma u tau : α} {N : Nat}
    (hN : 0 < N) (htau : 0 < tau) (hu : 0 ≤ u) (hug : u ≤ gamma)
    (hz : ∀ k, 0 < k → k < N → natCast k * gamma ≤ s 0 - s k)
    (hr : ∀ k, k < N → absv (r k - s k) * 2 ≤ u) :
    sumTo (softmax E tau r N) N - softmax E tau r N 0 ≤ E.exp (-(gamma - u) / tau) :=
  (softmax_mass_off_top_le_of_ziggurat E hN htau (by grind) (rounded_ziggurat hu hz hr)).1

/-- PREC (precision) at the audit's rule (`constructive/audit.py`, `predicted_safe`, which declares
`n` safe while `(γ - u)/τ ≥ ln(1/margin)`, that is `exp(-(γ - u)/τ) ≤ margin`, with `u` the storage
format's spacing at the score bound): under the hypotheses of `rounded_mass_off_top_le` and
`exp(-(γ - u)/τ) ≤ margin`, the softmax mass off the top of the rounded scores is at most `margin`,
for every `N`. -/
theorem rounded_mass_off_top_le_margin (E : ExpLike α) {s r : Nat → α} {gamma u tau margin : α}
    {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hu : 0 ≤ u) (hug : u ≤ gamma)
    (hz : ∀ k, 0 < k → k < N → natCast k * gamma ≤ s 0 - s k)
    (hr : ∀ k, k < N → absv (r k - s k) * 2 ≤ u) (hrule : E.exp (-(gamma - u) / tau) ≤ margin) :
    sumTo (softmax E tau r N) N - softmax E tau r N 0 ≤ margin :=
  Std.le_trans (rounded_mass_off_top_le E hN htau hu hug hz hr) hrule

/-! ### Non-vacuity of the lookup over positions: each theorem above at `Rat`, every hypothesis proved -/

/-- Non-vacuity of `position_lookup_at_rule` at `Rat`. -/
theorem nonvacuous_position_lookup_at_rule :
    (sumTo (softmax expOne (1 / (natCast 3 * 1)) (positionLookupScore (natCast 1 / natCast 2 : Rat) 2) 3) 3 - softmax expOne (1 / (natCast 3 * 1)) (positionLookupScore (natCast 1 / natCast 2 : Rat) 2) 3 1) * (1 - 1) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → sumTo (softmax expOne (1 / (natCast 3 * 1)) (positionLookupScore (natCast 1 / natCast 2 : Rat) 2) 3) 3 - softmax expOne (1 / (natCast 3 * 1)) (positionLookupScore (natCast 1 / natCast 2 : Rat) 2) 3 1 ≤ 2 * 1 / (1 - 1)) :=
  position_lookup_at_rule expOne (L := 1) (x := 1) (S := 1) (D := 2) (M := 3) (N := 3) (by decide)
    (by decide) (by decide) (by decide) (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `position_lookup_bounded_at_rule` at `Rat`. -/
theorem nonvacuous_position_lookup_bounded_at_rule :
    (sumTo (softmax expOne (1 / (natCast 3 * natCast 3 * natCast 2 * 1)) (positionLookupScoreBounded (natCast 1 / (natCast 2 * natCast 3) : Rat) 3 2) 3) 3 - softmax expOne (1 / (natCast 3 * natCast 3 * natCast 2 * 1)) (positionLookupScoreBounded (natCast 1 / (natCast 2 * natCast 3) : Rat) 3 2) 3 1) * (1 - 1) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → sumTo (softmax expOne (1 / (natCast 3 * natCast 3 * natCast 2 * 1)) (positionLookupScoreBounded (natCast 1 / (natCast 2 * natCast 3) : Rat) 3 2) 3) 3 - softmax expOne (1 / (natCast 3 * natCast 3 * natCast 2 * 1)) (positionLookupScoreBounded (natCast 1 / (natCast 2 * natCast 3) : Rat) 3 2) 3 1 ≤ 2 * 1 / (1 - 1)) :=
  position_lookup_bounded_at_rule expOne (L := 1) (x := 1) (n := 3) (S := 1) (D := 2) (M := 2)
    (N := 3) (by decide) (by decide) (by decide) (by decide) (by decide)
    (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `position_lookup_neg_at_rule` at `Rat`. -/
theorem nonvacuous_position_lookup_neg_at_rule :
    sumTo (softmax expOne (1 / (natCast 2 * 1)) (positionLookupScore (-natCast 1 / natCast 2 : Rat) 2) 3) 3 - softmax expOne (1 / (natCast 2 * 1)) (positionLookupScore (-natCast 1 / natCast 2 : Rat) 2) 3 0 ≤ 1 :=
  position_lookup_neg_at_rule expOne (L := 1) (x := 1) (m := 1) (D := 2) (M := 2) (N := 3)
    (by decide) (by decide) (by decide) (by decide) (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `position_lookup_copy_at_rule` at `Rat`. -/
theorem nonvacuous_position_lookup_copy_at_rule :
    absv (sumTo (fun p => softmax expOne (1 / (natCast 3 * 1)) (positionLookupScore (natCast 1 / natCast 2 : Rat) 2) 3 p * natCast p) 3 - natCast 1) * ((1 - 1) * (1 - 1)) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → absv (sumTo (fun p => softmax expOne (1 / (natCast 3 * 1)) (positionLookupScore (natCast 1 / natCast 2 : Rat) 2) 3 p * natCast p) 3 - natCast 1) ≤ 2 * 1 / ((1 - 1) * (1 - 1))) :=
  position_lookup_copy_at_rule expOne (L := 1) (x := 1) (S := 1) (D := 2) (M := 3) (N := 3)
    (by decide) (by decide) (by decide) (by decide) (by show (1 : Rat) ≤ 1; grind) (by decide)

/-- Non-vacuity of `position_lookup_copy_bounded_at_rule` at `Rat`. -/
theorem nonvacuous_position_lookup_copy_bounded_at_rule :
    absv (sumTo (fun p => softmax expOne (1 / (natCast 3 * natCast 3 * natCast 2 * 1)) (positionLookupScoreBounded (natCast 1 / (natCast 2 * natCast 3) : Rat) 3 2) 3 p * natCast p) 3 - natCast 1) * ((1 - 1) * (1 - 1)) ≤ 2 * 1 ∧ ((1 : Rat) < 1 → absv (sumTo (fun p => softmax expOne (1 / (natCast 3 * natCast 3 * natCast 2 * 1)) (positionLookupScoreBounded (natCast 1 / (natCast 2 * natCast 3) : Rat) 3 2) 3 p * natCast p) 3 - natCast 1) ≤ 2 * 1 / ((1 - 1) * (1 - 1))) :=
  position_lookup_copy_bounded_at_rule expOne (L := 1) (x := 1) (n := 3) (S := 1) (D := 2)
    (M := 2) (N := 3) (by decide) (by decide) (by decide) (by decide) (by decide)
    (by show (1 : Rat) ≤ 1; grind) (by decide)

/-! ### Non-vacuity: each theorem above at `Rat`, every hypothesis proved -/

/-- Non-vacuity of `softmax_output_err_le` at `Rat`. -/
theorem nonvacuous_softmax_output_err_le :
    absv (sumTo (fun j => softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j * (if j = 0 then (1 : Rat) else 0)) 2 - (if 0 = 0 then (1 : Rat) else 0)) ≤ sumTo (softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2 - softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 0 :=
  softmax_output_err_le expOne (v := fun j => if j = 0 then (1 : Rat) else 0) (N := 2) (t := 0)
    (by decide) (fun j _ => absv_le_of_le_of_neg_le (by grind) (by grind))

/-- Non-vacuity of `softmax_output_err_le_offMass` at `Rat`. -/
theorem nonvacuous_softmax_output_err_le_offMass :
    absv (sumTo (fun j => softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j * (if j = 0 then (1 : Rat) else 0)) 2 - 1) ≤ offMass (fun j => j == 0) (softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2 :=
  softmax_output_err_le_offMass expOne (v := fun j => if j = 0 then (1 : Rat) else 0)
    (isMax := fun j => j == 0) (N := 2) (by decide) (fun j _ h => by simp at h; simp [h])
    (fun j _ _ => absv_le_of_le_of_neg_le (by grind) (by grind))

/-- Non-vacuity of `sign_head_bounded` at `Rat`. -/
theorem nonvacuous_sign_head_bounded :
    offMass (signGroup false) (softmax expOne (1 / natCast 3) (signScore (1 : Rat) ((if false then 1 else -1) * (natCast (2 * 0 + 1) / (2 * natCast 2)))) 3) 3 ≤ 2 * 1 :=
  sign_head_bounded expOne (K := 1) (c := 1) (x := 1) (m := 0) (D := 2) (n := 3) false (by decide)
    (by decide) (by decide) (by decide) (by decide) (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `sign_head_unbounded` at `Rat`. -/
theorem nonvacuous_sign_head_unbounded :
    offMass (signGroup true) (softmax expOne 1 (signScoreUnbounded (1 : Rat) ((if true then 1 else -1) * (natCast (2 * 0 + 1) / (2 * natCast 2))) 3) 3) 3 ≤ 2 * expOne.exp (-1 / 1) :=
  sign_head_unbounded expOne (K := 1) (tau := 1) (m := 0) (D := 2) (n := 3) true (by decide)
    (by decide) (by decide) (by decide) (by decide)

/-- Non-vacuity of `lookup_two_sided` at `Rat`. -/
theorem nonvacuous_lookup_two_sided :
    (sumTo (softmax expOne 1 (lookupScore (1 : Rat) 1) 3) 3 - softmax expOne 1 (lookupScore (1 : Rat) 1) 3 1) * (1 - expOne.exp (-1 / 1)) ≤ 2 * expOne.exp (-1 / 1) ∧ (expOne.exp (-1 / 1) < 1 → sumTo (softmax expOne 1 (lookupScore (1 : Rat) 1) 3) 3 - softmax expOne 1 (lookupScore (1 : Rat) 1) 3 1 ≤ 2 * expOne.exp (-1 / 1) / (1 - expOne.exp (-1 / 1))) :=
  lookup_two_sided expOne (by decide) (by decide) (by decide)

/-- Non-vacuity of `lookup_two_sided_bounded` at `Rat`. -/
theorem nonvacuous_lookup_two_sided_bounded :
    (sumTo (softmax expOne (1 / (natCast 3 * natCast 3)) (lookupScoreBounded (1 : Rat) 3 1) 3) 3 - softmax expOne (1 / (natCast 3 * natCast 3)) (lookupScoreBounded (1 : Rat) 3 1) 3 1) * (1 - expOne.exp (-(1 / 1))) ≤ 2 * expOne.exp (-(1 / 1)) ∧ (expOne.exp (-(1 / 1)) < 1 → sumTo (softmax expOne (1 / (natCast 3 * natCast 3)) (lookupScoreBounded (1 : Rat) 3 1) 3) 3 - softmax expOne (1 / (natCast 3 * natCast 3)) (lookupScoreBounded (1 : Rat) 3 1) 3 1 ≤ 2 * expOne.exp (-(1 / 1)) / (1 - expOne.exp (-(1 / 1)))) :=
  lookup_two_sided_bounded expOne (by decide) (by decide) (by decide) (by decide)

/-- Non-vacuity of `tiebreak_future_bounded_at_rule` at `Rat`. -/
theorem nonvacuous_tiebreak_future_bounded_at_rule :
    sumTo (softmax expOne (1 / natCast 3) (tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0) - softmax expOne (1 / natCast 3) (tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0) (tiebreakFutureTarget (fun j => j == 2) 3 0) ≤ 1 :=
  tiebreak_future_bounded_at_rule expOne (c := 1) (x := 1) (n := 3) (i := 0) (fun j => j == 2)
    (by decide) (by decide) (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `tiebreak_past_unbounded_at_rule` at `Rat`. -/
theorem nonvacuous_tiebreak_past_unbounded_at_rule :
    sumTo (softmax expOne 1 (tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2) 2 - softmax expOne 1 (tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2 (tiebreakPastTarget (fun j => j == 0) 2) ≤ 1 :=
  tiebreak_past_unbounded_at_rule expOne (K := 1) (x := 1) (n := 3) (i := 2) (fun j => j == 0)
    (by decide) (by decide) (by decide) (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `tiebreak_future_unbounded_at_rule` at `Rat`. -/
theorem nonvacuous_tiebreak_future_unbounded_at_rule :
    sumTo (softmax expOne 1 (tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0) - softmax expOne 1 (tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0) (tiebreakFutureTarget (fun j => j == 2) 3 0) ≤ 1 :=
  tiebreak_future_unbounded_at_rule expOne (K := 1) (x := 1) (n := 3) (i := 0) (fun j => j == 2)
    (by decide) (by decide) (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `lookup_past_at_rule` at `Rat`. -/
theorem nonvacuous_lookup_past_at_rule :
    sumTo (softmax expOne 1 (lookupScore (1 : Rat) (3 - 1)) 3) 3 - softmax expOne 1 (lookupScore (1 : Rat) (3 - 1)) 3 (3 - 1) ≤ 1 :=
  lookup_past_at_rule expOne (K := 1) (x := 1) (i := 3) (by decide) (by decide)
    (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `lookup_future_at_rule` at `Rat`. -/
theorem nonvacuous_lookup_future_at_rule :
    sumTo (softmax expOne 1 (fun k => lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0)) (3 - 1 - 0) - softmax expOne 1 (fun k => lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0) 0 ≤ 1 :=
  lookup_future_at_rule expOne (K := 1) (x := 1) (n := 3) (i := 0) (by decide) (by decide)
    (by show (1 : Rat) ≤ 1; grind)

/-- Non-vacuity of `gated_position_gap` at `Rat`: the gate closed, three keys, the last one. -/
theorem nonvacuous_gated_position_gap :
    (natCast (natDist 2 (gatedTarget false 3)) : Rat) ≤ gatedScore false (gatedTarget false 3) - gatedScore false 2 :=
  gated_position_gap false (by decide)

/-- Non-vacuity of `gated_position_copy` at `Rat`. -/
theorem nonvacuous_gated_position_copy :
    absv (sumTo (fun p => softmax expOne 1 (gatedScore true) 3 p * natCast p) 3 - natCast (gatedTarget true 3)) * (((1 : Rat) - 1) * (1 - 1)) ≤ 1 :=
  gated_position_copy expOne (tau := 1) (x := 1) true (N := 3) (by decide) (by decide)
    (by show (1 : Rat) ≤ 1; grind) (by decide)

/-- Non-vacuity of `gated_slack_at_rule` at `Rat`: the gate open, three keys, `M = 3`. -/
theorem nonvacuous_gated_slack_at_rule :
    absv ((3 : Rat) * (sumTo (fun p => softmax expOne 1 (gatedScore true) 3 p * natCast p) 3 + (if true then 1 else 0)) - 3 * natCast 3 + 3 * natCast 3 * (if true then 0 else 1)) * ((1 - 1) * (1 - 1)) ≤ 3 * 1 ∧ ∀ d : Rat, 3 * 1 ≤ d * ((1 - 1) * (1 - 1)) → (1 : Rat) < 1 → absv ((3 : Rat) * (sumTo (fun p => softmax expOne 1 (gatedScore true) 3 p * natCast p) 3 + (if true then 1 else 0)) - 3 * natCast 3 + 3 * natCast 3 * (if true then 0 else 1)) ≤ d :=
  gated_slack_at_rule expOne (tau := 1) (x := 1) (M := 3) true (N := 3) (by decide) (by decide)
    (by show (1 : Rat) ≤ 1; grind) (by decide) (by decide)

/-! ### Non-vacuity of the precision theorems (PREC): each at `Rat`, every hypothesis proved -/

/-- PREC (precision), non-vacuity helper: the staircase `s_k = -k` is a ziggurat of step `1` at
`Rat`. -/
theorem rounded_example_zig :
    ∀ k, 0 < k → k < 3 → natCast k * (1 : Rat) ≤ -(natCast 0 : Rat) - -(natCast k : Rat) := by
  intro k _ _
  rw [natCast_zero]
  grind

/-- PREC (precision), non-vacuity helper: moving the top score down and the others up by `1/4` keeps
every score within half of the spacing `u = 1/2`. -/
theorem rounded_example_round :
    ∀ k, k < 3 → absv ((fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) k
      - (fun k => -(natCast k : Rat)) k) * 2 ≤ 1 / 2 := by
  intro k _
  show absv (-(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4) - -(natCast k : Rat)) * 2 ≤ 1 / 2
  by_cases hk : k = 0
  · rw [if_pos hk]
    have e : -(natCast k : Rat) + -1 / 4 - -(natCast k : Rat) = -1 / 4 := by grind
    rw [e, absv_of_nonpos (by grind)]
    grind
  · rw [if_neg hk]
    have e : -(natCast k : Rat) + 1 / 4 - -(natCast k : Rat) = 1 / 4 := by grind
    rw [e, absv_of_nonneg (by grind)]
    grind

/-- Non-vacuity of `rounded_ziggurat` at `Rat`: the staircase `s_k = -k` (step `1`), the top rounded
down and the others up by a quarter (`u = 1/2`), three keys. -/
theorem nonvacuous_rounded_ziggurat :
    ∀ k, 0 < k → k < 3 → natCast k * ((1 : Rat) - 1 / 2) ≤ (fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 0 - (fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) k :=
  -- every implicit named: left to unification, `gamma - u =?= 1 - 1/2` took 4 s of elaboration (2026-12-04)
  rounded_ziggurat (s := fun k => -(natCast k : Rat))
    (r := fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) (gamma := 1) (u := 1 / 2) (N := 3)
    (by grind) rounded_example_zig rounded_example_round

/-- Non-vacuity of `rounded_mass_off_top_le` at `Rat` (the instance of `nonvacuous_rounded_ziggurat`,
`τ = 1`). -/
theorem nonvacuous_rounded_mass_off_top_le :
    sumTo (softmax expOne 1 (fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3) 3 - softmax expOne 1 (fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3 0 ≤ expOne.exp (-(1 - 1 / 2) / 1) :=
  rounded_mass_off_top_le expOne (s := fun k => -(natCast k : Rat)) (by decide) (by decide)
    (by grind) (by grind) rounded_example_zig rounded_example_round

/-- Non-vacuity of `rounded_mass_off_top_le_margin` at `Rat` (the same instance, `margin = 1`: over
`Rat` the only `ExpLike` is the constant `1`). -/
theorem nonvacuous_rounded_mass_off_top_le_margin :
    sumTo (softmax expOne 1 (fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3) 3 - softmax expOne 1 (fun k => -(natCast k : Rat) + (if k = 0 then -1 / 4 else 1 / 4)) 3 0 ≤ 1 :=
  rounded_mass_off_top_le_margin expOne (s := fun k => -(natCast k : Rat)) (by decide) (by decide)
    (by grind) (by grind) rounded_example_zig rounded_example_round (by show (1 : Rat) ≤ 1; grind)

end HardSoft

end
