module

public import HardSoft.Exp

/-!
# Softmax is Lipschitz: statement S for every number of positions

Lemma 25 of Yang, Strobl, Chiang, Angluin, "Simulating Hard Attention Using Soft Attention"
(arXiv 2412.09925) uses that softmax at temperature `τ` is `1/τ`-Lipschitz from `‖·‖_∞` to `‖·‖₁`
(statement S): `‖softmax_τ(a) - softmax_τ(b)‖₁ ≤ ‖a - b‖_∞ / τ`. This file proves it for every
number `N` of positions, for any exponential with `ExpLike`'s properties and the log-mean
inequality F5 (`ExpLike.LogMean`: `2 (exp δ - 1) ≤ δ (exp δ + 1)` for `δ ≥ 0`), the argument of the
SMT check `smt/s_lipschitz.py`, there only up to a preset `N`:

* with `p = softmax_τ(a)`, `q = softmax_τ(b)`, `δ = d/τ` and `y = exp δ`, every ratio `q_j / p_j =
  λ exp((b_j - a_j)/τ)` lies in `[λ/y, λ y]`, `λ = Σ_k exp(a_k/τ) / Σ_k exp(b_k/τ)`;
* two probability vectors with ratios in `[λ/y, λ y]` have `‖p - q‖₁ ≤ 2 (y - 1)/(y + 1)` (the chord
  of the convex `|r - 1|` over the ratio interval bounds each position; summed, the excess over
  `2 (y - 1)/(y + 1)` is `-2 y (λ - 1)²/(λ (y² - 1)) ≤ 0`);
* F5 is `2 (y - 1)/(y + 1) ≤ δ`.

## Main results

* `HardSoft.sumTo_absv_sub_le_of_ratio`: the weight form, `(y + 1) ‖p - q‖₁ ≤ 2 (y - 1)`.
* `HardSoft.softmax_lipschitz`: statement S from the scores.
-/

public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Lemma 25 (statement S), helper: `|a| ≤ d` gives `a ≤ d` and `-d ≤ a`. -/
theorem le_and_neg_le_of_absv_le {a d : α} (h : absv a ≤ d) : a ≤ d ∧ -d ≤ a := by
  by_cases h0 : 0 ≤ a
  · rw [absv_of_nonneg h0] at h; constructor <;> grind
  · rw [absv_of_nonpos (by grind)] at h; constructor <;> grind

/-- Lemma 25 (statement S), helper: `|a| ≥ 0`. -/
theorem absv_nonneg (a : α) : 0 ≤ absv a := by
  by_cases h0 : 0 ≤ a
  · rw [absv_of_nonneg h0]; exact h0
  · rw [absv_of_nonpos (by grind)]; grind

/-- Lemma 25 (statement S), helper: `a ≤ d` and `-d ≤ a` give `|a| ≤ d`. -/
theorem absv_le_of_two_sided {a d : α} (h1 : a ≤ d) (h2 : -d ≤ a) : absv a ≤ d := by
  by_cases h0 : 0 ≤ a
  · rw [absv_of_nonneg h0]; exact h1
  · rw [absv_of_nonpos (by grind)]; grind

/-- Lemma 25 (statement P, the triangle inequality): `|a - c| ≤ |a - b| + |b - c|`. -/
theorem absv_sub_le_add {a b c : α} : absv (a - c) ≤ absv (a - b) + absv (b - c) := by
  have h1 := le_and_neg_le_of_absv_le (Std.le_refl (absv (a - b)))
  have h2 := le_and_neg_le_of_absv_le (Std.le_refl (absv (b - c)))
  exact absv_le_of_two_sided (by grind) (by grind)

/-- Lemma 25 (statement S), helper: per-position bounds `C f_j ≤ A p_j + B q_j` (`j < N`) sum to
`C Σ f ≤ A Σ p + B Σ q`. -/
theorem mul_sumTo_le_of_le {f p q : Nat → α} {A B C : α} {N : Nat}
    (h : ∀ j, j < N → C * f j ≤ A * p j + B * q j) :
    C * sumTo f N ≤ A * sumTo p N + B * sumTo q N := by
  induction N with
  | zero => rw [sumTo_zero, sumTo_zero, sumTo_zero]; grind
  | succ n ih =>
    have ih' := ih (fun j hj => h j (by omega))
    have hn := h n (by omega)
    rw [sumTo_succ, sumTo_succ, sumTo_succ]
    grind

/-- Lemma 25 (statement S), helper: a square is non-negative. -/
theorem mul_self_nonneg_of {a : α} : 0 ≤ a * a := by
  by_cases h : 0 ≤ a
  · exact OrderedRing.mul_nonneg h h
  · have h' : 0 ≤ -a := by grind
    have := OrderedRing.mul_nonneg h' h'
    grind

