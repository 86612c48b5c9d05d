"""A provision headed for another party does not lead a question about one party."""

import pytest

from civicsetu.engine import Engine
from civicsetu.eval.metrics import ranked_sections
from civicsetu.search.parties import others_after, parties_in
from civicsetu.types import Hit
from tests.conftest import RERA


def test_parties_are_read_in_statute_and_lay_words() -> None:
    assert parties_in("What must a builder's ad say?", lay=True) == {"promoter"}
    assert parties_in("What must a builder's ad say?") == set()
    assert parties_in("Penalty for failure to comply with orders by real estate agents") == \
        {"agent"}
    assert parties_in("Who can file a complaint?", lay=True) == set()


def _hit(path: str) -> Hit:
    return Hit(chunk_id=path, doc_id="a", provision_path=path, text="", start=0, end=0,
               score=1.0)


def test_a_heading_for_another_party_moves_below_the_others_in_the_window() -> None:
    hits = [_hit(p) for p in ("s.65", "s.63(1)", "s.67", "s.40", "s.63(2)")]
    headings = {"a#s.65": "Penalty ... by real estate agent", "a#s.63": "Penalty ... by promoter",
                "a#s.67": "Penalty ... by allottee", "a#s.40": "Recovery of penalty"}
    moved = [h.provision_path for h in others_after("Can the builder be fined?", hits,
                                                    headings)]
    assert moved == ["s.63(1)", "s.40", "s.63(2)", "s.65", "s.67"]
    # No party in the question, or a heading naming the asked party too: unchanged.
    assert others_after("What is the fine?", hits, headings) == hits
    headings["a#s.65"] = "Penalty ... by promoter or real estate agent"
    assert others_after("Is a builder fined?", hits, headings)[0].provision_path == "s.65"


@pytest.mark.slow
def test_the_askers_party_penalty_comes_before_the_other_parties(bundled: Engine) -> None:
    q = "What penalty does a broker face for ignoring the Authority's orders?"
    top = ranked_sections([h.provision_id for h in bundled.searcher.search(q, k=10).hits])
    assert top[0] == f"{RERA}#s.65"  # "... orders of Authority by real estate agent"
    assert f"{RERA}#s.67" not in top[:3] and f"{RERA}#s.63" not in top[:3]  # allottee, promoter
