module

/-!
# Wrong on purpose: statements S, T, G, P and errata 1 and 2 with a wrong constant, which the Lean checker must reject

Used by `tests/checks/test_lean_statement_twins.py`: one run of
`checks.families.lean.family.check_sources` on this file (bundled with the other wrong files) must
report an error inside each `WRONG` range and none inside the `RIGHT` ranges, which hold the true
statement next to each wrong one, proved by the same script (so the errors come from the constant,
not the setup). Each wrong statement is a wrong variant of a theorem of `lean/HardSoft/`, read at an
instance where the true bound is attained or nearly so (exponentials are written as the numbers
they stand for, `y = exp δ` and so on, since this file is checked without the project):

* (a) statement S (`softmax_lipschitz`) with half the bound, `‖a - b‖_∞/(2τ)`: scores `a = (0, 0)`
  and `b = (δ, -δ)` at `τ = 1` have softmax weights `(1/2, 1/2)` and `(y², 1)/(y² + 1)`; at `y = 2`
  that is `(4/5, 1/5)`, `‖p - q‖₁ = 3/5`, and fact F5 at `y = 2` allows `δ = 2/3` (the real `ln 2 ≈
  0.693` is larger): `3/5 ≤ δ` (`RIGHT-A`), `3/5 ≤ δ/2 = 1/3` (`WRONG-A`) fails (and fails at
  `δ = ln 2` too).
* (b) statement S without the `1/τ`: the same weights at `τ = 1/2` come from score differences
  `d = τ δ = 1/3`: `3/5 ≤ d/τ = 2/3` (`RIGHT-B`), `3/5 ≤ d = 1/3` (`WRONG-B`) fails.
* (c) statement T's key step (`pow_mul_exp_neg_le`, `max_t t^k e^{-γt/2} = (2k/(e γ))^k`) with the
  `2` dropped: at `k = 1`, `γ = 1` the maximum is at `t = 2`, where `t e^{-t/2} = 2/e` exactly:
  `2/e ≤ 2/e` (`RIGHT-C`, `e` standing for `exp 1`), `2/e ≤ 1/e` (`WRONG-C`) fails for every `e > 0`.
* (d) statement G (`activation_growth`) without the residual: one head with weight `1` on a key
  `x = 1` and `V = 1`, query `x_q = 1`: `y = 2 ≤ (1 + 1) · 1` (`RIGHT-D`); `y ≤ 1 · 1`, the bound
  `Σ_h |V_h|_col X` (`WRONG-D`) fails.
* (e) erratum 1 (`corrected_offset_le_eps`): `K = X = N = 1`, `e^{γ/τ} = 2`, `e^{-γ/τ} = 1/2`, `ε =
  1/2`, so the proof's temperature choice `e^{γ/τ} ε ≥ K X N` holds with equality: the corrected
  offset `1 · 1/2 ≤ 1/2` (`RIGHT-E`); the printed `1 · 2 ≤ 1/2` (`WRONG-E`) fails.
* (f) erratum 2 (`bound_le_eps_of_eps_lower_bound`): a temperature chosen from `b = 1/2` certifies
  `B_L = 1/2`; every `ε ≥ b` is then certified, `1/2 ≤ 1` (`RIGHT-F`, `ε = 1`); the printed
  direction `ε ≤ b` would need `1/2 ≤ 1/4` (`WRONG-F`, `ε = 1/4`), which fails.
* (g) statement P's score step (`bilinScore_err_le`, used by `layer_err_le_concrete`) without the
  factor `2`, `|M|_sum (X ε + ε²)`: `d = 1`, `M = 1`, exact query and key `1 = X`, both perturbed by
  `ε = 1/2` to `3/2`: the score error `(3/2)(3/2) - 1 = 5/4 ≤ 1 · (2 · 1 · 1/2 + 1/4)` with equality
  (`RIGHT-G`); `5/4 ≤ 1 · (1 · 1/2 + 1/4) = 3/4` (`WRONG-G`) fails.
