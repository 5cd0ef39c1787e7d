module

public import HardSoft.Cert.FFN

/-!
# Certificates, part 9b: mixed comparisons (unbounded regime)

A comparison mixing past and future counts (`#<[a] > #>[a]`) is compiled over two layers: count
heads write each count's average `f = #_d[x](i) / maskCount d n i` into a coordinate of role
`avg d x` (exact in both modes, every key ties); in the next layer a position lookup head
(`Family.plk`, Lemma 7 over positions) scores key `p` by `2 f p - p^2/D'` (`D' = max(maskCount, 1)`),
whose unique maximum is `p = S`, the count, and copies `p` into a copy coordinate; the layer's FFN
clamps `Σ_k 2 c_k copy_k + 2r - 1/2` (`GroupD.mix`) and erases the copies (`GroupD.copyErase`).

This file proves the head's output from the checker's conditions (`plkHeadOK`): exactly `S` in
average-hard mode (`plk_out_hard`), and in soft mode at `τ = c / max(n-1, 1)` at least `0` and
within `copyErr = 2x/(1-x)^2` (`x = errLk ≥ exp(-1/c)`) of `S` (`plk_out_soft`, from HeadMass's
`position_lookup_copy_at_rule`); and the mix clamp's exactness when the copies are within a total
of `1/4` (`mix_clamp`, `mixWin_dev`).

In the bounded regime (`τ = c / (n^2 max(n-1, 1))`) the compiler scales the counted values by `1/n`
(`GroupD.scale`: `ReLU(1/n) - ReLU(1/n - y) = y/n`, `scale_units`), averages them (`.avgN d x`), and a
bounded position lookup (`Family.plkN`, key features `p/n`, `(p/n)^2`) adds `c_k` times its output
`Σ_p w_p p/n` into each served comparison's `V`: exactly `S/n` in average-hard mode (`plkN_out_hard`),
within `copyErr / n` of it in soft mode (`plkN_out_soft`, from HeadMass's
`position_lookup_copy_bounded_at_rule`).

## Main results

* `HardSoft.Cert.plk_head_out`, `HardSoft.Cert.plk_out_hard`, `HardSoft.Cert.plk_out_soft`,
  `HardSoft.Cert.mix_clamp`, `HardSoft.Cert.mixWin_dev`.
* `HardSoft.Cert.plkN_head_out`, `HardSoft.Cert.plkN_out_hard`, `HardSoft.Cert.plkN_out_soft`,
  `HardSoft.Cert.scale_units`, `HardSoft.Cert.lsum_dev`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Mixed

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- A count is at most its number of keys. -/
theorem countIn_le (p : Nat → Prop) (n i : Nat) (dir : CountDir) : countIn p n i dir ≤ maskCount dir n i := by
  cases dir <;> simp only [countIn, maskCount] <;> exact countMax_le _ _

/-- What `plkHeadOK` says. -/
theorem plk_facts {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac cc : Nat}
    (hok : plkHeadOK C l hw hd dir y ac cc = true) :
    C.mixed = true ∧ C.bounded = false ∧ C.errLk < 1 ∧
      ((dir = .lt ∧ hw.mask = .causal) ∨ (dir = .gt ∧ hw.mask = .none)) ∧ hd.terms = [] ∧
      C.roleAt ac (l - 1) = .avg dir y ∧ C.roleAt cc (l - 1) = .zero ∧ C.roleAt cc l = .zero ∧
      cc < C.spans.length ∧ ∃ p s v, featCoord C .idx (l - 1) = some p ∧ featCoord C .idxSq (l - 1) = some s ∧
        featCoord C (dirFeat dir) (l - 1) = some v ∧
        sameCols hw.q [[(ac, 2)], [(v, -1)]] = true ∧ sameCols hw.k [[(p, 1)], [(s, 1)]] = true ∧
        sameCols hw.v [[(p, 1)]] = true ∧ sameCols hw.o [[(cc, 1)]] = true := by
  unfold plkHeadOK at hok
  simp only [Bool.and_eq_true, Bool.not_eq_true', decide_eq_true_eq] at hok
  obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨hm, hb⟩, he⟩, hmask⟩, _⟩, _⟩, ht⟩, hac⟩, hc0⟩, hc1⟩, hlt⟩, hf⟩ := hok
  refine ⟨hm, hb, he, ?_, by simpa using ht, Role.eq_of_beq hac, Role.eq_of_beq hc0, Role.eq_of_beq hc1, hlt, ?_⟩
  · cases dir with
    | lt => exact Or.inl ⟨rfl, Mask.eq_of_beq hmask⟩
    | gt => exact Or.inr ⟨rfl, Mask.eq_of_beq hmask⟩
    | le => simp at hmask
  · split at hf
    · next p s v hp hs hv =>
      simp only [Bool.and_eq_true] at hf
      obtain ⟨⟨⟨hq, hk⟩, hv'⟩, ho⟩ := hf
      exact ⟨p, s, v, hp, hs, hv, hq, hk, hv', ho⟩
    · simp at hf

/-- The copy a position lookup head writes at query `i`: the attention-weighted average of the
keys' positions. -/
noncomputable def plkOut (R : RatEmb α) (mode : Mode α) (hw : HeadW) (x : Acts α) (n i : Nat) : α :=
  sumTo (fun k => weights mode (score R hw x i) (hw.mask.count n i) k * natCast k) (hw.mask.count n i)

/-- The keys of a position lookup's mask: every `k` is position `k`, and there are `i + 1`
(`#<`, causal) or `n` (`#>`, no mask) of them. -/
theorem plk_mask {hw : HeadW} {dir : CountDir}
    (h : (dir = .lt ∧ hw.mask = .causal) ∨ (dir = .gt ∧ hw.mask = .none)) {n i : Nat} (hi : i < n) :
    (∀ k, hw.mask.key i k = k) ∧ maskCount dir n i < hw.mask.count n i ∧ hw.mask.count n i ≤ n := by
  rcases h with ⟨h1, h2⟩ | ⟨h1, h2⟩ <;> subst h1 <;> rw [h2] <;>
    refine ⟨fun k => rfl, ?_, ?_⟩ <;> simp only [Mask.count, maskCount] <;> omega

/-- The average feature and `1/D'` of a position lookup, with `D' = max(maskCount, 1)`: the
average is `S / D'` (`S = 0` when there is no key). -/
theorem plk_avg (S M : Nat) (hS : S ≤ M) :
    (natCast S / natCast M : α) = natCast S / natCast (max M 1) := by
  by_cases hM : M = 0
  · subst hM
    have : S = 0 := by omega
    subst this
    rw [natCast_zero]; grind
  · rw [show max M 1 = M by omega]

/-- Lemma 7 over positions, read off a certified head: the score of key `k` is
`positionLookupScore (S / D') D' k`, `S` the count and `D' = max(maskCount, 1)`. -/
theorem plk_score (R : RatEmb α) {C : Cert} {w : List Nat} {n dw l : Nat} {x : Acts α}
    (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac cc : Nat} (hok : plkHeadOK C l hw hd dir y ac cc = true)
    {i : Nat} (hi : i < n) {k : Nat} (hk : k < hw.mask.count n i) :
    score R hw x i k = positionLookupScore
      (natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast (max (maskCount dir n i) 1) : α)
      (max (maskCount dir n i) 1) k := by
  obtain ⟨_, _, _, hmask, _, hac, _, _, _, p, s, v, hp, hs, hv, hq, hk', _, _⟩ := plk_facts hok
  obtain ⟨hkey, _, hcn⟩ := plk_mask hmask hi
  have hkn : k < n := by omega
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  obtain ⟨hrs, hsd⟩ := featCoord_sound hs
  obtain ⟨hrv, hvd⟩ := featCoord_sound hv
  rw [hroles] at hpd hsd hvd
  have hacd : ac < dw := by rw [← hroles]; exact lt_of_role (by rw [hac]; simp)
  unfold score
  rw [lsum_zip_sameCols hq hk' (fun q kk (_ : Unit) => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)
    (fun v v' o o' _ h1 h2 => by dsimp only; rw [dotv_congr R _ h1, dotv_congr R _ h2]) ()]
  simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, dotv_cons, dotv_nil, hkey]
  have hxa : x i ac = natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast (maskCount dir n i) := by
    rw [inv_exact hinv hi hacd (by rw [hac]; rfl), hac]; rfl
  have hxv : x i v = 1 / natCast (max (maskCount dir n i) 1) := by
    rw [inv_feat hinv hrv hvd hi]
    rcases hmask with ⟨h1, _⟩ | ⟨h1, _⟩ <;> subst h1 <;> rfl
  have hxp : x k p = natCast k := by rw [inv_feat hinv hrp hpd hkn]; rfl
  have hxs : x k s = natCast k * natCast k := by rw [inv_feat hinv hrs hsd hkn]; rfl
  rw [hxa, hxv, hxp, hxs, plk_avg _ _ (countIn_le _ n i dir), R.map_one, R.map_two,
    show (-1 : Rat) = -(1 : Rat) by decide +kernel, R.map_neg, R.map_one]
  unfold positionLookupScore
  grind

