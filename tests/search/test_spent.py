"""A repealed or omitted section is not evidence unless the question names it (search/spent.py)."""

import pytest

from civicsetu.engine import Engine
from civicsetu.search.spent import is_spent

CONTRACT = "the-indian-contract-act-1872"


def test_only_a_heading_that_says_repealed_or_omitted_is_spent() -> None:
    for heading in ("[Repealed.]", "Omitted", ". Repealed", "[ Omitted ]", "REPEALED"):
        assert is_spent(heading), heading
    for heading in ("Laws repealed", "Revival of repealed enactments", "Savings", ""):
        assert not is_spent(heading), heading


@pytest.mark.slow
def test_a_repealed_section_is_not_quoted_unless_named(bundled: Engine) -> None:
    # s.105 of the Contract Act is "[Notice of seller's claim.] Rep. by s. 65, ibid.";
    # its words "seller" and "claim" used to rank it second for this question.
    question = "The seller broke our contract. What compensation can I claim for the loss?"
    spent = f"{CONTRACT}#s.105"
    hits = [h.provision_id for h in bundled.searcher.search(question, k=10).hits]
    assert spent not in hits
    bundled.searcher.settings.skip_spent_sections = False
    try:
        off = [h.provision_id for h in bundled.searcher.search(question, k=10).hits]
    finally:
        bundled.searcher.settings.skip_spent_sections = True
    assert spent in off
    named = bundled.searcher.search("What happened to section 105 of the Indian Contract Act?",
                                    k=5)
    assert named.hits[0].provision_id == spent
