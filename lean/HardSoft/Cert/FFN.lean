module

public import HardSoft.Cert.Count

/-!
# Certificates, part 9: what the feed-forward groups compute

The hidden units of a layer, consumed in order by the checker's unit groups (`groupsOK`), add to
each coordinate the sum of the groups aimed at it (`lsum_units_eq`). A table's or gate's units are
clamp pairs over its inputs' effective values (`effv`: `1 - y` for an input a sign head of
orientation `-1` attends in the same layer, else `y`): the column and biases `clampUnitsOK` checks
give the clamp's argument in those values (`dotv_clampCol`, `clampUnits_sum`), and a clamp pair
over inputs within a total of `1/4` of their 0/1 values outputs exactly `1` for the inputs'
assignment and `0` for every other (`clampOf_eq`). `HardSoft.Cert.layer_step` (Step.lean) puts
these together with the attended nodes' clamps (`pair_clamp_eq`, `flip_clamp_eq`).

## Main results

* `HardSoft.Cert.lsum_units_eq`, `HardSoft.Cert.dotv_clampCol`, `HardSoft.Cert.clampOf_eq`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section FFN

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- One hidden unit's contribution to coordinate `c`: `ReLU(y W_1[:, u] + b_1[u]) W_2[u, c]`. -/
noncomputable def unitAt (R : RatEmb α) (y : Nat → α) (c : Nat) (u : UnitW) : α :=
  relu (dotv R y u.win + R.cast u.bias) * R.cast (svGet u.wout c)

/-- A unit whose output row matches `[(tgt, s)]` contributes to `c` its ReLU times `s` if `c = tgt`. -/
theorem unitAt_of_row (R : RatEmb α) (y : Nat → α) (c : Nat) {u : UnitW} {tgt : Nat} {s : Rat}
    (h : sameVec u.wout [(tgt, s)] = true) :
    unitAt R y c u = relu (dotv R y u.win + R.cast u.bias) * (if tgt = c then R.cast s else 0) := by
  unfold unitAt
  rw [sameVec_sound h c]
  simp only [svGet]
  by_cases hc : tgt = c
  · rw [if_pos hc, if_pos hc, Rat.add_zero]
  · rw [if_neg hc, if_neg hc, Rat.add_zero, R.map_zero]

/-- The clamp pair of an input's value `y`: `ReLU(2y - 1/2) - ReLU(2y - 3/2)`. -/
noncomputable def clamp1 (v : α) : α := relu (v * 2 + (-1 / 2)) - relu (v * 2 + (-3 / 2))

/-- An input's effective value: `1 - y` at its coordinate when it is read flipped (a sign head of
orientation `-1` attends it: its raw value is near `1 - [x]`), else `y`. -/
noncomputable def effv (y : Nat → α) (p : Nat × Bool) : α := if p.2 then 1 - y p.1 else y p.1

/-- `3/2` in `Rat` embeds as `3/2`. -/
theorem RatEmb.map_three_halves (R : RatEmb α) : R.cast (3 / 2) = (3 : α) / 2 := by
  rw [show (3 / 2 : Rat) = 1 + 1 / 2 by decide +kernel, R.map_add, R.map_one, R.map_half]; grind

/-- `-1/2` in `Rat` embeds as `-1/2`. -/
theorem RatEmb.map_neg_half (R : RatEmb α) : R.cast (-1 / 2) = -((1 : α) / 2) := by
  rw [show (-1 / 2 : Rat) = -(1 / 2) by decide +kernel, R.map_neg, R.map_half]

/-- `-3/2` in `Rat` embeds as `-3/2`. -/
theorem RatEmb.map_neg_three_halves (R : RatEmb α) : R.cast (-3 / 2) = -((3 : α) / 2) := by
  rw [show (-3 / 2 : Rat) = -(3 / 2) by decide +kernel, R.map_neg, R.map_three_halves]

/-- `-1` in `Rat` embeds as `-1`. -/
theorem RatEmb.map_neg_one (R : RatEmb α) : R.cast (-1) = -(1 : α) := by
  rw [R.map_neg, R.map_one]