/-- A position lookup the checker accepts writes its copy into `cc` and nothing elsewhere. -/
theorem plk_head_out (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n dw l : Nat} {x : Acts α}
    (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac cc : Nat} (hok : plkHeadOK C l hw hd dir y ac cc = true)
    {i : Nat} (hi : i < n) (c : Nat) :
    headOut R mode hw x n i c = if cc = c then plkOut R mode hw x n i else 0 := by
  obtain ⟨_, _, _, hmask, _, _, _, _, _, p, s, v, hp, _, _, _, _, hv, ho⟩ := plk_facts hok
  obtain ⟨hkey, _, hcn⟩ := plk_mask hmask hi
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  rw [hroles] at hpd
  rw [headOut_cols, lsum_zip_sameCols hv ho (fun v o (_ : Unit) => colOut R mode hw x n i v * R.cast (svGet o c))
    (fun v v' o o' _ h1 h2 => by dsimp only; rw [colOut_congr R mode hw x n i h1, h2]) ()]
  simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, svGet]
  have hcol : colOut R mode hw x n i [(p, 1)] = plkOut R mode hw x n i := by
    unfold colOut plkOut
    refine sumTo_congr (fun k hk => ?_)
    simp only [dotv_cons, dotv_nil, hkey]
    rw [inv_feat hinv hrp hpd (by omega), R.map_one]
    simp only [Feat.val]; grind
  rw [hcol]
  by_cases hc : cc = c
  · rw [if_pos hc, if_pos hc, Rat.add_zero, R.map_one]; grind
  · rw [if_neg hc, if_neg hc, Rat.add_zero, R.map_zero]; grind

/-- The position lookup in average-hard mode: the unique maximum is the count, copied exactly. -/
theorem plk_out_hard (R : RatEmb α) {C : Cert} {w : List Nat} {n dw l : Nat} {x : Acts α}
    (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac cc : Nat} (hok : plkHeadOK C l hw hd dir y ac cc = true)
    {i : Nat} (hi : i < n) :
    plkOut R .hard hw x n i = natCast (countIn (fun j => holds C.prog w n y j) n i dir) := by
  obtain ⟨_, _, _, hmask, _⟩ := plk_facts hok
  obtain ⟨_, hmc, _⟩ := plk_mask hmask hi
  have hS := countIn_le (fun j => holds C.prog w n y j) n i dir
  have hD : 0 < max (maskCount dir n i) 1 := by omega
  have hK : (0 : α) < 1 / natCast (max (maskCount dir n i) 1) :=
    zero_lt_div_of_zero_lt Lean.Grind.OrderedRing.zero_lt_one (zero_lt_of_one_le (one_le_natCast_of_pos hD))
  have hsc : ∀ k, k < hw.mask.count n i → score R hw x i k
      = lookupScore (1 / natCast (max (maskCount dir n i) 1)) (countIn (fun j => holds C.prog w n y j) n i dir) k := by
    intro k hk
    rw [plk_score R hinv hroles hok hi hk, positionLookupScore_eq hD]
  unfold plkOut
  show sumTo (fun k => ahard (score R hw x i) (hw.mask.count n i) k * natCast k) (hw.mask.count n i) = _
  exact hard_out_eq (v := fun k => (natCast k : α)) (by omega) (fun k hk hne => by
    rw [hsc k hk, hsc _ (by omega)]
    have := lookup_gap (1 / natCast (max (maskCount dir n i) 1)) (Std.le_of_lt hK) hne
    grind)

