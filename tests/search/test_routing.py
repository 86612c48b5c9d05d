"""Act routing learned from the corpus: title initials and distinctive subject words."""

from collections.abc import Iterator
from pathlib import Path

import pytest

from civicsetu.config import Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.search.compare import Probe, search_probes
from civicsetu.search.routing import Router, capitalised_names, title_initials, title_phrases

CPA = "the-consumer-protection-act-2019"
IBC = "the-insolvency-and-bankruptcy-code-2016"


def test_initials_come_from_the_title_words() -> None:
    assert "IBC" in title_initials("Insolvency and Bankruptcy Code, 2016")
    assert "RTI" in title_initials("Right to Information Act, 2005")
    assert "CPA" in title_initials("Consumer Protection Act, 2019")
    assert title_initials("Act") == set()


@pytest.mark.slow
def test_subject_words_imply_the_act_the_corpus_ties_them_to(bundled: Engine) -> None:
    router = Router(bundled.store, bundled.documents(), bundled.embedder.model_id)
    assert router.implied(["consumer", "complaint"]) == [CPA]
    assert router.implied(["insolvency"]) == [IBC]
    # Title words every Act uses imply nothing: all Acts are searched.
    assert router.implied(["compensation", "appeal", "information"]) == []
    # With an Act already named, only a near-exclusive word implies a second one.
    assert router.implied(["development"], named=True) == []
    assert router.implied(["consumer"], named=True) == [CPA]


@pytest.mark.slow
def test_an_implied_act_is_preferred_when_none_is_named(bundled: Engine) -> None:
    result = bundled.search("Which commission hears a consumer complaint worth two crore?")
    assert result.analysis.named_docs == [] and result.analysis.implied_docs == [CPA]
    assert result.hits[0].doc_id == CPA


RERA = "the-real-estate-regulation-and-development-act-2016"


@pytest.mark.slow
def test_a_lower_case_abbreviation_names_its_act(bundled: Engine) -> None:
    result = bundled.search("Sec 59 of rera: what is the penalty?")
    assert result.analysis.named_docs == [RERA]
    assert result.hits[0].provision_id == f"{RERA}#s.59"
    assert bundled.search("what does ibc say about the moratorium").analysis.named_docs == [IBC]
    assert bundled.search("Rti appeal deadline").analysis.named_docs == [
        "the-right-to-information-act-2005"]


@pytest.mark.slow
def test_a_lower_case_token_that_is_a_corpus_word_names_nothing(bundled: Engine) -> None:
    router = Router(bundled.store, bundled.documents(), bundled.embedder.model_id)
    # "sra" is the Specific Relief Act's alias and no word of the corpus; "act" is a word.
    router._abbrev["act"] = {CPA}
    assert router.named_by_initials("what does the act say, and the sra?") == [
        "the-specific-relief-act-1963"]


def test_title_phrases_are_adjacent_content_words() -> None:
    assert title_phrases("What penalty can the Central Consumer Protection Authority "
                         "impose on a real-estate developer?") == [
        "central consumer", "consumer protection", "protection authority",
        "authority impose", "real estate", "estate developer"]
    assert title_phrases("the act of the code") == []


@pytest.mark.slow
def test_a_title_phrase_implies_its_act_even_beside_a_named_one(bundled: Engine) -> None:
    router = Router(bundled.store, bundled.documents(), bundled.embedder.model_id)
    assert router.implied([], named=True, phrases=["real estate"]) == [RERA]
    assert router.implied([], phrases=["consumer protection", "protection authority"]) == [CPA]
    # Words that are not both words of one title are no title phrase.
    assert router.implied([], phrases=["financial creditors", "estate agent"]) == []


def test_capitalised_names_are_runs_of_two_or_more_capitalised_words() -> None:
    assert capitalised_names("Where does an appeal go after the Real Estate Appellate "
                             "Tribunal, compared with the National Consumer Commission?") == [
        "real estate appellate tribunal", "national consumer commission"]
    # One capitalised word, an acronym or a stop word next to a capital is no name.
    assert capitalised_names("Which RERA order? The Collector said It Is late.") == []