/-- The flip shift's first term. -/
theorem flipShift_cons (f b : Bool) (fl σ : List Bool) :
    flipShift (f :: fl) (b :: σ) = (if f then (if b then 1 else -1) else 0) + flipShift fl σ := by
  simp [flipShift]

/-- The clamp column's dot product over the effective inputs `ỹ_k` (`effv`: `1 - y` for a flipped
input): `Σ_k w_k y_{c_k} = 2 L_σ + 2 |σ| - 2 shift`, `L_σ = Σ_k (σ_k ? ỹ_k - 1 : -ỹ_k)`. -/
theorem dotv_clampCol (R : RatEmb α) (y : Nat → α) : ∀ (cs : List Nat) (fl σ : List Bool), fl.length = cs.length →
    σ.length = cs.length →
    dotv R y (clampCol cs fl σ) = 2 * lsum ((cs.zip fl).zip σ) (fun e => if e.2 then effv y e.1 - 1 else -effv y e.1)
      + 2 * natCast (ones σ) - 2 * R.cast ((flipShift fl σ : Int) : Rat)
  | [], [], [], _, _ => by
    simp only [clampCol, flipShift, List.zip_nil_left, List.map_nil, List.sum_nil, Rat.intCast_zero, R.map_zero, dotv_nil,
      lsum_nil, ones, List.filter_nil, List.length_nil, natCast]
    grind
  | c :: cs, f :: fl, b :: σ, hf, hσ => by
    have ih := dotv_clampCol R y cs fl σ (by simpa using hf) (by simpa using hσ)
    have hcol : clampCol (c :: cs) (f :: fl) (b :: σ) = (c, if b != f then 2 else -2) :: clampCol cs fl σ := rfl
    rw [hcol, flipShift_cons, dotv_cons, ih, List.zip_cons_cons, List.zip_cons_cons, lsum_cons, Rat.intCast_add, R.map_add]
    unfold ones effv
    cases f <;> cases b <;>
      simp only [List.filter_cons, id, List.length_cons, natCast_succ, Bool.bne_false, Bool.bne_true, Bool.not_false,
        Bool.not_true, Bool.false_eq_true, ↓reduceIte, Rat.intCast_zero, Rat.intCast_one, Rat.intCast_neg, R.map_zero,
        R.map_one, R.map_neg, R.map_two] <;>
      grind
  | [], [], _ :: _, _, h => by simp at h
  | [], _ :: _, _, h, _ => by simp at h
  | _ :: _, [], _, h, _ => by simp at h
  | _ :: _, _ :: _, [], _, h => by simp at h

/-- The sum of the inputs' distances from their 0/1 values `ρ` (input `e` has value `y e`). -/
noncomputable def errSum {β : Type} (y : β → α) (cs : List β) (ρ : List Bool) : α :=
  lsum (cs.zip ρ) (fun e => absv (y e.1 - if e.2 then 1 else 0))

/-- `L_ρ ≥ -Σ errors`: the clamp of the inputs' own assignment. -/
theorem excess_self {β : Type} (y : β → α) : ∀ (cs : List β) (ρ : List Bool),
    -errSum y cs ρ ≤ lsum (cs.zip ρ) (fun e => if e.2 then y e.1 - 1 else -y e.1)
  | [], _ => by simp [errSum, lsum]; grind
  | _ :: _, [] => by simp [errSum, lsum]; grind
  | c :: cs, b :: ρ => by
    have ih := excess_self y cs ρ
    unfold errSum at ih ⊢
    simp only [List.zip_cons_cons, lsum_cons]
    have := bounds_of_absv_le (Std.le_refl (absv (y c - if b then 1 else 0)))
    cases b <;> simp only [Bool.false_eq_true, if_false, if_true] at this ⊢ <;> grind