/-- The position lookup in soft mode at the rule `τ = c / max(n-1, 1)` (`c > 0`): its copy is
`≥ 0` and within `copyErr` of the count (HeadMass, `position_lookup_copy_at_rule` with `L = 1/c`,
`M = max(n-1, 1)`, `x = errLk ≥ exp(-1/c)`). -/
theorem plk_out_soft (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) {C : Cert} {w : List Nat} {n dw l : Nat}
    {x : Acts α} (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac cc : Nat} (hok : plkHeadOK C l hw hd dir y ac cc = true)
    {i : Nat} (hi : i < n) :
    0 ≤ plkOut R (.soft E (C.tauRule R n)) hw x n i ∧
      absv (plkOut R (.soft E (C.tauRule R n)) hw x n i - natCast (countIn (fun j => holds C.prog w n y j) n i dir))
        ≤ R.cast C.copyErr := by
  obtain ⟨hmx, hbx, he1, hmask, _⟩ := plk_facts hok
  obtain ⟨_, hmc, _⟩ := plk_mask hmask hi
  have hS := countIn_le (fun j => holds C.prog w n y j) n i dir
  have hD : 0 < max (maskCount dir n i) 1 := by omega
  have hDM : max (maskCount dir n i) 1 ≤ max (n - 1) 1 := by
    rcases hmask with ⟨h1, _⟩ | ⟨h1, _⟩ <;> subst h1 <;> simp only [maskCount] <;> omega
  have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
  have hc0 : C.c ≠ 0 := fun h => by rw [h] at hc; exact absurd hc (by decide)
  have hL : (0 : α) < 1 / R.cast C.c := zero_lt_div_of_zero_lt Lean.Grind.OrderedRing.zero_lt_one hcα
  have hM1 : (1 : α) ≤ natCast (max (n - 1) 1) := one_le_natCast_of_pos (by omega)
  have htau : C.tauRule R n = 1 / (natCast (max (n - 1) 1) * (1 / R.cast C.c)) := by
    rw [tau_mixed R hbx hmx]
    have := ne_zero_of_zero_lt hcα
    have := ne_zero_of_zero_lt (zero_lt_of_one_le hM1)
    generalize (natCast (max (n - 1) 1) : α) = m at *
    generalize R.cast C.c = a at *
    grind
  have hγ : (0 : Rat) ≤ 1 / C.c :=
    R.le_of_map_le (by rw [R.map_zero, R.map_div hc0, R.map_one]; exact Std.le_of_lt hL)
  have hrule : E.exp (-(1 / R.cast C.c)) ≤ R.cast C.errLk := by
    have := exp_neg_le_rule R E hE hγ hk
    rw [R.map_div hc0, R.map_one] at this
    exact this
  have hx1 : R.cast C.errLk < (1 : α) := by rw [← R.map_one]; exact R.map_lt he1
  have hsc : ∀ k, k < hw.mask.count n i → score R hw x i k = positionLookupScore
      (natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast (max (maskCount dir n i) 1) : α)
      (max (maskCount dir n i) 1) k := fun k hk => plk_score R hinv hroles hok hi hk
  have hout : plkOut R (.soft E (C.tauRule R n)) hw x n i
      = sumTo (fun p => softmax E (1 / (natCast (max (n - 1) 1) * (1 / R.cast C.c)))
          (positionLookupScore (natCast (countIn (fun j => holds C.prog w n y j) n i dir)
            / natCast (max (maskCount dir n i) 1)) (max (maskCount dir n i) 1)) (hw.mask.count n i) p
          * natCast p) (hw.mask.count n i) := by
    unfold plkOut
    rw [htau]
    refine sumTo_congr (fun k hk => ?_)
    show softmax E _ (score R hw x i) _ k * natCast k = _
    rw [softmax_congr_lt E hsc hk]
  have hcopy := (position_lookup_copy_at_rule E (L := 1 / R.cast C.c) (x := R.cast C.errLk)
    (S := countIn (fun j => holds C.prog w n y j) n i dir) (M := max (n - 1) 1) (N := hw.mask.count n i)
    hD hDM hL (by omega) hrule (Std.le_of_lt hx1)).2 hx1
  have hx' : (0 : α) < 1 - R.cast C.errLk := by grind
  have hne : (1 - C.errLk) * (1 - C.errLk) ≠ 0 := fun h => by
    have h' := congrArg R.cast h
    rw [R.map_mul, R.map_sub, R.map_one, R.map_zero] at h'
    have := Lean.Grind.OrderedRing.mul_pos hx' hx'
    grind
  have hce : R.cast C.copyErr = 2 * R.cast C.errLk / ((1 - R.cast C.errLk) * (1 - R.cast C.errLk)) := by
    unfold Cert.copyErr
    rw [R.map_div hne, R.map_mul, R.map_two, R.map_mul, R.map_sub, R.map_one]
  refine ⟨?_, by rw [hout, hce]; exact hcopy⟩
  unfold plkOut
  exact sumTo_nonneg_of (fun k hk => Lean.Grind.OrderedRing.mul_nonneg
    (softmax_nonneg E _ _ (by omega) k) (natCast_nonneg k))

/-- The position lookups' mass bound is non-negative (`c > 0`). -/
theorem errLk_nonneg (R : RatEmb α) {C : Cert} (hc : 0 < C.c) (hk : 0 < C.expK) : (0 : α) ≤ R.cast C.errLk := by
  have hk0 : (C.expK : Rat) ≠ 0 := by
    intro h
    have : ((C.expK : Nat) : Rat) = ((0 : Nat) : Rat) := h
    exact absurd (Rat.natCast_inj.mp this) (by omega)
  have hc0 : C.c ≠ 0 := fun h => by rw [h] at hc; exact absurd hc (by decide)
  have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
  have hkα : (0 : α) < natCast C.expK := Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one (one_le_natCast_of_pos hk)
  have hγα : (0 : α) ≤ R.cast (1 / C.c) := by
    rw [R.map_div hc0, R.map_one]
    exact Std.le_of_lt (zero_lt_div_of_zero_lt Lean.Grind.OrderedRing.zero_lt_one hcα)
  have hbase : R.cast (1 + 1 / C.c / C.expK) = 1 + R.cast (1 / C.c) / natCast C.expK := by
    rw [R.map_add, R.map_one, R.map_div hk0, R.map_natCast]
  have hone : (1 : α) ≤ 1 + R.cast (1 / C.c) / natCast C.expK := by
    have := div_nonneg_of_nonneg hγα hkα; grind
  have hP1 : (1 : α) ≤ R.cast ((1 + 1 / C.c / C.expK) ^ C.expK) := by
    rw [R.map_pow, hbase]; exact one_le_pow_of_one_le hone _
  have hne : (1 + 1 / C.c / C.expK) ^ C.expK ≠ 0 := by
    intro h0; rw [h0, R.map_zero] at hP1; exact absurd hP1 (Std.not_le.mpr Lean.Grind.OrderedRing.zero_lt_one)
  unfold Cert.errLk
  rw [R.map_div hne, R.map_one]
  exact div_nonneg_of_nonneg (Std.le_of_lt Lean.Grind.OrderedRing.zero_lt_one)
    (Std.lt_of_lt_of_le Lean.Grind.OrderedRing.zero_lt_one hP1)

