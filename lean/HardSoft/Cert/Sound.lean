module

public import HardSoft.Cert.Step

/-!
# Certificates, part 11: the soundness theorem

`certified_of_check`: if the checker accepts a model and its certificate, then for every length
`n ≥ 1`, every word `w` of length `n` over the alphabet and every position `i < n`, the model's
coordinate of the formula's root after the last layer holds exactly the formula's 0/1 value at
`i`, in average-hard mode and in soft mode at the certificate's temperature rule (`τ(n) = c/n`
bounded, `τ = 1` unbounded, `τ(n) = c / max(n-1, 1)` unbounded with mixed comparisons,
`τ(n) = c / (n^2 max(n-1, 1))` bounded with mixed comparisons: `tauRule`),
for every ordered field with an embedding of `Rat` and an exponential satisfying `ExpLike` and
`1 + t ≤ exp t` (the reals with `Real.exp` are one; not formalised here, core Lean has no reals). So the model's read-out (the root's coordinate `> 1/2`)
is the formula, for every `n`: Theorem 26's conclusion for a compiled program, with its constants
checked by the kernel on the certificate.

## Main results

* `HardSoft.Cert.certified_of_check`, `HardSoft.Cert.certified_hard_of_check`, `HardSoft.Cert.readout_of_check`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

section Sound

open Classical

variable {α : Type} [Lean.Grind.Field α] [LE α] [LT α] [Std.IsLinearOrder α] [Std.LawfulOrderLT α]
  [Lean.Grind.OrderedRing α]

/-- An index within a list reads one of its elements. -/
theorem getD_mem {β : Type} : ∀ (l : List β) (k : Nat) (d : β), k < l.length → l.getD k d ∈ l
  | [], _, _, h => absurd h (by simp)
  | a :: t, 0, _, _ => by simp
  | a :: t, k + 1, d, h => by
    simp only [List.getD_cons_succ]
    exact List.mem_cons_of_mem _ (getD_mem t k d (by simp at h; omega))

/-- An index past a list reads the default. -/
theorem getD_ge {β : Type} : ∀ (l : List β) (k : Nat) (d : β), l.length ≤ k → l.getD k d = d
  | [], _, _, _ => by simp
  | _ :: _, 0, _, h => absurd h (by simp)
  | a :: t, k + 1, d, h => by
    simp only [List.getD_cons_succ]
    exact getD_ge t k d (by simp at h; omega)

/-- `layersOK` accepts every layer in turn. -/
theorem layersOK_get {C : Cert} {d : Nat} : ∀ (k : Nat) (lws : List LayerW) (lds : List LayerD),
    layersOK C d k lws lds = true → lws.length = lds.length ∧
      ∀ j, j < lws.length → layerOK C d (k + j + 1) (lws.getD j LayerW.empty) (lds.getD j ⟨[], []⟩) = true
  | _, [], [], _ => ⟨rfl, fun j hj => absurd hj (by simp)⟩
  | k, LW :: lws, LD :: lds, h => by
    unfold layersOK at h
    simp only [Bool.and_eq_true] at h
    have ih := layersOK_get (k + 1) lws lds h.2
    refine ⟨by simp [ih.1], fun j hj => ?_⟩
    cases j with
    | zero => simpa using h.1
    | succ j =>
      simp only [List.getD_cons_succ]
      have := ih.2 j (by simp at hj; omega)
      rw [show k + (j + 1) + 1 = k + 1 + j + 1 by omega]; exact this
  | _, [], _ :: _, h => by simp [layersOK] at h
  | _, _ :: _, [], h => by simp [layersOK] at h