/-- `L_τ ≤ Σ errors` for every assignment `τ`: each term is at most its input's distance. -/
theorem excess_le {β : Type} (y : β → α) : ∀ (cs : List β) (τ ρ : List Bool), τ.length = cs.length → ρ.length = cs.length →
    lsum (cs.zip τ) (fun e => if e.2 then y e.1 - 1 else -y e.1) ≤ errSum y cs ρ
  | [], [], [], _, _ => by simp [errSum, lsum]; exact Std.le_refl _
  | c :: cs, a :: τ, b :: ρ, h1, h2 => by
    have ih := excess_le y cs τ ρ (by simpa using h1) (by simpa using h2)
    unfold errSum at ih ⊢
    simp only [List.zip_cons_cons, lsum_cons]
    have hb := bounds_of_absv_le (Std.le_refl (absv (y c - if b then 1 else 0)))
    cases a <;> cases b <;> simp only [Bool.false_eq_true, if_false, if_true] at hb ⊢ <;> grind
  | [], _ :: _, _, h1, _ => by simp at h1
  | [], [], _ :: _, _, h2 => by simp at h2
  | _ :: _, [], _, h1, _ => by simp at h1
  | _ :: _, _ :: _, [], _, h2 => by simp at h2

/-- `L_σ ≤ -1 + Σ errors` for an assignment `σ` that differs from the inputs' `ρ`. -/
theorem excess_other {β : Type} (y : β → α) : ∀ (cs : List β) (σ ρ : List Bool), σ.length = cs.length →
    ρ.length = cs.length → σ ≠ ρ →
    lsum (cs.zip σ) (fun e => if e.2 then y e.1 - 1 else -y e.1) ≤ -1 + errSum y cs ρ
  | [], [], [], _, _, h => absurd rfl h
  | c :: cs, a :: σ, b :: ρ, h1, h2, hne => by
    unfold errSum
    simp only [List.zip_cons_cons, lsum_cons]
    have hb := bounds_of_absv_le (Std.le_refl (absv (y c - if b then 1 else 0)))
    by_cases hab : a = b
    · subst hab
      have hne' : σ ≠ ρ := fun h => hne (by rw [h])
      have ih := excess_other y cs σ ρ (by simpa using h1) (by simpa using h2) hne'
      unfold errSum at ih
      cases a <;> simp only [Bool.false_eq_true, if_false, if_true] at hb ⊢ <;> grind
    · have := excess_le y cs σ ρ (by simpa using h1) (by simpa using h2)
      unfold errSum at this
      cases a <;> cases b <;> simp only [Bool.false_eq_true, if_false, if_true] at hb ⊢ <;> first | exact absurd rfl hab | grind
  | [], _ :: _, _, h1, _, _ => by simp at h1
  | [], [], _ :: _, _, h2, _ => by simp at h2
  | _ :: _, [], _, h1, _, _ => by simp at h1
  | _ :: _, _ :: _, [], _, h2, _ => by simp at h2

/-- The clamp pair of assignment `σ` over the inputs `cs` (input `e` has value `y e`):
`ReLU(2(L + 3/4)) - ReLU(2(L + 1/4))`, `L = Σ_k (σ_k ? y_k - 1 : -y_k)`. -/
noncomputable def clampOf {β : Type} (y : β → α) (cs : List β) (σ : List Bool) : α :=
  relu (2 * (lsum (cs.zip σ) (fun e => if e.2 then y e.1 - 1 else -y e.1) + 3 / 4))
    - relu (2 * (lsum (cs.zip σ) (fun e => if e.2 then y e.1 - 1 else -y e.1) + 1 / 4))

