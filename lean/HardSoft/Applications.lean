module

public import HardSoft.Constructions
public import HardSoft.Examples

/-!
# The applications' heads, for every `n`: flip-flop, induction and k-hop, prefix-argmax, Dyck

The attention heads of the hand-built applications (`constructive/applications.py`) and the
Dyck-k partner head of the S-RASP compiler (`constructive/srasp/compiler.py`, `Aggregate`), with
each builder's own score formula written out, shown to be instances of the construction
families of `HardSoft.Constructions` (Yang, Strobl, Chiang, Angluin, "Simulating Hard Attention
Using Soft Attention", arXiv 2412.09925, Lemmas 6 and 8):

* Flip-flop (`build_flip_flop`): `[write_j] + j/n` over the keys `j ≤ i` is Lemma 8's bounded
  past tie-breaking head with `K = 1` over `i + 1` keys; at the construction's `τ = 1/(2n)` the
  mass off the last write is at most `exp(-2)`.
* Induction and k-hop (`build_k_hop`): head P (`j/n` over `j < i`, target `i - 1`) and head
  `M_l` (`[j ≥ 1 ∧ w_{j-1} = w_i] + j/n` over `j ≤ i`) are the same family (every hop layer
  has the same scores); head S (`[w_j = w_i]` over `j < i`) and S-RASP's `Once` (`b_j`) are
  `0/1` scores with gap `1` (statement E bounds their mass off the max set).
* Prefix-argmax (`build_prefix_argmax`): head A's `c_j/(j+1) + j/n^3` (`c_j` the count of `a`
  in `w_0..w_j`) has the last maximiser of the ratio as its unique maximum, with gap `1/n^3`
  (distinct ratios of denominators `≤ n` differ by `≥ 1/n^2`); the scores sit at distinct
  multiples `n Δ_j + t - j` of `1/n^3` below it (`Δ_j = c_t (j+1) - c_j (t+1)`), so at the
  construction's `τ = 1/(2n^3)` the mass off it is at most `exp(-2)`; head R is uniform (counting).
