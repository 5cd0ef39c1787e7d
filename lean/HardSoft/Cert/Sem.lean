module

public import HardSoft.Cert.Check

/-!
# Certificates, part 5: what the coordinates hold, and the embedding

The invariant the soundness proof carries from layer to layer: at layer boundary `l` every
coordinate `c` holds, at every position `i`, the value its role gives it (`roleVal`): `0`, a
position feature, or the 0/1 value of a formula node (from the node's time on; `0` before).
This file proves what the checker's pieces mean for it: a coordinate the checker accepts as
holding node `g` (`rep`) holds `[g holds at i]`; a listed equivalence of nodes (shared
coordinates) holds at every position; and the embedding sets every coordinate to its role's value
at boundary `0` (`embed_inv`).

## Main results

* `HardSoft.Cert.equiv_holds`, `HardSoft.Cert.rep_val`, `HardSoft.Cert.embed_inv`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Sem

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- Certificates, definition: the 0/1 value of a proposition. -/
noncomputable def ind (p : Prop) : α := if p then 1 else 0

/-- Certificates, definition: an integer in `α`, through the ring's integer cast. -/
@[reducible] noncomputable def icast (z : Int) : α := @Int.cast α Lean.Grind.Ring.intCast z

omit [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- The recursive cast of a natural number is the ring's integer cast. -/
theorem natCast_eq_intCast (k : Nat) : (natCast k : α) = (icast (k) : α) := by
  simp only [icast]
  induction k with
  | zero => rw [natCast_zero, show ((0 : Nat) : Int) = 0 from rfl, Lean.Grind.Ring.intCast_zero]
  | succ k ih =>
    rw [natCast_succ, ih, show ((k + 1 : Nat) : Int) = (k : Int) + 1 by omega, Lean.Grind.Ring.intCast_add,
      Lean.Grind.Ring.intCast_one]

/-- `2` in `Rat` embeds as `2`. -/
theorem RatEmb.map_two (R : RatEmb α) : R.cast 2 = (2 : α) := by
  rw [show (2 : Rat) = 1 + 1 by decide +kernel, R.map_add, R.map_one]; grind

/-- `1/2` in `Rat` embeds as `1/2`. -/
theorem RatEmb.map_half (R : RatEmb α) : R.cast (1 / 2) = (1 : α) / 2 := by
  rw [R.map_div (by decide), R.map_one, R.map_two]

/-- `4` in `Rat` embeds as `4`. -/
theorem RatEmb.map_four (R : RatEmb α) : R.cast 4 = (4 : α) := by
  rw [show (4 : Rat) = 1 + 1 + 1 + 1 by decide +kernel, R.map_add, R.map_add, R.map_add, R.map_one]; grind

omit [Std.IsLinearOrder α] [Std.LawfulOrderLT α] [Lean.Grind.OrderedRing α] in
/-- The embedding of `Rat` sends an integer to its cast. -/
theorem RatEmb.map_intCast (R : RatEmb α) (z : Int) : R.cast (z : Rat) = (icast z : α) := by
  simp only [icast]
  cases z with
  | ofNat k =>
    rw [show (Int.ofNat k : Rat) = ((k : Nat) : Rat) from Rat.intCast_natCast k, R.map_natCast,
      natCast_eq_intCast]; rfl
  | negSucc k =>
    have e : Int.negSucc k = -((k + 1 : Nat) : Int) := rfl
    rw [e, Rat.intCast_neg, R.map_neg, Rat.intCast_natCast, R.map_natCast, natCast_eq_intCast]
    simp only [icast]
    rw [Lean.Grind.Ring.intCast_neg]

/-- Certificates, definition: comparison `g`'s `Σ_k c_k #_k + r` at position `i` (`0` if `g` is no
comparison), so that `g` holds exactly when it is positive (`holds_cmp`). -/
noncomputable def cmpA (P : Prog) (w : List Nat) (n : Nat) (g i : Nat) : Int :=
  match nodeAt P g with
  | .cmp ts r => cmpSum (fun x d => countIn (fun j => holds P w n x j) n i d) ts + r
  | _ => 0

/-- Certificates, definition: the denominator `D` of a comparison's `V = N/D` by its direction:
the number of keys `i + 1` (`#<=`), `max(i, 1)` (`#<`), `max(n - 1 - i, 1)` (`#>`). -/
noncomputable def cntDen (d : CountDir) (n i : Nat) : Nat :=
  match d with
  | .le => i + 1
  | .lt => max i 1
  | .gt => max (n - 1 - i) 1

/-- The number of keys a count of direction `d` sees from position `i`: `i + 1` (`#<=`), `i` (`#<`),
`n - 1 - i` (`#>`). -/
noncomputable def maskCount (d : CountDir) (n i : Nat) : Nat :=
  match d with
  | .le => i + 1
  | .lt => i
  | .gt => n - 1 - i

/-- Certificates, definition: the value a role gives a coordinate at position `i`: `0`, a feature,
a node's 0/1 value, an inclusive comparison's `V = (A - 1/2)/(i + 1)` (`A = cmpA`), its
correction `W = [n = 1 and g fails]`, a strict comparison's constant part, or the average
`#_d[x](i) / maskCount d n i` of a mixed comparison's count (`0` when no key); in the bounded regime,
a node's value over `n`, the average of those, a mixed comparison's constant part `(r - 1/2)/n` and its
`V = (A - 1/2)/n`. -/
noncomputable def roleVal (P : Prog) (w : List Nat) (n : Nat) (r : Role) (i : Nat) : α :=
  match r with
  | .zero => 0
  | .feat f => f.val n i
  | .node g => ind (holds P w n g i)
  | .val g => (icast (2 * cmpA P w n g i - 1) : α) / 2 / natCast (cntDen (cmpDir P g) n i)
  | .single g => ind (n = 1 ∧ ¬ holds P w n g i)
  | .pre g => (icast (2 * cmpR P g - 1) : α) / 2 * (dirFeat (cmpDir P g)).val n i
  | .avg d x => natCast (countIn (fun j => holds P w n x j) n i d) / natCast (maskCount d n i)
  | .scaled x => ind (holds P w n x i) / natCast n
  | .avgN d x => natCast (countIn (fun j => holds P w n x j) n i d) / natCast n / natCast (maskCount d n i)
  | .vpre g => (icast (2 * cmpR P g - 1) : α) / 2 / natCast n
  | .vmix g => (icast (2 * cmpA P w n g i - 1) : α) / 2 / natCast n

/-- Certificates, definition: the invariant at layer boundary `l`: every coordinate `c < d` holds
its role's value at every position `i < n`, exactly, or within `1/(4n)` for an approximate role
(`Role.approx`). -/
def Inv (C : Cert) (w : List Nat) (n d l : Nat) (x : Acts α) : Prop :=
  ∀ i, i < n → ∀ c, c < d →
    ((C.roleAt c l).approx = false → x i c = roleVal C.prog w n (C.roleAt c l) i) ∧
    ((C.roleAt c l).approx = true → absv (x i c - roleVal C.prog w n (C.roleAt c l) i) ≤ 1 / (4 * natCast n))

/-- The invariant's exact read: a coordinate whose role is not approximate holds its role's value. -/
theorem inv_exact {C : Cert} {w : List Nat} {n d l : Nat} {x : Acts α} (hinv : Inv C w n d l x) {i c : Nat}
    (hi : i < n) (hc : c < d) (ha : (C.roleAt c l).approx = false) : x i c = roleVal C.prog w n (C.roleAt c l) i :=
  (hinv i hi c hc).1 ha

/-- Every Boolean list of length `m` is an assignment `allAssign` lists. -/
theorem mem_allAssign : ∀ (ρ : List Bool), ρ ∈ allAssign ρ.length
  | [] => by simp [allAssign]
  | b :: t => by
    have := mem_allAssign t
    cases b <;> simp [allAssign, this]

/-- The value of `List.map` at an index. -/
theorem getD_map_decide (L : List Nat) (p : Nat → Prop) (k : Nat) (hk : k < L.length) :
    (L.map (fun x => decide (p x))).getD k false = decide (p (L.getD k 0)) := by
  induction L generalizing k with
  | nil => simp at hk
  | cons a t ih =>
    cases k with
    | zero => simp
    | succ k => simp only [List.map_cons, List.getD_cons_succ]; exact ih k (by simp at hk; omega)

/-- The actual leaf values satisfy `keval`'s hypothesis. -/
theorem leaves_actual (P : Prog) (w : List Nat) (n i : Nat) (L : List Nat) :
    ∀ k, k < L.length → (holds P w n (L.getD k 0) i ↔
      (L.map (fun x => decide (holds P w n x i))).getD k false = true) := by
  intro k hk
  rw [getD_map_decide L _ k hk, decide_eq_true_iff]

/-- A listed equivalence holds at every position: the two nodes agree on the actual leaf values. -/
theorem equiv_holds {C : Cert} (hE : equivOK C = true) {g2 g1 : Nat} (hl : listedEquiv C g2 g1 = true)
    (w : List Nat) (n i : Nat) : holds C.prog w n g2 i ↔ holds C.prog w n g1 i := by
  unfold listedEquiv at hl
  obtain ⟨e, he, hg⟩ := List.any_eq_true.mp hl
  simp only [Bool.and_eq_true, beq_iff_eq] at hg
  unfold equivOK at hE
  have h := List.all_eq_true.mp hE e he
  let ρ := e.2.2.map (fun x => decide (holds C.prog w n x i))
  have hρ : ρ ∈ allAssign e.2.2.length := by
    have := mem_allAssign ρ
    simpa [ρ] using this
  have h2 := List.all_eq_true.mp h ρ hρ
  have hL := leaves_actual C.prog w n i e.2.2
  cases h3 : keval C.prog e.2.2 ρ (e.1 + 1) e.1 with
  | none => rw [h3] at h2; simp at h2
  | some a =>
    cases h4 : keval C.prog e.2.2 ρ (e.2.1 + 1) e.2.1 with
    | none => rw [h3, h4] at h2; simp at h2
    | some b =>
      rw [h3, h4] at h2
      simp only [beq_iff_eq] at h2
      have s1 := keval_sound C.prog e.2.2 ρ w n i hL _ _ _ h3
      have s2 := keval_sound C.prog e.2.2 ρ w n i hL _ _ _ h4
      rw [← hg.1, ← hg.2, s1, s2, h2]

/-- A node the checker accepts as held exactly (`rep`) at boundary `l` holds its 0/1 value there. -/
theorem rep_val {C : Cert} (hE : equivOK C = true) {g l : Nat} (h : rep C g l = true)
    (w : List Nat) (n i : Nat) :
    (roleVal C.prog w n (C.roleAt (C.crd g) l) i : α) = ind (holds C.prog w n g i) := by
  unfold rep at h
  generalize hr : C.roleAt (C.crd g) l = r at h ⊢
  cases r with
  | zero => simp at h
  | val _ => simp at h
  | single _ => simp at h
  | pre _ => simp at h
  | avg _ _ => simp at h
  | scaled _ => simp at h
  | avgN _ _ => simp at h
  | vpre _ => simp at h
  | vmix _ => simp at h
  | feat f =>
    simp only [roleVal]
    unfold featIs at h
    cases hn : nodeAt C.prog g <;> rw [hn] at h <;> cases f <;> simp at h
    · unfold Feat.val ind; rw [propext (holds_first hn)]; by_cases hq : i = 0 <;> simp [hq]
    · unfold Feat.val ind; rw [propext (holds_last hn)]; by_cases hq : i + 1 = n <;> simp [hq]
    · obtain ⟨rfl, rfl⟩ := h
      unfold Feat.val ind; rw [propext (holds_modEq hn)]; split <;> simp_all
    · obtain ⟨⟨rfl, rfl⟩, rfl⟩ := h
      unfold Feat.val ind; rw [propext (holds_lin hn)]; split <;> simp_all
  | node g' =>
    simp only [Bool.or_eq_true, beq_iff_eq] at h
    simp only [roleVal]
    rcases h with hg | hg
    · rw [hg]
    · rw [propext (equiv_holds hE hg w n i)]

/-- A node the checker accepts as held exactly (`rep`) has an exact role. -/
theorem rep_approx {C : Cert} {g l : Nat} (h : rep C g l = true) : (C.roleAt (C.crd g) l).approx = false := by
  cases hr : C.roleAt (C.crd g) l <;> simp only [Role.approx]
  unfold rep at h; rw [hr] at h; simp at h

/-- A sum over a position embedding whose features are listed once, of a function of the feature
that vanishes off feature `f`, is its value at `f`. -/
theorem lsum_feat_single {pe : List (Feat × SVec)} (hnd : nodupFeat (pe.map (·.1)) = true) {f : Feat}
    (hmem : (pe.map (·.1)).any (·.beq f) = true) (F : Feat → α) (hz : ∀ f', f'.beq f = false → F f' = 0) :
    lsum pe (fun fe => F fe.1) = F f := by
  induction pe with
  | nil => simp at hmem
  | cons e t ih =>
    rw [lsum_cons]
    simp only [List.map_cons, nodupFeat, Bool.and_eq_true, Bool.not_eq_true', List.any_cons,
      Bool.or_eq_true] at hnd hmem
    cases hb : e.1.beq f with
    | true =>
      have he := Feat.eq_of_beq hb
      rw [he, lsum_zero (fun x hx => hz x.1 (by
        have h1 := hnd.1
        rw [he] at h1
        cases hx1 : x.1.beq f
        · rfl
        · have : (t.map (·.1)).any (·.beq f) = true := List.any_eq_true.mpr ⟨x.1, List.mem_map.mpr ⟨x, hx, rfl⟩, hx1⟩
          rw [h1] at this; exact absurd this (by decide)))]
      grind
    | false =>
      rw [hz e.1 hb, ih hnd.2 (by simpa [hb] using hmem)]
      grind

/-- The word-embedding entry of a coordinate holding no node at boundary `0` is `0`. -/
theorem weExpected_of_ne {C : Cert} {c a : Nat} (h : ∀ g, C.roleAt c 0 ≠ .node g) : weExpected C c a = 0 := by
  unfold weExpected
  split
  · next g hg => exact absurd hg (h g)
  · rfl

/-- The position-embedding entry of a coordinate holding neither a feature nor a node at boundary `0` is `0`. -/
theorem peExpected_of_ne {C : Cert} {c : Nat} {f : Feat} (h1 : ∀ g, C.roleAt c 0 ≠ .node g)
    (h2 : ∀ f', C.roleAt c 0 ≠ .feat f') (h3 : ∀ g, C.roleAt c 0 ≠ .pre g) : peExpected C c f = 0 := by
  unfold peExpected
  split
  · next f' hf => exact absurd hf (h2 f')
  · next g hg => exact absurd hg (h1 g)
  · next g hg => exact absurd hg (h3 g)
  · rfl

/-- Boundary `0`: the embedding sets every coordinate to its role's value (Section 2's
`x^(0)_i = WE[w_i] + PE(i, n)`, checked by `embedOK`). -/
theorem embed_inv (R : RatEmb α) {C : Cert} {M : ModelW} (hemb : embedOK C M = true)
    {w : List Nat} {n : Nat} (hsym : ∀ i, i < n → w.getD i 0 < C.nsym) :
    Inv C w n M.d 0 (embed R M w n) := by
  intro i hi c hc
  have happ : (C.roleAt c 0).approx = false := by
    have h0 := hemb
    unfold embedOK at h0
    simp only [Bool.and_eq_true] at h0
    have hcs := List.all_eq_true.mp h0.2 c (List.mem_range.mpr hc)
    simp only [Bool.and_eq_true] at hcs
    have hr := hcs.1.1
    unfold roleEmbedOK at hr
    cases h : C.roleAt c 0 <;> simp only [Role.approx]
    rw [h] at hr; simp at hr
  refine ⟨fun _ => ?_, fun ha => by rw [happ] at ha; cases ha⟩
  unfold embedOK at hemb
  simp only [Bool.and_eq_true, beq_iff_eq] at hemb
  obtain ⟨⟨⟨⟨_, _⟩, _⟩, hnd⟩, hall⟩ := hemb
  have hcs := List.all_eq_true.mp hall c (List.mem_range.mpr hc)
  simp only [Bool.and_eq_true] at hcs
  obtain ⟨⟨hrole, hwe⟩, hpe⟩ := hcs
  have ha := hsym i hi
  have hwe' : svGet (M.we.getD (w.getD i 0) []) c = weExpected C c (w.getD i 0) := by
    have := List.all_eq_true.mp hwe (w.getD i 0) (List.mem_range.mpr ha)
    simpa using this
  have hpe' : ∀ fe, fe ∈ M.pe → svGet fe.2 c = peExpected C c fe.1 := by
    intro fe hfe
    have := List.all_eq_true.mp hpe fe hfe
    simpa using this
  unfold embed
  rw [hwe', lsum_congr (fun fe hfe => by rw [hpe' fe hfe])]
  unfold roleEmbedOK at hrole
  generalize hr : C.roleAt c 0 = r at hrole
  cases r with
  | val _ => simp at hrole
  | single _ => simp at hrole
  | avg _ _ => simp at hrole
  | scaled _ => simp at hrole
  | avgN _ _ => simp at hrole
  | vpre _ => simp at hrole
  | vmix _ => simp at hrole
  | pre g =>
    simp only [Bool.and_eq_true] at hrole
    have h1 : ∀ g', C.roleAt c 0 ≠ .node g' := fun g' h => by rw [hr] at h; cases h
    rw [weExpected_of_ne h1, R.map_zero]
    have hpf : ∀ f', peExpected C c f' = if f'.beq (dirFeat (cmpDir C.prog g)) then ((2 * cmpR C.prog g - 1 : Int) : Rat) / 2 else 0 := by
      intro f'; unfold peExpected; rw [hr]
    rw [lsum_feat_single (F := fun f' => f'.val n i * R.cast (peExpected C c f')) hnd hrole.2
      (fun f' hb => by simp only [hpf f', hb]; rw [if_neg (by simp), R.map_zero]; grind)]
    simp only [hpf, Feat.beq_self, if_true, roleVal]
    have h2 : R.cast (2 : Rat) = (2 : α) := R.map_two
    have hz := R.map_intCast (2 * cmpR C.prog g - 1)
    rw [R.map_div (by decide), hz, h2]; grind
  | zero =>
    have h1 : ∀ g, C.roleAt c 0 ≠ .node g := fun g h => by rw [hr] at h; cases h
    have h2 : ∀ f', C.roleAt c 0 ≠ .feat f' := fun f' h => by rw [hr] at h; cases h
    have h3 : ∀ g, C.roleAt c 0 ≠ .pre g := fun g h => by rw [hr] at h; cases h
    rw [weExpected_of_ne h1, lsum_zero (fun fe _ => by rw [peExpected_of_ne h1 h2 h3, R.map_zero]; grind),
      R.map_zero]
    simp only [roleVal]; grind
  | feat f =>
    have h1 : ∀ g, C.roleAt c 0 ≠ .node g := fun g h => by rw [hr] at h; cases h
    rw [weExpected_of_ne h1, R.map_zero]
    have hpf : ∀ f', peExpected C c f' = if f'.beq f then 1 else 0 := by
      intro f'; unfold peExpected; rw [hr]
    rw [lsum_feat_single (F := fun f' => f'.val n i * R.cast (peExpected C c f')) hnd hrole
      (fun f' hb => by simp only [hpf f', hb]; rw [if_neg (by simp), R.map_zero]; grind)]
    simp only [hpf f, Feat.beq_self, if_true, R.map_one, roleVal]
    grind
  | node g =>
      simp only [Bool.or_eq_true] at hrole
      simp only [roleVal]
      rcases hrole with hs | hm
      · -- symbol-only
        have hsome := List.all_eq_true.mp hs (w.getD i 0) (List.mem_range.mpr ha)
        cases hb : symEval C.prog (w.getD i 0) (g + 1) g with
        | none => rw [hb] at hsome; simp at hsome
        | some b =>
          have hsound := symEval_sound C.prog (w.getD i 0) (g + 1) g b hb w n i hi rfl
          have hwv : weExpected C c (w.getD i 0) = if b then 1 else 0 := by
            unfold weExpected; rw [hr]; simp only; rw [hb]; cases b <;> rfl
          have hnm : ∀ m r, nodeAt C.prog g ≠ .modEq m r := by
            intro m r hm
            have : symEval C.prog (w.getD i 0) (g + 1) g = none := by unfold symEval; rw [hm]
            rw [this] at hb; cases hb
          have hp0 : ∀ f', peExpected C c f' = 0 := by
            intro f'
            unfold peExpected; rw [hr]; simp only
            split
            · next hh => exact absurd hh (hnm 1 0)
            · next r' hh => exact absurd hh (hnm 2 r')
            · next hh => exact absurd hh (hnm 2 0)
            · next hh => exact absurd hh (hnm 2 1)
            · rfl
          rw [hwv, lsum_zero (fun fe _ => by rw [hp0, R.map_zero]; grind)]
          unfold ind
          cases b
          · have hn : ¬ holds C.prog w n g i := fun h => absurd (hsound.mp h) (by decide)
            simp [hn, R.map_zero]; grind
          · have hy : holds C.prog w n g i := hsound.mpr rfl
            simp [hy, R.map_one]; grind
      · -- mod(1, 0) / mod(2, r)
        have hws : symEval C.prog (w.getD i 0) (g + 1) g = none := by
          unfold symEval
          split at hm <;> simp_all
        have hw0 : weExpected C c (w.getD i 0) = 0 := by
          unfold weExpected; rw [hr]; simp only; rw [hws]
        rw [hw0, R.map_zero]
        split at hm
        · next hg =>
          have hp : ∀ f', peExpected C c f' = if f'.beq .one then 1 else 0 := by
            intro f'; unfold peExpected; rw [hr]; simp only; rw [hg]; cases f' <;> simp [Feat.beq]
          rw [lsum_feat_single (F := fun f' => f'.val n i * R.cast (peExpected C c f')) hnd hm
            (fun f' hb => by simp only [hp f', hb]; rw [if_neg (by simp), R.map_zero]; grind)]
          simp only [hp, Feat.beq_self, if_true, R.map_one, Feat.val, ind]
          rw [if_pos ((holds_modEq hg).mpr (Nat.mod_one i))]
          grind
        · next r hg =>
          simp only [Bool.and_eq_true, decide_eq_true_eq] at hm
          obtain ⟨⟨hr2, hone⟩, hpar⟩ := hm
          have hp : ∀ f', peExpected C c f' =
              (if f'.beq .one then 1 / 2 else 0) + (if f'.beq .parity then (if r = 0 then 1 / 2 else -1 / 2) else 0) := by
            intro f'; unfold peExpected; rw [hr]; simp only; rw [hg]
            have : r = 0 ∨ r = 1 := by omega
            rcases this with h0 | h0 <;> subst h0 <;> cases f' <;> simp [Feat.beq, Rat.add_zero, Rat.zero_add]
          have split : ∀ f', f'.val n i * R.cast (peExpected C c f')
              = (f'.val n i * R.cast (if f'.beq .one then 1 / 2 else 0))
                + (f'.val n i * R.cast (if f'.beq .parity then (if r = 0 then 1 / 2 else -1 / 2) else 0)) := by
            intro f'; rw [hp f', R.map_add]; grind
          rw [lsum_congr (fun fe _ => split fe.1), lsum_add,
            lsum_feat_single (F := fun f' => f'.val n i * R.cast (if f'.beq .one then 1 / 2 else 0)) hnd hone
              (fun f' hb => by simp only [hb]; rw [if_neg (by simp), R.map_zero]; grind),
            lsum_feat_single (F := fun f' => f'.val n i * R.cast (if f'.beq .parity then (if r = 0 then 1 / 2 else -1 / 2) else 0))
              hnd hpar (fun f' hb => by simp only [hb]; rw [if_neg (by simp), R.map_zero]; grind)]
          simp only [Feat.beq_self, if_true, Feat.val, ind]
          have hhalf : R.cast (1 / 2) = (1 : α) / 2 := by
            rw [R.map_div (by decide), R.map_one]
            have : R.cast 2 = (2 : α) := R.map_two
            rw [this]
          have hnhalf : R.cast (-1 / 2) = -((1 : α) / 2) := by
            rw [show (-1 / 2 : Rat) = -(1 / 2) by decide +kernel, R.map_neg, hhalf]
          rw [propext (holds_modEq hg)]
          have h2 : i % 2 = 0 ∨ i % 2 = 1 := by omega
          have hr' : r = 0 ∨ r = 1 := by omega
          rcases h2 with h2 | h2 <;> rcases hr' with hr' | hr' <;> subst hr' <;> simp [h2, hhalf, hnhalf] <;> grind
        · simp at hm

/-- `ind` is `0` or `1`. -/
theorem ind_cases (p : Prop) : (ind p : α) = 0 ∨ (ind p : α) = 1 := by
  unfold ind; by_cases hp : p <;> simp [hp]

end Sem

end HardSoft.Cert

end