/-- Every layer boundary of a certified model's run holds the roles' values (induction over the
layers, Theorem 26's composition). -/
theorem run_inv (R : RatEmb α) {C : Cert} {M : ModelW} {w : List Nat} {mode : Mode α}
    (hmode : ModeOK R C w.length mode) (hE : equivOK C = true) (hcrd : ∀ g, C.crd g < M.d)
    (hroles : C.spans.length = M.d) (hsym : ∀ k, k < w.length → w.getD k 0 < C.nsym)
    (hK : 0 < C.K) (hc : 0 < C.c) (hk : 0 < C.expK)
    (hemb : embedOK C M = true) (hlay : layersOK C M.d 0 M.layers C.layers = true) :
    ∀ l, l ≤ M.layers.length → Inv C w w.length M.d l (run R mode M w w.length l) := by
  obtain ⟨_, hget⟩ := layersOK_get 0 M.layers C.layers hlay
  intro l
  induction l with
  | zero => intro _; exact embed_inv R hemb hsym
  | succ l ih =>
    intro hl
    have hok := hget l (by omega)
    rw [show 0 + l + 1 = l + 1 by omega] at hok
    exact layer_step R hmode hE hcrd hroles hsym hK hc hk hok (by omega) (by simpa using ih (by omega))

/-- Certificates, the soundness theorem: a model the checker accepts computes its certificate's
formula exactly, at every position of every word of every length, in average-hard mode and in
soft mode at the temperature rule. -/
theorem certified_of_check (C : Cert) (M : ModelW) (h : check C M = true)
    (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) (w : List Nat)
    (hsym : ∀ a, a ∈ w → a < C.nsym) (i : Nat) (hi : i < w.length) :
    run R .hard M w w.length M.layers.length i (C.crd C.root) = ind (holds C.prog w w.length C.root i) ∧
      run R (.soft E (C.tauRule R w.length)) M w w.length M.layers.length i (C.crd C.root)
        = ind (holds C.prog w w.length C.root i) := by
  unfold check at h
  simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq, Bool.or_eq_true, Bool.not_eq_true'] at h
  obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨hroles, hclen⟩, hcall⟩, hK⟩, hc⟩, hk⟩, hEq⟩, hemb⟩, hlay⟩, hroot⟩, hrep⟩ := h
  have hd : 0 < M.d := by
    have h0 : 0 < C.coord.length := by rw [hclen]; omega
    obtain ⟨c0, hc0⟩ : ∃ c0, c0 ∈ C.coord := ⟨C.coord.getD 0 0, by
      cases hcs : C.coord with
      | nil => rw [hcs] at h0; simp at h0
      | cons a t => simp⟩
    have := List.all_eq_true.mp hcall c0 hc0
    simp at this; omega
  have hcrd : ∀ g, C.crd g < M.d := by
    intro g
    unfold Cert.crd
    by_cases hg : g < C.coord.length
    · have := List.all_eq_true.mp hcall _ (getD_mem C.coord g 0 hg)
      simpa using this
    · rw [getD_ge _ _ _ (by omega)]; exact hd
  have hsym' : ∀ k, k < w.length → w.getD k 0 < C.nsym := fun k hk' => by
    exact hsym _ (getD_mem w k 0 hk')
  have hfin : ∀ mode : Mode α, ModeOK R C w.length mode →
      run R mode M w w.length M.layers.length i (C.crd C.root) = ind (holds C.prog w w.length C.root i) := by
    intro mode hmode
    have hinv := run_inv R hmode hEq hcrd hroles hsym' hK hc hk hemb hlay M.layers.length (Nat.le_refl _)
    rw [inv_exact hinv hi (hcrd C.root) (rep_approx hrep), rep_val hEq hrep]
  exact ⟨hfin .hard (Or.inl rfl), hfin _ (Or.inr ⟨E, hE, rfl⟩)⟩

/-- The average-hard half of `certified_of_check`, for any ordered field with an embedding of `Rat`
(no exponential needed: `Rat` itself is one). -/
theorem certified_hard_of_check (C : Cert) (M : ModelW) (h : check C M = true)
    (R : RatEmb α) (w : List Nat) (hsym : ∀ a, a ∈ w → a < C.nsym) (i : Nat) (hi : i < w.length) :
    run R .hard M w w.length M.layers.length i (C.crd C.root) = ind (holds C.prog w w.length C.root i) := by
  unfold check at h
  simp only [Bool.and_eq_true, beq_iff_eq, decide_eq_true_eq, Bool.or_eq_true, Bool.not_eq_true'] at h
  obtain ⟨⟨⟨⟨⟨⟨⟨⟨⟨⟨hroles, hclen⟩, hcall⟩, hK⟩, hc⟩, hk⟩, hEq⟩, hemb⟩, hlay⟩, hroot⟩, hrep⟩ := h
  have hd : 0 < M.d := by
    have h0 : 0 < C.coord.length := by rw [hclen]; omega
    obtain ⟨c0, hc0⟩ : ∃ c0, c0 ∈ C.coord := ⟨C.coord.getD 0 0, by
      cases hcs : C.coord with
      | nil => rw [hcs] at h0; simp at h0
      | cons a t => simp⟩
    have := List.all_eq_true.mp hcall c0 hc0
    simp at this; omega
  have hcrd : ∀ g, C.crd g < M.d := by
    intro g
    unfold Cert.crd
    by_cases hg : g < C.coord.length
    · have := List.all_eq_true.mp hcall _ (getD_mem C.coord g 0 hg)
      simpa using this
    · rw [getD_ge _ _ _ (by omega)]; exact hd
  have hsym' : ∀ k, k < w.length → w.getD k 0 < C.nsym := fun k hk' => hsym _ (getD_mem w k 0 hk')
  have hinv := run_inv R (Or.inl rfl) hEq hcrd hroles hsym' hK hc hk hemb hlay M.layers.length (Nat.le_refl _)
  rw [inv_exact hinv hi (hcrd C.root) (rep_approx hrep), rep_val hEq hrep]

/-- The read-out form: the root's coordinate exceeds `1/2` exactly where the formula holds. -/
theorem readout_of_check (C : Cert) (M : ModelW) (h : check C M = true)
    (R : RatEmb α) (E : ExpLike α) (hE : E.Tangent) (w : List Nat)
    (hsym : ∀ a, a ∈ w → a < C.nsym) (i : Nat) (hi : i < w.length) :
    ((1 : α) / 2 < run R .hard M w w.length M.layers.length i (C.crd C.root) ↔ holds C.prog w w.length C.root i) ∧
      ((1 : α) / 2 < run R (.soft E (C.tauRule R w.length)) M w w.length M.layers.length i (C.crd C.root)
        ↔ holds C.prog w w.length C.root i) := by
  obtain ⟨h1, h2⟩ := certified_of_check C M h R E hE w hsym i hi
  rw [h1, h2]
  have key : ((1 : α) / 2 < ind (holds C.prog w w.length C.root i) ↔ holds C.prog w w.length C.root i) := by
    unfold ind
    by_cases hh : holds C.prog w w.length C.root i
    · rw [if_pos hh]; exact ⟨fun _ => hh, fun _ => by grind⟩
    · rw [if_neg hh]; exact ⟨fun h => absurd h (by grind), fun h => absurd h hh⟩
  exact ⟨key, key⟩

end Sound

end HardSoft.Cert

end
