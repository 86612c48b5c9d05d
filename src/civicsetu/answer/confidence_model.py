"""Fitted weights of the answer score (``answer/confidence.py``); written by
``tools/fit_confidence.py``, do not edit by hand.

Training data: questions generated from section headings of the corpus (see the tool).
"""

FEATURES: tuple[str, ...] = ("cosine", "agreement", "coverage", "heading", "routing")
INTERCEPT: float = -3.8914
WEIGHTS: tuple[float, ...] = (0.8182, 0.8100, 1.3663, 3.5039, -0.1207)