/-- The copy error is non-negative (`c > 0`, `errLk < 1`). -/
theorem copyErr_nonneg (R : RatEmb α) {C : Cert} (hc : 0 < C.c) (hk : 0 < C.expK) (he1 : C.errLk < 1) :
    (0 : α) ≤ R.cast C.copyErr := by
  have h0 := errLk_nonneg R hc hk
  have hx1 : R.cast C.errLk < (1 : α) := by rw [← R.map_one]; exact R.map_lt he1
  have hx' : (0 : α) < 1 - R.cast C.errLk := by grind
  have hne : (1 - C.errLk) * (1 - C.errLk) ≠ 0 := fun h => by
    have h' := congrArg R.cast h
    rw [R.map_mul, R.map_sub, R.map_one, R.map_zero] at h'
    have := Lean.Grind.OrderedRing.mul_pos hx' hx'
    grind
  unfold Cert.copyErr
  rw [R.map_div hne, R.map_mul, R.map_two, R.map_mul, R.map_sub, R.map_one]
  exact div_nonneg_of_nonneg (by grind) (Lean.Grind.OrderedRing.mul_pos hx' hx')

/-- The mix clamp: a value within `1/2` of `2A` (`A` an integer) is sent to `[A > 0]` by
`ReLU(Z - 1/2) - ReLU(Z - 3/2)`. -/
theorem mix_clamp {Z : α} {A : Int} (h : absv (Z - 2 * icast A) ≤ 1 / 2) :
    relu (Z - 1 / 2) - relu (Z - 3 / 2) = ind (0 < A) := by
  have hb := bounds_of_absv_le h
  unfold ind
  rcases intCast_cases (α := α) A with ⟨h0, h1⟩ | ⟨h0, h1⟩
  · rw [if_pos h0, relu_of_nonneg (by grind), relu_of_nonneg (by grind)]; grind
  · rw [if_neg (by omega)]
    unfold relu
    rw [if_pos (by grind), if_pos (by grind)]; grind

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- The ring's integer cast through `icast`: `0`, negation, sum, product. -/
theorem icast_facts : (icast 0 : α) = 0 ∧ (∀ a : Int, (icast (-a) : α) = -icast a) ∧
    (∀ a b : Int, (icast (a + b) : α) = icast a + icast b) ∧ (∀ a b : Int, (icast (a * b) : α) = icast a * icast b) := by
  simp only [icast]
  exact ⟨Lean.Grind.Ring.intCast_zero, Lean.Grind.Ring.intCast_neg, Lean.Grind.Ring.intCast_add,
    Lean.Grind.Ring.intCast_mul⟩

/-- One term of the mix clamp's deviation: `|c u| ≤ |c| e` for `|u| ≤ e`. -/
theorem int_mul_dev {u e : α} (c : Int) (h1 : u ≤ e) (h2 : -e ≤ u) :
    (icast c : α) * u ≤ icast (c.natAbs : Int) * e ∧ -((icast (c.natAbs : Int) : α) * e) ≤ icast c * u := by
  by_cases hc : 0 ≤ c
  · have ha : (c.natAbs : Int) = c := Int.natAbs_of_nonneg hc
    rw [ha]
    have hc0 : (0 : α) ≤ icast c := by
      rcases intCast_cases (α := α) c with ⟨_, h⟩ | ⟨h, _⟩
      · grind
      · have : c = 0 := by omega
        rw [this, (icast_facts (α := α)).1]; exact Std.le_refl _
    have m1 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h1 hc0
    have m2 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h2 hc0
    constructor <;> grind
  · have ha : (c.natAbs : Int) = -c := by omega
    rw [ha, (icast_facts (α := α)).2.1]
    have hc0 : (0 : α) ≤ -icast c := by
      rcases intCast_cases (α := α) c with ⟨h, _⟩ | ⟨_, h⟩
      · omega
      · grind
    have m1 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h1 hc0
    have m2 := Lean.Grind.OrderedRing.mul_le_mul_of_nonneg_left h2 hc0
    constructor <;> grind

/-- The mix clamp's input: the copies within `e` of their counts give `Σ_k 2 c_k y_k` within
`2 Σ_k |c_k| e` of `2 Σ_k c_k S_k`. -/
theorem mixWin_dev (R : RatEmb α) (y : Nat → α) {e : α} (cnt : Nat → CountDir → Nat) :
    ∀ (cs : List Nat) (ts : List (Int × CountDir × Nat)), cs.length = ts.length →
      (∀ q, q ∈ cs.zip ts → absv (y q.1 - natCast (cnt q.2.2.2 q.2.2.1)) ≤ e) →
      dotv R y (mixWin cs ts) - 2 * icast (cmpSum cnt ts) ≤ 2 * (icast (ts.map (fun t => (t.1.natAbs : Int))).sum * e) ∧
      -(2 * (icast (ts.map (fun t => (t.1.natAbs : Int))).sum * e)) ≤ dotv R y (mixWin cs ts) - 2 * icast (cmpSum cnt ts)
  | [], [], _, _ => by
    simp only [mixWin, List.zip_nil_left, List.map_nil, dotv_nil, cmpSum, List.sum_nil, (icast_facts (α := α)).1]
    constructor <;> grind
  | c :: cs, t :: ts, hl, h => by
    have ih := mixWin_dev R y cnt cs ts (by simpa using hl) (fun q hq => h q (by simp [hq]))
    have h0 := bounds_of_absv_le (h (c, t) (by simp))
    have hm := int_mul_dev (α := α) t.1 h0.1 h0.2
    simp only [mixWin, List.zip_cons_cons, List.map_cons, dotv_cons, cmpSum, List.sum_cons] at ih hm ⊢
    rw [(icast_facts (α := α)).2.2.1, (icast_facts (α := α)).2.2.1, (icast_facts (α := α)).2.2.2, R.map_mul, R.map_two,
      R.map_intCast, ← natCast_eq_intCast]
    constructor <;> grind
  | [], _ :: _, hl, _ => by simp at hl
  | _ :: _, [], hl, _ => by simp at hl

