module

public import HardSoft.Main
public import HardSoft.Layer
public import HardSoft.Exp
public import HardSoft.Composition
public import HardSoft.Constructions
public import HardSoft.Lipschitz
public import HardSoft.Errata
public import HardSoft.Growth
public import HardSoft.LayerSteps

/-!
# Non-vacuity: every main theorem's hypotheses hold together at `Rat`

For each main theorem a theorem `nonvacuous_<name>` applies it at `α = Rat` to concrete values
and proves every hypothesis (by `rfl`, `decide`, `grind`, rewriting): so no main theorem holds only
because its hypotheses contradict each other. The values are small and chosen by hand; the
errors are non-zero where the statement allows it.
-/

public section

set_option autoImplicit false

namespace HardSoft

/-- Lemma 25 and Lemma 6 (statements E and Z) at `Rat`: the constant `1` is an `ExpLike` (over `Rat`
it is the only one). -/
@[expose] noncomputable def expOne : ExpLike Rat where
  exp := fun _ => 1
  pos := fun _ => by grind
  add := fun _ _ => by grind
  zero := rfl
  mono := fun _ _ _ => by grind

/-- Lemma 25 (Edelman et al. bound, statement E) at `Rat`, helper: `natCast 1 = 0 + 1`. -/
theorem natCast_one_rat : (natCast 1 : Rat) = 0 + 1 := rfl

/-- Lemma 25 (Edelman et al. bound, statement E) at `Rat`, helper: `natCast (2 - 1) = 0 + 1`. -/
theorem natCast_two_sub_one_rat : (natCast (2 - 1) : Rat) = 0 + 1 := rfl

/-! ### Statement C -/

/-- Non-vacuity of `bound_monotone`: its hypotheses hold together at `Rat`; `r = 2`, `a = 1/8`,
`L = 2`, `l = 1`. -/
theorem nonvacuous_bound_monotone : 0 ≤ bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 1 ∧
    bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 1 ≤ bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 :=
  bound_monotone (L := 2) (fun _ _ => by grind) (fun _ _ => by grind) (by omega)

/-- Non-vacuity of `err_le_bound_of_bound_le_one`: its hypotheses hold together at `Rat`; the bound
itself as error sequence, `B 2 = 3/8 ≤ 1`. -/
theorem nonvacuous_err_le_bound_of_bound_le_one :
    ∀ l, l ≤ 2 → bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l
      ≤ bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l ∧
    bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l ≤ 1 :=
  err_le_bound_of_bound_le_one (bound_zero _ _)
    (fun l _ _ => by have := bound_succ (fun _ => (2 : Rat)) (fun _ => 1 / 8) l; grind)
    (fun _ _ => by grind) (fun _ _ => by grind)
    (by rw [bound_succ, bound_succ, bound_zero]; grind)

/-- Non-vacuity of `err_le_eps_of_bound_le`: its hypotheses hold together at `Rat`;
`B 2 = 3/8 ≤ ε = 1/2`. -/
theorem nonvacuous_err_le_eps_of_bound_le : bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2 :=
  err_le_eps_of_bound_le (r := fun _ => (2 : Rat)) (a := fun _ => 1 / 8)
    (e := bound (fun _ => (2 : Rat)) (fun _ => 1 / 8)) (L := 2) (eps := 1 / 2) (bound_zero _ _)
    (fun l _ _ => by have := bound_succ (fun _ => (2 : Rat)) (fun _ => 1 / 8) l; grind)
    (fun _ _ => by grind) (fun _ _ => by grind)
    (by rw [bound_succ, bound_succ, bound_zero]; grind)
    (by rw [bound_succ, bound_succ, bound_zero]; grind)

/-- Non-vacuity of `forall_err_le_bound_iff`: its hypotheses hold together at `Rat`; `r = 2`,
`a = 1/8`, `L = 2`. -/
theorem nonvacuous_forall_err_le_bound_iff : (∀ e : Nat → Rat, e 0 = 0 →
      (∀ l, l < 2 → e l ≤ 1 → e (l + 1) ≤ (fun _ => (2 : Rat)) l * e l + (fun _ => 1 / 8) l) →
        (∀ l, l ≤ 2 → 0 ≤ e l) → e 2 ≤ bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2) ↔
      ∀ l, l < 2 → bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) l ≤ 1 :=
  forall_err_le_bound_iff (fun _ _ => by grind) (fun _ _ => by grind)

/-- Non-vacuity of `exists_err_gt_of_one_lt_bound`: its hypotheses hold together at `Rat`; `r = 1`,
`a = 2`, `L = 2`, `B 1 = 2 > 1`, `M = 100`. -/
theorem nonvacuous_exists_err_gt_of_one_lt_bound : ∃ e : Nat → Rat, e 0 = 0 ∧
    (∀ k, k < 2 → e k ≤ 1 → e (k + 1) ≤ (fun _ => (1 : Rat)) k * e k + (fun _ => 2) k) ∧
      (∀ k, k ≤ 2 → 0 ≤ e k) ∧ 100 < e 2 :=
  exists_err_gt_of_one_lt_bound (l := 1) (fun _ _ => by decide) (fun _ _ => by decide) (by omega)
    (by rw [bound_succ, bound_zero]; grind) 100

/-- Non-vacuity of `composition_err_le_eps_rat`: its hypotheses hold together at `Rat`; as for
`err_le_eps_of_bound_le`. -/
theorem nonvacuous_composition_err_le_eps_rat :
    bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2 :=
  composition_err_le_eps_rat (r := fun _ => (2 : Rat)) (a := fun _ => 1 / 8)
    (e := bound (fun _ => (2 : Rat)) (fun _ => 1 / 8)) (L := 2) (eps := 1 / 2) (bound_zero _ _)
    (fun l _ _ => by have := bound_succ (fun _ => (2 : Rat)) (fun _ => 1 / 8) l; grind)
    (fun _ _ => by grind) (fun _ _ => by grind)
    (by rw [bound_succ, bound_succ, bound_zero]; grind)
    (by rw [bound_succ, bound_succ, bound_zero]; grind)

/-! ### Statement T -/

/-- Non-vacuity of `bound_const_le_of_mul_pow_le`: its hypotheses hold together at `Rat`;
`a L r^(L-1) = 1/8 · 2 · 2 = 1/2 ≤ ε = 1/2`. -/
theorem nonvacuous_bound_const_le_of_mul_pow_le :
    bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2 :=
  bound_const_le_of_mul_pow_le (by grind) (by grind) 2
    (by rw [show (2 : Nat) - 1 = 0 + 1 from rfl, pow_succ_eq, pow_zero_eq,
      show (natCast 2 : Rat) = 0 + 1 + 1 from rfl]; grind)

