module

public import HardSoft.Softmax

/-!
# An abstract exponential: from scores to statements E and Z

Statements E and Z are proved in `HardSoft.Softmax` about the rescaled weights
`w_j = exp((s_j - s_max)/τ)`. This file derives those weight facts from the scores, for any
function `exp` with the properties used (`ExpLike`: positive, `exp (s + t) = exp s * exp t`,
`exp 0 = 1`, monotone), so the link from scores to E and Z is checked too:

* softmax at temperature `τ`, `p_j = exp(s_j/τ) / Σ_k exp(s_k/τ)`, equals `w_j / Σ_k w_k`;
* a maximal position has `w_j = 1`; a position with `s_j ≤ s_max - γ` has
  `w_j ≤ x = exp(-γ/τ)`; a ziggurat `s_0 - s_k ≥ k γ` gives `w_k ≤ x^k`;
* hence E and Z restated from the scores.

Over the reals, `Real.exp` is an `ExpLike` (not formalised here: core Lean has no real
numbers). Over `Rat` the only `ExpLike` is the constant `1` (an `exp` with `exp 1 = q ≠ 1`
would need `exp (1/2) = √q` rational for every root); the non-vacuity examples use it.

## Main results

* `HardSoft.softmax_eq_div_sumTo`: softmax is the normalised rescaled weights.
* `HardSoft.weight_eq_one_of_eq_max`, `HardSoft.weight_le_of_le_sub`,
  `HardSoft.weight_le_pow_of_ziggurat`: the weight facts.
* `HardSoft.softmax_offMass_le_of_gap` (E from scores), `HardSoft.sumTo_absv_softmax_sub_ahardmax_le`
  (E, `ℓ₁` form, from scores), `HardSoft.softmax_mass_off_top_le_of_ziggurat` (Z from scores).
* `HardSoft.ExpLike.LogMean` (fact F5), `HardSoft.ExpLike.Tangent` (fact F1),
  `HardSoft.ExpLike.IsLog` (a logarithm): the exp facts beyond `ExpLike` that statements S
  (`HardSoft.Lipschitz`) and T (`HardSoft.Temperature`) take as hypotheses, each stated once here.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft

/-- Lemma 25 and Lemma 6 (statements E and Z), definition: an abstract exponential on an ordered
field `α`: positive, `exp (s + t) = exp s * exp t`, `exp 0 = 1`, monotone (`Real.exp` is one). -/
structure ExpLike (α : Type) [Lean.Grind.Field α] [LE α] [LT α] where
  /-- the exponential function -/
  exp : α → α
  /-- `exp t > 0` -/
  pos : ∀ t, 0 < exp t
  /-- `exp (s + t) = exp s * exp t` -/
  add : ∀ s t, exp (s + t) = exp s * exp t
  /-- `exp 0 = 1` -/
  zero : exp 0 = 1
  /-- `s ≤ t → exp s ≤ exp t` -/
  mono : ∀ s t, s ≤ t → exp s ≤ exp t

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α]

/-- Lemma 25 and Lemma 6 (statements E and Z), helper: a constant factor comes out of a sum. -/
theorem sumTo_mul_const (f : Nat → α) (c : α) (N : Nat) :
    sumTo (fun k => f k * c) N = sumTo f N * c := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero]; exact (Lean.Grind.Semiring.zero_mul c).symm
  | succ n ih => rw [sumTo_succ, sumTo_succ, ih]; grind

/-- Lemma 25 and Lemma 6 (statements E and Z), helper: a constant divisor comes out of a sum. -/
theorem sumTo_div_const (f : Nat → α) (c : α) (N : Nat) :
    sumTo (fun k => f k / c) N = sumTo f N / c := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero, Lean.Grind.Field.div_eq_mul_inv, Lean.Grind.Semiring.zero_mul]
  | succ n ih => rw [sumTo_succ, sumTo_succ, ih]; grind