/-- Lemma 25 (statement S), one position: with `λ p ≤ y q ≤ y² λ p` (the ratio `q/p` in `[λ/y, λ y]`),
`λ ≤ y` and `1 ≤ y λ`, `λ (y² - 1) |p - q| ≤ (λ (y² + 1) - 2 y λ²) p + (λ (y² + 1) - 2 y) q`: the
chord of the convex `|r - 1|` over `[λ/y, λ y]`, cleared of denominators (each sign case is a product
of two non-negative factors). -/
theorem tv_term_le {p q lam y : α} (hlo : lam * p ≤ y * q) (hhi : q ≤ y * lam * p)
    (hly : lam ≤ y) (hyl : 1 ≤ y * lam) :
    lam * (y * y - 1) * absv (p - q)
      ≤ (lam * (y * y + 1) - 2 * y * lam * lam) * p + (lam * (y * y + 1) - 2 * y) * q := by
  by_cases hpq : p ≤ q
  · rw [absv_of_nonpos (by grind)]
    have h := OrderedRing.mul_nonneg (by grind : (0 : α) ≤ y - lam) (by grind : (0 : α) ≤ y * lam * p - q)
    grind
  · rw [absv_of_nonneg (by grind)]
    have h := OrderedRing.mul_nonneg (by grind : (0 : α) ≤ y * lam - 1) (by grind : (0 : α) ≤ y * q - lam * p)
    grind

/-- Lemma 25 (statement S), helper over plain variables: the chords summed (`Σ p = Σ q = 1`), `λ (y² - 1) S ≤
2 λ (y² + 1) - 2 y λ² - 2 y`, give `(y + 1) S ≤ 2 (y - 1)` for `λ > 0`, `y > 1` (the excess is `-2 y (λ - 1)²`). -/
theorem tv_sum_le_of_chords {lam y S : α} (hlam : 0 < lam) (hy : 1 < y)
    (hS : lam * (y * y - 1) * S
      ≤ (lam * (y * y + 1) - 2 * y * lam * lam) * 1 + (lam * (y * y + 1) - 2 * y) * 1) :
    (y + 1) * S ≤ 2 * (y - 1) := by
  have hsq' := OrderedRing.mul_nonneg (by grind : (0 : α) ≤ y) (mul_self_nonneg_of (a := lam - 1))
  have hc : 0 < lam * (y - 1) := OrderedRing.mul_pos hlam (by grind)
  apply Classical.byContradiction
  intro hne
  have := OrderedRing.mul_pos hc (by grind : (0 : α) < (y + 1) * S - 2 * (y - 1))
  grind