/-- Non-vacuity of `composition_err_le_eps_of_mul_pow_le`: its hypotheses hold together at `Rat`;
the same constants and the bound as error sequence. -/
theorem nonvacuous_composition_err_le_eps_of_mul_pow_le :
    bound (fun _ => (2 : Rat)) (fun _ => 1 / 8) 2 ≤ 1 / 2 :=
  composition_err_le_eps_of_mul_pow_le (r := 2) (a := 1 / 8)
    (e := bound (fun _ => (2 : Rat)) (fun _ => 1 / 8)) (L := 2) (eps := 1 / 2) (bound_zero _ _)
    (fun l _ _ => by have := bound_succ (fun _ => (2 : Rat)) (fun _ => 1 / 8) l; grind)
    (by grind) (by grind)
    (by rw [show (2 : Nat) - 1 = 0 + 1 from rfl, pow_succ_eq, pow_zero_eq,
      show (natCast 2 : Rat) = 0 + 1 + 1 from rfl]; grind) (by grind)

/-! ### Statement P -/

/-- Non-vacuity of `score_err_le_iff`: its hypotheses hold together at `Rat`; `|A|_sum = 1`,
`X = 1`, `ε = 2` (the step fails, and `ε ≤ 1` fails). -/
theorem nonvacuous_score_err_le_iff :
    (1 : Rat) * (2 * 1 * 2 + 2 * 2) ≤ 1 * (2 * 1 + 1) * 2 ↔ (2 : Rat) ≤ 1 :=
  score_err_le_iff (by decide) (by decide)

/-- Non-vacuity of `score_err_le`: its hypotheses hold together at `Rat`; `|A|_sum = 1`, `X = 1`,
`ε = 1/2`. -/
theorem nonvacuous_score_err_le :
    (1 : Rat) * (2 * 1 * (1 / 2) + 1 / 2 * (1 / 2)) ≤ 1 * (2 * 1 + 1) * (1 / 2) :=
  score_err_le (by grind) (by grind) (by grind)

/-- Non-vacuity of `not_score_err_le_of_one_lt`: its hypotheses hold together at `Rat`;
`|A|_sum = 1`, `X = 1`, `ε = 2`. -/
theorem nonvacuous_not_score_err_le_of_one_lt :
    ¬ (1 : Rat) * (2 * 1 * 2 + 2 * 2) ≤ 1 * (2 * 1 + 1) * 2 :=
  not_score_err_le_of_one_lt (by decide) (by decide)

/-! ### Statement S -/

/-- Statement S at `Rat`, helper: the constant exponential `expOne` satisfies fact F5
(`2 (1 - 1) = 0 ≤ δ (1 + 1)` for `δ ≥ 0`). -/
theorem expOne_logMean : expOne.LogMean := fun d hd => by
  show 2 * ((1 : Rat) - 1) ≤ d * (1 + 1)
  grind

/-- Statement S at `Rat`, helper: with `expOne` every softmax weight over `2` positions is `1/2`. -/
theorem softmax_expOne_two (tau : Rat) (s : Nat → Rat) (j : Nat) :
    softmax expOne tau s 2 j = 1 / 2 := by
  unfold softmax
  show (1 : Rat) / sumTo (fun _ => 1) 2 = 1 / 2
  rw [sumTo_succ, sumTo_succ, sumTo_zero]
  grind

/-- Non-vacuity of `sumTo_absv_sub_le_of_ratio`: its hypotheses hold together at `Rat`; `N = 2`,
`p = (1/2, 1/2)`, `q = (2/3, 1/3)`, `λ = 1`, `y = 2`: `‖p - q‖₁ = 1/3` and `3 · 1/3 ≤ 2`. -/
theorem nonvacuous_sumTo_absv_sub_le_of_ratio :
    (2 + 1) * sumTo (fun j => absv ((fun _ => (1 / 2 : Rat)) j
      - (fun j => if j = 0 then (2 / 3 : Rat) else 1 / 3) j)) 2 ≤ 2 * (2 - 1) :=
  sumTo_absv_sub_le_of_ratio (lam := 1) (y := 2) (by decide) (by decide)
    (fun j _ => by show (1 : Rat) * (1 / 2) ≤ 2 * (if j = 0 then 2 / 3 else 1 / 3); split <;> grind)
    (fun j _ => by show (if j = 0 then (2 / 3 : Rat) else 1 / 3) ≤ 2 * 1 * (1 / 2); split <;> grind)
    (by rw [sumTo_succ, sumTo_succ, sumTo_zero]; grind)
    (by rw [sumTo_succ, sumTo_succ, sumTo_zero]; simp; grind)

/-- Non-vacuity of `softmax_lipschitz`: its hypotheses hold together at `Rat`; `expOne` (which
satisfies F5), `N = 2`, `τ = 1`, scores `a = (1, 0)`, `b = (0, 0)`, `d = 1`. -/
theorem nonvacuous_softmax_lipschitz :
    sumTo (fun j => absv (softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j
      - softmax expOne 1 (fun _ => (0 : Rat)) 2 j)) 2 ≤ 1 / 1 :=
  softmax_lipschitz expOne expOne_logMean (by decide) (by decide)
    (fun j _ => by
      show absv ((if j = 0 then (1 : Rat) else 0) - 0) ≤ 1
      split
      · rw [absv_of_nonneg (by grind)]; grind
      · rw [absv_of_nonneg (by grind)]; grind)