* (h) statement P's head step (`head_out_err_le`) with the term `B ε` dropped, `B X ‖w' - w‖₁`: one
  key with weight `1` in both runs, `V = 1` (`B = 1`), exact key `1 = X` perturbed by `ε = 1/2`: the
  head error `3/2 - 1 = 1/2 ≤ 1 · 1/2 + 1 · 1 · |1 - 1|` with equality (`RIGHT-H`); `1/2 ≤ 1 · 1 ·
  |1 - 1| = 0` (`WRONG-H`) fails.

## Main results

`twin_S_bound`, `twin_S_tau`, `twin_T_peak`, `twin_G_residual`, `twin_offset_minus`,
`twin_eps_lower`, `twin_P_score`, `twin_P_head` (true); `twin_S_half`, `twin_S_no_tau`,
`twin_T_peak_no_two`, `twin_G_no_residual`, `twin_offset_plus`, `twin_eps_upper`,
`twin_P_score_no_two`, `twin_P_head_no_eps` (false, rejected).
-/

public section

set_option autoImplicit false

namespace HardSoft

-- RIGHT-A-BEGIN
/-- Statement S at `y = 2`, `δ = 2/3` (true): `‖(1/2, 1/2) - (4/5, 1/5)‖₁ ≤ δ` (`|a|` spelled out as
`absv`'s `if 0 ≤ a then a else -a`). -/
theorem twin_S_bound :
    (if 0 ≤ ((1 : Rat) / 2 - 4 / 5) then (1 : Rat) / 2 - 4 / 5 else -((1 : Rat) / 2 - 4 / 5))
      + (if 0 ≤ ((1 : Rat) / 2 - 1 / 5) then (1 : Rat) / 2 - 1 / 5 else -((1 : Rat) / 2 - 1 / 5))
      ≤ 2 / 3 := by
  grind
-- RIGHT-A-END

-- WRONG-A-BEGIN
/-- Statement S with half the bound (wrong on purpose): `≤ δ/2`. -/
theorem twin_S_half :
    (if 0 ≤ ((1 : Rat) / 2 - 4 / 5) then (1 : Rat) / 2 - 4 / 5 else -((1 : Rat) / 2 - 4 / 5))
      + (if 0 ≤ ((1 : Rat) / 2 - 1 / 5) then (1 : Rat) / 2 - 1 / 5 else -((1 : Rat) / 2 - 1 / 5))
      ≤ 2 / 3 / 2 := by
  grind
-- WRONG-A-END

-- RIGHT-B-BEGIN
/-- Statement S at `τ = 1/2`, score differences `d = 1/3` (true): `‖p - q‖₁ ≤ d/τ`. -/
theorem twin_S_tau :
    (if 0 ≤ ((1 : Rat) / 2 - 4 / 5) then (1 : Rat) / 2 - 4 / 5 else -((1 : Rat) / 2 - 4 / 5))
      + (if 0 ≤ ((1 : Rat) / 2 - 1 / 5) then (1 : Rat) / 2 - 1 / 5 else -((1 : Rat) / 2 - 1 / 5))
      ≤ (1 / 3) / (1 / 2) := by
  grind
-- RIGHT-B-END

-- WRONG-B-BEGIN
/-- Statement S without the `1/τ` (wrong on purpose): `‖p - q‖₁ ≤ d`. -/
theorem twin_S_no_tau :
    (if 0 ≤ ((1 : Rat) / 2 - 4 / 5) then (1 : Rat) / 2 - 4 / 5 else -((1 : Rat) / 2 - 4 / 5))
      + (if 0 ≤ ((1 : Rat) / 2 - 1 / 5) then (1 : Rat) / 2 - 1 / 5 else -((1 : Rat) / 2 - 1 / 5))
      ≤ 1 / 3 := by
  grind
-- WRONG-B-END

-- RIGHT-C-BEGIN
/-- Statement T's key step at its maximum `t = 2` (`k = γ = 1`, true): `t e^{-t/2} = 2/e ≤ 2k/(e γ)`,
for every `e > 0`. -/
theorem twin_T_peak {e : Rat} (he : 0 < e) : 2 * (1 / e) ≤ 2 * 1 / (e * 1) := by
  have : e ≠ 0 := by grind
  grind
-- RIGHT-C-END

-- WRONG-C-BEGIN
/-- Statement T's key step with the `2` dropped (wrong on purpose): `≤ k/(e γ)`. -/
theorem twin_T_peak_no_two {e : Rat} (he : 0 < e) : 2 * (1 / e) ≤ 1 / (e * 1) := by
  have : e ≠ 0 := by grind
  grind
-- WRONG-C-END

-- RIGHT-D-BEGIN
/-- Statement G, one head, every entry `1` (true): `y = x_q + 1 · 1 · 1 ≤ (1 + |V|_col) X`. -/
theorem twin_G_residual : (1 : Rat) + 1 * 1 * 1 ≤ (1 + 1) * 1 := by
  grind
-- RIGHT-D-END

-- WRONG-D-BEGIN
/-- Statement G without the residual (wrong on purpose): `y ≤ |V|_col X`. -/
theorem twin_G_no_residual : (1 : Rat) + 1 * 1 * 1 ≤ 1 * 1 := by
  grind
-- WRONG-D-END

-- RIGHT-E-BEGIN
/-- Erratum 1 (true): under the choice `e^{γ/τ} ε = 2 · 1/2 ≥ K X N = 1`, the corrected offset `K X N
e^{-γ/τ} = 1/2 ≤ ε`. -/
theorem twin_offset_minus : (2 : Rat) * (1 / 2) ≥ 1 * 1 * 1 → (1 : Rat) * 1 * 1 * (1 / 2) ≤ 1 / 2 := by
  grind
-- RIGHT-E-END

-- WRONG-E-BEGIN
/-- Erratum 1, the printed offset `K X N e^{+γ/τ}` (wrong on purpose). -/
theorem twin_offset_plus : (2 : Rat) * (1 / 2) ≥ 1 * 1 * 1 → (1 : Rat) * 1 * 1 * 2 ≤ 1 / 2 := by
  grind
-- WRONG-E-END

-- RIGHT-F-BEGIN
/-- Erratum 2, the corrected direction (true): `B_L = 1/2` certified for `b = 1/2`, and `ε = 1 ≥ b`. -/
theorem twin_eps_lower : (1 / 2 : Rat) ≤ 1 / 2 → (1 / 2 : Rat) ≤ 1 → (1 / 2 : Rat) ≤ 1 := by
  grind
-- RIGHT-F-END

-- WRONG-F-BEGIN
/-- Erratum 2, the printed direction (wrong on purpose): `ε = 1/4 ≤ b` would be certified too. -/
theorem twin_eps_upper : (1 / 2 : Rat) ≤ 1 / 2 → (1 / 4 : Rat) ≤ 1 / 2 → (1 / 2 : Rat) ≤ 1 / 4 := by
  grind
-- WRONG-F-END

-- RIGHT-G-BEGIN
/-- Statement P's score step at `ε = 1/2` (true): `|(3/2)(3/2) - 1 · 1| ≤ |M|_sum (2 X ε + ε²)`. -/
theorem twin_P_score : (3 / 2 : Rat) * 1 * (3 / 2) - 1 * 1 * 1 ≤ 1 * (2 * 1 * (1 / 2) + 1 / 2 * (1 / 2)) := by
  grind
-- RIGHT-G-END

-- WRONG-G-BEGIN
/-- Statement P's score step without the factor `2` (wrong on purpose): `≤ |M|_sum (X ε + ε²)`. -/
theorem twin_P_score_no_two : (3 / 2 : Rat) * 1 * (3 / 2) - 1 * 1 * 1 ≤ 1 * (1 * (1 / 2) + 1 / 2 * (1 / 2)) := by
  grind
-- WRONG-G-END

-- RIGHT-H-BEGIN
/-- Statement P's head step at `ε = 1/2` (true): `1 · (3/2) · 1 - 1 · 1 · 1 ≤ B ε + B X |w' - w|`. -/
theorem twin_P_head : (1 : Rat) * (3 / 2) * 1 - 1 * 1 * 1 ≤ 1 * (1 / 2) + 1 * 1 * (1 - 1) := by
  grind
-- RIGHT-H-END

-- WRONG-H-BEGIN
/-- Statement P's head step without `B ε` (wrong on purpose): `≤ B X |w' - w|`. -/
theorem twin_P_head_no_eps : (1 : Rat) * (3 / 2) * 1 - 1 * 1 * 1 ≤ 1 * 1 * (1 - 1) := by
  grind
-- WRONG-H-END

end HardSoft

end
