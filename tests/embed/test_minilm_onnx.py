import numpy as np
import pytest

from civicsetu.embed import get_embedder
from civicsetu.errors import ModelError


def test_vectors_are_unit_length_and_semantic() -> None:
    embedder = get_embedder("minilm-onnx")
    docs = embedder.embed_documents([
        "The promoter shall be liable to a penalty for not registering the project.",
        "The seller must disclose material defects in the property to the buyer.",
        "Photosynthesis converts light into chemical energy in plants.",
    ])
    assert docs.shape == (3, 384) and docs.dtype == np.float32
    assert np.allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-5)
    q = embedder.embed_query("penalty for an unregistered real estate project")
    scores = docs @ q
    assert scores[0] > scores[1] > scores[2]


def test_batching_does_not_change_vectors() -> None:
    embedder = get_embedder("minilm-onnx")
    texts = ["short", "a much longer sentence about the registration of documents " * 5, "mid"]
    together = embedder.embed_documents(texts)
    alone = np.stack([embedder.embed_query(t) for t in texts])
    assert np.allclose(together, alone, atol=1e-4)


def test_unknown_backend_names_the_choices() -> None:
    with pytest.raises(ModelError, match="minilm-onnx"):
        get_embedder("no-such-model")


def test_a_repeated_query_is_remembered_and_handed_out_as_a_copy() -> None:
    embedder = get_embedder("minilm-onnx")
    first = embedder.embed_query("penalty for not registering a project")
    first[:] = 0.0  # a caller scribbling on its vector must not change the next one
    again = embedder.embed_query("penalty for not registering a project")
    fresh = embedder.embed_documents(["penalty for not registering a project"])[0]
    assert np.allclose(again, fresh, atol=1e-5) and float(np.linalg.norm(again)) > 0.9