/-- The units of `clampUnitsOK` add, at coordinate `c`, `s` times each assignment's clamp over the
effective inputs (`effv`) when `c = tgt`. -/
theorem clampUnits_sum (R : RatEmb α) (y : Nat → α) (c : Nat) {cs : List Nat} {fl : List Bool} {tgt : Nat} {s : Rat}
    (hfl : fl.length = cs.length) :
    ∀ (as : List (List Bool)) (us : List UnitW), clampUnitsOK cs fl tgt s as us = true →
      lsum us (unitAt R y c) = lsum as (fun σ => (if tgt = c then R.cast s else 0) * clampOf (effv y) (cs.zip fl) σ)
  | [], [], _ => rfl
  | σ :: as, u1 :: u2 :: us, h => by
    unfold clampUnitsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨hlen, hw1⟩, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, clampUnits_sum R y c hfl as us hrest]
    rw [unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
      dotv_congr R y (sameVec_sound hw2), dotv_clampCol R y cs fl σ hfl hlen, hb1, hb2]
    simp only [R.map_add, R.map_sub, R.map_mul, R.map_natCast, R.map_two, R.map_three_halves, R.map_half, R.map_neg]
    unfold clampOf
    generalize lsum ((cs.zip fl).zip σ) (fun e => if e.2 then effv y e.1 - 1 else -effv y e.1) = L
    generalize (R.cast ((flipShift fl σ : Int) : Rat) : α) = S
    by_cases htc : tgt = c
    · simp only [if_pos htc]
      have e1 : 2 * L + 2 * natCast (ones σ) - 2 * S + (3 / 2 - 2 * natCast (ones σ) + 2 * S) = (2 : α) * (L + 3 / 4) := by
        grind
      have e2 : 2 * L + 2 * natCast (ones σ) - 2 * S + (1 / 2 - 2 * natCast (ones σ) + 2 * S) = (2 : α) * (L + 1 / 4) := by
        grind
      rw [e1, e2]; grind
    · simp only [if_neg htc]; grind
  | [], _ :: _, h => by simp [clampUnitsOK] at h
  | _ :: _, [], h => by simp [clampUnitsOK] at h
  | _ :: _, [_], h => by simp [clampUnitsOK] at h

/-- The clamp of an assignment: `1` for the inputs' own assignment `ρ`, `0` for every other, when
the inputs are within a total of `1/4` of their 0/1 values. -/
theorem clampOf_eq {β : Type} (y : β → α) {cs : List β} {σ ρ : List Bool} (hσ : σ.length = cs.length)
    (hρ : ρ.length = cs.length) (herr : errSum y cs ρ ≤ 1 / 4) :
    clampOf y cs σ = if σ = ρ then 1 else 0 := by
  unfold clampOf
  by_cases h : σ = ρ
  · rw [if_pos h]
    subst h
    have := excess_self y cs σ
    exact clamp_eq_one (by grind)
  · rw [if_neg h]
    have := excess_other y cs σ ρ hσ hρ h
    exact clamp_eq_zero (by grind)