* Dyck (`Aggregate` of `dyck_program`'s partner): `2 [open_j] - 2 (depth_j - (depth_i - 1))^2 +
  j/n` over `j < i` is `2 - e_j + j/n` with a natural deficit `e_j`; the key of least deficit,
  rightmost among those, wins by `1/n`, and the scores form a ziggurat with step `1/n`
  (Lemma 6 through `softmax_mass_off_top_le_of_keys`): mass off it at most `exp(-(1/n)/τ)`.

## Main results

* `HardSoft.tiebreak_past_bounded_at_half_tau`: Lemma 8 with `K = 1` at `τ = 1/(2n)`.
* `HardSoft.flip_flop_head`, `HardSoft.induction_prev_head`, `HardSoft.induction_hop_head`.
* `HardSoft.indicator_head`: `0/1` scores (the induction head S, S-RASP's `Once`).
* `HardSoft.prefix_argmax_gap`, `HardSoft.prefix_argmax_mass_le`, `HardSoft.prefix_argmax_head`:
  prefix-argmax's head A.
* `HardSoft.softmax_mass_off_top_le_of_deficits`, `HardSoft.dyck_partner_head`: the Dyck partner.
* `HardSoft.lookup_future_bounded`: Lemma 7's bounded future head's mass bound.
* `HardSoft.nonvacuous_flip_flop_head` and the like: each theorem applied at `Rat` (with
  `HardSoft.expOne`), every hypothesis proved.

Not proved here: the clean-up FFNs and the composition of the layers.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft

open Lean.Grind

variable {α : Type} [Lean.Grind.Field α]

/-- Applications, helper: the cast of a product. -/
theorem natCast_mul_of_nat (m k : Nat) : (natCast (m * k) : α) = natCast m * natCast k := by
  induction k with
  | zero => rw [Nat.mul_zero, natCast_zero]; exact (Lean.Grind.Semiring.mul_zero _).symm
  | succ k ih => rw [Nat.mul_succ, natCast_add, ih, natCast_succ]; grind

/-- Flip-flop (`build_flip_flop`), definition: the score of key `j ≤ i`, `[write_j] + j/n`. -/
noncomputable def flipFlopScore (n : Nat) (write : Nat → Bool) (j : Nat) : α :=
  (if write j then 1 else 0) + natCast j / natCast n

/-- Induction heads (`build_k_hop`, head P), definition: the score of key `j < i`, `j/n`. -/
noncomputable def inductionPrevScore (n : Nat) (j : Nat) : α := natCast j / natCast n

/-- Induction heads (`build_k_hop`, head `M_l`), definition: key `j` matches query `i` when the
token before it is `w_i` (`prev_0 = 0`: key `0` never matches). -/
def inductionHopSel (w : Nat → Nat) (i j : Nat) : Bool := decide (0 < j) && (w (j - 1) == w i)

/-- Induction heads (`build_k_hop`, head `M_l`), definition: the score of key `j ≤ i`,
`⟨tok_i, prev_j⟩ + j/n = [j ≥ 1 ∧ w_{j-1} = w_i] + j/n`. -/
noncomputable def inductionHopScore (n : Nat) (w : Nat → Nat) (i j : Nat) : α :=
  (if inductionHopSel w i j then 1 else 0) + natCast j / natCast n

/-- Prefix-argmax (`build_prefix_argmax`, head A), definition: the score of key `j ≤ i`,
`c_j/(j+1) + j/n^3` (`c_j` the number of `a` in `w_0..w_j`). -/
noncomputable def prefixArgmaxScore (n : Nat) (c : Nat → Nat) (j : Nat) : α :=
  natCast (c j) / natCast (j + 1) + natCast j / (natCast n * natCast n * natCast n)

/-- Dyck (the partner `Aggregate`), definition: the distance `|b - a|` of two naturals. -/
def natDist (a b : Nat) : Nat := if a ≤ b then b - a else a - b

/-- Dyck (`constructive/srasp/compiler.py`, `Aggregate` with key and query `depth`, offset `-1`,
where `open`), definition: the score of key `j < i`, `2 [open_j] - 2 (depth_j - (depth_i - 1))^2
+ j/n`. -/
noncomputable def dyckPartnerScore (n : Nat) (op : Nat → Bool) (d : Nat → Nat) (i j : Nat) : α :=
  2 * (if op j then 1 else 0)
    - 2 * ((natCast (d j) - (natCast (d i) - 1)) * (natCast (d j) - (natCast (d i) - 1)))
    + natCast j / natCast n

/-- Dyck (the partner `Aggregate`), definition: the deficit of key `j` below the best score `2`,
`2 (depth_j + 1 - depth_i)^2 + 2 [not open_j]`, a natural number. -/
def dyckPartnerDeficit (op : Nat → Bool) (d : Nat → Nat) (i j : Nat) : Nat :=
  2 * (natDist (d i) (d j + 1) * natDist (d i) (d j + 1)) + (if op j then 0 else 2)

/-- Dyck (the partner `Aggregate`), helper: `(b - a)^2 = |b - a|^2`. -/
theorem natDist_sq (a b : Nat) :
    ((natCast b - natCast a) * (natCast b - natCast a) : α)
      = natCast (natDist a b) * natCast (natDist a b) := by
  unfold natDist
  by_cases h : a ≤ b
  · rw [if_pos h]
    have e : (natCast b : α) = natCast (b - a) + natCast a := by
      rw [← natCast_add]; congr 1; omega
    rw [e]
    generalize (natCast (b - a) : α) = x
    grind
  · rw [if_neg h]
    have e : (natCast a : α) = natCast (a - b) + natCast b := by
      rw [← natCast_add]; congr 1; omega
    rw [e]
    generalize (natCast (a - b) : α) = x
    grind

/-- Dyck (the partner `Aggregate`), helper: the score is `2 - e_j + j/n`, `e_j` the deficit. -/
theorem dyckPartnerScore_eq (n : Nat) (op : Nat → Bool) (d : Nat → Nat) (i j : Nat) :
    (dyckPartnerScore n op d i j : α)
      = 2 - natCast (dyckPartnerDeficit op d i j) + natCast j / natCast n := by
  have hsq := natDist_sq (α := α) (d i) (d j + 1)
  have e1 : (natCast (d j + 1) : α) = natCast (d j) + 1 := natCast_succ _
  have h2 : (natCast 2 : α) = 2 := by
    rw [show (2 : Nat) = 0 + 1 + 1 from rfl, natCast_succ, natCast_succ, natCast_zero]; grind
  unfold dyckPartnerScore dyckPartnerDeficit
  rw [natCast_add, natCast_mul_of_nat, natCast_mul_of_nat, h2]
  rw [e1] at hsq
  have hb : (natCast (if op j then 0 else 2) : α) = 2 - 2 * (if op j then 1 else 0) := by
    cases op j
    · simp only [Bool.false_eq_true, if_false]; rw [h2]; grind
    · simp only [if_true]; rw [natCast_zero]; grind
  rw [hb]
  generalize (natCast (natDist (d i) (d j + 1)) : α) = x at *
  generalize (if op j then (1 : α) else 0) = v
  grind

variable [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α]

/-- Applications, helper: the cast is monotone. -/
theorem natCast_le_of_le {a b : Nat} (h : a ≤ b) : (natCast a : α) ≤ natCast b := by
  have e : (natCast b : α) = natCast a + natCast (b - a) := by
    rw [← natCast_add]; congr 1; omega
  rw [e]
  have := natCast_nonneg (α := α) (b - a)
  grind

/-! ### Lemma 8 with `K = 1` at `τ = 1/(2n)`: flip-flop, induction, k-hop -/

/-- Lemma 8 (tie-breaking, bounded, past) with `K = 1` at the applications' temperature
`τ = 1/(2n)`: for `0 < i ≤ n` and every selection, the target is `≥ 1/n` above every other key
and the softmax mass off it is at most `exp(-2)`. -/
theorem tiebreak_past_bounded_at_half_tau (E : ExpLike α) {n i : Nat} (sel : Nat → Bool)
    (hi : 0 < i) (hin : i ≤ n) :
    (∀ j, j < i → j ≠ tiebreakPastTarget sel i →
        tiebreakPastBounded (1 : α) n sel j
          ≤ tiebreakPastBounded 1 n sel (tiebreakPastTarget sel i) - 1 / natCast n) ∧
      sumTo (softmax E (1 / (2 * natCast n)) (tiebreakPastBounded 1 n sel) i) i
          - softmax E (1 / (2 * natCast n)) (tiebreakPastBounded 1 n sel) i
            (tiebreakPastTarget sel i)
        ≤ E.exp (-2) := by
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have h2n : (0 : α) < 2 * natCast n := by grind
  have htau : (0 : α) < 1 / (2 * natCast n) := zero_lt_div_of_zero_lt OrderedRing.zero_lt_one h2n
  have h := tiebreak_past_bounded E sel OrderedRing.zero_lt_one htau hi hin
  have e : -((1 : α) / natCast n) / (1 / (2 * natCast n)) = -2 := by
    generalize (natCast n : α) = a at *
    have := ne_zero_of_zero_lt (zero_lt_of_one_le hn1)
    grind
  rw [e] at h
  exact h

/-- Flip-flop (APP-FF, `build_flip_flop`: one causal head, `[write_j] + j/n` over `j ≤ i`,
`i < n`, `τ = 1/(2n)`): the last write at or before `i` (else `i`) is `≥ 1/n` above every other
key, and the softmax mass off it is at most `exp(-2) < 1/4`, for every `n` and every input. -/
theorem flip_flop_head (E : ExpLike α) {n i : Nat} (write : Nat → Bool) (hin : i < n) :
    (∀ j, j < i + 1 → j ≠ tiebreakPastTarget write (i + 1) →
        (flipFlopScore n write j : α)
          ≤ flipFlopScore n write (tiebreakPastTarget write (i + 1)) - 1 / natCast n) ∧
      sumTo (softmax E (1 / (2 * natCast n)) (flipFlopScore n write) (i + 1)) (i + 1)
          - softmax E (1 / (2 * natCast n)) (flipFlopScore n write) (i + 1)
            (tiebreakPastTarget write (i + 1))
        ≤ E.exp (-2) := by
  have e : (flipFlopScore n write : Nat → α) = tiebreakPastBounded 1 n write := by
    funext j
    unfold flipFlopScore tiebreakPastBounded
    grind
  rw [e]
  exact tiebreak_past_bounded_at_half_tau E write (by omega) (by omega)

/-- Induction heads, helper: with nothing selected the past target is `i - 1`. -/
theorem tiebreakPastTarget_none (i : Nat) : tiebreakPastTarget (fun _ => false) i = i - 1 := by
  unfold tiebreakPastTarget
  cases h : lastSel (fun _ => false) i with
  | none => rfl
  | some t => exact absurd (lastSel_some h).2.1 (by simp)

/-- Induction and k-hop heads (APP-IND, APP-KHOP, `build_k_hop` head P: strict, `j/n` over
`j < i`, `0 < i ≤ n`, `τ = 1/(2n)`): key `i - 1` is `≥ 1/n` above every other key and the
softmax mass off it is at most `exp(-2)`, for every `n`. -/
theorem induction_prev_head (E : ExpLike α) {n i : Nat} (hi : 0 < i) (hin : i ≤ n) :
    (∀ j, j < i → j ≠ i - 1 →
        inductionPrevScore n j ≤ (inductionPrevScore n (i - 1) : α) - 1 / natCast n) ∧
      sumTo (softmax E (1 / (2 * natCast n)) (inductionPrevScore n) i) i
          - softmax E (1 / (2 * natCast n)) (inductionPrevScore n) i (i - 1)
        ≤ E.exp (-2) := by
  have e : (inductionPrevScore n : Nat → α) = tiebreakPastBounded 1 n (fun _ => false) := by
    funext j
    unfold inductionPrevScore tiebreakPastBounded
    simp only [Bool.false_eq_true, if_false]
    grind
  rw [e, ← tiebreakPastTarget_none i]
  exact tiebreak_past_bounded_at_half_tau E (fun _ => false) hi hin

/-- Induction and k-hop heads (APP-IND, APP-KHOP, `build_k_hop` head `M_l`, every hop layer:
causal, `[j ≥ 1 ∧ w_{j-1} = w_i] + j/n` over `j ≤ i`, `i < n`, `τ = 1/(2n)`): the last `m ≤ i`
with `w_{m-1} = w_i` (else `i`) is `≥ 1/n` above every other key and the softmax mass off it is
at most `exp(-2)`, for every `n` and every word `w`. -/
theorem induction_hop_head (E : ExpLike α) {n i : Nat} (w : Nat → Nat) (hin : i < n) :
    (∀ j, j < i + 1 → j ≠ tiebreakPastTarget (inductionHopSel w i) (i + 1) →
        (inductionHopScore n w i j : α)
          ≤ inductionHopScore n w i (tiebreakPastTarget (inductionHopSel w i) (i + 1))
            - 1 / natCast n) ∧
      sumTo (softmax E (1 / (2 * natCast n)) (inductionHopScore n w i) (i + 1)) (i + 1)
          - softmax E (1 / (2 * natCast n)) (inductionHopScore n w i) (i + 1)
            (tiebreakPastTarget (inductionHopSel w i) (i + 1))
        ≤ E.exp (-2) := by
  have e : (inductionHopScore n w i : Nat → α) = tiebreakPastBounded 1 n (inductionHopSel w i) := by
    funext j
    unfold inductionHopScore tiebreakPastBounded
    grind
  rw [e]
  exact tiebreak_past_bounded_at_half_tau E (inductionHopSel w i) (by omega) (by omega)

/-! ### Lemma 7, bounded regime, future mask: the mass bound -/

/-- Lemma 7 (table lookup, bounded regime, future mask: `s = K (2 (t/n)(j/n) - (j/n)^2)` with
`t = i + 1` over the keys `j = i+1+k`, `k < n-1-i`, `i + 1 < n`, `K ≥ 0`, `τ > 0`): the softmax
mass off `t` (`k = 0`) is at most `exp(-(K/n^2)/τ)`, for every `n` (the unbounded future head
with `K/n^2`). -/
theorem lookup_future_bounded (E : ExpLike α) {K tau : α} {n i : Nat} (hK : 0 ≤ K)
    (htau : 0 < tau) (hin : i + 1 < n) :
    sumTo (softmax E tau (fun k => lookupScoreBounded K n (i + 1) (i + 1 + k)) (n - 1 - i))
          (n - 1 - i)
        - softmax E tau (fun k => lookupScoreBounded K n (i + 1) (i + 1 + k)) (n - 1 - i) 0
      ≤ E.exp (-(K / (natCast n * natCast n)) / tau) := by
  have hf : (fun k => lookupScoreBounded K n (i + 1) (i + 1 + k))
      = fun k => lookupScore (K / (natCast n * natCast n)) (i + 1) (i + 1 + k) :=
    funext fun k => lookupScoreBounded_eq K (by omega) (i + 1) (i + 1 + k)
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have hnn : (0 : α) < natCast n * natCast n := OrderedRing.mul_pos (by grind) (by grind)
  rw [hf]
  exact (lookup_future E (div_nonneg_of_nonneg hK hnn) htau hin).2

/-! ### `0/1` scores: the induction head S, S-RASP's `Once` -/

/-- Statement E for `0/1` scores (`build_k_hop` head S, `b_j = [w_j = w_i]` over `j < i`; S-RASP's
`Once`, `b_j` over `j ≤ i`): with at least one `b_j` true among `N` keys, every key with `b_j`
false scores `1` below every key with `b_j` true, and the softmax mass off `{j : b_j}` is at
most `(N - 1) exp(-1/τ)`. -/
theorem indicator_head (E : ExpLike α) {tau : α} {b : Nat → Bool} {N : Nat} (htau : 0 < tau)
    (hm : 0 < countMax b N) :
    (∀ j k, j < N → k < N → b j = false → b k = true →
        (if b j then (1 : α) else 0) ≤ (if b k then (1 : α) else 0) - 1) ∧
      offMass b (softmax E tau (fun j => if b j then (1 : α) else 0) N) N
        ≤ natCast (N - 1) * E.exp (-1 / tau) := by
  refine ⟨fun j k _ _ hj hk => ?_, ?_⟩
  · rw [hj, hk]
    simp only [Bool.false_eq_true, if_false, if_true]
    grind
  · refine (softmax_offMass_le_of_gap E (smax := 1) htau (fun j _ h => ?_) (fun j _ h => ?_) hm).2
    · rw [h]; simp only [if_true]
    · rw [h]; simp only [Bool.false_eq_true, if_false]; grind

/-! ### Prefix-argmax: ratios of prefix counts -/

/-- Prefix-argmax, helper: `c_j b + 1 ≤ c_t a` with `a, b > 0` and `a b ≤ M` gives
`c_j/a + 1/M ≤ c_t/b`. -/
theorem ratio_gap {a b cj ct M : α} (ha : 0 < a) (hb : 0 < b) (hab : a * b ≤ M)
    (h : cj * b + 1 ≤ ct * a) : cj / a + 1 / M ≤ ct / b := by
  have hab0 : 0 < a * b := OrderedRing.mul_pos ha hb
  have hM : 0 < M := Std.lt_of_lt_of_le hab0 hab
  have e : ct / b - cj / a = (ct * a - cj * b) / (a * b) := by
    have := ne_zero_of_zero_lt ha
    have := ne_zero_of_zero_lt hb
    grind
  have h1 : 1 / (a * b) ≤ (ct * a - cj * b) / (a * b) := div_le_div_of_le hab0 (by grind)
  have h2 : 1 / M ≤ 1 / (a * b) :=
    div_le_div_of_mul_le_mul hM hab0 (by rw [Semiring.one_mul, Semiring.one_mul]; exact hab)
  grind

/-- Prefix-argmax (APP-PA, `build_prefix_argmax` head A: causal, `c_j/(j+1) + j/n^3` over the
keys `j < N ≤ n`): if `t < N` maximises the ratio `c_j/(j+1)` (cross-multiplied,
`c_j (t+1) ≤ c_t (j+1)`) and is the last maximiser, every other key scores at least `1/n^3`
below `t`, for every `n` and all counts. -/
theorem prefix_argmax_gap {n N t : Nat} {c : Nat → Nat} (hN : N ≤ n) (ht : t < N)
    (hmax : ∀ j, j < N → c j * (t + 1) ≤ c t * (j + 1))
    (hlast : ∀ j, j < N → c j * (t + 1) = c t * (j + 1) → j ≤ t) :
    ∀ j, j < N → j ≠ t →
      prefixArgmaxScore n c j ≤ (prefixArgmaxScore n c t : α)
        - 1 / (natCast n * natCast n * natCast n) := by
  intro j hj hjt
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have hn : (0 : α) < natCast n := zero_lt_of_one_le hn1
  have hn3 : (0 : α) < natCast n * natCast n * natCast n :=
    OrderedRing.mul_pos (OrderedRing.mul_pos hn hn) hn
  have ha := one_le_natCast_of_pos (α := α) (show 0 < j + 1 by omega)
  have hb := one_le_natCast_of_pos (α := α) (show 0 < t + 1 by omega)
  unfold prefixArgmaxScore
  generalize hA : (natCast n * natCast n * natCast n : α) = n3 at *
  by_cases heq : c j * (t + 1) = c t * (j + 1)
  · -- equal ratios: the tie-break `j/n^3` decides (`j < t`)
    have hlt : j + 1 ≤ t := by have := hlast j hj heq; omega
    have hc : (natCast (c j) : α) * natCast (t + 1) = natCast (c t) * natCast (j + 1) := by
      have h0 := congrArg (natCast (α := α)) heq
      rw [natCast_mul_of_nat (c j) (t + 1), natCast_mul_of_nat (c t) (j + 1)] at h0
      exact h0
    have er : (natCast (c j) : α) / natCast (j + 1) = natCast (c t) / natCast (t + 1) := by
      generalize (natCast (j + 1) : α) = a at *
      generalize (natCast (t + 1) : α) = b at *
      have := ne_zero_of_zero_lt (zero_lt_of_one_le ha)
      have := ne_zero_of_zero_lt (zero_lt_of_one_le hb)
      grind
    have ht' : (natCast (j + 1) : α) ≤ natCast t := natCast_le_of_le hlt
    have hd := div_le_div_of_le hn3 ht'
    have e1 : (natCast (j + 1) : α) / n3 = natCast j / n3 + 1 / n3 := by
      rw [natCast_succ j]; grind
    grind
  · -- distinct ratios: they differ by `≥ 1/n^2 = n/n^3`, the tie-break by `≤ (n-1)/n^3`
    have hlt : c j * (t + 1) + 1 ≤ c t * (j + 1) := by have := hmax j hj; omega
    have hc : (natCast (c j) : α) * natCast (t + 1) + 1 ≤ natCast (c t) * natCast (j + 1) := by
      have h0 := natCast_le_of_le (α := α) hlt
      rw [natCast_succ (c j * (t + 1)), natCast_mul_of_nat (c j) (t + 1),
        natCast_mul_of_nat (c t) (j + 1)] at h0
      exact h0
    have hjn : (natCast (j + 1) : α) ≤ natCast n := natCast_le_of_le (by omega)
    have htn : (natCast (t + 1) : α) ≤ natCast n := natCast_le_of_le (by omega)
    have hab : (natCast (j + 1) : α) * natCast (t + 1) ≤ natCast n * natCast n := by
      have h1 := OrderedRing.mul_le_mul_of_nonneg_right hjn (natCast_nonneg (α := α) (t + 1))
      have h2 := OrderedRing.mul_le_mul_of_nonneg_left htn (natCast_nonneg (α := α) n)
      exact Std.le_trans h1 h2
    have hr := ratio_gap (zero_lt_of_one_le ha) (zero_lt_of_one_le hb) hab hc
    have hd := div_le_div_of_le hn3 hjn
    have e1 : (natCast n : α) / n3 = 1 / (natCast n * natCast n) := by
      rw [← hA]
      generalize (natCast n : α) = a at *
      have := ne_zero_of_zero_lt hn
      grind
    have e2 : (natCast (j + 1) : α) / n3 = natCast j / n3 + 1 / n3 := by
      rw [natCast_succ j]; grind
    have ht0 := div_nonneg_of_nonneg (natCast_nonneg (α := α) t) hn3
    grind

/-- Prefix-argmax, helper: with `A = j + 1`, `B = t + 1` (both `≥ 1`), `A B ≤ m^2`, `m > 0` and
`d + c_j B = c_t A`, `d ≥ 0`, the score difference `c_t/B + t/m^3 - (c_j/A + j/m^3)` is at least
`(m d + t - j)/m^3`. -/
theorem prefix_argmax_diff_ge {A B m d cj ct tj tt : α} (hA0 : 0 < A) (hB0 : 0 < B) (hm : 0 < m)
    (hab : A * B ≤ m * m) (hd0 : 0 ≤ d) (eD : d + cj * B = ct * A) :
    (m * d + tt - tj) * (1 / (m * m * m)) ≤ ct / B + tt / (m * m * m) - (cj / A + tj / (m * m * m)) := by
  have hAB : 0 < A * B := OrderedRing.mul_pos hA0 hB0
  have hmm : 0 < m * m := OrderedRing.mul_pos hm hm
  have e2 : ct / B - cj / A = d / (A * B) := by
    have := ne_zero_of_zero_lt hA0
    have := ne_zero_of_zero_lt hB0
    grind
  have h3 : d / (m * m) ≤ d / (A * B) :=
    div_le_div_of_mul_le_mul hmm hAB (OrderedRing.mul_le_mul_of_nonneg_left hab hd0)
  have e4 : (m * d + tt - tj) * (1 / (m * m * m))
      = d / (m * m) + tt / (m * m * m) - tj / (m * m * m) := by
    have := ne_zero_of_zero_lt hm
    grind
  rw [e4]
  grind

/-- Prefix-argmax (APP-PA, `build_prefix_argmax` head A: causal, `c_j/(j+1) + j/n^3` over the
keys `j < N ≤ n`, `τ > 0`): if `t < N` is the last maximiser of the ratio `c_j/(j+1)`, the
softmax mass off `t` is at most `exp(-(1/n^3)/τ)`, for every `n` and all counts. The scores sit
at distinct multiples of `1/n^3` below `t`: with `Δ_j = c_t (j+1) - c_j (t+1) ≥ 0`,
`s_t - s_j ≥ (n Δ_j + t - j)/n^3`, and the naturals `n Δ_j + t - j ≥ 1` (`j ≠ t`) are pairwise
distinct (Lemma 6 through `softmax_mass_off_top_le_of_distinct`). -/
theorem prefix_argmax_mass_le (E : ExpLike α) {tau : α} {n N t : Nat} {c : Nat → Nat}
    (htau : 0 < tau) (hN : N ≤ n) (ht : t < N)
    (hmax : ∀ j, j < N → c j * (t + 1) ≤ c t * (j + 1))
    (hlast : ∀ j, j < N → c j * (t + 1) = c t * (j + 1) → j ≤ t) :
    sumTo (softmax E tau (prefixArgmaxScore n c) N) N - softmax E tau (prefixArgmaxScore n c) N t
      ≤ E.exp (-(1 / (natCast n * natCast n * natCast n)) / tau) := by
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have hn : (0 : α) < natCast n := zero_lt_of_one_le hn1
  have hnn : (0 : α) < natCast n * natCast n := OrderedRing.mul_pos hn hn
  have hn3 : (0 : α) < natCast n * natCast n * natCast n := OrderedRing.mul_pos hnn hn
  -- `Δ_j = c_t (j+1) - c_j (t+1)`, and the key `n Δ_j + t - j`
  obtain ⟨D, hD⟩ : ∃ D : Nat → Nat, ∀ j, j < N → D j + c j * (t + 1) = c t * (j + 1) :=
    ⟨fun j => c t * (j + 1) - c j * (t + 1), fun j hj => by
      show c t * (j + 1) - c j * (t + 1) + c j * (t + 1) = c t * (j + 1)
      have := hmax j hj
      omega⟩
  have hlow : ∀ j, j < N → j ≠ t → j + 1 ≤ n * D j + t := by
    intro j hj hjt
    rcases Nat.eq_zero_or_pos (D j) with h0 | hpos
    · have := hD j hj
      have := hlast j hj (by omega)
      rw [h0, Nat.mul_zero]; omega
    · have := Nat.mul_le_mul_left n (show 1 ≤ D j from hpos)
      omega
  refine softmax_mass_off_top_le_of_distinct E (d := fun j => n * D j + t - j) ht htau
    (Std.le_of_lt (zero_lt_div_of_zero_lt OrderedRing.zero_lt_one hn3)) (fun j hj hjt => ?_) (fun a b ha hb hat hbt h => ?_)
    (fun j hj hjt => ?_)
  · have := hlow j hj hjt
    show 0 < n * D j + t - j
    omega
  · have la := hlow a ha hat
    have lb := hlow b hb hbt
    simp only at h
    rcases Nat.lt_trichotomy (D a) (D b) with hlt | heq | hgt
    · have := Nat.mul_le_mul_left n (show D a + 1 ≤ D b from hlt)
      rw [Nat.mul_add, Nat.mul_one] at this
      omega
    · rw [heq] at h la
      omega
    · have := Nat.mul_le_mul_left n (show D b + 1 ≤ D a from hgt)
      rw [Nat.mul_add, Nat.mul_one] at this
      omega
  · show natCast (n * D j + t - j) * (1 / (natCast n * natCast n * natCast n))
      ≤ prefixArgmaxScore n c t - prefixArgmaxScore n c j
    have hj' := hlow j hj hjt
    have e1 : (natCast (n * D j + t - j) : α) = natCast n * natCast (D j) + natCast t - natCast j := by
      have h := natCast_add (α := α) (n * D j + t - j) j
      rw [Nat.sub_add_cancel (by omega), natCast_add, natCast_mul_of_nat] at h
      grind
    have eD : (natCast (D j) : α) + natCast (c j) * natCast (t + 1)
        = natCast (c t) * natCast (j + 1) := by
      have h := congrArg (natCast (α := α)) (hD j hj)
      rw [natCast_add, natCast_mul_of_nat, natCast_mul_of_nat] at h
      exact h
    have ha := one_le_natCast_of_pos (α := α) (show 0 < j + 1 by omega)
    have hb := one_le_natCast_of_pos (α := α) (show 0 < t + 1 by omega)
    have hjn : (natCast (j + 1) : α) ≤ natCast n := natCast_le_of_le (by omega)
    have htn : (natCast (t + 1) : α) ≤ natCast n := natCast_le_of_le (by omega)
    have hab : (natCast (j + 1) : α) * natCast (t + 1) ≤ natCast n * natCast n := by
      have h1 := OrderedRing.mul_le_mul_of_nonneg_right hjn (natCast_nonneg (α := α) (t + 1))
      have h2 := OrderedRing.mul_le_mul_of_nonneg_left htn (natCast_nonneg (α := α) n)
      exact Std.le_trans h1 h2
    unfold prefixArgmaxScore
    rw [e1]
    exact prefix_argmax_diff_ge (zero_lt_of_one_le ha) (zero_lt_of_one_le hb) hn hab
      (natCast_nonneg (α := α) (D j)) eD

/-- Prefix-argmax (APP-PA, head A) at the construction's temperature `τ = 1/(2n^3)`: the
softmax mass off the last maximiser `t < N ≤ n` of the ratio `c_j/(j+1)` is at most
`exp(-2) < 1/4`, for every `n` and all counts. -/
theorem prefix_argmax_head (E : ExpLike α) {n N t : Nat} {c : Nat → Nat} (hN : N ≤ n)
    (ht : t < N) (hmax : ∀ j, j < N → c j * (t + 1) ≤ c t * (j + 1))
    (hlast : ∀ j, j < N → c j * (t + 1) = c t * (j + 1) → j ≤ t) :
    sumTo (softmax E (1 / (2 * (natCast n * natCast n * natCast n))) (prefixArgmaxScore n c) N) N
        - softmax E (1 / (2 * (natCast n * natCast n * natCast n))) (prefixArgmaxScore n c) N t
      ≤ E.exp (-2) := by
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have hn : (0 : α) < natCast n := zero_lt_of_one_le hn1
  have hn3 : (0 : α) < natCast n * natCast n * natCast n :=
    OrderedRing.mul_pos (OrderedRing.mul_pos hn hn) hn
  have h2 : (0 : α) < 2 * (natCast n * natCast n * natCast n) := by grind
  have htau : (0 : α) < 1 / (2 * (natCast n * natCast n * natCast n)) :=
    zero_lt_div_of_zero_lt OrderedRing.zero_lt_one h2
  have e : -((1 : α) / (natCast n * natCast n * natCast n))
      / (1 / (2 * (natCast n * natCast n * natCast n))) = -2 := by
    have := ne_zero_of_zero_lt hn3
    generalize (natCast n * natCast n * natCast n : α) = a at *
    clear h2 htau hn hn1
    grind
  have h := prefix_argmax_mass_le E htau hN ht hmax hlast
  rw [e] at h
  exact h

/-! ### Dyck: the partner head, a ziggurat of step `1/n` -/

/-- Lemma 6 for scores `A - e_j + j/n` (`j < N ≤ n`, natural deficits `e_j`, `τ > 0`; the
S-RASP `Aggregate` head): the key `t < N` of least deficit, rightmost among those, is `≥ 1/n`
above every other key, and the softmax mass off it is at most `exp(-(1/n)/τ)`. -/
theorem softmax_mass_off_top_le_of_deficits (E : ExpLike α) {s : Nat → α} {e : Nat → Nat}
    {A tau : α} {n N t : Nat} (hN : N ≤ n) (ht : t < N) (htau : 0 < tau)
    (hs : ∀ j, j < N → s j = A - natCast (e j) + natCast j / natCast n)
    (hmin : ∀ j, j < N → e t ≤ e j) (hlast : ∀ j, j < N → e j = e t → j ≤ t) :
    (∀ j, j < N → j ≠ t → s j ≤ s t - 1 / natCast n) ∧
      sumTo (softmax E tau s N) N - softmax E tau s N t ≤ E.exp (-(1 / natCast n) / tau) := by
  obtain ⟨M, hM⟩ := exists_forall_lt e N
  have hn1 := one_le_natCast_of_pos (α := α) (show 0 < n by omega)
  have hn : (0 : α) < natCast n := zero_lt_of_one_le hn1
  have hg : (0 : α) ≤ 1 / natCast n := div_nonneg_of_nonneg (OrderedRing.zero_le_one (R := α)) hn
  -- keys `n (M - e_k) + k`: a smaller deficit is a larger key, whatever the positions
  have hkey : ∀ a b, a < N → b < N → e a < e b → n * (M - e b) + b < n * (M - e a) + a := by
    intro a b _ hb hab
    have h1 : M - e b + 1 ≤ M - e a := by have := hM b hb; omega
    have h2 := Nat.mul_le_mul_left n h1
    rw [Nat.mul_add, Nat.mul_one] at h2
    omega
  refine softmax_mass_off_top_le_of_keys E (c := fun k => n * (M - e k) + k)
    (b := A - natCast M) ht htau hg (fun k hk => ?_) (fun k k' hk hk' h => ?_) (fun k hk => ?_)
  · rw [hs k hk, natCast_add, natCast_mul_of_nat]
    have h := natCast_add (α := α) (M - e k) (e k)
    rw [show M - e k + e k = M by have := hM k hk; omega] at h
    have := ne_zero_of_zero_lt hn
    generalize (natCast (M - e k) : α) = x at *
    generalize (natCast n : α) = a at *
    grind
  · simp only at h
    rcases Nat.lt_trichotomy (e k) (e k') with hlt | heq | hgt
    · have := hkey k k' hk hk' hlt; omega
    · rw [heq] at h; omega
    · have := hkey k' k hk' hk hgt; omega
  · show n * (M - e k) + k ≤ n * (M - e t) + t
    rcases Nat.lt_or_eq_of_le (hmin k hk) with hlt | heq
    · have := hkey t k ht hk hlt; omega
    · rw [← heq]; have := hlast k hk heq.symm; omega

/-- Dyck-k (APP-DYCK, the partner `Aggregate` of `dyck_program`: strict,
`2 [open_j] - 2 (depth_j - (depth_i - 1))^2 + j/n` over `j < i ≤ n`, `τ > 0`): the key `t < i`
of least deficit `2 (depth_j + 1 - depth_i)^2 + 2 [not open_j]` (an open key one level up when
there is one), rightmost among those, is `≥ 1/n` above every other key, and the softmax mass
off it is at most `exp(-(1/n)/τ)`, for every `n` and all depths. -/
theorem dyck_partner_head (E : ExpLike α) {tau : α} {n i t : Nat} (op : Nat → Bool)
    (d : Nat → Nat) (htau : 0 < tau) (hin : i ≤ n) (ht : t < i)
    (hmin : ∀ j, j < i → dyckPartnerDeficit op d i t ≤ dyckPartnerDeficit op d i j)
    (hlast : ∀ j, j < i → dyckPartnerDeficit op d i j = dyckPartnerDeficit op d i t → j ≤ t) :
    (∀ j, j < i → j ≠ t →
        dyckPartnerScore n op d i j ≤ (dyckPartnerScore n op d i t : α) - 1 / natCast n) ∧
      sumTo (softmax E tau (dyckPartnerScore n op d i) i) i
          - softmax E tau (dyckPartnerScore n op d i) i t
        ≤ E.exp (-(1 / natCast n) / tau) :=
  softmax_mass_off_top_le_of_deficits E hin ht htau (fun j _ => dyckPartnerScore_eq n op d i j)
    hmin hlast

/-! ### Non-vacuity: each theorem above at `Rat`, every hypothesis proved -/

/-- Non-vacuity of `tiebreak_past_bounded_at_half_tau` at `Rat`. -/
theorem nonvacuous_tiebreak_past_bounded_at_half_tau :
    (∀ j, j < 2 → j ≠ tiebreakPastTarget (fun j => j == 0) 2 → tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) j ≤ tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0) (tiebreakPastTarget (fun j => j == 0) 2) - 1 / natCast 3) ∧
      sumTo (softmax expOne (1 / (2 * natCast 3)) (tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2) 2 - softmax expOne (1 / (2 * natCast 3)) (tiebreakPastBounded (1 : Rat) 3 (fun j => j == 0)) 2 (tiebreakPastTarget (fun j => j == 0) 2) ≤ expOne.exp (-2) :=
  tiebreak_past_bounded_at_half_tau expOne (fun j => j == 0) (by decide) (by decide)

/-- Non-vacuity of `flip_flop_head` at `Rat`. -/
theorem nonvacuous_flip_flop_head :
    (∀ j, j < 1 + 1 → j ≠ tiebreakPastTarget (fun j => j == 0) (1 + 1) → flipFlopScore 3 (fun j => j == 0) j ≤ (flipFlopScore 3 (fun j => j == 0) (tiebreakPastTarget (fun j => j == 0) (1 + 1)) : Rat) - 1 / natCast 3) ∧
      sumTo (softmax expOne (1 / (2 * natCast 3)) (flipFlopScore 3 (fun j => j == 0)) (1 + 1)) (1 + 1) - softmax expOne (1 / (2 * natCast 3)) (flipFlopScore 3 (fun j => j == 0)) (1 + 1) (tiebreakPastTarget (fun j => j == 0) (1 + 1)) ≤ expOne.exp (-2) :=
  flip_flop_head expOne (fun j => j == 0) (by decide)

/-- Non-vacuity of `induction_prev_head` at `Rat`. -/
theorem nonvacuous_induction_prev_head :
    (∀ j, j < 2 → j ≠ 2 - 1 → inductionPrevScore 3 j ≤ (inductionPrevScore 3 (2 - 1) : Rat) - 1 / natCast 3) ∧
      sumTo (softmax expOne (1 / (2 * natCast 3)) (inductionPrevScore 3) 2) 2 - softmax expOne (1 / (2 * natCast 3)) (inductionPrevScore 3) 2 (2 - 1) ≤ expOne.exp (-2) :=
  induction_prev_head expOne (by decide) (by decide)

/-- Non-vacuity of `induction_hop_head` at `Rat`. -/
theorem nonvacuous_induction_hop_head :
    (∀ j, j < 2 + 1 → j ≠ tiebreakPastTarget (inductionHopSel (fun j => j % 2) 2) (2 + 1) → inductionHopScore 3 (fun j => j % 2) 2 j ≤ (inductionHopScore 3 (fun j => j % 2) 2 (tiebreakPastTarget (inductionHopSel (fun j => j % 2) 2) (2 + 1)) : Rat) - 1 / natCast 3) ∧
      sumTo (softmax expOne (1 / (2 * natCast 3)) (inductionHopScore 3 (fun j => j % 2) 2) (2 + 1)) (2 + 1) - softmax expOne (1 / (2 * natCast 3)) (inductionHopScore 3 (fun j => j % 2) 2) (2 + 1) (tiebreakPastTarget (inductionHopSel (fun j => j % 2) 2) (2 + 1)) ≤ expOne.exp (-2) :=
  induction_hop_head expOne (fun j => j % 2) (by decide)

/-- Non-vacuity of `indicator_head` at `Rat`. -/
theorem nonvacuous_indicator_head :
    (∀ j k, j < 2 → k < 2 → (fun j => j == 0) j = false → (fun j => j == 0) k = true → (if (fun j => j == 0) j then (1 : Rat) else 0) ≤ (if (fun j => j == 0) k then (1 : Rat) else 0) - 1) ∧
      offMass (fun j => j == 0) (softmax expOne 1 (fun j => if (fun j => j == 0) j then (1 : Rat) else 0) 2) 2 ≤ natCast (2 - 1) * expOne.exp (-1 / 1) :=
  indicator_head expOne (by decide) (by decide)

/-- Non-vacuity of `prefix_argmax_gap` at `Rat`. -/
theorem nonvacuous_prefix_argmax_gap :
    ∀ j, j < 2 → j ≠ 1 → prefixArgmaxScore 2 (fun _ => 0) j ≤ (prefixArgmaxScore 2 (fun _ => 0) 1 : Rat) - 1 / (natCast 2 * natCast 2 * natCast 2) :=
  prefix_argmax_gap (by decide) (by decide) (fun j _ => by simp) (fun j hj _ => by omega)

/-- Non-vacuity of `prefix_argmax_mass_le` at `Rat`. -/
theorem nonvacuous_prefix_argmax_mass_le :
    sumTo (softmax expOne 1 (prefixArgmaxScore 2 (fun _ => 0)) 2) 2 - softmax expOne 1 (prefixArgmaxScore 2 (fun _ => 0)) 2 1 ≤ expOne.exp (-(1 / (natCast 2 * natCast 2 * natCast 2)) / 1) :=
  prefix_argmax_mass_le expOne (by decide) (by decide) (by decide) (fun j _ => by simp) (fun j hj _ => by omega)

/-- Non-vacuity of `prefix_argmax_head` at `Rat`. -/
theorem nonvacuous_prefix_argmax_head :
    sumTo (softmax expOne (1 / (2 * (natCast 2 * natCast 2 * natCast 2))) (prefixArgmaxScore 2 (fun _ => 0)) 2) 2 - softmax expOne (1 / (2 * (natCast 2 * natCast 2 * natCast 2))) (prefixArgmaxScore 2 (fun _ => 0)) 2 1 ≤ expOne.exp (-2) :=
  prefix_argmax_head expOne (by decide) (by decide) (fun j _ => by simp) (fun j hj _ => by omega)

/-- Non-vacuity of `softmax_mass_off_top_le_of_deficits` at `Rat`. -/
theorem nonvacuous_softmax_mass_off_top_le_of_deficits :
    (∀ j, j < 2 → j ≠ 1 → inductionPrevScore 2 j ≤ (inductionPrevScore 2 1 : Rat) - 1 / natCast 2) ∧
      sumTo (softmax expOne 1 (inductionPrevScore 2) 2) 2 - softmax expOne 1 (inductionPrevScore 2) 2 1 ≤ expOne.exp (-(1 / natCast 2) / 1) :=
  softmax_mass_off_top_le_of_deficits expOne (e := fun _ => 0) (A := 0) (by decide) (by decide) (by decide) (fun j _ => by unfold inductionPrevScore; rw [natCast_zero]; grind) (fun j _ => Nat.le_refl 0) (fun j hj _ => by omega)

/-- Non-vacuity of `dyck_partner_head` at `Rat`. -/
theorem nonvacuous_dyck_partner_head :
    (∀ j, j < 2 → j ≠ 1 → dyckPartnerScore 2 (fun _ => true) (fun j => j) 2 j ≤ (dyckPartnerScore 2 (fun _ => true) (fun j => j) 2 1 : Rat) - 1 / natCast 2) ∧
      sumTo (softmax expOne 1 (dyckPartnerScore 2 (fun _ => true) (fun j => j) 2) 2) 2 - softmax expOne 1 (dyckPartnerScore 2 (fun _ => true) (fun j => j) 2) 2 1 ≤ expOne.exp (-(1 / natCast 2) / 1) :=
  dyck_partner_head expOne (fun _ => true) (fun j => j) (by decide) (by decide) (by decide) (by decide) (by decide)

/-- Non-vacuity of `lookup_future_bounded` at `Rat`. -/
theorem nonvacuous_lookup_future_bounded :
    sumTo (softmax expOne 1 (fun k => lookupScoreBounded (1 : Rat) 3 (0 + 1) (0 + 1 + k)) (3 - 1 - 0)) (3 - 1 - 0) - softmax expOne 1 (fun k => lookupScoreBounded (1 : Rat) 3 (0 + 1) (0 + 1 + k)) (3 - 1 - 0) 0 ≤ expOne.exp (-(1 / (natCast 3 * natCast 3)) / 1) :=
  lookup_future_bounded expOne (by decide) (by decide) (by decide)

end HardSoft

end