/-- Lemma 25 (Edelman et al. bound, statement E), helper: a constant divisor comes out of the mass
off the max set. -/
theorem offMass_div_const (isMax : Nat → Bool) (f : Nat → α) (c : α) (N : Nat) :
    offMass isMax (fun k => f k / c) N = offMass isMax f N / c := by
  induction N with
  | zero => rw [offMass_zero, offMass_zero, Lean.Grind.Field.div_eq_mul_inv, Lean.Grind.Semiring.zero_mul]
  | succ n ih =>
    rw [offMass_succ, offMass_succ, ih]
    cases isMax n <;> simp <;> grind

/-- Lemma 25 and Lemma 6 (statements E and Z), helper: sums only see the positions `k < N`. -/
theorem sumTo_congr {f g : Nat → α} {N : Nat} (h : ∀ k, k < N → f k = g k) :
    sumTo f N = sumTo g N := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero]
  | succ n ih => rw [sumTo_succ, sumTo_succ, ih (fun k hk => h k (by omega)), h n (by omega)]

/-- Lemma 25 (Edelman et al. bound, statement E), helper: the mass off the max set only sees the
positions `k < N`. -/
theorem offMass_congr {isMax : Nat → Bool} {f g : Nat → α} {N : Nat}
    (h : ∀ k, k < N → f k = g k) : offMass isMax f N = offMass isMax g N := by
  induction N with
  | zero => rw [offMass_zero, offMass_zero]
  | succ n ih =>
    rw [offMass_succ, offMass_succ, ih (fun k hk => h k (by omega)), h n (by omega)]

variable [LE α] [LT α]

/-! ### The exp facts beyond `ExpLike`

Each is a property of the real exponential (checked at many points and by a monotonicity argument
in `tests/spec/test_exp_facts.py`), stated once here as a named proposition; a theorem that needs
one takes it as a hypothesis, so what it rests on is in its statement. -/

/-- Lemma 25 (statement S, fact F5, the log-mean inequality): `2 (exp δ - 1) ≤ δ (exp δ + 1)` for
every `δ ≥ 0`, i.e. `2 (y - 1)/(y + 1) ≤ ln y` for `y = exp δ ≥ 1` (the fact the SMT check of S
assumes). -/
def ExpLike.LogMean (E : ExpLike α) : Prop :=
  ∀ d : α, 0 ≤ d → 2 * (E.exp d - 1) ≤ d * (E.exp d + 1)

/-- Theorem 26 (statement T and erratum 2, fact F1, the tangent at `0`): `1 + x ≤ exp x` for every
`x` (gives `max_t t^k e^{-γt/2} = (2k/(eγ))^k` as an upper bound). -/
def ExpLike.Tangent (E : ExpLike α) : Prop :=
  ∀ x : α, 1 + x ≤ E.exp x

/-- Theorem 26 (statement T, the logarithm): `log` inverts `exp` on the positive numbers,
`exp (log x) = x` for `x > 0` (so `1/τ ≥ (2/γ) ln(C/ε)` can be written). -/
def ExpLike.IsLog (E : ExpLike α) (log : α → α) : Prop :=
  ∀ x : α, 0 < x → E.exp (log x) = x

/-- Lemma 25 and Theorem 26 (statements S and T), helper: `exp (-x) * exp x = 1`. -/
theorem ExpLike.exp_neg_mul (E : ExpLike α) (x : α) : E.exp (-x) * E.exp x = 1 := by
  rw [← E.add, show -x + x = 0 by grind, E.zero]

/-- Lemma 25 and Theorem 26 (statements S and T), helper: `x ≥ 0` gives `exp x ≥ 1`. -/
theorem ExpLike.one_le_exp (E : ExpLike α) {x : α} (hx : 0 ≤ x) : 1 ≤ E.exp x := by
  rw [← E.zero]; exact E.mono _ _ hx

