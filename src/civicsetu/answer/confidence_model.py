"""Fitted weights of the answer score (``answer/confidence.py``); written by
``tools/fit_confidence.py``, do not edit by hand.

Training data: questions generated from section headings of the corpus (see the tool).
"""

FEATURES: tuple[str, ...] = ("cosine", "agreement", "coverage", "heading", "routing")
INTERCEPT: float = -3.7763
WEIGHTS: tuple[float, ...] = (0.8910, 1.0939, 1.2519, 3.3536, -0.3079)
