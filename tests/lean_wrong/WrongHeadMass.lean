module

/-!
# Wrong on purpose: the head mass bounds claimed twice as tight, which the Lean checker must reject

Used by `tests/checks/test_lean_headmass.py`: one run of
`checks.families.lean.family.check_sources` on this file must report an error inside each
`WRONG` range and none inside the `RIGHT` ranges, which hold the true statement next to each
wrong one, proved by the same script (so the errors come from the constant, not the setup).
Each wrong statement halves a bound `lean/HardSoft/HeadMass.lean` proves, at an instance where the
bound is nearly attained:

* (a) `softmax_output_err_le`: weights `1/2, 1/2` on values `1, 0` with hard choice `t = 0`: the
  output `1/2` is exactly the mass off `t`, `1/2`, away from `v_t = 1` (`RIGHT-A`); half the mass
  off, `1/4` (`WRONG-A`), fails.
* (b) `sign_head_bounded`, `sign_head_unbounded`: at `n = 3` with the odd group selected, the two
  even keys each keep weight `x` against the odd key's `1`, so the mass off the group is `2x/(1 +
  2x)`, at most `2x` (`RIGHT-B`, `x = 1/16`); at most `x` (`WRONG-B`) fails (`1/9 > 1/16`).
* (c) `lookup_two_sided`, `lookup_two_sided_bounded`: the target between two keys one step away
  has mass off `2x/(1 + 2x)`, times `1 - x` at most `2x` (`RIGHT-C`, `x = 1/16`); at most `x`
  (`WRONG-C`, the bound `x/(1-x)`) fails.
* (d) the temperature rules: a target with one key one step below has mass off `x/(1 + x)`, at
  most `x = 1/(16 m)` (`RIGHT-D`, `m = 1`); at most `1/(32 m)` (`WRONG-D`) fails (`1/17 > 1/32`).
* (e) PREC, `rounded_ziggurat`: the scores `0, -1` (a ziggurat of step `γ = 1`) rounded to within
  half a spacing `u = 1/2`, the top down and the other up by `1/4`, are `-1/4, -3/4`: one step of
  `1/2 = γ - u` (`RIGHT-E`); the step `γ - u/2 = 3/4` (`WRONG-E`, half the spacing lost) fails.
* (f) PREC, `rounded_mass_off_top_le`: at that instance the rounded top keeps weight `1` against
  `x' = exp(-(γ - u)/τ)`, so the mass off it is `x'/(1 + x')`, at most `x'` (`RIGHT-F`, the
  stand-in `x' = 1/16`); at most `exp(-(γ - u/2)/τ) = x'^(3/2) = 1/64` (`WRONG-F`) fails (`1/17 >
  1/64`).

## Main results

`output_err_half`, `sign_mass_two_x`, `two_sided_mass_two_x`, `rule_mass_sixteenth`,
`rounded_step_spacing`, `rounded_mass_x` (true); `output_err_quarter`, `sign_mass_x`,
`two_sided_mass_x`, `rule_mass_thirty_second`, `rounded_step_half_spacing`, `rounded_mass_x_pow`
(false, rejected).
-/

public section

set_option autoImplicit false

namespace HardSoft

-- RIGHT-A-BEGIN
/-- Output error (true): `|1/2 · 1 + 1/2 · 0 - 1| ≤ 1 - 1/2`. -/
theorem output_err_half : (1 : Rat) - (1 / 2 * 1 + 1 / 2 * 0) ≤ 1 - 1 / 2 := by
  grind
-- RIGHT-A-END

-- WRONG-A-BEGIN
/-- Output error with half the mass off (wrong on purpose). -/
theorem output_err_quarter : (1 : Rat) - (1 / 2 * 1 + 1 / 2 * 0) ≤ (1 - 1 / 2) / 2 := by
  grind
-- WRONG-A-END

-- RIGHT-B-BEGIN
/-- The sign head at `n = 3`, odd group selected (true): mass off `2x/(1+2x) ≤ 2x`. -/
theorem sign_mass_two_x : (2 * (1 / 16) : Rat) / (1 + 2 * (1 / 16)) ≤ 2 * (1 / 16) := by
  grind
-- RIGHT-B-END

-- WRONG-B-BEGIN
/-- The sign head's bound halved (wrong on purpose): `2x/(1+2x) ≤ x` fails at `x = 1/16`. -/
theorem sign_mass_x : (2 * (1 / 16) : Rat) / (1 + 2 * (1 / 16)) ≤ 1 / 16 := by
  grind
-- WRONG-B-END

-- RIGHT-C-BEGIN
/-- Lemma 7 with both sides visible (true): `2x/(1+2x) · (1 - x) ≤ 2x`. -/
theorem two_sided_mass_two_x :
    (2 * (1 / 16) : Rat) / (1 + 2 * (1 / 16)) * (1 - 1 / 16) ≤ 2 * (1 / 16) := by
  grind
-- RIGHT-C-END

-- WRONG-C-BEGIN
/-- Lemma 7 with both sides visible, the bound `x/(1-x)` (wrong on purpose). -/
theorem two_sided_mass_x :
    (2 * (1 / 16) : Rat) / (1 + 2 * (1 / 16)) * (1 - 1 / 16) ≤ 1 / 16 := by
  grind
-- WRONG-C-END

-- RIGHT-D-BEGIN
/-- The temperature rule (true): `x/(1+x) ≤ x = 1/(16 m)` at `m = 1`. -/
theorem rule_mass_sixteenth : (1 / 16 : Rat) / (1 + 1 / 16) ≤ 1 / (16 * 1) := by
  grind
-- RIGHT-D-END

-- WRONG-D-BEGIN
/-- The temperature rule claimed twice as tight (wrong on purpose): `1/(32 m)`. -/
theorem rule_mass_thirty_second : (1 / 16 : Rat) / (1 + 1 / 16) ≤ 1 / (32 * 1) := by
  grind
-- WRONG-D-END

-- RIGHT-E-BEGIN
/-- PREC, rounded ziggurat (true): `0, -1` rounded to `-1/4, -3/4` keep one step of `γ - u = 1 - 1/2`. -/
theorem rounded_step_spacing : (1 : Rat) * (1 - 1 / 2) ≤ (0 - 1 / 4) - (-1 + 1 / 4) := by
  grind
-- RIGHT-E-END

-- WRONG-E-BEGIN
/-- PREC, the rounded step claimed as `γ - u/2` (wrong on purpose): `3/4 ≤ 1/2` fails. -/
theorem rounded_step_half_spacing : (1 : Rat) * (1 - 1 / 2 / 2) ≤ (0 - 1 / 4) - (-1 + 1 / 4) := by
  grind
-- WRONG-E-END

-- RIGHT-F-BEGIN
/-- PREC, rounded mass bound (true): `x'/(1 + x') ≤ x'` at `x' = exp(-(γ - u)/τ) = 1/16`. -/
theorem rounded_mass_x : (1 / 16 : Rat) / (1 + 1 / 16) ≤ 1 / 16 := by
  grind
-- RIGHT-F-END

-- WRONG-F-BEGIN
/-- PREC, the mass bound at the step `γ - u/2` (wrong on purpose): `exp(-(γ - u/2)/τ) = x'^(3/2) = 1/64`. -/
theorem rounded_mass_x_pow : (1 / 16 : Rat) / (1 + 1 / 16) ≤ 1 / 64 := by
  grind
-- WRONG-F-END

end HardSoft

end