/-- Non-vacuity of `layer_err_le`: its hypotheses hold together at `Rat`; `expOne` (F5 holds), one
head, `N = 2`, exact scores `(1, 0)` (max set `{0}`, gap `γ = 1`) perturbed by nothing, `|A| = |B| =
X = τ = 1`, `Lip F = 0`, `ε = 1/2`; the head error `1/2 + 1` is `|B| ε + |B| X ‖softmax - ahardmax‖₁`
exactly (`expOne`'s softmax is `(1/2, 1/2)` against `(1, 0)`). -/
theorem nonvacuous_layer_err_le : (1 / 2 + (1 / 2 + 1) : Rat)
    ≤ (1 + 0) * (1 + sumTo (fun h => (fun _ => (1 : Rat)) h * (1 + 1 * (2 * 1 + 1) *
        (fun _ => (1 : Rat)) h / 1)) 1) * (1 / 2)
      + 2 * (1 + 0) * 1 * natCast (2 - 1) * expOne.exp (-1 / 1) * sumTo (fun _ => (1 : Rat)) 1 :=
  layer_err_le expOne expOne_logMean (H := 1) (N := 2) (A := fun _ => 1) (B := fun _ => 1)
    (headErr := fun _ => 1 / 2 + 1) (smax := fun _ => 1)
    (sSoft := fun _ j => if j = 0 then 1 else 0) (sHard := fun _ j => if j = 0 then 1 else 0)
    (isMax := fun _ j => j == 0) (X := 1) (tau := 1) (gamma := 1) (LipF := 0) (eps := 1 / 2)
    (yErr := 1 / 2 + (1 / 2 + 1)) (outErr := 1 / 2 + (1 / 2 + 1))
    (fun _ _ => by grind) (fun _ _ => by grind) (by grind) (by grind) (by grind) (by grind)
    (by grind)
    (fun _ _ j _ => by
      show absv ((if j = 0 then (1 : Rat) else 0) - (if j = 0 then 1 else 0))
        ≤ 1 * (2 * 1 * (1 / 2) + 1 / 2 * (1 / 2))
      rw [show (if j = 0 then (1 : Rat) else 0) - (if j = 0 then 1 else 0) = 0 by grind,
        absv_of_nonneg (Std.le_refl (0 : Rat))]
      grind)
    (fun _ _ j _ h => by simp at h; subst h; rfl)
    (fun _ _ j _ h => by simp at h; simp [h] <;> grind)
    (fun _ _ => by show 0 < countMax (fun j => j == 0) 2; decide)
    (fun _ _ => by
      show (1 / 2 + 1 : Rat) ≤ 1 * (1 / 2) + 1 * 1 * sumTo (fun j => absv (softmax expOne 1
        (fun j => if j = 0 then (1 : Rat) else 0) 2 j - ahardmax (fun j => j == 0) 2 j)) 2
      rw [sumTo_succ, sumTo_succ, sumTo_zero, softmax_expOne_two, softmax_expOne_two]
      have h0 : (ahardmax (fun j => j == 0) 2 0 : Rat) = 1 := by
        have hc : countMax (fun j => j == 0) 2 = 1 := by decide
        unfold ahardmax
        rw [if_pos (by decide), hc, natCast_one_rat]
        grind
      have h1 : (ahardmax (fun j => j == 0) 2 1 : Rat) = 0 := by
        unfold ahardmax
        rw [if_neg (by decide)]
      rw [h0, h1, absv_of_nonpos (a := (1 / 2 : Rat) - 1) (by grind),
        absv_of_nonneg (a := (1 / 2 : Rat) - 0) (by grind)]
      grind)
    (by rw [sumTo_succ, sumTo_zero]; grind) (by grind)

/-! ### Theorem 26, end to end -/

/-- Non-vacuity of `err_le_eps_of_layers`: its hypotheses hold together at `Rat`; `expOne`, one
layer, one head, `N = 2`, exact scores `(1, 0)` unperturbed, `|A| = |B| = τ = γ = 1`, `X = 1/4`,
`Lip F = 0`; errors `e 0 = 0`, `e 1 = 1/4`, the head error `|B| X ‖softmax - ahardmax‖₁ = 1/4`;
`B 1 = a = 2 X = 1/2 ≤ ε = 1/2` (`expOne`'s `x` is `1`). -/
theorem nonvacuous_err_le_eps_of_layers :
    (fun l => if l = 0 then (0 : Rat) else 1 / 4) 1 ≤ 1 / 2 ∧
    ∀ l, l ≤ 1 → (fun l => if l = 0 then (0 : Rat) else 1 / 4) l ≤ 1 :=
  err_le_eps_of_layers expOne expOne_logMean (L := 1) (H := fun _ => 1) (N := fun _ => 2)
    (A := fun _ _ => 1) (B := fun _ _ => 1) (headErr := fun _ _ => 1 / 4) (smax := fun _ _ => 1)
    (sSoft := fun _ _ j => if j = 0 then 1 else 0) (sHard := fun _ _ j => if j = 0 then 1 else 0)
    (isMax := fun _ _ j => j == 0) (X := fun _ => 1 / 4) (tau := fun _ => 1)
    (gamma := fun _ => 1) (LipF := fun _ => 0) (yErr := fun _ => 1 / 4)
    (e := fun l => if l = 0 then (0 : Rat) else 1 / 4) (eps := 1 / 2)
    (fun _ _ _ _ => by grind) (fun _ _ _ _ => by grind) (fun _ _ => by grind)
    (fun _ _ => by grind) (fun _ _ => by grind)
    (by simp)
    (fun l _ => by show (0 : Rat) ≤ (if l = 0 then 0 else 1 / 4); split <;> grind)
    (fun l hl _ _ j _ => by
      show absv ((if j = 0 then (1 : Rat) else 0) - (if j = 0 then 1 else 0))
        ≤ 1 * (2 * (1 / 4) * (if l = 0 then 0 else 1 / 4)
          + (if l = 0 then 0 else 1 / 4) * (if l = 0 then 0 else 1 / 4))
      have : l = 0 := by omega
      subst this
      rw [show (if j = 0 then (1 : Rat) else 0) - (if j = 0 then 1 else 0) = 0 by grind,
        absv_of_nonneg (Std.le_refl (0 : Rat))]
      simp <;> grind)
    (fun _ _ _ _ j _ h => by simp at h; subst h; rfl)
    (fun _ _ _ _ j _ h => by simp at h; simp [h] <;> grind)
    (fun _ _ _ _ => by show 0 < countMax (fun j => j == 0) 2; decide)
    (fun l hl _ _ => by
      have : l = 0 := by omega
      subst this
      show (1 / 4 : Rat) ≤ 1 * (if 0 = 0 then 0 else 1 / 4) + 1 * (1 / 4) * sumTo (fun j =>
        absv (softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j
          - ahardmax (fun j => j == 0) 2 j)) 2
      rw [sumTo_succ, sumTo_succ, sumTo_zero, softmax_expOne_two, softmax_expOne_two]
      have h0 : (ahardmax (fun j => j == 0) 2 0 : Rat) = 1 := by
        have hc : countMax (fun j => j == 0) 2 = 1 := by decide
        unfold ahardmax
        rw [if_pos (by decide), hc, natCast_one_rat]
        grind
      have h1 : (ahardmax (fun j => j == 0) 2 1 : Rat) = 0 := by
        unfold ahardmax
        rw [if_neg (by decide)]
      rw [h0, h1, absv_of_nonpos (a := (1 / 2 : Rat) - 1) (by grind),
        absv_of_nonneg (a := (1 / 2 : Rat) - 0) (by grind)]
      simp <;> grind)
    (fun l hl => by
      have : l = 0 := by omega
      subst this
      show (1 / 4 : Rat) ≤ (if 0 = 0 then 0 else 1 / 4) + sumTo (fun _ => 1 / 4) 1
      rw [sumTo_succ, sumTo_zero]
      simp <;> grind)
    (fun l hl => by
      have : l = 0 := by omega
      subst this
      show (if 0 + 1 = 0 then (0 : Rat) else 1 / 4) ≤ (1 + 0) * (1 / 4)
      simp <;> grind)
    (by
      rw [bound_succ, bound_zero]
      rw [natCast_two_sub_one_rat, sumTo_succ, sumTo_zero, sumTo_succ, sumTo_zero]
      show (1 + 0) * (1 + (0 + 1 * (1 + 1 / 4 * (2 * (1 / 4) + 1) * 1 / 1))) * 0
        + 2 * (1 + 0) * (1 / 4) * (0 + 1) * (1 : Rat) * (0 + 1) ≤ 1 / 2
      grind)
    (by
      rw [bound_succ, bound_zero]
      rw [natCast_two_sub_one_rat, sumTo_succ, sumTo_zero, sumTo_succ, sumTo_zero]
      show (1 + 0) * (1 + (0 + 1 * (1 + 1 / 4 * (2 * (1 / 4) + 1) * 1 / 1))) * 0
        + 2 * (1 + 0) * (1 / 4) * (0 + 1) * (1 : Rat) * (0 + 1) ≤ 1
      grind)

/-! ### Statement E -/

/-- Non-vacuity of `softmax_mass_off_max_le`: its hypotheses hold together at `Rat`; `N = 2`,
position `0` maximal, `w = (1, 1/10)`, `x = 1/10`. -/
theorem nonvacuous_softmax_mass_off_max_le :
    offMass (fun j => j == 0) (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2
        / sumTo (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2
      ≤ natCast (2 - countMax (fun j => j == 0) 2) * (1 / 10)
        / (natCast (countMax (fun j => j == 0) 2)
          + natCast (2 - countMax (fun j => j == 0) 2) * (1 / 10)) ∧
    offMass (fun j => j == 0) (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2
        / sumTo (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2
      ≤ natCast (2 - 1) * (1 / 10) :=
  softmax_mass_off_max_le (fun j _ h => by simp at h; simp [h] <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (by grind) (by decide)

/-- Non-vacuity of `sumTo_absv_sub_ahardmax_eq`: its hypotheses hold together at `Rat`; `N = 2`,
position `0` maximal, `p = (3/4, 1/4)`, `δ = 1/4`. -/
theorem nonvacuous_sumTo_absv_sub_ahardmax_eq :
    sumTo (fun j => absv ((fun j => if j = 0 then (3 / 4 : Rat) else 1 / 4) j
      - ahardmax (fun j => j == 0) 2 j)) 2
    = 2 * offMass (fun j => j == 0) (fun j => if j = 0 then (3 / 4 : Rat) else 1 / 4) 2 :=
  sumTo_absv_sub_ahardmax_eq (by decide)
    (fun j hj h => by
      have hj0 : j = 0 := by simpa using h
      subst hj0
      have hc : countMax (fun j => j == 0) 2 = 1 := by decide
      rw [hc, natCast_one_rat, offMass_succ, offMass_succ, offMass_zero]
      simp <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)

/-- Non-vacuity of `sumTo_absv_sub_ahardmax_le`: its hypotheses hold together at `Rat`; the same
`p`, `x = 1/4`, `δ = 1/4 ≤ (2-1) x`. -/
theorem nonvacuous_sumTo_absv_sub_ahardmax_le :
    sumTo (fun j => absv ((fun j => if j = 0 then (3 / 4 : Rat) else 1 / 4) j
      - ahardmax (fun j => j == 0) 2 j)) 2 ≤ 2 * natCast (2 - 1) * (1 / 4) :=
  sumTo_absv_sub_ahardmax_le (by decide)
    (fun j hj h => by
      have hj0 : j = 0 := by simpa using h
      subst hj0
      have hc : countMax (fun j => j == 0) 2 = 1 := by decide
      rw [hc, natCast_one_rat, offMass_succ, offMass_succ, offMass_zero]
      simp <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (by
      rw [natCast_two_sub_one_rat, offMass_succ, offMass_succ, offMass_zero]
      simp <;> grind)

/-- Non-vacuity of `softmax_mass_off_max_le_rat`: its hypotheses hold together at `Rat`; as for
`softmax_mass_off_max_le`. -/
theorem nonvacuous_softmax_mass_off_max_le_rat :
    offMass (fun j => j == 0) (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2
        / sumTo (fun j => if j = 0 then (1 : Rat) else 1 / 10) 2
      ≤ natCast (2 - 1) * (1 / 10) :=
  softmax_mass_off_max_le_rat (fun j _ h => by simp at h; simp [h] <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (by grind) (by decide)

/-- Non-vacuity of `softmax_offMass_le_of_gap`: its hypotheses hold together at `Rat`; scores
`(1, 0)`, `γ = τ = 1`, the constant `ExpLike` of `Rat`. -/
theorem nonvacuous_softmax_offMass_le_of_gap : offMass (fun j => j == 0)
      (softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2
      ≤ natCast (2 - 1) * expOne.exp (-1 / 1) :=
  (softmax_offMass_le_of_gap expOne (s := fun j => if j = 0 then (1 : Rat) else 0)
    (isMax := fun j => j == 0) (smax := 1) (gamma := 1) (tau := 1) (N := 2) (by decide)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (by decide)).2

/-- Non-vacuity of `sumTo_absv_softmax_sub_ahardmax_le`: its hypotheses hold together at `Rat` (the
values above) -/
theorem nonvacuous_sumTo_absv_softmax_sub_ahardmax_le :
    sumTo (fun j => absv (softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 j
      - ahardmax (fun j => j == 0) 2 j)) 2 ≤ 2 * natCast (2 - 1) * expOne.exp (-1 / 1) :=
  (sumTo_absv_softmax_sub_ahardmax_le expOne (s := fun j => if j = 0 then (1 : Rat) else 0)
    (isMax := fun j => j == 0) (smax := 1) (gamma := 1) (tau := 1) (N := 2) (by decide)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (fun j _ h => by simp at h; simp [h] <;> grind)
    (by decide)).2

/-! ### Statement Z -/

/-- Non-vacuity of `ziggurat_mass_off_top_le`: its hypotheses hold together at `Rat`; `N = 2`,
`w = (1, 1/2)`, `x = 1/2`. -/
theorem nonvacuous_ziggurat_mass_off_top_le : (sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2
        - (fun k => if k = 0 then (1 : Rat) else 1 / 2) 0)
      / sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 ≤ 1 / 2 :=
  (ziggurat_mass_off_top_le (w := fun k => if k = 0 then (1 : Rat) else 1 / 2) (x := 1 / 2)
    (N := 2) (by omega) (by simp <;> grind)
    (fun k _ => by show (0 : Rat) ≤ (if k = 0 then 1 else 1 / 2); split <;> grind)
    (fun k h1 h2 => by
      have : k = 1 := by omega
      subst this
      rw [pow_succ_eq, pow_zero_eq]
      simp <;> grind)
    (by grind) (by grind)).1

/-- Non-vacuity of `sumTo_sub_top_div_sumTo_le_geom`: its hypotheses hold together at `Rat` (the
values above) -/
theorem nonvacuous_sumTo_sub_top_div_sumTo_le_geom :
    (sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2
        - (fun k => if k = 0 then (1 : Rat) else 1 / 2) 0)
      / sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2
      ≤ (1 / 2 - (1 / 2) ^ 2) / (1 - (1 / 2) ^ 2) :=
  (sumTo_sub_top_div_sumTo_le_geom (w := fun k => if k = 0 then (1 : Rat) else 1 / 2)
    (x := 1 / 2) (N := 2) (by omega) (by simp <;> grind)
    (fun k _ => by show (0 : Rat) ≤ (if k = 0 then 1 else 1 / 2); split <;> grind)
    (fun k h1 h2 => by
      have : k = 1 := by omega
      subst this
      rw [pow_succ_eq, pow_zero_eq]
      simp <;> grind)
    (by grind) (by grind)).1

/-- Non-vacuity of `ziggurat_mass_off_top_le_rat`: its hypotheses hold together at `Rat`; as for
`ziggurat_mass_off_top_le`. -/
theorem nonvacuous_ziggurat_mass_off_top_le_rat :
    (sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2
        - (fun k => if k = 0 then (1 : Rat) else 1 / 2) 0)
      / sumTo (fun k => if k = 0 then (1 : Rat) else 1 / 2) 2 ≤ 1 / 2 :=
  ziggurat_mass_off_top_le_rat (w := fun k => if k = 0 then (1 : Rat) else 1 / 2) (x := 1 / 2)
    (N := 2) (by omega) (by simp <;> grind)
    (fun k _ => by show (0 : Rat) ≤ (if k = 0 then 1 else 1 / 2); split <;> grind)
    (fun k h1 h2 => by
      have : k = 1 := by omega
      subst this
      rw [pow_succ_eq, pow_zero_eq]
      simp <;> grind)
    (by grind) (by grind)

/-- Non-vacuity of `softmax_mass_off_top_le_of_ziggurat`: its hypotheses hold together at `Rat`;
scores `(1, 0)`, `γ = τ = 1`. -/
theorem nonvacuous_softmax_mass_off_top_le_of_ziggurat :
    sumTo (softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2) 2
      - softmax expOne 1 (fun j => if j = 0 then (1 : Rat) else 0) 2 0 ≤ expOne.exp (-1 / 1) :=
  (softmax_mass_off_top_le_of_ziggurat expOne (s := fun j => if j = 0 then (1 : Rat) else 0)
    (gamma := 1) (tau := 1) (N := 2) (by omega) (by decide) (by decide)
    (fun k h1 h2 => by
      have : k = 1 := by omega
      subst this
      rw [natCast_one_rat]
      simp <;> grind)).1

/-! ### Construction heads: Lemma 6 for distinct multiples -/

/-- Non-vacuity of `softmax_mass_off_top_le_of_distinct`: its hypotheses hold together at `Rat`;
`N = 3`, `t = 0`, scores `s_j = -j`, `d_j = j`, `g = τ = 1`. -/
theorem nonvacuous_softmax_mass_off_top_le_of_distinct :
    sumTo (softmax expOne 1 (fun j => -(natCast j : Rat)) 3) 3
      - softmax expOne 1 (fun j => -(natCast j : Rat)) 3 0 ≤ expOne.exp (-1 / 1) :=
  softmax_mass_off_top_le_of_distinct expOne (s := fun j => -(natCast j : Rat)) (d := fun j => j)
    (g := 1) (tau := 1) (N := 3) (t := 0) (by omega) (by decide) (by decide)
    (fun j _ h => by show 0 < j; omega) (fun _ _ _ _ _ _ h => h)
    (fun j _ _ => by show natCast j * (1 : Rat) ≤ -natCast 0 - -natCast j; rw [natCast_zero]; grind)

/-- Non-vacuity of `softmax_mass_off_top_le_of_keys`: its hypotheses hold together at `Rat`; `N = 3`,
keys `c_k = k`, top `t = 2`, `g = τ = 1`, `b = 0` (scores `s_k = k`). -/
theorem nonvacuous_softmax_mass_off_top_le_of_keys :
    (∀ k, k < 3 → k ≠ 2 → (natCast k : Rat) ≤ natCast 2 - 1) ∧
      sumTo (softmax expOne 1 (fun k => (natCast k : Rat)) 3) 3
        - softmax expOne 1 (fun k => (natCast k : Rat)) 3 2 ≤ expOne.exp (-1 / 1) :=
  softmax_mass_off_top_le_of_keys expOne (s := fun k => (natCast k : Rat)) (c := fun k => k)
    (g := 1) (b := 0) (tau := 1) (N := 3) (t := 2) (by omega) (by decide) (by decide)
    (fun k _ => by show (natCast k : Rat) = 1 * natCast k + 0; grind)
    (fun _ _ _ _ h => h) (fun k hk => by show k ≤ 2; omega)

/-! ### Construction heads: Lemma 8 (tie-breaking) -/

/-- Non-vacuity of `tiebreak_past_bounded`: its hypotheses hold together at `Rat`; `n = 3`, query
`i = 2`, selection `j = 0`, `K = τ = 1`. -/
theorem nonvacuous_tiebreak_past_bounded :
    (∀ j, j < 2 → j ≠ tiebreakPastTarget (fun j => j == 0) 2 →
        tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) j
          ≤ tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) (tiebreakPastTarget (fun j => j == 0) 2)
            - 1 / natCast 3) ∧
      sumTo (softmax expOne 1 (tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2) 2
          - softmax expOne 1 (tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2
            (tiebreakPastTarget (fun j => j == 0) 2)
        ≤ expOne.exp (-(1 / natCast 3) / 1) :=
  tiebreak_past_bounded expOne (K := 1) (tau := 1) (n := 3) (i := 2) (fun j => j == 0)
    (by decide) (by decide) (by omega) (by omega)

/-- Non-vacuity of `tiebreak_future_bounded`: its hypotheses hold together at `Rat`; `n = 3`, query
`i = 0`, selection `j = 2` (`k = 1`), `K = τ = 1`. -/
theorem nonvacuous_tiebreak_future_bounded :
    (∀ k, k < 3 - 1 - 0 → k ≠ tiebreakFutureTarget (fun j => j == 2) 3 0 →
        tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0 k
          ≤ tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0 (tiebreakFutureTarget (fun j => j == 2) 3 0)
            - 1 / natCast 3) ∧
      sumTo (softmax expOne 1 (tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0)
          - softmax expOne 1 (tiebreakFutureBounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)
            (tiebreakFutureTarget (fun j => j == 2) 3 0)
        ≤ expOne.exp (-(1 / natCast 3) / 1) :=
  tiebreak_future_bounded expOne (K := 1) (tau := 1) (n := 3) (i := 0) (fun j => j == 2)
    (by decide) (by decide) (by omega)

/-- Non-vacuity of `tiebreak_past_unbounded`: its hypotheses hold together at `Rat`; as for
`tiebreak_past_bounded`. -/
theorem nonvacuous_tiebreak_past_unbounded :
    (∀ j, j < 2 → j ≠ tiebreakPastTarget (fun j => j == 0) 2 →
        tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0) j
          ≤ tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0) (tiebreakPastTarget (fun j => j == 0) 2)
            - 1) ∧
      sumTo (softmax expOne 1 (tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2) 2
          - softmax expOne 1 (tiebreakPastUnbounded (1 : Rat) 3 (fun j => j == 0)) 2
            (tiebreakPastTarget (fun j => j == 0) 2)
        ≤ expOne.exp (-1 / 1) :=
  tiebreak_past_unbounded expOne (K := 1) (tau := 1) (n := 3) (i := 2) (fun j => j == 0)
    (by decide) (by decide) (by omega) (by omega)

/-- Non-vacuity of `tiebreak_future_unbounded`: its hypotheses hold together at `Rat`; as for
`tiebreak_future_bounded`. -/
theorem nonvacuous_tiebreak_future_unbounded :
    (∀ k, k < 3 - 1 - 0 → k ≠ tiebreakFutureTarget (fun j => j == 2) 3 0 →
        tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0 k
          ≤ tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0 (tiebreakFutureTarget (fun j => j == 2) 3 0)
            - 1) ∧
      sumTo (softmax expOne 1 (tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)) (3 - 1 - 0)
          - softmax expOne 1 (tiebreakFutureUnbounded (1 : Rat) 3 (fun j => j == 2) 0) (3 - 1 - 0)
            (tiebreakFutureTarget (fun j => j == 2) 3 0)
        ≤ expOne.exp (-1 / 1) :=
  tiebreak_future_unbounded expOne (K := 1) (tau := 1) (n := 3) (i := 0) (fun j => j == 2)
    (by decide) (by decide) (by omega)

/-- Non-vacuity of `tiebreak_past_bounded_at_rule`: its hypotheses hold together at `Rat`;
`c = 1` (`τ = 1/3`), `x = 1` (the constant `ExpLike` of `Rat`: `exp(-1) = 1`), `n = 3`, query
`i = 2`, selection `j = 0`. -/
theorem nonvacuous_tiebreak_past_bounded_at_rule :
    sumTo (softmax expOne (1 / natCast 3) (tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2) 2
        - softmax expOne (1 / natCast 3) (tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2
          (tiebreakPastTarget (fun j => j == 0) 2)
      ≤ 1 :=
  tiebreak_past_bounded_at_rule expOne (c := 1) (x := 1) (n := 3) (i := 2) (fun j => j == 0)
    (by decide) (by omega) (by omega) (by show (1 : Rat) ≤ 1; grind)

/-! ### Construction heads: Lemma 7 (table lookup) -/

/-- Non-vacuity of `lookup_gap`: its hypotheses hold together at `Rat`; `K = 1`, target `t = 2`,
key `j = 0`. -/
theorem nonvacuous_lookup_gap : lookupScore (1 : Rat) 2 0 ≤ lookupScore (1 : Rat) 2 2 - 1 :=
  lookup_gap (1 : Rat) (by decide) (t := 2) (j := 0) (by omega)

/-- Non-vacuity of `lookup_gap_bounded`: its hypotheses hold together at `Rat`; `K = 1`, `n = 3`,
target `t = 2`, key `j = 0`. -/
theorem nonvacuous_lookup_gap_bounded :
    lookupScoreBounded (1 : Rat) 3 2 0 ≤ lookupScoreBounded (1 : Rat) 3 2 2 - 1 / (natCast 3 * natCast 3) :=
  lookup_gap_bounded (1 : Rat) (by decide) (n := 3) (t := 2) (j := 0) (by omega) (by omega)

/-- Non-vacuity of `lookup_past`: its hypotheses hold together at `Rat`; `K = τ = 1`, query `i = 3`. -/
theorem nonvacuous_lookup_past :
    (∀ j, j < 3 → j ≠ 3 - 1 → lookupScore (1 : Rat) (3 - 1) j ≤ lookupScore (1 : Rat) (3 - 1) (3 - 1) - 1) ∧
      sumTo (softmax expOne 1 (lookupScore (1 : Rat) (3 - 1)) 3) 3
          - softmax expOne 1 (lookupScore (1 : Rat) (3 - 1)) 3 (3 - 1)
        ≤ expOne.exp (-1 / 1) :=
  lookup_past expOne (K := 1) (tau := 1) (i := 3) (by decide) (by decide) (by omega)

/-- Non-vacuity of `lookup_future`: its hypotheses hold together at `Rat`; `K = τ = 1`, `n = 3`,
query `i = 0`. -/
theorem nonvacuous_lookup_future :
    (∀ k, k < 3 - 1 - 0 → k ≠ 0 →
        lookupScore (1 : Rat) (0 + 1) (0 + 1 + k) ≤ lookupScore (1 : Rat) (0 + 1) (0 + 1 + 0) - 1) ∧
      sumTo (softmax expOne 1 (fun k => lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0)) (3 - 1 - 0)
          - softmax expOne 1 (fun k => lookupScore (1 : Rat) (0 + 1) (0 + 1 + k)) (3 - 1 - 0) 0
        ≤ expOne.exp (-1 / 1) :=
  lookup_future expOne (K := 1) (tau := 1) (n := 3) (i := 0) (by decide) (by decide) (by omega)

/-- Non-vacuity of `lookup_past_bounded`: its hypotheses hold together at `Rat`; `K = τ = 1`, `n = 3`,
query `i = 2`. -/
theorem nonvacuous_lookup_past_bounded :
    (∀ j, j < 2 → j ≠ 2 - 1 →
        lookupScoreBounded (1 : Rat) 3 (2 - 1) j
          ≤ lookupScoreBounded (1 : Rat) 3 (2 - 1) (2 - 1) - 1 / (natCast 3 * natCast 3)) ∧
      sumTo (softmax expOne 1 (lookupScoreBounded (1 : Rat) 3 (2 - 1)) 2) 2
          - softmax expOne 1 (lookupScoreBounded (1 : Rat) 3 (2 - 1)) 2 (2 - 1)
        ≤ expOne.exp (-(1 / (natCast 3 * natCast 3)) / 1) :=
  lookup_past_bounded expOne (K := 1) (tau := 1) (n := 3) (i := 2) (by decide) (by decide)
    (by omega) (by omega)

/-! ### Construction heads: counting and comparison -/

/-- Non-vacuity of `softmax_eq_uniform_of_const`: its hypotheses hold together at `Rat`; `N = 3`,
scores `5` on the keys `k < 3` (`0` beyond), `c = 5`, `τ = 1`. -/
theorem nonvacuous_softmax_eq_uniform_of_const :
    ∀ j, j < 3 → softmax expOne 1 (fun k => if k < 3 then (5 : Rat) else 0) 3 j = 1 / natCast 3 :=
  softmax_eq_uniform_of_const expOne (s := fun k => if k < 3 then (5 : Rat) else 0) (c := 5)
    (tau := 1) (N := 3) (fun k hk => by show (if k < 3 then (5 : Rat) else 0) = 5; exact if_pos hk)

/-- Non-vacuity of `sign_gap_bounded`: its hypotheses hold together at `Rat`; `K = 1`, `m = 0`,
`D = n = 2` (the inclusive count's `D = n`, where the bound is tight: `1/2 ≤ 1/2`). -/
theorem nonvacuous_sign_gap_bounded :
    (1 : Rat) / natCast 2 ≤ 2 * 1 * (natCast (2 * 0 + 1) / (2 * natCast 2)) :=
  sign_gap_bounded (K := (1 : Rat)) (by decide) (m := 0) (D := 2) (n := 2) (by omega) (by omega)

/-- Non-vacuity of `sign_gap_unbounded`: its hypotheses hold together at `Rat`; as for
`sign_gap_bounded`. -/
theorem nonvacuous_sign_gap_unbounded :
    (1 : Rat) ≤ 2 * 1 * (natCast (2 * 0 + 1) / (2 * natCast 2)) * natCast 2 :=
  sign_gap_unbounded (K := (1 : Rat)) (by decide) (m := 0) (D := 2) (n := 2) (by omega) (by omega)

/-! ### Construction heads: the read-out clamp -/

/-- Non-vacuity of `clampUnit_eq_one`: its hypotheses hold together at `Rat`; `m = 2` leaves
`x = (9/10, 1/10)` within `1/8` of `ρ = (1, 0)`, `σ = ρ`. -/
theorem nonvacuous_clampUnit_eq_one :
    clampUnit (fun k => k == 0) (fun k => if k = 0 then (9 / 10 : Rat) else 1 / 10) 2 = 1 :=
  clampUnit_eq_one (ρ := fun k => k == 0) (by omega)
    (fun k hk => by
      rw [show (natCast 2 : Rat) = 0 + 1 + 1 from rfl]
      have : k = 0 ∨ k = 1 := by omega
      rcases this with rfl | rfl <;> simp <;> grind)
    (fun _ _ => rfl)

/-- Non-vacuity of `clampUnit_eq_zero`: its hypotheses hold together at `Rat`; the same leaves,
`σ = (0, 1)`, differing from `ρ` at `k0 = 0`. -/
theorem nonvacuous_clampUnit_eq_zero :
    clampUnit (fun k => k == 1) (fun k => if k = 0 then (9 / 10 : Rat) else 1 / 10) 2 = 0 :=
  clampUnit_eq_zero (ρ := fun k => k == 0) (k0 := 0) (by omega)
    (fun k hk => by
      rw [show (natCast 2 : Rat) = 0 + 1 + 1 from rfl]
      have : k = 0 ∨ k = 1 := by omega
      rcases this with rfl | rfl <;> simp <;> grind)
    (by omega) (by decide)

/-! ### Construction heads: S-RASP's big-M product -/

/-- Non-vacuity of `big_m_product`: its hypotheses hold together at `Rat`; the gate closed, `z =
1/8` within `e = 1/8` of `z0 = 0`, `M = 3`, `K = 1`, the slack exactly `-3` (`d = 0`). -/
theorem nonvacuous_big_m_product :
    absv (relu ((1 / 8 : Rat) + -3) - relu (-(1 / 8) + -3) - (if false then 0 else 0)) ≤ (if false then 1 / 8 + 0 else 0) :=
  big_m_product false (z := 1 / 8) (z0 := 0) (s := -3) (M := 3) (K := 1) (e := 1 / 8) (d := 0)
    (absv_le_of_le_of_neg_le (by grind) (by grind))
    (by rw [absv_of_nonneg (Std.le_refl (0 : Rat))]; grind)
    (absv_le_of_le_of_neg_le (by show (-3 : Rat) + 3 * 1 * 1 ≤ 0; grind)
      (by show -(0 : Rat) ≤ -3 + 3 * 1 * 1; grind))
    (by grind)

/-! ### Construction heads: S-RASP's lookup over positions -/

/-- Non-vacuity of `srasp_lookup_gap`: its hypotheses hold together at `Rat`; prefix sum `S = 2`,
key `p = 1`, query `i = 3`. -/
theorem nonvacuous_srasp_lookup_gap :
    ((2 * natCast 1 * natCast 2 - natCast 1 * natCast 1) / natCast 3 : Rat)
      ≤ (2 * natCast 2 * natCast 2 - natCast 2 * natCast 2) / natCast 3 - 1 / natCast 3 :=
  srasp_lookup_gap (S := 2) (p := 1) (i := 3) (by omega) (by omega)

/-- Non-vacuity of `srasp_lookup_gap_neg`: its hypotheses hold together at `Rat`; `S = -1`, key
`p = 1`, query `i = 2`. -/
theorem nonvacuous_srasp_lookup_gap_neg :
    ((2 * natCast 1 * -natCast 1 - natCast 1 * natCast 1) / natCast 2 : Rat) ≤ 0 - 1 / natCast 2 :=
  srasp_lookup_gap_neg (m := 1) (p := 1) (i := 2) (by omega) (by omega)

/-! ### Statement G (Lemma 29) -/

/-- Statement G at `Rat`, helper: `|1| = 1`. -/
theorem absv_one_rat : absv (1 : Rat) = 1 := absv_of_nonneg (by decide)

/-- Non-vacuity of `activation_growth`: its hypotheses hold together at `Rat`; `d = N = H = m = 1`,
every activation, weight and matrix entry `1`, biases `0`, `X = |V|_col = |W1|_col = |W2|_col = 1`:
`y = 2 = (1 + 1) X` and `z = 4 = (1 + 1 · 1) · 2` (both bounds attained). -/
theorem nonvacuous_activation_growth :
    (∀ l, l < 1 → absv (attnResidual (fun _ => (1 : Rat)) (fun _ _ => 1) (fun _ _ => 1)
        (fun _ _ _ => 1) 1 1 1 l) ≤ (1 + sumTo (fun _ => (1 : Rat)) 1) * 1) ∧
      (∀ l, l < 1 → absv (ffnResidual (attnResidual (fun _ => (1 : Rat)) (fun _ _ => 1)
        (fun _ _ => 1) (fun _ _ _ => 1) 1 1 1) (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1)
        (fun _ => 0) 1 1 l) ≤ (1 + 1 * 1) * ((1 + sumTo (fun _ => (1 : Rat)) 1) * 1) + 0 * 1 + 0) :=
  activation_growth (by decide)
    (fun _ _ => by rw [absv_one_rat]; grind)
    (fun _ _ _ _ => by rw [absv_one_rat]; grind)
    (fun _ _ _ _ => by decide)
    (fun _ _ => by rw [sumTo_succ, sumTo_zero]; grind)
    (fun _ _ => by decide)
    (fun _ _ _ _ => by rw [sumTo_succ, sumTo_zero, absv_one_rat]; grind)
    (by decide)
    (fun _ _ => by rw [sumTo_succ, sumTo_zero, absv_one_rat]; grind)
    (fun _ _ => by rw [sumTo_succ, sumTo_zero, absv_one_rat]; grind)
    (by decide)
    (fun _ _ => by rw [absv_of_nonneg (Std.le_refl (0 : Rat))]; grind)
    (fun _ _ => by rw [absv_of_nonneg (Std.le_refl (0 : Rat))]; grind)

/-- Non-vacuity of `activation_growth_layers`: its hypotheses hold together at `Rat`; `g = 2`,
`c = 1`, `X = (1, 3, 7)` (each step attained), `L = 2`: `7 ≤ 4 · 1 + B_2 = 4 + 3`. -/
theorem nonvacuous_activation_growth_layers :
    (fun l => if l = 0 then (1 : Rat) else if l = 1 then 3 else 7) 2
      ≤ 2 ^ 2 * (fun l => if l = 0 then (1 : Rat) else if l = 1 then 3 else 7) 0
        + bound (fun _ => (2 : Rat)) (fun _ => 1) 2 :=
  activation_growth_layers (Xs := fun l => if l = 0 then (1 : Rat) else if l = 1 then 3 else 7)
    (g := 2) (c := 1) (L := 2) (by decide) (fun l hl => by
    have : l = 0 ∨ l = 1 := by omega
    rcases this with rfl | rfl
    · simp <;> grind
    · simp <;> grind)

/-- Non-vacuity of `layer_err_le_concrete`: its hypotheses hold together at `Rat`; `expOne` (F5
holds), `d = H = m = 1`, `N = 2`, every matrix entry `1`, biases `0`, exact query `1` and keys `1`,
`0` (scores `1`, `0`: max set `{0}`, gap `γ = 1`), every input coordinate perturbed by `ε = 1/2`,
`X = τ = A = B = |W1|_col = |W2|_col = 1`. -/
theorem nonvacuous_layer_err_le_concrete :
    ∀ l, l < 1 → absv (ffnResidual (attnResidual (fun _ => (3 / 2 : Rat))
        (fun j _ => (if j = 0 then 1 else 0) + 1 / 2)
        (fun h => softmax expOne 1 (fun j => bilinScore (fun _ => (3 / 2 : Rat))
          ((fun _ _ _ => (1 : Rat)) h) ((fun j _ => (if j = 0 then (1 : Rat) else 0) + 1 / 2) j) 1) 2)
        (fun _ _ _ => 1) 2 1 1) (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0) 1 1 l
      - ffnResidual (attnResidual (fun _ => (1 : Rat)) (fun j _ => if j = 0 then 1 else 0)
        (fun h => ahardmax ((fun _ j => j == 0) h) 2) (fun _ _ _ => 1) 2 1 1)
        (fun _ _ => 1) (fun _ => 0) (fun _ _ => 1) (fun _ => 0) 1 1 l)
      ≤ (1 + 1 * 1) * (1 + sumTo (fun h => (fun _ => (1 : Rat)) h * (1 + 1 * (2 * 1 + 1)
          * (fun _ => (1 : Rat)) h / 1)) 1) * (1 / 2)
        + 2 * (1 + 1 * 1) * 1 * natCast (2 - 1) * expOne.exp (-1 / 1) * sumTo (fun _ => (1 : Rat)) 1 :=
  layer_err_le_concrete expOne expOne_logMean (d := 1) (N := 2) (H := 1) (m := 1)
    (xq := fun _ => 1) (xq' := fun _ => 3 / 2) (b1 := fun _ => 0) (b2 := fun _ => 0)
    (A := fun _ => 1) (B := fun _ => 1) (smax := fun _ => 1)
    (x := fun j _ => if j = 0 then 1 else 0) (x' := fun j _ => (if j = 0 then 1 else 0) + 1 / 2)
    (W1 := fun _ _ => 1) (W2 := fun _ _ => 1) (Q := fun _ _ _ => 1) (V := fun _ _ _ => 1)
    (isMax := fun _ j => j == 0) (X := 1) (tau := 1) (gamma := 1) (eps := 1 / 2) (W1c := 1) (W2c := 1)
    (by grind) (by grind) (by grind) (by grind)
    (fun _ _ => by rw [absv_one_rat]; grind)
    (fun j _ _ _ => by
      by_cases h : j = 0
      · simp only [h, if_true]; rw [absv_one_rat]; grind
      · simp only [h, if_false]; rw [absv_of_nonneg (Std.le_refl (0 : Rat))]; grind)
    (fun _ _ => by
      show absv ((3 / 2 : Rat) - 1) ≤ 1 / 2
      rw [absv_of_nonneg (by grind)]; grind)
    (fun j _ _ _ => by
      show absv ((if j = 0 then (1 : Rat) else 0) + 1 / 2 - (if j = 0 then 1 else 0)) ≤ 1 / 2
      rw [show (if j = 0 then (1 : Rat) else 0) + 1 / 2 - (if j = 0 then 1 else 0) = 1 / 2 by grind,
        absv_of_nonneg (by grind)]
      grind)
    (fun _ _ => by
      show sumTo (fun l => sumTo (fun k => absv ((1 : Rat))) 1) 1 ≤ 1
      rw [sumTo_succ, sumTo_zero, sumTo_succ, sumTo_zero, absv_one_rat]; grind)
    (fun _ _ => by grind)
    (fun _ _ _ _ => by rw [sumTo_succ, sumTo_zero, absv_one_rat]; grind)
    (by decide)
    (fun _ _ => by rw [sumTo_succ, sumTo_zero, absv_one_rat]; grind)
    (by decide)
    (fun _ _ => by rw [sumTo_succ, sumTo_zero, absv_one_rat]; grind)
    (fun _ _ j _ h => by
      simp at h; subst h
      show sumTo (fun l => vecMat (fun _ => (1 : Rat)) (fun _ _ => 1) 1 l * (if 0 = 0 then 1 else 0)) 1 = 1
      simp [sumTo, vecMat]; grind)
    (fun _ _ j _ h => by
      simp at h
      show sumTo (fun l => vecMat (fun _ => (1 : Rat)) (fun _ _ => 1) 1 l * (if j = 0 then 1 else 0)) 1 ≤ 1 - 1
      simp [sumTo, vecMat, h]; grind)
    (fun _ _ => by show 0 < countMax (fun j => j == 0) 2; decide)

/-! ### Errata -/

/-- Non-vacuity of `corrected_offset_le_eps`: its hypotheses hold together at `Rat`; `expOne`,
`K = X = 1`, `N = 1`, `γ = τ = 1`, `ε = 1` (the choice `e^{γ/τ} ε ≥ K X N` holds with equality). -/
theorem nonvacuous_corrected_offset_le_eps :
    (1 : Rat) * 1 * natCast 1 * expOne.exp (-1 / 1) ≤ 1 :=
  corrected_offset_le_eps expOne (by rw [natCast_one_rat]; show (1 : Rat) * 1 * (0 + 1) ≤ 1 * 1; grind)

/-- Non-vacuity of `printed_offset_not_le`: its hypotheses hold together at `Rat`; `expOne`,
`K = X = 1`, `N = 1`, `γ = τ = 1`, `ε = 1/2`. -/
theorem nonvacuous_printed_offset_not_le :
    (1 : Rat) * 1 * natCast 1 ≤ 1 * 1 * natCast 1 * expOne.exp (1 / 1) ∧
      (∀ tau', 0 < tau' → tau' ≤ 1 →
        (1 : Rat) * 1 * natCast 1 * expOne.exp (1 / 1) ≤ 1 * 1 * natCast 1 * expOne.exp (1 / tau')) ∧
      ((1 / 2 : Rat) < 1 * 1 * natCast 1 → ¬ (1 : Rat) * 1 * natCast 1 * expOne.exp (1 / 1) ≤ 1 / 2) :=
  printed_offset_not_le expOne (by decide) (by decide) (by decide) (by decide)

/-- Non-vacuity of `eps_upper_bound_not_certified`: its hypotheses hold together at `Rat`; `expOne`,
`A = 1`, `N = 1`, `γ = τ = 1`, the bound `b = 1`, rates `r = 1`. -/
theorem nonvacuous_eps_upper_bound_not_certified :
    ∃ eps : Rat, 0 < eps ∧ eps ≤ 1 ∧
      ¬ bound (fun _ => (1 : Rat)) (fun _ => 1 * natCast 1 * expOne.exp (-1 / 1)) 1 ≤ eps :=
  eps_upper_bound_not_certified expOne (by decide) (by omega) (by decide) (fun _ => 1)

/-- Non-vacuity of `unguarded_err_unbounded`: its hypotheses hold together at `Rat`; depth `L = 2`,
`M = 100`. -/
theorem nonvacuous_unguarded_err_unbounded :
    bound (fun _ => (1 : Rat)) (fun _ => 2) 2 = 2 * natCast 2 ∧
      ∃ e : Nat → Rat, e 0 = 0 ∧
        (∀ k, k < 2 → e k ≤ 1 → e (k + 1) ≤ (fun _ => (1 : Rat)) k * e k + (fun _ => (2 : Rat)) k) ∧
        (∀ k, k ≤ 2 → 0 ≤ e k) ∧ 100 < e 2 :=
  unguarded_err_unbounded (by omega) 100

end HardSoft

end