@pytest.mark.slow
def test_a_name_implies_the_act_holding_its_words_together(bundled: Engine) -> None:
    router = Router(bundled.store, bundled.documents(), bundled.embedder.model_id)
    # The CPA says "District Consumer Disputes Redressal Commission": the words, not the
    # phrase, are counted, and the CPA holds nearly all chunks with all three.
    assert router.implied([], named=True, names=["district consumer commission"]) == [CPA]
    # Names every Act uses imply nothing.
    assert router.implied([], names=["high court", "supreme court"]) == []


SHORT_TITLED = """---
title: "The Limitation Act, 2099."
source: "test fixture"
---
# The Limitation Act, 2099.

## Section 1 - Short title.

This Act may be called the Limitation Act, 2099.

## Section 2 - Effect of acknowledgment in writing.

(1) Where, before the expiration of the prescribed period for a suit in respect of a debt,
an acknowledgment of liability has been made in writing signed by the debtor, a fresh
period shall be computed from the time when the acknowledgment was so signed.

(2) An acknowledgment may be signed by the debtor's agent duly authorised.

## Section 3 - Effect of payment on account of debt.

(1) Where payment on account of a debt is made before the expiration of the prescribed
period by the debtor, a fresh period shall be computed from the time of the payment.

(2) A payment made by the debtor's agent has the same effect.

## Section 4 - Continuous running of time.

Where once time has begun to run, no later disability of the creditor or the debtor stops
it.
"""

LONG_TITLED = """---
title: "The Customs, Excise and Service Tax Appellate Procedure Act, 2099."
source: "test fixture"
---
# The Customs, Excise and Service Tax Appellate Procedure Act, 2099.

## Section 1 - Refund of duty.

An application for refund of duty shall be made before the period of limitation of one
year from the date of payment runs out.

## Section 2 - Period of limitation for appeals.

An appeal shall be filed within the period of limitation of sixty days from the order.

## Section 3 - Limitation for recovery.

No demand for duty shall be made after the period of limitation of two years.
"""


@pytest.fixture()
def distracted(tmp_path: Path) -> Iterator[Engine]:
    """An index of a short-titled Act and a long-titled one that uses its title word more."""
    for name, text in (("limitation.md", SHORT_TITLED), ("customs.md", LONG_TITLED)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    with Engine(Settings(home=tmp_path / "home")) as engine:
        engine.ingest([SourceSpec(tmp_path / "limitation.md"),
                       SourceSpec(tmp_path / "customs.md")])
        yield engine


def test_a_short_titles_word_implies_its_act_when_the_ranking_confirms_it(
        distracted: Engine) -> None:
    ids = [d.id for d in distracted.searcher.documents]
    limitation = next(d for d in ids if "limitation" in d)
    customs = next(d for d in ids if "customs" in d)
    router = distracted.searcher.router
    # "limitation" is the Limitation Act's subject, though the other Act holds more of
    # the chunks that use it: no document holds DISTINCT_SHARE of them.
    assert router.implied(["limitation"]) == []
    assert router.confirmed(["limitation"], [limitation, customs, limitation], []) == limitation
    # Not confirmed: another Act leads the hits, a tie, one hit, or the Act is named.
    assert router.confirmed(["limitation"], [customs, customs, limitation], []) is None
    assert router.confirmed(["limitation"], [limitation, customs], []) is None
    assert router.confirmed(["limitation"], [limitation, limitation], [limitation]) is None
    # A word of a long title is one topic of it, not its subject.
    assert router.confirmed(["customs"], [customs, customs, limitation], []) is None
    result = distracted.searcher.search(
        "The debtor signed a letter admitting the debt before my limitation period ran out."
        " Does a fresh period start?", k=5)
    assert result.analysis.implied_docs == [limitation]
    assert result.hits[0].doc_id == limitation


def test_a_side_searched_in_every_act_that_routes_itself_is_a_narrow_probe(
        distracted: Engine) -> None:
    limitation = next(d.id for d in distracted.searcher.documents if "limitation" in d.id)
    plan = [Probe("the debtor signed a letter admitting the debt before the limitation "
                  "period ran out", []),
            Probe("the refund of duty after one year", [])]
    search_probes(distracted.searcher, plan, 5, None)
    assert plan[0] == Probe(plan[0].text, [limitation], narrow=True)
    assert plan[1].docs == [] and not plan[1].narrow  # routed to no Act: stays wide
