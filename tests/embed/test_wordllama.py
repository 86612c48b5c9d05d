"""The static WordLlama embedder: unit vectors, meaning-ordered, batch-independent, offline."""

import numpy as np

from civicsetu.embed import get_embedder


def test_vectors_are_unit_length_and_semantic() -> None:
    embedder = get_embedder("wordllama")
    docs = embedder.embed_documents([
        "The promoter shall be liable to a penalty for not registering the project.",
        "The seller must disclose material defects in the property to the buyer.",
        "Photosynthesis converts light into chemical energy in plants.",
    ])
    assert docs.shape == (3, 256) and docs.dtype == np.float32
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    scores = docs @ embedder.embed_query("penalty for an unregistered real estate project")
    assert scores[0] > scores[1] > scores[2]


def test_batching_does_not_change_vectors_and_empty_text_is_zero() -> None:
    embedder = get_embedder("wordllama")
    texts = ["short", "registration of documents " * 40, "mid length text here", ""]
    together = embedder.embed_documents(texts)
    alone = np.stack([embedder.embed_query(t) for t in texts])
    assert np.allclose(together, alone, atol=1e-6)
    assert not together[3].any()
