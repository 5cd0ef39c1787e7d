module

/-!
# Wrong on purpose: prefix-argmax's and the lookup over positions' mass bounds claimed too tight, which the Lean checker must reject

Used by `tests/checks/test_lean_mass_off.py`: one run of
`checks.families.lean.family.check_sources` on this file must report an error inside each
`WRONG` range and none inside the `RIGHT` ranges, which hold the true statement next to each
wrong one, proved by the same script (so the errors come from the constant, not the setup).
Each wrong statement tightens a bound of `prefix_argmax_head` (`lean/HardSoft/Applications.lean`)
or of the lookup over positions (`lean/HardSoft/HeadMass.lean`) at an instance where the true
bound is attained or nearly so:

* (a) `prefix_argmax_mass_le`, `prefix_argmax_head`: at `n = 2` on the word `bb` (counts `0, 0`:
  key `0` scores `0`, the last maximiser `t = 1` scores `1/n^3 = 1/8`), key `0`'s exponent at `τ =
  1/(2n^3)` is exactly `-2` (`RIGHT-A`); the bound `exp(-4)` (a gap `2/n^3`) would need `-4`
  (`WRONG-A`), which fails.
* (b) the same instance's mass off `t` is `y/(1 + y)` with `y = exp(-2)`: at most `y` (`RIGHT-B`,
  the stand-in `y = 1/8`); at most `y^2 = exp(-4)` (`WRONG-B`) fails (`1/9 > 1/64`).
* (c) `position_lookup_at_rule`: at `S = 1`, `D = M = 2` (the rule tight), key `0` scores `0`
  against `p = S`'s `(2 S - 1)/D = 1/2`, so its exponent at `τ = 1/(M L)` is exactly `-L`
  (`RIGHT-C`); `-2L` (the step `2/D`, `x = exp(-2L)`; `WRONG-C`) fails for every `L > 0`.
* (d) the same instance has two keys (`p = 0, 2`) at weight `x` against `p = S`'s `1`: mass off
  `2x/(1 + 2x)`, times `1 - x` at most `2x` (`RIGHT-D`, `x = 1/32`); at most `x` (`WRONG-D`) fails.
* (e) `position_lookup_neg_at_rule`: with `m = 0` and `N = 2` the key `p = 1` is exactly `1/D`
  below `p = 0`: mass off `x/(1 + x) ≤ x` (`RIGHT-E`, `x = 1/32`); at most `x/2` (`WRONG-E`) fails.
* (f) `position_lookup_copy_at_rule`: at `S = 0`, `N = 2`, `D = M = 2` the key `p = 1` has weight
  `x` against `p = S`'s `1`, so the output `Σ_p w_p p` is `x/(1 + x)`: its copy error times `(1 -
  x)^2` is at most `2x` (`RIGHT-F`, `x = 1/32`); at most `x/2` (`WRONG-F`) fails (the error is `x/(1 +
  x)`, near `x`: only one side overshoots here, and the sides' signs cancel, so a bound `x/(1-x)^2`
  would still hold).
* (g) `gated_position_gap`, `gated_position_copy`: with the gate open and `N = 2` keys, key `0`
  scores `0` against the target `1`'s `1`, so its exponent at `τ = 1` is exactly `-1` (`RIGHT-G`,
  the step `1`); `-2` (a gap `2` claimed, `x = exp(-2/τ)`; `WRONG-G`) fails.
* (h) `gated_position_copy`: at the same instance key `0` has weight `x` against the target's `1`,
  so the output is `1/(1 + x)` and the copy error `x/(1 + x)`: times `(1 - x)^2` at most `x`
  (`RIGHT-H`, `x = 1/32`; every key on one side, so the bound is tight as `x → 0`); at most `x/2`
  (`WRONG-H`) fails.

## Main results

`prefix_argmax_exponent_two`, `prefix_argmax_mass_y`, `position_exponent_L`,
`position_mass_two_x`, `position_neg_mass_x`, `position_copy_two_x`, `gated_exponent_one`, `gated_copy_x` (true);
`prefix_argmax_exponent_four`, `prefix_argmax_mass_y_sq`, `position_exponent_two_L`,
`position_mass_x`, `position_neg_mass_half_x`, `position_copy_half_x`, `gated_exponent_two`,
`gated_copy_half_x` (false, rejected).
-/

public section

set_option autoImplicit false

namespace HardSoft

-- RIGHT-A-BEGIN
/-- Prefix-argmax at `τ = 1/(2n^3)`, `n = 2`, counts `0, 0` (true): key `0`'s exponent is `-2`. -/
theorem prefix_argmax_exponent_two :
    ((0 : Rat) / 1 + 0 / (2 * 2 * 2) - (0 / 2 + 1 / (2 * 2 * 2))) / (1 / (2 * (2 * 2 * 2))) = -2 := by
  grind
-- RIGHT-A-END

-- WRONG-A-BEGIN
/-- Prefix-argmax with the bound `exp(-4)` (wrong on purpose): the exponent `-4`. -/
theorem prefix_argmax_exponent_four :
    ((0 : Rat) / 1 + 0 / (2 * 2 * 2) - (0 / 2 + 1 / (2 * 2 * 2))) / (1 / (2 * (2 * 2 * 2))) = -4 := by
  grind
-- WRONG-A-END

-- RIGHT-B-BEGIN
/-- Prefix-argmax's mass off at the same instance (true): `y/(1+y) ≤ y`. -/
theorem prefix_argmax_mass_y : (1 / 8 : Rat) / (1 + 1 / 8) ≤ 1 / 8 := by
  grind
-- RIGHT-B-END

-- WRONG-B-BEGIN
/-- Prefix-argmax's mass off bounded by `y^2 = exp(-4)` (wrong on purpose). -/
theorem prefix_argmax_mass_y_sq : (1 / 8 : Rat) / (1 + 1 / 8) ≤ 1 / 8 * (1 / 8) := by
  grind
-- WRONG-B-END

-- RIGHT-C-BEGIN
/-- The lookup over positions at `S = 1`, `D = M = 2` (true): key `0`'s exponent at `τ = 1/(M L)`
is `-L`. -/
theorem position_exponent_L {L : Rat} (hL : 0 < L) :
    ((2 * (1 / 2) * 0 - 1 / 2 * (0 * 0)) - (2 * (1 / 2) * 1 - 1 / 2 * (1 * 1))) / (1 / (2 * L))
      = -L := by
  have : L ≠ 0 := by grind
  grind
-- RIGHT-C-END

-- WRONG-C-BEGIN
/-- The lookup over positions with the exponent `-2L` (wrong on purpose). -/
theorem position_exponent_two_L {L : Rat} (hL : 0 < L) :
    ((2 * (1 / 2) * 0 - 1 / 2 * (0 * 0)) - (2 * (1 / 2) * 1 - 1 / 2 * (1 * 1))) / (1 / (2 * L))
      = -(2 * L) := by
  have : L ≠ 0 := by grind
  grind
-- WRONG-C-END

-- RIGHT-D-BEGIN
/-- The lookup over positions at the rule (true): `2x/(1+2x) · (1 - x) ≤ 2x`, `x = 1/32`. -/
theorem position_mass_two_x :
    (2 * (1 / 32) : Rat) / (1 + 2 * (1 / 32)) * (1 - 1 / 32) ≤ 2 * (1 / 32) := by
  grind
-- RIGHT-D-END

-- WRONG-D-BEGIN
/-- The lookup over positions with the bound `x` (wrong on purpose). -/
theorem position_mass_x :
    (2 * (1 / 32) : Rat) / (1 + 2 * (1 / 32)) * (1 - 1 / 32) ≤ 1 / 32 := by
  grind
-- WRONG-D-END

-- RIGHT-E-BEGIN
/-- The lookup over positions, negative prefix sum (true): `x/(1+x) ≤ x`, `x = 1/32`. -/
theorem position_neg_mass_x : (1 / 32 : Rat) / (1 + 1 / 32) ≤ 1 / 32 := by
  grind
-- RIGHT-E-END

-- WRONG-E-BEGIN
/-- The lookup over positions, negative prefix sum, with the bound `x/2` (wrong on purpose). -/
theorem position_neg_mass_half_x : (1 / 32 : Rat) / (1 + 1 / 32) ≤ 1 / 32 / 2 := by
  grind
-- WRONG-E-END

-- RIGHT-F-BEGIN
/-- The lookup over positions' copy error at `S = 0`, `N = 2` (true): `|x/(1+x) - 0| (1-x)^2 ≤ 2x`,
`x = 1/32` (`|a|` spelled out as `absv`'s `if 0 ≤ a then a else -a`: this file is checked without
the project). -/
theorem position_copy_two_x :
    (if 0 ≤ ((0 * 1 + 1 * (1 / 32)) / (1 + 1 / 32) - 0 : Rat) then ((0 * 1 + 1 * (1 / 32)) / (1 + 1 / 32) - 0 : Rat) else -((0 * 1 + 1 * (1 / 32)) / (1 + 1 / 32) - 0 : Rat)) * ((1 - 1 / 32) * (1 - 1 / 32))
      ≤ 2 * (1 / 32) := by
  grind
-- RIGHT-F-END

-- WRONG-F-BEGIN
/-- The lookup over positions' copy error with the bound `x/2` (wrong on purpose). -/
theorem position_copy_half_x :
    (if 0 ≤ ((0 * 1 + 1 * (1 / 32)) / (1 + 1 / 32) - 0 : Rat) then ((0 * 1 + 1 * (1 / 32)) / (1 + 1 / 32) - 0 : Rat) else -((0 * 1 + 1 * (1 / 32)) / (1 + 1 / 32) - 0 : Rat)) * ((1 - 1 / 32) * (1 - 1 / 32))
      ≤ 1 / 32 / 2 := by
  grind
-- WRONG-F-END

-- RIGHT-G-BEGIN
/-- The gated position head, gate open, `N = 2`, at `τ = 1` (true): key `0`'s exponent is `-1`. -/
theorem gated_exponent_one : ((0 : Rat) - 1) / 1 = -1 := by
  grind
-- RIGHT-G-END

-- WRONG-G-BEGIN
/-- The gated position head with a gap `2` (wrong on purpose): the exponent `-2`. -/
theorem gated_exponent_two : ((0 : Rat) - 1) / 1 = -2 := by
  grind
-- WRONG-G-END

-- RIGHT-H-BEGIN
/-- The gated position head's copy error, gate open, `N = 2` (true): `|1/(1+x) - 1| (1-x)^2 ≤ x`,
`x = 1/32` (`|a|` spelled out as `absv`'s `if 0 ≤ a then a else -a`). -/
theorem gated_copy_x :
    (if 0 ≤ ((0 * (1 / 32) + 1 * 1) / (1 + 1 / 32) - 1 : Rat) then ((0 * (1 / 32) + 1 * 1) / (1 + 1 / 32) - 1 : Rat) else -((0 * (1 / 32) + 1 * 1) / (1 + 1 / 32) - 1 : Rat)) * ((1 - 1 / 32) * (1 - 1 / 32))
      ≤ 1 / 32 := by
  grind
-- RIGHT-H-END

-- WRONG-H-BEGIN
/-- The gated position head's copy error with the bound `x/2` (wrong on purpose). -/
theorem gated_copy_half_x :
    (if 0 ≤ ((0 * (1 / 32) + 1 * 1) / (1 + 1 / 32) - 1 : Rat) then ((0 * (1 / 32) + 1 * 1) / (1 + 1 / 32) - 1 : Rat) else -((0 * (1 / 32) + 1 * 1) / (1 + 1 / 32) - 1 : Rat)) * ((1 - 1 / 32) * (1 - 1 / 32))
      ≤ 1 / 32 / 2 := by
  grind
-- WRONG-H-END

end HardSoft

end
