"""The constructive half: transformers built for the paper's results, layered like a compiler's stages.

Stage order (each module imports only the ones before it, and ``spec``):

* languages and their reference semantics:
  ``logic.syntax`` -> ``logic.semantics`` (temporal logic: parse, ``evaluate``);
  ``srasp.language`` -> ``srasp.interpreter`` (S-RASP: ``Program``, ``interpret``);
* ``residual`` -- the one residual-stream builder: named coordinates, heads from score / value
  terms, FFN units, the zero FFN;
* ``heads`` -- the attention constructions with their scores, gap and temperature (Lemma 7
  lookup, Lemma 8 tie-breaking, counting, sign), built through ``residual``;
* compilers -- ``logic.compiler`` (formula -> model, with ``logic.selfcheck.check_compiled``) and
  ``srasp.compiler`` (program -> model; ``srasp.dyck`` is the Dyck-k program);
* ``applications`` -- the hand-built constructions (flip-flop, induction / k-hop, prefix-argmax)
  and the compiled ones (induction-tl, dyck-k), each a ``Construction`` in ``CONSTRUCTIONS``;
* models run: ``lowprec`` (every step in a low-precision format) and ``audit``
  (``check_construction`` against the reference, the gap / temperature table, the precision audit).

How to add a construction: write its builder in ``applications.py`` (coordinates, heads and FFN
units through ``residual.Residual``; a docstring naming the paper result and deriving gap gamma(n)
and temperature tau(n)), with a reference function on strings, and return a ``Construction``.
Register it in ``applications.CONSTRUCTIONS`` (name -> builder) and map the name to its claim id in
``checks/families/apps.py`` (``CLAIM_OF``); add or extend the claim in ``spec/claims.py`` (``REGISTRY``:
the builder and reference as dotted names under ``spec``, the tests that check it) and check that
``hardsoft.checks.registry.validate_registry()`` returns [].  A new attention mechanism belongs in
``heads.py`` (with its bound), not in the builder.
"""
