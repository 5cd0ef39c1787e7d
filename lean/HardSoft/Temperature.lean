module

public import HardSoft.Recursion
public import HardSoft.Exp

/-!
# The temperature of Theorem 26 (statement T), for every depth

Theorem 26 of Yang, Strobl, Chiang, Angluin, "Simulating Hard Attention Using Soft Attention"
(arXiv 2412.09925) chooses `1/τ = O((1/γ) log(n x_max / γ))`; the project's statement T makes the
choice explicit: with `r_l ≤ R/τ` and `a_l ≤ A N e^{-γ/τ}` at every layer,

  `1/τ ≥ (2/γ) ln(A N L R^(L-1) (2(L-1)/(e γ))^(L-1) / ε)` gives `B_L ≤ ε`

for that `τ` and every smaller one. The proof: `B_L ≤ L a r^(L-1)` (`bound_const_le_mul_pow`, after
replacing every layer's constants by the largest ones, `bound_le_bound_of_le`) and
`t^k e^{-γ t} ≤ (2k/(e γ))^k e^{-γ t/2}` for `t = 1/τ`, which is `max_u u^k e^{-u} = (k/e)^k` and
follows from fact F1 (`1 + x ≤ exp x`, `ExpLike.Tangent`); then the formula is `e^{γ t/2} ≥ C/ε`.
The logarithm enters only through `exp (log x) = x` (`ExpLike.IsLog`).

No non-vacuity theorem at `Rat`: the only `ExpLike` over `Rat` is the constant `1` (see
`HardSoft.Exp`), and `1 + x ≤ 1` fails at `x = 1`, so F1 holds of no exponential over `Rat`; each
fact is checked to hold of the real exponential by `tests/spec/test_exp_facts.py`.

## Main results

* `HardSoft.pow_mul_exp_one_pow_le`: `u^k e^k ≤ k^k exp u` for `u ≥ 0` (from F1).
* `HardSoft.bound_le_eps_of_temperature`: statement T with any `ℓ ≥ ln(C/ε)`.
* `HardSoft.bound_le_eps_of_inverse_temperature`: statement T with the logarithm, as stated.
-/

public section

set_option autoImplicit false

namespace HardSoft

section Ring

variable {α : Type} [Lean.Grind.Field α]

/-- Theorem 26 (statement T), helper (powers): `(a b)^k = a^k b^k`. -/
theorem mul_pow_eq (a b : α) (k : Nat) : (a * b) ^ k = a ^ k * b ^ k := by
  induction k with
  | zero => rw [pow_zero_eq, pow_zero_eq, pow_zero_eq]; exact (Lean.Grind.Semiring.mul_one 1).symm
  | succ k ih => rw [pow_succ_eq, pow_succ_eq, pow_succ_eq, ih]; grind

end Ring

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α]
  [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Theorem 26 (statement T), helper (powers): `0 ≤ a ≤ b` gives `a^k ≤ b^k`. -/
theorem pow_le_pow_of_nonneg_of_le {a b : α} (ha : 0 ≤ a) (hab : a ≤ b) (k : Nat) : a ^ k ≤ b ^ k := by
  induction k with
  | zero => rw [pow_zero_eq, pow_zero_eq]; exact Std.le_refl _
  | succ k ih =>
    rw [pow_succ_eq, pow_succ_eq]
    exact Std.le_trans (OrderedRing.mul_le_mul_of_nonneg_right ih ha)
      (OrderedRing.mul_le_mul_of_nonneg_left hab (pow_nonneg_of_nonneg (Std.le_trans ha hab) k))

/-- Theorem 26 (statement T), helper (powers): `a > 0` gives `a^k > 0`. -/
theorem pow_pos_of_pos {a : α} (ha : 0 < a) (k : Nat) : 0 < a ^ k := by
  induction k with
  | zero => rw [pow_zero_eq]; exact zero_lt_of_one_le (Std.le_refl 1)
  | succ k ih => rw [pow_succ_eq]; exact OrderedRing.mul_pos ih ha

/-- Theorem 26 (statement T), helper: `0 < 2`. -/
theorem two_pos_of : (0 : α) < 2 := by
  have := OrderedRing.zero_lt_one (R := α)
  grind

/-- Theorem 26 (statement T, the polynomial against the exponential): with fact F1 (`1 + x ≤ exp x`),
`u^k e^k ≤ k^k exp(u)` for `u ≥ 0` (`e = exp 1`), i.e. `u^k e^{-u} ≤ (k/e)^k`, the maximum of `u^k e^{-u}`:
F1 at `u/k - 1` gives `u e ≤ k exp(u/k)`, raised to the `k`-th power. -/
theorem pow_mul_exp_one_pow_le (E : ExpLike α) (hT : ExpLike.Tangent E) {u : α} (hu : 0 ≤ u) (k : Nat) :
    u ^ k * E.exp 1 ^ k ≤ natCast k ^ k * E.exp u := by
  cases k with
  | zero =>
    rw [pow_zero_eq, pow_zero_eq, pow_zero_eq]
    have := E.one_le_exp hu
    grind
  | succ m =>
    have hc : (0 : α) < natCast (m + 1) := by
      have := natCast_nonneg (α := α) m; rw [natCast_succ]; grind
    have hc0 : (natCast (m + 1) : α) ≠ 0 := ne_zero_of_zero_lt hc
    have h1 := hT (u / natCast (m + 1) - 1)
    have he := E.pos 1
    have h2 : u * E.exp 1 ≤ natCast (m + 1) * E.exp (u / natCast (m + 1)) := by
      have e1 : E.exp (u / natCast (m + 1) - 1) * E.exp 1 = E.exp (u / natCast (m + 1)) := by
        rw [← E.add]; congr 1; grind
      have h3 := OrderedRing.mul_le_mul_of_nonneg_right h1 (Std.le_of_lt he)
      have h4 := OrderedRing.mul_le_mul_of_nonneg_left h3 (Std.le_of_lt hc)
      rw [e1] at h4
      have e2 : natCast (m + 1) * ((1 + (u / natCast (m + 1) - 1)) * E.exp 1) = u * E.exp 1 := by
        have : natCast (m + 1) * (u / natCast (m + 1)) = u := by
          rw [CommSemiring.mul_comm]; exact div_mul_cancel_of_ne_zero hc0
        grind
      rw [e2] at h4
      exact h4
    have h5 := pow_le_pow_of_nonneg_of_le (OrderedRing.mul_nonneg hu (Std.le_of_lt he)) h2 (m + 1)
    have e3 : natCast (m + 1) * (u / natCast (m + 1)) = u := by
      rw [CommSemiring.mul_comm]; exact div_mul_cancel_of_ne_zero hc0
    have e4 : E.exp (u / natCast (m + 1)) ^ (m + 1) = E.exp u := by
      rw [← E.exp_natCast_mul, e3]
    rw [mul_pow_eq, mul_pow_eq, e4] at h5
    exact h5

/-- Theorem 26 (statements C and T), helper: the bound recursion is monotone in its constants:
`0 ≤ r_l ≤ r'_l` and `0 ≤ a_l ≤ a'_l` for `l < L` give `B_l ≤ B'_l` for `l ≤ L`. -/
theorem bound_le_bound_of_le {r a r' a' : Nat → α} {L : Nat} (hr : ∀ l, l < L → 0 ≤ r l)
    (hrr : ∀ l, l < L → r l ≤ r' l) (ha : ∀ l, l < L → 0 ≤ a l) (haa : ∀ l, l < L → a l ≤ a' l) :
    ∀ l, l ≤ L → bound r a l ≤ bound r' a' l := by
  have hB' := bound_nonneg (r := r') (a := a') (L := L) (fun l hl => Std.le_trans (hr l hl) (hrr l hl))
    (fun l hl => Std.le_trans (ha l hl) (haa l hl))
  intro l
  induction l with
  | zero => intro _; rw [bound_zero, bound_zero]; exact Std.le_refl _
  | succ l ih =>
    intro hl
    have ih' := ih (by omega)
    rw [bound_succ, bound_succ]
    have h1 := OrderedRing.mul_le_mul_of_nonneg_left ih' (hr l (by omega))
    have h2 := OrderedRing.mul_le_mul_of_nonneg_right (hrr l (by omega)) (hB' l (by omega))
    have h3 := haa l (by omega)
    grind

/-- Theorem 26 (statement T, `max_t t^k e^{-γ t/2} = (2k/(e γ))^k`): with fact F1, `γ > 0` and
`t ≥ 0`, `t^k e^{-γ t} ≤ (2k/(e γ))^k e^{-γ t/2}`. -/
theorem pow_mul_exp_neg_le (E : ExpLike α) (hT : ExpLike.Tangent E) {gamma t : α} (hg : 0 < gamma)
    (ht : 0 ≤ t) (k : Nat) :
    t ^ k * E.exp (-(gamma * t)) ≤ (2 * natCast k / (E.exp 1 * gamma)) ^ k * E.exp (-(gamma * t / 2)) := by
  have he := E.pos 1
  have heg : 0 < E.exp 1 * gamma := OrderedRing.mul_pos he hg
  have hu : 0 ≤ gamma * t / 2 := by
    have := OrderedRing.mul_nonneg (Std.le_of_lt hg) ht; grind
  have h1 := pow_mul_exp_one_pow_le E hT hu k
  have h2 := OrderedRing.mul_le_mul_of_nonneg_left h1 (pow_nonneg_of_nonneg (by grind : (0 : α) ≤ 2) k)
  have h3 := OrderedRing.mul_le_mul_of_nonneg_right h2 (Std.le_of_lt (E.pos (-(gamma * t))))
  -- left: 2^k (u^k e^k) x = t^k x (e γ)^k ; right: 2^k (k^k e^u) x = (2k)^k e^{-u}
  have eL : 2 ^ k * ((gamma * t / 2) ^ k * E.exp 1 ^ k) * E.exp (-(gamma * t))
      = t ^ k * E.exp (-(gamma * t)) * (E.exp 1 * gamma) ^ k := by
    rw [mul_pow_eq (E.exp 1) gamma, ← Semiring.mul_assoc, ← mul_pow_eq,
      show 2 * (gamma * t / 2) = t * gamma by grind, mul_pow_eq]
    grind
  have eu : E.exp (gamma * t / 2) * E.exp (-(gamma * t)) = E.exp (-(gamma * t / 2)) := by
    rw [← E.add]; congr 1; grind
  have eR : 2 ^ k * (natCast k ^ k * E.exp (gamma * t / 2)) * E.exp (-(gamma * t))
      = (2 * natCast k / (E.exp 1 * gamma)) ^ k * E.exp (-(gamma * t / 2)) * (E.exp 1 * gamma) ^ k := by
    have hP : (2 * natCast k / (E.exp 1 * gamma)) ^ k * (E.exp 1 * gamma) ^ k = (2 * natCast k) ^ k := by
      rw [← mul_pow_eq, div_mul_cancel_of_ne_zero (ne_zero_of_zero_lt heg)]
    rw [mul_pow_eq 2 (natCast k)] at hP
    rw [Semiring.mul_assoc, Semiring.mul_assoc, eu]
    grind
  rw [eL, eR] at h3
  exact (Field.IsOrdered.mul_le_mul_iff_of_pos_right (pow_pos_of_pos heg k)).mp h3

/-- Theorem 26 (statement T), helper: `γ > 0` and `(2/γ) ℓ ≤ t` give `ℓ ≤ γ t / 2`. -/
theorem le_mul_div_two_of_two_div_mul_le {g ell t : α} (hg : 0 < g) (h : 2 / g * ell ≤ t) :
    ell ≤ g * t / 2 := by
  have h1 := OrderedRing.mul_le_mul_of_nonneg_left h (Std.le_of_lt hg)
  have hg0 : g ≠ 0 := ne_zero_of_zero_lt hg
  have e : g * (2 / g * ell) = 2 * ell := by grind
  grind

/-- Theorem 26 (statement T), helper: `0 ≤ C ≤ ε y` with `y > 0` gives `ε ≥ 0`. -/
theorem nonneg_of_le_mul_pos {C eps y : α} (hC : 0 ≤ C) (hy : 0 < y) (h : C ≤ eps * y) : 0 ≤ eps := by
  apply Classical.byContradiction
  intro hne
  have := OrderedRing.mul_lt_mul_of_pos_right (by grind : eps < 0) hy
  grind

/-- Theorem 26 (statement T), helper: `(R/τ)^k = R^k (1/τ)^k`. -/
theorem div_pow_eq_mul_pow (R tau : α) (k : Nat) : (R / tau) ^ k = R ^ k * (1 / tau) ^ k := by
  rw [← mul_pow_eq, Field.div_eq_mul_inv, Field.div_eq_mul_inv, Semiring.one_mul]

/-- Theorem 26 (statement T), helper: the last step over plain variables: `B ≤ n (A x)(R_k T)`, `A n R_k
(T x) ≤ A n R_k (P w)`, `A n R_k P w ≤ ε v w` and `v w = 1` give `B ≤ ε`. -/
theorem bound_chain_le {B nL AN x Rk T P w eps v : α} (s2 : B ≤ nL * (AN * x) * (Rk * T))
    (s4 : AN * nL * Rk * (T * x) ≤ AN * nL * Rk * (P * w)) (h7 : AN * nL * Rk * P * w ≤ eps * v * w)
    (e8 : v * w = 1) : B ≤ eps := by
  have h8 : eps * v * w = eps := by rw [Semiring.mul_assoc, e8, Semiring.mul_one]
  have e9 : nL * (AN * x) * (Rk * T) = AN * nL * Rk * (T * x) := by grind
  have e10 : AN * nL * Rk * (P * w) = AN * nL * Rk * P * w := by grind
  rw [e9] at s2
  rw [e10] at s4
  exact Std.le_trans s2 (Std.le_trans s4 (h8 ▸ h7))

/-- Theorem 26 (statement T, the temperature, for every depth `L`): for an exponential with
`ExpLike`'s properties and fact F1 (`ExpLike.Tangent`), `L ≥ 1` layers whose constants at temperature
`τ > 0` satisfy `1 ≤ r_l ≤ R/τ` and `0 ≤ a_l ≤ A N e^{-γ/τ}` (`A N ≥ 0`, `γ > 0`), and any `ℓ` with
`A N L R^(L-1) (2(L-1)/(e γ))^(L-1) ≤ ε e^ℓ` (`ℓ = ln(A N L R^(L-1) (2(L-1)/(e γ))^(L-1)/ε)` is the
least): if `1/τ ≥ (2/γ) ℓ` then `B_L ≤ ε`. The hypotheses on `τ` hold for every smaller `τ` of the
same model as soon as they hold for one, so the formula certifies that temperature and every colder
one. -/
theorem bound_le_eps_of_temperature (E : ExpLike α) (hT : ExpLike.Tangent E) {r a : Nat → α}
    {R AN gamma eps tau ell : α} {L : Nat} (hL : 0 < L) (hAN : 0 ≤ AN) (hg : 0 < gamma)
    (htau : 0 < tau) (hr1 : ∀ l, l < L → 1 ≤ r l) (hr : ∀ l, l < L → r l ≤ R / tau)
    (ha0 : ∀ l, l < L → 0 ≤ a l) (ha : ∀ l, l < L → a l ≤ AN * E.exp (-gamma / tau))
    (hell : AN * natCast L * R ^ (L - 1) * (2 * natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1)
      ≤ eps * E.exp ell)
    (ht : 2 / gamma * ell ≤ 1 / tau) :
    bound r a L ≤ eps := by
  have hrs : 1 ≤ R / tau := Std.le_trans (hr1 0 hL) (hr 0 hL)
  have ha' : 0 ≤ AN * E.exp (-gamma / tau) := OrderedRing.mul_nonneg hAN (Std.le_of_lt (E.pos _))
  have s1 := bound_le_bound_of_le (r' := fun _ => R / tau) (a' := fun _ => AN * E.exp (-gamma / tau))
    (fun l hl => nonneg_of_one_le hr1 l hl) hr ha0 ha L (Nat.le_refl L)
  have s2 := bound_const_le_mul_pow hrs ha' L
  rw [div_pow_eq_mul_pow] at s2
  have ht0 : 0 ≤ 1 / tau := div_nonneg_of_nonneg (Std.le_of_lt OrderedRing.zero_lt_one) htau
  have hR0 : 0 ≤ R := by
    have := OrderedRing.mul_le_mul_of_nonneg_right hrs (Std.le_of_lt htau)
    rw [div_mul_cancel_of_ne_zero (ne_zero_of_zero_lt htau)] at this
    exact Std.le_trans (Std.le_of_lt htau) (by rwa [Semiring.one_mul] at this)
  have key := pow_mul_exp_neg_le E hT hg ht0 (L - 1)
  rw [show -(gamma * (1 / tau)) = -gamma / tau by
    rw [Field.div_eq_mul_inv, Field.div_eq_mul_inv, Semiring.one_mul, Ring.neg_mul]] at key
  have hC0 := OrderedRing.mul_nonneg (OrderedRing.mul_nonneg hAN (natCast_nonneg (α := α) L))
    (pow_nonneg_of_nonneg hR0 (L - 1))
  have s4 := OrderedRing.mul_le_mul_of_nonneg_left key hC0
  have hP0 := pow_nonneg_of_nonneg (div_nonneg_of_nonneg
    (OrderedRing.mul_nonneg (Std.le_of_lt (two_pos_of (α := α))) (natCast_nonneg (α := α) (L - 1)))
    (OrderedRing.mul_pos (E.pos 1) hg)) (L - 1)
  have heps := nonneg_of_le_mul_pos (OrderedRing.mul_nonneg hC0 hP0) (E.pos ell) hell
  have h6 := OrderedRing.mul_le_mul_of_nonneg_left
    (E.mono _ _ (le_mul_div_two_of_two_div_mul_le hg ht)) heps
  have h7 := OrderedRing.mul_le_mul_of_nonneg_right (Std.le_trans hell h6)
    (Std.le_of_lt (E.pos (-(gamma * (1 / tau) / 2))))
  have e8 : E.exp (gamma * (1 / tau) / 2) * E.exp (-(gamma * (1 / tau) / 2)) = 1 := by
    rw [CommSemiring.mul_comm]; exact E.exp_neg_mul _
  exact Std.le_trans s1 (bound_chain_le s2 s4 h7 e8)

/-- Theorem 26 (statement T, the stated formula): under the hypotheses of `bound_le_eps_of_temperature`
with `A N > 0` and `ε > 0`, and `log` a logarithm for `exp` (`ExpLike.IsLog`: `exp (log x) = x` for
`x > 0`), `1/τ ≥ (2/γ) ln(A N L R^(L-1) (2(L-1)/(e γ))^(L-1) / ε)` gives `B_L ≤ ε`, for that `τ` and
every smaller one. -/
theorem bound_le_eps_of_inverse_temperature (E : ExpLike α) (hT : ExpLike.Tangent E) (log : α → α)
    (hlog : ExpLike.IsLog E log) {r a : Nat → α} {R AN gamma eps tau : α} {L : Nat} (hL : 0 < L)
    (hAN : 0 < AN) (hg : 0 < gamma) (heps : 0 < eps) (htau : 0 < tau)
    (hr1 : ∀ l, l < L → 1 ≤ r l) (hr : ∀ l, l < L → r l ≤ R / tau)
    (ha0 : ∀ l, l < L → 0 ≤ a l) (ha : ∀ l, l < L → a l ≤ AN * E.exp (-gamma / tau))
    (ht : 2 / gamma * log (AN * natCast L * R ^ (L - 1)
      * (2 * natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1) / eps) ≤ 1 / tau) :
    bound r a L ≤ eps := by
  have hrs : 1 ≤ R / tau := Std.le_trans (hr1 0 hL) (hr 0 hL)
  have hR : 0 < R := by
    have := OrderedRing.mul_le_mul_of_nonneg_right hrs (Std.le_of_lt htau)
    rw [div_mul_cancel_of_ne_zero (ne_zero_of_zero_lt htau)] at this
    exact Std.lt_of_lt_of_le htau (by rwa [Semiring.one_mul] at this)
  have hP : 0 < (2 * natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1) := by
    cases h : L - 1 with
    | zero => rw [pow_zero_eq]; exact OrderedRing.zero_lt_one
    | succ k =>
      have hk := zero_lt_of_one_le (one_le_natCast_of_pos (α := α) (Nat.succ_pos k))
      exact pow_pos_of_pos (zero_lt_div_of_zero_lt (OrderedRing.mul_pos two_pos_of hk)
        (OrderedRing.mul_pos (E.pos 1) hg)) _
  have hLc := zero_lt_of_one_le (one_le_natCast_of_pos (α := α) hL)
  have hC : 0 < AN * natCast L * R ^ (L - 1) * (2 * natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1) :=
    OrderedRing.mul_pos (OrderedRing.mul_pos (OrderedRing.mul_pos hAN hLc) (pow_pos_of_pos hR _)) hP
  refine bound_le_eps_of_temperature E hT hL (Std.le_of_lt hAN) hg htau hr1 hr ha0 ha ?_ ht
  rw [hlog _ (zero_lt_div_of_zero_lt hC heps)]
  have := div_mul_cancel_of_ne_zero (a := AN * natCast L * R ^ (L - 1)
    * (2 * natCast (L - 1) / (E.exp 1 * gamma)) ^ (L - 1)) (ne_zero_of_zero_lt heps)
  rw [CommSemiring.mul_comm eps, this]
  exact Std.le_refl _

end HardSoft

end