/-- Lemma 25 and Lemma 6 (statements E and Z), definition: softmax at temperature `τ` over the
positions `k < N`, `p_j = exp(s_j/τ) / Σ_{k<N} exp(s_k/τ)`. -/
noncomputable def softmax (E : ExpLike α) (tau : α) (s : Nat → α) (N : Nat) (j : Nat) : α :=
  E.exp (s j / tau) / sumTo (fun k => E.exp (s k / tau)) N

/-- Lemma 25 and Lemma 6 (statements E and Z), helper: `exp ((s - m)/τ) * exp (m/τ) = exp (s/τ)`. -/
theorem ExpLike.exp_sub_div_mul (E : ExpLike α) (s m tau : α) :
    E.exp ((s - m) / tau) * E.exp (m / tau) = E.exp (s / tau) := by
  rw [← E.add]
  have : (s - m) / tau + m / tau = s / tau := by grind
  rw [this]

/-- Lemma 25 and Lemma 6 (statements E and Z, weight of a maximal position): `s_j = m` gives
`exp((s_j - m)/τ) = 1`. -/
theorem weight_eq_one_of_eq_max (E : ExpLike α) {s m tau : α} (h : s = m) :
    E.exp ((s - m) / tau) = 1 := by
  have : (s - m) / tau = 0 := by rw [h]; grind
  rw [this, E.zero]

/-- Lemma 6 (statement Z), helper: `exp (k t) = exp(t)^k`. -/
theorem ExpLike.exp_natCast_mul (E : ExpLike α) (t : α) (k : Nat) :
    E.exp (natCast k * t) = E.exp t ^ k := by
  induction k with
  | zero =>
    rw [natCast_zero, pow_zero_eq]
    have : (0 : α) * t = 0 := Lean.Grind.Semiring.zero_mul t
    rw [this, E.zero]
  | succ k ih =>
    rw [natCast_succ, pow_succ_eq, ← ih, ← E.add]
    have : (natCast k + 1) * t = natCast k * t + t := by grind
    rw [this]

