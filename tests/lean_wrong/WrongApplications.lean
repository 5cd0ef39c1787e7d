module

/-!
# Wrong on purpose: the applications' head constants the Lean checker must reject

Used by `tests/checks/test_lean_applications.py`: one run of
`checks.families.lean.family.check_sources` on this file must report an error inside each
`WRONG` range and none inside the `RIGHT` ranges, which hold the true statement next to each
wrong one, proved by the same script (so the errors come from the constant, not the setup).
Each wrong statement claims a gap twice as large as the one `lean/HardSoft/Applications.lean`
proves:

* (a) `tiebreak_past_bounded_at_half_tau`, `flip_flop_head`, `induction_prev_head`,
  `induction_hop_head`: the gap `1/n` at `τ = 1/(2n)` is the exponent `-(1/n)/τ = -2`
  (`RIGHT-A`); a gap `2/n` would be `-4` (`WRONG-A`), which fails for every `n`.
* (b) `indicator_head`: a `0/1` score with `b_j` false is `1` below one with `b_k` true
  (`RIGHT-B`); `2` below (`WRONG-B`) fails.
* (c) `prefix_argmax_gap`: at `n = 2` on the word `bb` (counts `c = 0, 0`: equal ratios, the
  last key wins by the tie-break alone) key `0` scores exactly `1/n^3 = 1/8` below key `1`
  (`RIGHT-C`); `2/8` (`WRONG-C`) fails.
* (e) `lookup_future_bounded`: at `n = 3`, `K = 1`, query `0`, the key `j = 2` scores exactly
  `K/n^2 = 1/9` below the target `t = 1` (`RIGHT-E`); `2/9` (`WRONG-E`) fails.
* (d) `softmax_mass_off_top_le_of_deficits`, `dyck_partner_head`: a smaller deficit makes a key
  `n (M - e) + j` at least `1` larger (`RIGHT-D`, the gap `1/n` after scaling by `1/n`); at
  least `2` (`WRONG-D`) fails at `e_b = e_a + 1`, `a = 0`, `b = n - 1`.

## Main results

`half_tau_exponent`, `indicator_gap_one`, `prefix_argmax_gap_tight`, `deficit_key_gap_one`,
`lookup_bounded_gap_tight` (true); `half_tau_exponent_four`, `indicator_gap_two`,
`prefix_argmax_gap_double`, `deficit_key_gap_two`, `lookup_bounded_gap_double` (false, rejected).
-/

public section

set_option autoImplicit false

namespace HardSoft

-- RIGHT-A-BEGIN
/-- Lemma 8 at `τ = 1/(2n)` (true): the gap `1/n` gives the exponent `-2`. -/
theorem half_tau_exponent {a : Rat} (ha : 0 < a) : -(1 / a) / (1 / (2 * a)) = -2 := by
  have : a ≠ 0 := by grind
  grind
-- RIGHT-A-END

-- WRONG-A-BEGIN
/-- Lemma 8 at `τ = 1/(2n)` with the gap doubled (wrong on purpose): exponent `-4`. -/
theorem half_tau_exponent_four {a : Rat} (ha : 0 < a) : -(1 / a) / (1 / (2 * a)) = -4 := by
  have : a ≠ 0 := by grind
  grind
-- WRONG-A-END

-- RIGHT-B-BEGIN
/-- `0/1` scores (true): gap `1`. -/
theorem indicator_gap_one {b c : Bool} (hb : b = false) (hc : c = true) :
    (if b then (1 : Rat) else 0) ≤ (if c then (1 : Rat) else 0) - 1 := by
  rw [hb, hc]
  simp only [Bool.false_eq_true, if_false, if_true]
  grind
-- RIGHT-B-END

-- WRONG-B-BEGIN
/-- `0/1` scores with the gap doubled (wrong on purpose). -/
theorem indicator_gap_two {b c : Bool} (hb : b = false) (hc : c = true) :
    (if b then (1 : Rat) else 0) ≤ (if c then (1 : Rat) else 0) - 2 := by
  rw [hb, hc]
  simp only [Bool.false_eq_true, if_false, if_true]
  grind
-- WRONG-B-END

-- RIGHT-C-BEGIN
/-- Prefix-argmax at `n = 2`, word `bb` (true): `c_0/1 + 0/8 ≤ c_1/2 + 1/8 - 1/8`. -/
theorem prefix_argmax_gap_tight :
    (0 : Rat) / 1 + 0 / (2 * 2 * 2) ≤ (0 : Rat) / 2 + 1 / (2 * 2 * 2) - 1 / (2 * 2 * 2) := by
  grind
-- RIGHT-C-END

-- WRONG-C-BEGIN
/-- Prefix-argmax at `n = 2`, word `bb`, with the gap doubled (wrong on purpose). -/
theorem prefix_argmax_gap_double :
    (0 : Rat) / 1 + 0 / (2 * 2 * 2) ≤ (0 : Rat) / 2 + 1 / (2 * 2 * 2) - 2 / (2 * 2 * 2) := by
  grind
-- WRONG-C-END

-- RIGHT-D-BEGIN
/-- The deficit keys (true): `e_a < e_b < M`, `b < n` give `n (M - e_b) + b + 1 ≤ n (M - e_a) + a`. -/
theorem deficit_key_gap_one {n M ea eb a b : Nat} (hb : b < n) (hab : ea < eb) (hM : eb < M) :
    n * (M - eb) + b + 1 ≤ n * (M - ea) + a := by
  have h1 : M - eb + 1 ≤ M - ea := by omega
  have h2 := Nat.mul_le_mul_left n h1
  rw [Nat.mul_add, Nat.mul_one] at h2
  omega
-- RIGHT-D-END

-- WRONG-D-BEGIN
/-- The deficit keys with the gap doubled (wrong on purpose). -/
theorem deficit_key_gap_two {n M ea eb a b : Nat} (hb : b < n) (hab : ea < eb) (hM : eb < M) :
    n * (M - eb) + b + 2 ≤ n * (M - ea) + a := by
  have h1 : M - eb + 1 ≤ M - ea := by omega
  have h2 := Nat.mul_le_mul_left n h1
  rw [Nat.mul_add, Nat.mul_one] at h2
  omega
-- WRONG-D-END

-- RIGHT-E-BEGIN
/-- Lemma 7, bounded, at `n = 3`, `K = 1`, `t = 1` (true): key `2` scores `1/9` below `t`. -/
theorem lookup_bounded_gap_tight :
    2 * ((1 : Rat) / 3) * (2 / 3) - (2 / 3) * (2 / 3)
      ≤ 2 * ((1 : Rat) / 3) * (1 / 3) - (1 / 3) * (1 / 3) - 1 / (3 * 3) := by
  grind
-- RIGHT-E-END

-- WRONG-E-BEGIN
/-- Lemma 7, bounded, at `n = 3` with the gap doubled (wrong on purpose). -/
theorem lookup_bounded_gap_double :
    2 * ((1 : Rat) / 3) * (2 / 3) - (2 / 3) * (2 / 3)
      ≤ 2 * ((1 : Rat) / 3) * (1 / 3) - (1 / 3) * (1 / 3) - 2 / (3 * 3) := by
  grind
-- WRONG-E-END

end HardSoft

end
