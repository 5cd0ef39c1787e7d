module

public import HardSoft.Cert.Sound

/-!
# Certificates, part 12: non-vacuity

The soundness theorem's hypotheses hold together at `Rat` for a real compiled model: the
formula `Y a` over the alphabet `{a, b}`, compiled in the bounded regime (one tie-breaking head,
its clamp and eraser; the weights `hardsoft compile 'Y a'` writes, the description the compiler
gives), with `Rat`'s identity embedding. The kernel evaluates the checker on it (`check = true`),
and `certified_hard_of_check` then gives the model's value at a position of a word. The soft half
of `certified_of_check` also needs an exponential with `1 + t ≤ exp t`, which has no model over
`Rat` (the only `ExpLike` there is the constant `1`); `Real.exp` is one over the reals.

## Main results

* `HardSoft.Cert.nonvacuous_certified_hard_of_check`, `HardSoft.Cert.example_check`,
  `HardSoft.Cert.example_Y_a_certified`.
-/

@[expose] public section

set_option autoImplicit false

namespace HardSoft.Cert

/-- Certificates, non-vacuity: `Rat`'s identity as an ordered embedding of `Rat`. -/
noncomputable def ratEmbId : RatEmb Rat where
  cast := fun q => q
  map_add := fun _ _ => rfl
  map_mul := fun _ _ => rfl
  map_one := rfl
  map_le := fun _ _ h => h

/-- Certificates, non-vacuity: the one layer of `Y a` compiled in the bounded regime over `{a, b}`. -/
noncomputable def exampleLayer : LayerW where
  heads := [{ q := [[(0, mkRat 1 1)]], k := [[(3, mkRat 1 1)]], v := [[(7, mkRat 1 1)]], o := [[(8, mkRat 1 1)]], mask := Mask.strict }]
  units := [{ win := [(8, mkRat 2 1)], bias := mkRat (-1) 2, wout := [(8, mkRat 1 1)] },
    { win := [(8, mkRat 2 1)], bias := mkRat (-3) 2, wout := [(8, mkRat (-1) 1)] },
    { win := [(8, mkRat 1 1)], bias := mkRat 0 1, wout := [(8, mkRat (-1) 1)] }]
  b2 := []

/-- Certificates, non-vacuity: the weights of `Y a` compiled in the bounded regime over `{a, b}`. -/
noncomputable def exampleModel : ModelW where
  d := 9
  we := [[(7, mkRat 1 1)], []]
  pe := [(Feat.one, [(0, mkRat 1 1)]), (Feat.isFirst, [(1, mkRat 1 1)]), (Feat.isLast, [(2, mkRat 1 1)]),
    (Feat.iOverN, [(3, mkRat 1 1)]), (Feat.parity, [(4, mkRat 1 1)]), (Feat.invMaxI, [(5, mkRat 1 1)]),
    (Feat.invMaxRest, [(6, mkRat 1 1)])]
  layers := [exampleLayer]

/-- Certificates, non-vacuity: the compiler's description of `exampleModel` (`c` is the float
`1/ln 16` as a rational). -/
noncomputable def exampleCert : Cert where
  prog := [Node.atom 0, Node.prev 0]
  nsym := 2
  spans := [[⟨Role.feat Feat.one, 0, none⟩], [⟨Role.feat Feat.isFirst, 0, none⟩], [⟨Role.feat Feat.isLast, 0, none⟩],
    [⟨Role.feat Feat.iOverN, 0, none⟩], [⟨Role.feat Feat.parity, 0, none⟩], [⟨Role.feat Feat.invMaxI, 0, none⟩],
    [⟨Role.feat Feat.invMaxRest, 0, none⟩], [⟨Role.node 0, 0, none⟩], [⟨Role.node 1, 1, none⟩]]
  coord := [7, 8]
  equiv := []
  root := 1
  bounded := true
  mixed := false
  c := mkRat 3248660424278399 9007199254740992
  K := mkRat 1 1
  expK := 16
  layers := [{ heads := [{ fam := Family.tbPastB, sel := none, anchored := false, terms := [⟨1, 0⟩] }], groups := [GroupD.pair 1, GroupD.eraser 1] }]

/-- Certificates, non-vacuity: the checker accepts `exampleModel` with `exampleCert`. -/
theorem example_check : check exampleCert exampleModel = true := by decide +kernel

/-- Certificates, non-vacuity of `certified_hard_of_check` at `Rat`: the checker accepts a real
compiled model of the formula `Y a` (node 1 of `[a, Y 0]`), and the word `ab` with position `1`
meets the other hypotheses. -/
theorem nonvacuous_certified_hard_of_check :
    ∃ (C : Cert) (M : ModelW), check C M = true ∧ (∀ a, a ∈ [0, 1] → a < C.nsym) ∧ 1 < [0, 1].length ∧
      C.prog = [Node.atom 0, Node.prev 0] ∧ C.root = 1 := by
  refine ⟨exampleCert, exampleModel, example_check, fun a ha => ?_, by decide, rfl, rfl⟩
  simp only [List.mem_cons, List.not_mem_nil, or_false] at ha
  show a < 2
  rcases ha with h | h <;> rw [h] <;> decide

/-- Certificates, non-vacuity: what `certified_hard_of_check` gives for `Y a` on the word `ab` at
position `1` (the model's coordinate holds `[Y a holds at 1]`, which is `1`). -/
theorem example_Y_a_certified :
    run ratEmbId .hard exampleModel [0, 1] 2 exampleModel.layers.length 1 (exampleCert.crd exampleCert.root)
      = ind (holds exampleCert.prog [0, 1] 2 exampleCert.root 1) :=
  certified_hard_of_check exampleCert exampleModel example_check ratEmbId [0, 1]
    (fun a ha => by
      simp only [List.mem_cons, List.not_mem_nil, or_false] at ha
      show a < 2
      rcases ha with h | h <;> rw [h] <;> decide) 1 (by decide)

end HardSoft.Cert

end