omit [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- The sum of the coefficients' absolute values, cast. -/
theorem cast_absSum (R : RatEmb α) : ∀ ts : List (Int × CountDir × Nat),
    R.cast ((ts.map (fun t => ((t.1.natAbs : Nat) : Rat))).sum) = (icast ((ts.map (fun t => (t.1.natAbs : Int))).sum) : α)
  | [] => by simp only [List.map_nil, List.sum_nil, icast]; rw [R.map_zero, Lean.Grind.Ring.intCast_zero]
  | t :: ts => by
    simp only [List.map_cons, List.sum_cons]
    rw [R.map_add, cast_absSum R ts, R.map_natCast, natCast_eq_intCast]
    grind

/-- Certificates, mixed comparisons (the clamp, both modes): with every copy `y(cs_k)` within
`copyErr` of its count and `Σ_k |c_k| copyErr ≤ 1/4`, the clamp's two units output exactly the
comparison's value. -/
theorem mix_val (R : RatEmb α) {C : Cert} {w : List Nat} {n i : Nat} (y : Nat → α) {g : Nat} {cs : List Nat}
    {ts : List (Int × CountDir × Nat)} {r : Int} (hn : nodeAt C.prog g = .cmp ts r) (hlt : ∀ t, t ∈ ts → t.2.2 < g)
    (hl : cs.length = ts.length)
    (hcopy : ∀ q, q ∈ cs.zip ts → absv (y q.1 - natCast (countIn (fun j => holds C.prog w n q.2.2.2 j) n i q.2.2.1))
      ≤ R.cast C.copyErr)
    (hbud : absCoef ts * C.copyErr ≤ 1 / 4) :
    relu (dotv R y (mixWin cs ts) + R.cast (2 * (r : Rat) - 1 / 2))
      - relu (dotv R y (mixWin cs ts) + R.cast (2 * (r : Rat) - 3 / 2)) = ind (holds C.prog w n g i) := by
  have hd := mixWin_dev R y (fun x d => countIn (fun j => holds C.prog w n x j) n i d) cs ts hl hcopy
  have hb := R.map_le _ _ hbud
  rw [R.map_mul, R.map_div (by decide), R.map_one] at hb
  unfold absCoef at hb
  rw [cast_absSum] at hb
  have h4 : R.cast 4 = (4 : α) := R.map_four
  rw [h4] at hb
  have hr1 : R.cast (2 * (r : Rat) - 1 / 2) = 2 * icast r - 1 / 2 := by
    rw [R.map_sub, R.map_mul, R.map_two, R.map_intCast, RatEmb.map_half]
  have hr3 : R.cast (2 * (r : Rat) - 3 / 2) = 2 * icast r - 3 / 2 := by
    rw [R.map_sub, R.map_mul, R.map_two, R.map_intCast, RatEmb.map_three_halves]
  rw [hr1, hr3]
  have hcl := mix_clamp (α := α) (Z := dotv R y (mixWin cs ts) + 2 * icast r)
    (A := cmpSum (fun x d => countIn (fun j => holds C.prog w n x j) n i d) ts + r) (absv_le_of_le_of_neg_le
      (by rw [(icast_facts (α := α)).2.2.1]; grind) (by rw [(icast_facts (α := α)).2.2.1]; grind))
  rw [show dotv R y (mixWin cs ts) + (2 * icast r - 1 / 2) = dotv R y (mixWin cs ts) + 2 * icast r - 1 / 2 by grind,
    show dotv R y (mixWin cs ts) + (2 * icast r - 3 / 2) = dotv R y (mixWin cs ts) + 2 * icast r - 3 / 2 by grind, hcl]
  unfold ind
  rw [propext (holds_cmp hn hlt)]

/-! ### Bounded regime: the scaled values and the bounded position lookup (`Family.plkN`) -/

/-- The scale units: `ReLU(v) - ReLU(v - y) = y v` for `y ∈ {0, 1}` and `0 ≤ v ≤ 1` (with `v = 1/n`:
node `x`'s value over `n`, exactly). -/
theorem scale_units {v y : α} (hy : y = 0 ∨ y = 1) (h0 : 0 ≤ v) (h1 : v ≤ 1) :
    relu v - relu (v - y) = y * v := by
  rcases hy with rfl | rfl
  · rw [show v - 0 = v by grind]; grind
  · rw [relu_of_nonneg h0]
    unfold relu
    rw [if_pos (by grind)]; grind

/-- The bounded position lookup in average-hard mode (scores `2 f (p/n) - (1/D)(p/n)^2` at the
average `f = S/(D n)`, value `p/n`): the unique maximum is `p = S`, the output `S/n` exactly. -/
theorem plkN_hard_core {s : Nat → α} {N S D n : Nat} (hD : 0 < D) (hn : 0 < n) (hS : S < N)
    (hs : ∀ k, k < N → s k = positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D k) :
    sumTo (fun k => ahard s N k * (natCast k / natCast n)) N = natCast S / natCast n := by
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hnn : (0 : α) < natCast D * (natCast n * natCast n) :=
    Lean.Grind.OrderedRing.mul_pos (zero_lt_of_one_le (one_le_natCast_of_pos hD))
      (Lean.Grind.OrderedRing.mul_pos (zero_lt_of_one_le hn1) (zero_lt_of_one_le hn1))
  have hK : (0 : α) < 1 / (natCast D * (natCast n * natCast n)) :=
    zero_lt_div_of_zero_lt Lean.Grind.OrderedRing.zero_lt_one hnn
  exact hard_out_eq (v := fun k => (natCast k / natCast n : α)) hS (fun k hk hne => by
    rw [hs k hk, hs S hS, positionLookupScoreBounded_eq hD hn]
    have := lookup_gap (1 / (natCast D * (natCast n * natCast n))) (Std.le_of_lt hK) hne
    grind)

/-- The bounded position lookup in soft mode at `τ = 1/(n^2 M L)` (`exp(-L) ≤ x < 1`, `1 ≤ D ≤ M`):
its output is `≥ 0` and within `2x/(1-x)^2 / n` of `S/n` (HeadMass,
`position_lookup_copy_bounded_at_rule`, divided by `n`). -/
theorem plkN_soft_core (E : ExpLike α) {s : Nat → α} {L x : α} {N S D M n : Nat} (hn : 0 < n) (hD : 0 < D)
    (hDM : D ≤ M) (hL : 0 < L) (hS : S < N) (hrule : E.exp (-L) ≤ x) (hx1 : x < 1)
    (hs : ∀ k, k < N → s k = positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D k) :
    0 ≤ sumTo (fun k => softmax E (1 / (natCast n * natCast n * natCast M * L)) s N k * (natCast k / natCast n)) N ∧
      absv (sumTo (fun k => softmax E (1 / (natCast n * natCast n * natCast M * L)) s N k * (natCast k / natCast n)) N
          - natCast S / natCast n) ≤ 2 * x / ((1 - x) * (1 - x)) / natCast n := by
  have hn1 := one_le_natCast_of_pos (α := α) hn
  have hn0 : (0 : α) < natCast n := zero_lt_of_one_le hn1
  have hsum : sumTo (fun k => softmax E (1 / (natCast n * natCast n * natCast M * L)) s N k * (natCast k / natCast n)) N
      = sumTo (fun p => softmax E (1 / (natCast n * natCast n * natCast M * L))
          (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N p * natCast p) N / natCast n := by
    rw [← sumTo_div_const]
    refine sumTo_congr (fun k hk => ?_)
    rw [softmax_congr_lt E hs hk]
    grind
  have hcopy := (position_lookup_copy_bounded_at_rule E (L := L) (x := x) (n := n) (S := S) (D := D) (M := M)
    (N := N) hn hD hDM hL hS hrule (Std.le_of_lt hx1)).2 hx1
  refine ⟨sumTo_nonneg_of (fun k hk => Lean.Grind.OrderedRing.mul_nonneg
    (softmax_nonneg E _ _ (by omega) k) (div_nonneg_of_nonneg (natCast_nonneg k) hn0)), ?_⟩
  rw [hsum]
  generalize sumTo (fun p => softmax E (1 / (natCast n * natCast n * natCast M * L))
    (positionLookupScoreBounded (natCast S / (natCast D * natCast n)) n D) N p * natCast p) N = A at hcopy ⊢
  have hb := bounds_of_absv_le hcopy
  have e : A / natCast n - natCast S / natCast n = (A - natCast S) / natCast n := by grind
  rw [e]
  refine absv_le_of_le_of_neg_le (div_le_div_of_le hn0 hb.1) ?_
  have := div_le_div_of_le hn0 hb.2
  have e2 : -(2 * x / ((1 - x) * (1 - x))) / natCast n = -(2 * x / ((1 - x) * (1 - x)) / natCast n) := by grind
  rw [← e2]; exact this

/-- A weighted sum's deviation: values `y q` within `e` of `t q` give `Σ c_q y_q` within `(Σ |c_q|) e`
of `Σ c_q t_q`. -/
theorem lsum_dev {β : Type} (cf : β → Int) (y t : β → α) {e : α} : ∀ (L : List β),
    (∀ q, q ∈ L → absv (y q - t q) ≤ e) →
      lsum L (fun q => icast (cf q) * y q) - lsum L (fun q => icast (cf q) * t q)
          ≤ icast ((L.map (fun q => ((cf q).natAbs : Int))).sum) * e ∧
        -(icast ((L.map (fun q => ((cf q).natAbs : Int))).sum) * e)
          ≤ lsum L (fun q => icast (cf q) * y q) - lsum L (fun q => icast (cf q) * t q)
  | [], _ => by
    simp only [List.map_nil, List.sum_nil, lsum_nil, (icast_facts (α := α)).1]
    constructor <;> grind
  | q :: L, h => by
    have ih := lsum_dev cf y t L (fun q' hq' => h q' (by simp [hq']))
    have h0 := bounds_of_absv_le (h q (by simp))
    have h1 : y q - t q ≤ e := h0.1
    have h2 : -e ≤ y q - t q := h0.2
    have hm := int_mul_dev (α := α) (cf q) h1 h2
    simp only [List.map_cons, List.sum_cons, lsum_cons]
    rw [(icast_facts (α := α)).2.2.1]
    constructor <;> grind

/-- What `plkNHeadOK` says. -/
theorem plkN_facts {C : Cert} {l : Nat} {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac : Nat} {vs : List (Nat × Nat)}
    (hok : plkNHeadOK C l hw hd dir y ac vs = true) :
    C.mixed = true ∧ C.bounded = true ∧ C.errLk < 1 ∧
      ((dir = .lt ∧ hw.mask = .causal) ∨ (dir = .gt ∧ hw.mask = .none)) ∧ hd.terms = [] ∧
      C.roleAt ac (l - 1) = .avgN dir y ∧
      (∀ e, e ∈ vs → C.roleAt e.2 (l - 1) = .vpre e.1 ∧ C.roleAt e.2 l = .vmix e.1) ∧
      ∃ p s v, featCoord C .iOverN (l - 1) = some p ∧ featCoord C .iOverNSq (l - 1) = some s ∧
        featCoord C (dirFeat dir) (l - 1) = some v ∧
        sameCols hw.q [[(ac, 2)], [(v, -1)]] = true ∧ sameCols hw.k [[(p, 1)], [(s, 1)]] = true ∧
        sameCols hw.v (vs.map (fun _ => [(p, 1)])) = true ∧
        sameCols hw.o (vs.map (fun e => [(e.2, ((termCoef C.prog e.1 dir y : Int) : Rat))])) = true := by
  unfold plkNHeadOK at hok
  simp only [Bool.and_eq_true, Bool.not_eq_true', decide_eq_true_eq] at hok
  obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨hm, hb⟩, he⟩, hmask⟩, _⟩, _⟩, ht⟩, _⟩, hac⟩, hvs⟩, hf⟩ := hok
  refine ⟨hm, hb, he, ?_, by simpa using ht, Role.eq_of_beq hac, fun e he' => ?_, ?_⟩
  · cases dir with
    | lt => exact Or.inl ⟨rfl, Mask.eq_of_beq hmask⟩
    | gt => exact Or.inr ⟨rfl, Mask.eq_of_beq hmask⟩
    | le => simp at hmask
  · have := List.all_eq_true.mp hvs e he'
    simp only [Bool.and_eq_true] at this
    exact ⟨Role.eq_of_beq this.1, Role.eq_of_beq this.2⟩
  · split at hf
    · next p s v hp hs hv =>
      simp only [Bool.and_eq_true] at hf
      obtain ⟨⟨⟨hq, hk⟩, hv'⟩, ho⟩ := hf
      exact ⟨p, s, v, hp, hs, hv, hq, hk, hv', ho⟩
    · simp at hf

/-- The value a bounded position lookup writes at query `i` (before its coefficients): the
attention-weighted average of the keys' `p/n`. -/
noncomputable def plkNOut (R : RatEmb α) (mode : Mode α) (hw : HeadW) (x : Acts α) (n i : Nat) : α :=
  sumTo (fun k => weights mode (score R hw x i) (hw.mask.count n i) k * (natCast k / natCast n)) (hw.mask.count n i)

/-- The scaled average is `S / (D' n)`, `D' = max(maskCount, 1)` (`S = 0` when there is no key). -/
theorem plkN_avg (S M n : Nat) (hS : S ≤ M) :
    (natCast S / natCast n / natCast M : α) = natCast S / (natCast (max M 1) * natCast n) := by
  by_cases hM : M = 0
  · subst hM
    have : S = 0 := by omega
    subst this
    rw [natCast_zero]; grind
  · rw [show max M 1 = M by omega]; grind

/-- Lemma 7 over positions, bounded (key features `p/n`, `(p/n)^2`), read off a certified head: the
score of key `k` is `positionLookupScoreBounded (S/(D' n)) n D' k`. -/
theorem plkN_score (R : RatEmb α) {C : Cert} {w : List Nat} {n dw l : Nat} {x : Acts α}
    (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac : Nat} {vs : List (Nat × Nat)}
    (hok : plkNHeadOK C l hw hd dir y ac vs = true) {i : Nat} (hi : i < n) {k : Nat} (hk : k < hw.mask.count n i) :
    score R hw x i k = positionLookupScoreBounded
      (natCast (countIn (fun j => holds C.prog w n y j) n i dir) / (natCast (max (maskCount dir n i) 1) * natCast n) : α)
      n (max (maskCount dir n i) 1) k := by
  obtain ⟨_, _, _, hmask, _, hac, _, p, s, v, hp, hs, hv, hq, hk', _, _⟩ := plkN_facts hok
  obtain ⟨hkey, _, hcn⟩ := plk_mask hmask hi
  have hkn : k < n := by omega
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  obtain ⟨hrs, hsd⟩ := featCoord_sound hs
  obtain ⟨hrv, hvd⟩ := featCoord_sound hv
  rw [hroles] at hpd hsd hvd
  have hacd : ac < dw := by rw [← hroles]; exact lt_of_role (by rw [hac]; simp)
  unfold score
  rw [lsum_zip_sameCols hq hk' (fun q kk (_ : Unit) => dotv R (x i) q * dotv R (x (hw.mask.key i k)) kk)
    (fun v v' o o' _ h1 h2 => by dsimp only; rw [dotv_congr R _ h1, dotv_congr R _ h2]) ()]
  simp only [List.zip_cons_cons, List.zip_nil_right, lsum_cons, lsum_nil, dotv_cons, dotv_nil, hkey]
  have hxa : x i ac = natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast n
      / natCast (maskCount dir n i) := by
    rw [inv_exact hinv hi hacd (by rw [hac]; rfl), hac]; rfl
  have hxv : x i v = 1 / natCast (max (maskCount dir n i) 1) := by
    rw [inv_feat hinv hrv hvd hi]
    rcases hmask with ⟨h1, _⟩ | ⟨h1, _⟩ <;> subst h1 <;> rfl
  have hxp : x k p = natCast k / natCast n := by rw [inv_feat hinv hrp hpd hkn]; rfl
  have hxs : x k s = (natCast k / natCast n) * (natCast k / natCast n) := by rw [inv_feat hinv hrs hsd hkn]; rfl
  rw [hxa, hxv, hxp, hxs, plkN_avg _ _ n (countIn_le _ n i dir), R.map_one, R.map_two,
    show (-1 : Rat) = -(1 : Rat) by decide +kernel, R.map_neg, R.map_one]
  unfold positionLookupScoreBounded
  grind

/-- A bounded position lookup the checker accepts writes, at coordinate `c`, its output times the
coefficient of each served comparison aimed at `c`. -/
theorem plkN_head_out (R : RatEmb α) (mode : Mode α) {C : Cert} {w : List Nat} {n dw l : Nat} {x : Acts α}
    (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac : Nat} {vs : List (Nat × Nat)}
    (hok : plkNHeadOK C l hw hd dir y ac vs = true) {i : Nat} (hi : i < n) (c : Nat) :
    headOut R mode hw x n i c
      = lsum vs (fun e => if e.2 = c then icast (termCoef C.prog e.1 dir y) * plkNOut R mode hw x n i else 0) := by
  obtain ⟨_, _, _, hmask, _, _, _, p, s, v, hp, _, _, _, _, hv, ho⟩ := plkN_facts hok
  obtain ⟨hkey, _, hcn⟩ := plk_mask hmask hi
  obtain ⟨hrp, hpd⟩ := featCoord_sound hp
  rw [hroles] at hpd
  rw [headOut_cols, lsum_zip_sameCols hv ho (fun v o (_ : Unit) => colOut R mode hw x n i v * R.cast (svGet o c))
    (fun v v' o o' _ h1 h2 => by dsimp only; rw [colOut_congr R mode hw x n i h1, h2]) (),
    lsum_zip_map vs (fun _ => [(p, 1)]) (fun e => [(e.2, ((termCoef C.prog e.1 dir y : Int) : Rat))])
      (fun v o => colOut R mode hw x n i v * R.cast (svGet o c))]
  have hcol : colOut R mode hw x n i [(p, 1)] = plkNOut R mode hw x n i := by
    unfold colOut plkNOut
    refine sumTo_congr (fun k hk => ?_)
    simp only [dotv_cons, dotv_nil, hkey]
    rw [inv_feat hinv hrp hpd (by omega), R.map_one]
    simp only [Feat.val]; grind
  refine lsum_congr (fun e _ => ?_)
  rw [hcol]
  simp only [svGet]
  by_cases hc : e.2 = c
  · rw [if_pos hc, if_pos hc, Rat.add_zero, R.map_intCast]; grind
  · rw [if_neg hc, if_neg hc, Rat.add_zero, R.map_zero]; grind

/-- The bounded position lookup in average-hard mode: its output is `S/n` exactly. -/
theorem plkN_out_hard (R : RatEmb α) {C : Cert} {w : List Nat} {n dw l : Nat} {x : Acts α}
    (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac : Nat} {vs : List (Nat × Nat)}
    (hok : plkNHeadOK C l hw hd dir y ac vs = true) {i : Nat} (hi : i < n) :
    plkNOut R .hard hw x n i = natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast n := by
  obtain ⟨_, _, _, hmask, _⟩ := plkN_facts hok
  obtain ⟨_, hmc, _⟩ := plk_mask hmask hi
  have hS := countIn_le (fun j => holds C.prog w n y j) n i dir
  unfold plkNOut
  exact plkN_hard_core (by omega) (by omega) (by omega) (fun k hk => plkN_score R hinv hroles hok hi hk)

/-- The bounded position lookup in soft mode at the rule `τ = c / (n^2 max(n-1, 1))` (`c > 0`): its
output is `≥ 0` and within `copyErr / n` of `S/n` (`x = errLk ≥ exp(-1/c)`, `L = 1/c`). -/
theorem plkN_out_soft (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) {C : Cert} {w : List Nat} {n dw l : Nat}
    {x : Acts α} (hinv : Inv C w n dw (l - 1) x) (hroles : C.spans.length = dw) (hc : 0 < C.c) (hk : 0 < C.expK)
    {hw : HeadW} {hd : HeadD} {dir : CountDir} {y ac : Nat} {vs : List (Nat × Nat)}
    (hok : plkNHeadOK C l hw hd dir y ac vs = true) {i : Nat} (hi : i < n) :
    0 ≤ plkNOut R (.soft E (C.tauRule R n)) hw x n i ∧
      absv (plkNOut R (.soft E (C.tauRule R n)) hw x n i
          - natCast (countIn (fun j => holds C.prog w n y j) n i dir) / natCast n) ≤ R.cast C.copyErr / natCast n := by
  obtain ⟨hmx, hbx, he1, hmask, _⟩ := plkN_facts hok
  obtain ⟨_, hmc, _⟩ := plk_mask hmask hi
  have hS := countIn_le (fun j => holds C.prog w n y j) n i dir
  have hD : 0 < max (maskCount dir n i) 1 := by omega
  have hDM : max (maskCount dir n i) 1 ≤ max (n - 1) 1 := by
    rcases hmask with ⟨h1, _⟩ | ⟨h1, _⟩ <;> subst h1 <;> simp only [maskCount] <;> omega
  have hcα : (0 : α) < R.cast C.c := by rw [← R.map_zero]; exact R.map_lt hc
  have hc0 : C.c ≠ 0 := fun h => by rw [h] at hc; exact absurd hc (by decide)
  have hL : (0 : α) < 1 / R.cast C.c := zero_lt_div_of_zero_lt Lean.Grind.OrderedRing.zero_lt_one hcα
  have hn1 : (1 : α) ≤ natCast n := one_le_natCast_of_pos (by omega)
  have hM1 : (1 : α) ≤ natCast (max (n - 1) 1) := one_le_natCast_of_pos (by omega)
  have htau : C.tauRule R n = 1 / (natCast n * natCast n * natCast (max (n - 1) 1) * (1 / R.cast C.c)) := by
    rw [tau_mixed_bounded R hbx hmx, natCast_mul_of_nat, natCast_mul_of_nat]
    have := ne_zero_of_zero_lt hcα
    have := ne_zero_of_zero_lt (zero_lt_of_one_le hM1)
    have := ne_zero_of_zero_lt (zero_lt_of_one_le hn1)
    generalize (natCast (max (n - 1) 1) : α) = m at *
    generalize (natCast n : α) = nn at *
    generalize R.cast C.c = a at *
    grind
  have hγ : (0 : Rat) ≤ 1 / C.c :=
    R.le_of_map_le (by rw [R.map_zero, R.map_div hc0, R.map_one]; exact Std.le_of_lt hL)
  have hrule : E.exp (-(1 / R.cast C.c)) ≤ R.cast C.errLk := by
    have := exp_neg_le_rule R E hE hγ hk
    rw [R.map_div hc0, R.map_one] at this
    exact this
  have hx1 : R.cast C.errLk < (1 : α) := by rw [← R.map_one]; exact R.map_lt he1
  have hx' : (0 : α) < 1 - R.cast C.errLk := by grind
  have hne : (1 - C.errLk) * (1 - C.errLk) ≠ 0 := fun h => by
    have h' := congrArg R.cast h
    rw [R.map_mul, R.map_sub, R.map_one, R.map_zero] at h'
    have := Lean.Grind.OrderedRing.mul_pos hx' hx'
    grind
  have hce : R.cast C.copyErr = 2 * R.cast C.errLk / ((1 - R.cast C.errLk) * (1 - R.cast C.errLk)) := by
    unfold Cert.copyErr
    rw [R.map_div hne, R.map_mul, R.map_two, R.map_mul, R.map_sub, R.map_one]
  have h := plkN_soft_core E (s := score R hw x i) (L := 1 / R.cast C.c) (x := R.cast C.errLk)
    (N := hw.mask.count n i) (S := countIn (fun j => holds C.prog w n y j) n i dir) (D := max (maskCount dir n i) 1)
    (M := max (n - 1) 1) (n := n) (by omega) hD hDM hL (by omega) hrule hx1
    (fun k hk => plkN_score R hinv hroles hok hi hk)
  unfold plkNOut
  rw [htau, hce]
  exact h

end Mixed

end HardSoft.Cert

end