/-- A sum over distinct assignments of `[σ = ρ]` is `[ρ listed]`. -/
theorem lsum_eq_indicator : ∀ (as : List (List Bool)) (ρ : List Bool), nodupAssign as = true →
    lsum as (fun σ => (if σ = ρ then 1 else 0 : α)) = if as.contains ρ then 1 else 0
  | [], _, _ => by simp [lsum]
  | σ :: as, ρ, h => by
    unfold nodupAssign at h
    simp only [Bool.and_eq_true, Bool.not_eq_true'] at h
    rw [lsum_cons, lsum_eq_indicator as ρ h.2]
    by_cases hs : σ = ρ
    · subst hs
      have : as.contains σ = false := h.1
      simp [this]; grind
    · simp only [if_neg hs, List.contains_cons]
      have : (σ == ρ) = false := by simp [hs]
      simp [this]; grind

/-- The input column of the two `W` units of an inclusive comparison whose `V` is at `vc`:
`-V + M is_first + M is_last` (the features' coordinates at boundary `l - 1`). -/
noncomputable def singleWin (C : Cert) (l vc : Nat) (M : Rat) : SVec :=
  match featCoord C .isFirst (l - 1), featCoord C .isLast (l - 1) with
  | some f, some e => [(vc, -1), (f, M), (e, M)]
  | _, _ => []

/-- The terms of a comparison (none for another node). -/
noncomputable def cmpTs (P : Prog) (g : Nat) : List (Int × CountDir × Nat) :=
  match nodeAt P g with
  | .cmp ts _ => ts
  | _ => []

/-- What one unit group adds to coordinate `c` (read through its templates). -/
noncomputable def groupVal (R : RatEmb α) (C : Cert) (LD : LayerD) (l : Nat) (y : Nat → α) (c : Nat) (G : GroupD) : α :=
  match G with
  | .pair g => (if C.crd g = c then 1 else 0) * (relu (y (C.crd g) * 2 + (-1 / 2)) - relu (y (C.crd g) * 2 + (-3 / 2)))
  | .eraser g => (if C.crd g = c then -1 else 0) * relu (y (C.crd g))
  | .table g ins _ as neg => lsum as (fun σ => (if C.crd g = c then (if neg then -1 else 1) else 0) *
      clampOf (effv y) ((ins.map C.crd).zip (ins.map (flipOf LD))) σ)
  | .gate g ins σ neg => (if C.crd g = c then (if neg then -1 else 1) else 0) *
      clampOf (effv y) ((ins.map C.crd).zip (ins.map (flipOf LD))) σ
  | .clear c' => (if c' = c then 1 else 0) * (relu (-y c') - relu (y c'))
  | .single _ vc wc M => (if wc = c then 1 else 0) * (relu (dotv R y (singleWin C l vc M) + R.cast (1 / 2 - 2 * M))
      - relu (dotv R y (singleWin C l vc M) + R.cast (-1 / 2 - 2 * M)))
  | .pre g vc f => (if vc = c then 1 else 0) * (relu (y f * R.cast (((2 * cmpR C.prog g - 1 : Int) : Rat) / 2))
      - relu (y f * R.cast (-(((2 * cmpR C.prog g - 1 : Int) : Rat) / 2))))
  | .pairFlip g => (if C.crd g = c then 1 else 0) * (relu (y (C.crd g) * (-2) + 3 / 2) - relu (y (C.crd g) * (-2) + 1 / 2))
  | .mix g cs => (if C.crd g = c then 1 else 0) *
      (relu (dotv R y (mixWin cs (cmpTs C.prog g)) + R.cast (2 * (cmpR C.prog g : Rat) - 1 / 2))
        - relu (dotv R y (mixWin cs (cmpTs C.prog g)) + R.cast (2 * (cmpR C.prog g : Rat) - 3 / 2)))
  | .copyErase cc => (if cc = c then -1 else 0) * relu (y cc)
  | .scale x sc => match featCoord C .invN (l - 1) with
    | some f => (if sc = c then 1 else 0) * (relu (y f) - relu (y f - y (C.crd x)))
    | none => 0
  | .vpre g vc f => (if vc = c then 1 else 0) * (relu (y f * R.cast (((2 * cmpR C.prog g - 1 : Int) : Rat) / 2))
      - relu (y f * R.cast (-(((2 * cmpR C.prog g - 1 : Int) : Rat) / 2))))

/-- The hidden units the checker's groups consume add, at every coordinate, the groups' values. -/
theorem lsum_units_eq (R : RatEmb α) {C : Cert} {LD : LayerD} {l : Nat} (y : Nat → α) (c : Nat) :
    ∀ (gs : List GroupD) (us : List UnitW), groupsOK C LD l gs us = true →
      lsum us (unitAt R y c) = lsum gs (groupVal R C LD l y c)
  | [], [], _ => rfl
  | [], [u], h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    rw [lsum_cons, lsum_nil, lsum_nil]
    unfold unitAt
    rw [sameVec_sound h.2 c]
    simp only [svGet, R.map_zero]
    grind
  | .pair g :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨_, _⟩, hw1⟩, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩, _⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest,
      unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
      dotv_congr R y (sameVec_sound hw2), hb1, hb2]
    simp only [dotv_cons, dotv_nil, groupVal]
    simp only [R.map_two, R.map_neg_half, R.map_neg_three_halves, R.map_one, R.map_neg]
    by_cases hc : C.crd g = c
    · simp only [if_pos hc]; grind
    · simp only [if_neg hc]; grind
  | .eraser g :: gs, u :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    obtain ⟨⟨⟨⟨_, hw⟩, hb⟩, ho⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest, unitAt_of_row R y c ho,
      dotv_congr R y (sameVec_sound hw), hb]
    simp only [dotv_cons, dotv_nil, groupVal]
    simp only [R.map_one, R.map_zero, R.map_neg]
    by_cases hc : C.crd g = c
    · simp only [if_pos hc]
      have : y (C.crd g) * 1 + 0 + 0 = y (C.crd g) := by grind
      rw [this]; grind
    · simp only [if_neg hc]; grind
  | .table g ins ex as neg :: gs, us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    have hcl := h.1.2
    have hrest := h.2
    rw [← List.take_append_drop (2 * as.length) us, lsum_append, lsum_cons,
      lsum_units_eq R y c gs _ hrest, clampUnits_sum R y c (by simp) as _ hcl]
    simp only [groupVal]
    congr 1
    refine lsum_congr (fun σ _ => ?_)
    by_cases hc : C.crd g = c
    · rw [if_pos hc, if_pos hc]; cases neg <;> simp [R.map_neg, R.map_one]
    · rw [if_neg hc, if_neg hc]
  | .gate g ins σ neg :: gs, us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    have hcl := h.1.2
    have hrest := h.2
    rw [← List.take_append_drop 2 us, lsum_append, lsum_cons,
      lsum_units_eq R y c gs _ hrest, clampUnits_sum R y c (by simp) [σ] _ hcl]
    simp only [groupVal, lsum_cons, lsum_nil]
    by_cases hc : C.crd g = c
    · rw [if_pos hc, if_pos hc]; cases neg <;> simp [R.map_neg, R.map_one] <;> grind
    · rw [if_neg hc, if_neg hc]; grind
  | .clear c' :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨⟨_, _⟩, hw1⟩, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest,
      unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
      dotv_congr R y (sameVec_sound hw2), hb1, hb2]
    simp only [dotv_cons, dotv_nil, groupVal]
    simp only [R.map_one, R.map_zero, R.map_neg]
    by_cases hc : c' = c
    · simp only [if_pos hc]
      have e1 : y c' * 1 + 0 + 0 = y c' := by grind
      have e2 : y c' * -1 + 0 + 0 = -y c' := by grind
      rw [e1, e2]; grind
    · simp only [if_neg hc]; grind
  | .single g vc wc M :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨⟨_, _⟩, _⟩, _⟩, hf⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest]
    simp only [groupVal, singleWin]
    cases h1 : featCoord C .isFirst (l - 1) with
    | none => rw [h1] at hf; simp at hf
    | some f =>
      cases h2 : featCoord C .isLast (l - 1) with
      | none => rw [h1, h2] at hf; simp at hf
      | some e =>
        rw [h1, h2] at hf
        simp only [Bool.and_eq_true, beq_iff_eq] at hf
        obtain ⟨⟨⟨⟨⟨hw1, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩ := hf
        simp only
        rw [unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
          dotv_congr R y (sameVec_sound hw2), hb1, hb2]
        by_cases hc : wc = c
        · simp only [if_pos hc, R.map_neg, R.map_one]; grind
        · simp only [if_neg hc, R.map_zero]; grind
  | .pairFlip g :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨⟨_, hw1⟩, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩, _⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest,
      unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
      dotv_congr R y (sameVec_sound hw2), hb1, hb2]
    simp only [dotv_cons, dotv_nil, groupVal]
    have h32 : R.cast (3 / 2 : Rat) = (3 : α) / 2 := R.map_three_halves
    have h12 : R.cast (1 / 2 : Rat) = (1 : α) / 2 := R.map_half
    have hm2 : R.cast (-2 : Rat) = -(2 : α) := by rw [show (-2 : Rat) = -(2 : Rat) by decide +kernel, R.map_neg, R.map_two]
    simp only [h32, h12, hm2, R.map_one, R.map_neg]
    by_cases hc : C.crd g = c
    · simp only [if_pos hc]; grind
    · simp only [if_neg hc]; grind
  | .pre g vc f :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨_, _⟩, _⟩, _⟩, hw1⟩, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest,
      unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
      dotv_congr R y (sameVec_sound hw2), hb1, hb2]
    simp only [dotv_cons, dotv_nil, groupVal, R.map_zero, R.map_one, R.map_neg]
    by_cases hc : vc = c
    · simp only [if_pos hc]; grind
    · simp only [if_neg hc]; grind
  | .mix g cs :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨⟨⟨_, _⟩, hm⟩, _⟩, _⟩, _⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest]
    cases hn : nodeAt C.prog g with
    | cmp ts r =>
      rw [hn] at hm
      simp only [Bool.and_eq_true, beq_iff_eq] at hm
      obtain ⟨⟨⟨⟨⟨⟨⟨_, hw1⟩, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩, _⟩ := hm
      rw [unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
        dotv_congr R y (sameVec_sound hw2), hb1, hb2]
      simp only [groupVal, cmpTs, cmpR, hn]
      by_cases hc : C.crd g = c
      · simp only [if_pos hc, R.map_one, R.map_neg]; grind
      · simp only [if_neg hc, R.map_zero]; grind
    | _ => rw [hn] at hm; simp at hm
  | .copyErase cc :: gs, u :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    obtain ⟨⟨⟨⟨_, hw⟩, hb⟩, ho⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest, unitAt_of_row R y c ho,
      dotv_congr R y (sameVec_sound hw), hb]
    simp only [dotv_cons, dotv_nil, groupVal]
    simp only [R.map_one, R.map_zero, R.map_neg]
    by_cases hc : cc = c
    · simp only [if_pos hc]
      have : y cc * 1 + 0 + 0 = y cc := by grind
      rw [this]; grind
    · simp only [if_neg hc]; grind
  | [], _ :: _ :: _, h => by simp [groupsOK] at h
  | .mix _ _ :: _, [], h => by simp [groupsOK] at h
  | .mix _ _ :: _, [_], h => by simp [groupsOK] at h
  | .copyErase _ :: _, [], h => by simp [groupsOK] at h
  | .pairFlip _ :: _, [], h => by simp [groupsOK] at h
  | .pairFlip _ :: _, [_], h => by simp [groupsOK] at h
  | .pre _ _ _ :: _, [], h => by simp [groupsOK] at h
  | .pre _ _ _ :: _, [_], h => by simp [groupsOK] at h
  | .single _ _ _ _ :: _, [], h => by simp [groupsOK] at h
  | .single _ _ _ _ :: _, [_], h => by simp [groupsOK] at h
  | .clear _ :: _, [], h => by simp [groupsOK] at h
  | .clear _ :: _, [_], h => by simp [groupsOK] at h
  | .pair _ :: _, [], h => by simp [groupsOK] at h
  | .pair _ :: _, [_], h => by simp [groupsOK] at h
  | .eraser _ :: _, [], h => by simp [groupsOK] at h
  | .scale x sc :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true] at h
    obtain ⟨⟨⟨⟨hm, _⟩, _⟩, _⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest]
    cases hf : featCoord C .invN (l - 1) with
    | none => rw [hf] at hm; simp at hm
    | some f =>
      rw [hf] at hm
      simp only [Bool.and_eq_true, beq_iff_eq] at hm
      obtain ⟨⟨⟨⟨⟨hw1, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩ := hm
      rw [unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
        dotv_congr R y (sameVec_sound hw2), hb1, hb2]
      simp only [dotv_cons, dotv_nil, groupVal, hf, R.map_zero, R.map_one, R.map_neg]
      by_cases hc : sc = c
      · simp only [if_pos hc]; grind
      · simp only [if_neg hc]; grind
  | .vpre g vc f :: gs, u1 :: u2 :: us, h => by
    unfold groupsOK at h
    simp only [Bool.and_eq_true, beq_iff_eq] at h
    obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨_, _⟩, _⟩, _⟩, _⟩, hw1⟩, hb1⟩, ho1⟩, hw2⟩, hb2⟩, ho2⟩, hrest⟩ := h
    rw [lsum_cons, lsum_cons, lsum_cons, lsum_units_eq R y c gs us hrest,
      unitAt_of_row R y c ho1, unitAt_of_row R y c ho2, dotv_congr R y (sameVec_sound hw1),
      dotv_congr R y (sameVec_sound hw2), hb1, hb2]
    simp only [dotv_cons, dotv_nil, groupVal, R.map_zero, R.map_one, R.map_neg]
    by_cases hc : vc = c
    · simp only [if_pos hc]; grind
    · simp only [if_neg hc]; grind
  | .scale _ _ :: _, [], h => by simp [groupsOK] at h
  | .scale _ _ :: _, [_], h => by simp [groupsOK] at h
  | .vpre _ _ _ :: _, [], h => by simp [groupsOK] at h
  | .vpre _ _ _ :: _, [_], h => by simp [groupsOK] at h

end FFN

end HardSoft.Cert

end