variable [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Lemma 25 (statement S), helper: over `N ≥ 1` positions the softmax denominator
`Σ_{k<N} exp(f k)` is positive. -/
theorem sumTo_exp_pos (E : ExpLike α) (f : Nat → α) {N : Nat} (hN : 0 < N) :
    0 < sumTo (fun k => E.exp (f k)) N := by
  obtain ⟨n, rfl⟩ : ∃ n, N = n + 1 := ⟨N - 1, by omega⟩
  induction n with
  | zero => rw [sumTo_succ, sumTo_zero]; have := E.pos (f 0); grind
  | succ n ih =>
    have := ih (by omega)
    have := E.pos (f (n + 1))
    rw [sumTo_succ]
    grind

/-- Lemma 25 (statement S), helper: over `N ≥ 1` positions the softmax weights sum to `1`. -/
theorem sumTo_softmax_eq_one_of_pos (E : ExpLike α) (tau : α) (s : Nat → α) {N : Nat}
    (hN : 0 < N) : sumTo (softmax E tau s N) N = 1 := by
  have hW := sumTo_exp_pos E (fun k => s k / tau) hN
  have e : sumTo (softmax E tau s N) N
      = sumTo (fun k => E.exp (s k / tau) / sumTo (fun k => E.exp (s k / tau)) N) N :=
    sumTo_congr (fun k _ => rfl)
  rw [e, sumTo_div_const]
  grind

/-- Lemma 25 and Lemma 6 (statements E and Z, softmax is the normalised rescaled weights): for any
reference score `m` (e.g. the maximum), `softmax_j = w_j / Σ_{k<N} w_k` with `w_k = exp((s_k -
m)/τ)`. -/
theorem softmax_eq_div_sumTo (E : ExpLike α) (tau m : α) (s : Nat → α) (N j : Nat) :
    softmax E tau s N j
      = E.exp ((s j - m) / tau) / sumTo (fun k => E.exp ((s k - m) / tau)) N := by
  unfold softmax
  have hc := E.pos (m / tau)
  have h1 : sumTo (fun k => E.exp (s k / tau)) N
      = sumTo (fun k => E.exp ((s k - m) / tau)) N * E.exp (m / tau) := by
    rw [← sumTo_mul_const]
    apply sumTo_congr
    intro k _
    show E.exp (s k / tau) = E.exp ((s k - m) / tau) * E.exp (m / tau)
    rw [ExpLike.exp_sub_div_mul]
  rw [h1, ← ExpLike.exp_sub_div_mul E (s j) m tau]
  have hne : E.exp (m / tau) ≠ 0 := ne_zero_of_zero_lt (E.pos _)
  generalize E.exp (m / tau) = c at hne ⊢
  generalize sumTo (fun k => E.exp ((s k - m) / tau)) N = W
  generalize E.exp ((s j - m) / tau) = a
  by_cases hW : W = 0
  · subst hW; grind
  · grind

/-- Lemma 25 (Edelman et al. bound, statement E, gap bound): `τ > 0` and `s_j ≤ m - γ` give
`exp((s_j - m)/τ) ≤ x = exp(-γ/τ)`. -/
theorem weight_le_of_le_sub (E : ExpLike α) {s m gamma tau : α} (htau : 0 < tau)
    (h : s ≤ m - gamma) : E.exp ((s - m) / tau) ≤ E.exp (-gamma / tau) := by
  apply E.mono
  exact div_le_div_of_le htau (by grind)

/-- Lemma 6 (statement Z, ziggurat weights): `τ > 0` and `s_0 - s_k ≥ k γ` give `exp((s_k -
s_0)/τ) ≤ x^k` with `x = exp(-γ/τ)`. -/
theorem weight_le_pow_of_ziggurat (E : ExpLike α) {s0 sk gamma tau : α} {k : Nat}
    (htau : 0 < tau) (h : natCast k * gamma ≤ s0 - sk) :
    E.exp ((sk - s0) / tau) ≤ E.exp (-gamma / tau) ^ k := by
  rw [← E.exp_natCast_mul]
  apply E.mono
  have h1 := div_le_div_of_le htau (by grind : sk - s0 ≤ -(natCast k * gamma))
  have h2 : -(natCast k * gamma) / tau = natCast k * (-gamma / tau) := by grind
  grind

/-- Lemma 25 and Lemma 6 (statements E and Z): `γ ≥ 0` and `τ > 0` give `x = exp(-γ/τ) ≤ 1`. -/
theorem exp_neg_div_le_one (E : ExpLike α) {gamma tau : α} (hg : 0 ≤ gamma) (htau : 0 < tau) :
    E.exp (-gamma / tau) ≤ 1 := by
  rw [← E.zero]
  apply E.mono
  have := div_le_div_of_le htau (by grind : -gamma ≤ 0)
  grind

/-- Lemma 25 (Edelman et al. bound, statement E, from scores): for scores `s_j` (`j < N`), a max set
of `m ≥ 1` positions with `s_j = s_max`, every other score `≤ s_max - γ`, and `τ > 0`, the softmax
mass off the max set is at most `(N-m) x / (m + (N-m) x)` and at most `(N-1) x`, `x = exp(-γ/τ)`. -/
theorem softmax_offMass_le_of_gap (E : ExpLike α) {s : Nat → α} {isMax : Nat → Bool}
    {smax gamma tau : α} {N : Nat} (htau : 0 < tau)
    (hmax : ∀ j, j < N → isMax j = true → s j = smax)
    (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma)
    (hm : 0 < countMax isMax N) :
    offMass isMax (softmax E tau s N) N
        ≤ natCast (N - countMax isMax N) * E.exp (-gamma / tau)
          / (natCast (countMax isMax N) + natCast (N - countMax isMax N) * E.exp (-gamma / tau)) ∧
      offMass isMax (softmax E tau s N) N ≤ natCast (N - 1) * E.exp (-gamma / tau) := by
  have hp : offMass isMax (softmax E tau s N) N
      = offMass isMax (fun k => E.exp ((s k - smax) / tau)) N
        / sumTo (fun k => E.exp ((s k - smax) / tau)) N := by
    rw [← offMass_div_const]
    apply offMass_congr
    intro k _
    rw [softmax_eq_div_sumTo E tau smax]
  have hw1 : ∀ j, j < N → isMax j = true → E.exp ((s j - smax) / tau) = 1 :=
    fun j hj h => weight_eq_one_of_eq_max E (hmax j hj h)
  have hwx : ∀ j, j < N → isMax j = false → E.exp ((s j - smax) / tau) ≤ E.exp (-gamma / tau) :=
    fun j hj h => weight_le_of_le_sub E htau (hgap j hj h)
  have hw0 : ∀ j, j < N → isMax j = false → 0 ≤ E.exp ((s j - smax) / tau) :=
    fun j _ _ => Std.le_of_lt (E.pos _)
  have hx := Std.le_of_lt (E.pos (-gamma / tau))
  rw [hp]
  exact ⟨offMass_div_sumTo_le hw1 hwx hw0 hx hm,
    offMass_div_sumTo_le_pred_mul hw1 hwx hw0 hx hm⟩

/-- Lemma 25 (Edelman et al. bound, statement E, `ℓ₁` form, from scores): under the hypotheses of
`softmax_offMass_le_of_gap`, `‖softmax_τ(s) - ahardmax(s)‖₁ = Σ_{j<N} |p_j - ahardmax_j| = 2 δ ≤ 2
(N-1) x`, where `δ` is the softmax mass off the max set and `x = exp(-γ/τ)`: each maximal position
gets `(1-δ)/m`. -/
theorem sumTo_absv_softmax_sub_ahardmax_le (E : ExpLike α) {s : Nat → α} {isMax : Nat → Bool}
    {smax gamma tau : α} {N : Nat} (htau : 0 < tau)
    (hmax : ∀ j, j < N → isMax j = true → s j = smax)
    (hgap : ∀ j, j < N → isMax j = false → s j ≤ smax - gamma)
    (hm : 0 < countMax isMax N) :
    sumTo (fun j => absv (softmax E tau s N j - ahardmax isMax N j)) N
        = 2 * offMass isMax (softmax E tau s N) N ∧
      sumTo (fun j => absv (softmax E tau s N j - ahardmax isMax N j)) N
        ≤ 2 * natCast (N - 1) * E.exp (-gamma / tau) := by
  have hw1 : ∀ j, j < N → isMax j = true → E.exp ((s j - smax) / tau) = 1 :=
    fun j hj h => weight_eq_one_of_eq_max E (hmax j hj h)
  have hT := sumTo_eq_countMax_add_offMass (isMax := isMax) hw1
  have hp : offMass isMax (softmax E tau s N) N
      = offMass isMax (fun k => E.exp ((s k - smax) / tau)) N
        / sumTo (fun k => E.exp ((s k - smax) / tau)) N := by
    rw [← offMass_div_const]
    apply offMass_congr
    intro k _
    rw [softmax_eq_div_sumTo E tau smax]
  have hm1 := one_le_natCast_of_pos (α := α) hm
  have hO := offMass_nonneg (isMax := isMax) (w := fun k => E.exp ((s k - smax) / tau)) (N := N)
    (fun j _ _ => Std.le_of_lt (E.pos _))
  have hmaxp : ∀ j, j < N → isMax j = true → softmax E tau s N j
      = (1 - offMass isMax (softmax E tau s N) N) / natCast (countMax isMax N) := by
    intro j hj h
    rw [hp, softmax_eq_div_sumTo E tau smax, hw1 j hj h, hT]
    generalize offMass isMax (fun k => E.exp ((s k - smax) / tau)) N = O at hO ⊢
    generalize (natCast (countMax isMax N) : α) = m at hm1 ⊢
    have hW : m + O ≠ 0 := by grind
    have hm0 : m ≠ 0 := ne_zero_of_zero_lt (zero_lt_of_one_le hm1)
    have e1 : 1 - O / (m + O) = m / (m + O) := by grind
    rw [e1]
    grind
  have hoff0 : ∀ j, j < N → isMax j = false → 0 ≤ softmax E tau s N j := by
    intro j _ _
    rw [softmax_eq_div_sumTo E tau smax]
    have hb : 0 < sumTo (fun k => E.exp ((s k - smax) / tau)) N := by rw [hT]; grind
    exact div_nonneg_of_nonneg (Std.le_of_lt (E.pos _)) hb
  have hE := (softmax_offMass_le_of_gap E htau hmax hgap hm).2
  exact ⟨sumTo_absv_sub_ahardmax_eq hm hmaxp hoff0,
    sumTo_absv_sub_ahardmax_le hm hmaxp hoff0 hE⟩

/-- Lemma 6 (statement Z, ziggurat, from scores): for `N ≥ 1` scores with `s_0 - s_k ≥ k γ` (`0 <
k < N`), `γ ≥ 0` and `τ > 0`, the softmax mass off the top position is at most `x = exp(-γ/τ)`,
whatever `N`; if moreover `x < 1` it is at most `(x - x^N)/(1 - x^N)`. -/
theorem softmax_mass_off_top_le_of_ziggurat (E : ExpLike α) {s : Nat → α} {gamma tau : α}
    {N : Nat} (hN : 0 < N) (htau : 0 < tau) (hg : 0 ≤ gamma)
    (hz : ∀ k, 0 < k → k < N → natCast k * gamma ≤ s 0 - s k) :
    sumTo (softmax E tau s N) N - softmax E tau s N 0 ≤ E.exp (-gamma / tau) ∧
      (E.exp (-gamma / tau) < 1 →
        sumTo (softmax E tau s N) N - softmax E tau s N 0
          ≤ (E.exp (-gamma / tau) - E.exp (-gamma / tau) ^ N)
            / (1 - E.exp (-gamma / tau) ^ N)) := by
  have hsum : sumTo (softmax E tau s N) N - softmax E tau s N 0
      = (sumTo (fun k => E.exp ((s k - s 0) / tau)) N - E.exp ((s 0 - s 0) / tau))
        / sumTo (fun k => E.exp ((s k - s 0) / tau)) N := by
    have h1 : sumTo (softmax E tau s N) N
        = sumTo (fun k => E.exp ((s k - s 0) / tau) / sumTo (fun k => E.exp ((s k - s 0) / tau)) N) N := by
      apply sumTo_congr
      intro k _
      rw [softmax_eq_div_sumTo E tau (s 0)]
    rw [h1, sumTo_div_const, softmax_eq_div_sumTo E tau (s 0)]
    grind
  have hw0 : 0 < E.exp ((s 0 - s 0) / tau) := E.pos _
  have hnn : ∀ k, k < N → 0 ≤ E.exp ((s k - s 0) / tau) := fun k _ => Std.le_of_lt (E.pos _)
  have hone : E.exp ((s 0 - s 0) / tau) = 1 := weight_eq_one_of_eq_max E rfl
  have hw : ∀ k, 0 < k → k < N →
      E.exp ((s k - s 0) / tau) ≤ E.exp (-gamma / tau) ^ k * E.exp ((s 0 - s 0) / tau) := by
    intro k hk1 hk2
    rw [hone]
    have := weight_le_pow_of_ziggurat E htau (hz k hk1 hk2)
    grind
  have hx0 := Std.le_of_lt (E.pos (-gamma / tau))
  have hx1 := exp_neg_div_le_one E hg htau
  rw [hsum]
  refine ⟨sumTo_sub_top_div_sumTo_le hN hw0 hnn hw hx0 hx1, fun hlt => ?_⟩
  exact (sumTo_sub_top_div_sumTo_le_geom hN hw0 hnn hw hx0 hlt).1

end HardSoft

end