/-- Lemma 25 (statement S, weight form; the SMT check's abstraction, for every `N`): probability
vectors `p`, `q` over `N` positions whose ratios `q_j / p_j` all lie in `[λ/y, λ y]` for some `λ > 0`
and `y ≥ 1` (written `λ p_j ≤ y q_j` and `q_j ≤ y λ p_j`) are within `‖p - q‖₁ ≤ 2 (y - 1)/(y + 1)`,
stated as `(y + 1) ‖p - q‖₁ ≤ 2 (y - 1)`. -/
theorem sumTo_absv_sub_le_of_ratio {p q : Nat → α} {lam y : α} {N : Nat} (hlam : 0 < lam)
    (hy : 1 ≤ y)
    (hlo : ∀ j, j < N → lam * p j ≤ y * q j) (hhi : ∀ j, j < N → q j ≤ y * lam * p j)
    (hsp : sumTo p N = 1) (hsq : sumTo q N = 1) :
    (y + 1) * sumTo (fun j => absv (p j - q j)) N ≤ 2 * (y - 1) := by
  have hly : lam ≤ y := by
    have := mul_sumTo_le_of_le (f := p) (p := p) (q := q) (A := 0) (B := y) (C := lam)
      (fun j hj => by have := hlo j hj; grind)
    rw [hsp, hsq] at this
    grind
  have hyl : 1 ≤ y * lam := by
    have := mul_sumTo_le_of_le (f := q) (p := p) (q := q) (A := y * lam) (B := 0) (C := 1)
      (fun j hj => by have := hhi j hj; grind)
    rw [hsp, hsq] at this
    grind
  by_cases hy1 : y = 1
  · subst hy1
    have hl : lam = 1 := by grind
    subst hl
    have hS := mul_sumTo_le_of_le (f := fun j => absv (p j - q j)) (p := p) (q := q) (A := 0) (B := 0)
      (C := 1) (fun j hj => by
        have h1 := hlo j hj
        have h2 := hhi j hj
        have : p j - q j = 0 := by grind
        show 1 * absv (p j - q j) ≤ 0 * p j + 0 * q j
        rw [this, absv_of_nonneg (by grind)]
        grind)
    grind
  · have hS := mul_sumTo_le_of_le (f := fun j => absv (p j - q j)) (p := p) (q := q)
      (A := lam * (y * y + 1) - 2 * y * lam * lam) (B := lam * (y * y + 1) - 2 * y)
      (C := lam * (y * y - 1)) (fun j hj => tv_term_le (hlo j hj) (hhi j hj) hly hyl)
    rw [hsp, hsq] at hS
    exact tv_sum_le_of_chords hlam (by grind) hS

/-- Lemma 25 (statement S), helper: `s ≠ 0` gives `s/t · (w/s) = w/t`. -/
theorem div_mul_div_cancel_of_ne {s t w : α} (hs : s ≠ 0) : s / t * (w / s) = w / t := by
  have h := Field.mul_inv_cancel hs
  rw [Field.div_eq_mul_inv, Field.div_eq_mul_inv, Field.div_eq_mul_inv]
  grind

/-- Lemma 25 (statement S), helper: `a - b ≤ d` and `τ > 0` give `exp(a/τ) ≤ exp(d/τ) exp(b/τ)`. -/
theorem exp_div_le_exp_mul (E : ExpLike α) {a b d tau : α} (htau : 0 < tau) (h : a - b ≤ d) :
    E.exp (a / tau) ≤ E.exp (d / tau) * E.exp (b / tau) := by
  rw [← E.add]
  apply E.mono
  have := div_le_div_of_le htau h
  have e : (a - b) / tau = a / tau - b / tau := by grind
  grind

/-- Lemma 25 (statement S, softmax is `1/τ`-Lipschitz, for every `N`): for any exponential with
`ExpLike`'s properties and fact F5 (`ExpLike.LogMean`), `τ > 0` and scores with `|a_j - b_j| ≤ d`
(`j < N`, `d ≥ 0`), `‖softmax_τ(a) - softmax_τ(b)‖₁ = Σ_{j<N} |softmax_τ(a)_j - softmax_τ(b)_j| ≤ d/τ`. -/
theorem softmax_lipschitz (E : ExpLike α) (hE : ExpLike.LogMean E) {a b : Nat → α} {d tau : α}
    {N : Nat} (htau : 0 < tau) (hd : 0 ≤ d) (hab : ∀ j, j < N → absv (a j - b j) ≤ d) :
    sumTo (fun j => absv (softmax E tau a N j - softmax E tau b N j)) N ≤ d / tau := by
  have hdt := div_nonneg_of_nonneg hd htau
  cases N with
  | zero => rw [sumTo_zero]; exact hdt
  | succ n =>
    have hs := sumTo_exp_pos E (fun k => a k / tau) (N := n + 1) (by omega)
    have ht := sumTo_exp_pos E (fun k => b k / tau) (N := n + 1) (by omega)
    have hy : 1 ≤ E.exp (d / tau) := by rw [← E.zero]; exact E.mono _ _ hdt
    have hw := sumTo_absv_sub_le_of_ratio (p := softmax E tau a (n + 1)) (q := softmax E tau b (n + 1))
      (lam := sumTo (fun k => E.exp (a k / tau)) (n + 1) / sumTo (fun k => E.exp (b k / tau)) (n + 1))
      (y := E.exp (d / tau)) (zero_lt_div_of_zero_lt hs ht) hy
      (fun j hj => by
        have h1 := (le_and_neg_le_of_absv_le (hab j hj)).1
        have h2 := exp_div_le_exp_mul E htau h1
        have h3 := div_le_div_of_le ht h2
        unfold softmax
        generalize sumTo (fun k => E.exp (a k / tau)) (n + 1) = s at hs h3 ⊢
        generalize sumTo (fun k => E.exp (b k / tau)) (n + 1) = t at ht h3 ⊢
        rw [div_mul_div_cancel_of_ne (ne_zero_of_zero_lt hs)]
        grind)
      (fun j hj => by
        have h1 := (le_and_neg_le_of_absv_le (hab j hj)).2
        have h2 := exp_div_le_exp_mul E htau (a := b j) (b := a j) (d := d) (by grind)
        have h3 := div_le_div_of_le ht h2
        unfold softmax
        generalize sumTo (fun k => E.exp (a k / tau)) (n + 1) = s at hs h3 ⊢
        generalize sumTo (fun k => E.exp (b k / tau)) (n + 1) = t at ht h3 ⊢
        rw [Semiring.mul_assoc, div_mul_div_cancel_of_ne (ne_zero_of_zero_lt hs)]
        grind)
      (sumTo_softmax_eq_one_of_pos E tau a (by omega)) (sumTo_softmax_eq_one_of_pos E tau b (by omega))
    have h5 := hE (d / tau) hdt
    generalize sumTo (fun j => absv (softmax E tau a (n + 1) j - softmax E tau b (n + 1) j)) (n + 1) = L at hw ⊢
    generalize E.exp (d / tau) = y at hw h5 hy
    generalize d / tau = D at h5 ⊢
    have hpos : 0 < y + 1 := by grind
    apply Classical.byContradiction
    intro hne
    have := OrderedRing.mul_lt_mul_of_pos_left (by grind : D < L) hpos
    grind

end HardSoft

end
