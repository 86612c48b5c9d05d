"""An Act's initials are a name the corpus knows, with or without registered aliases."""

from pathlib import Path

from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.search.routing import title_initials


def test_common_names_keep_the_first_title_words_and_the_final_act() -> None:
    rera = title_initials("The Real Estate (Regulation and Development) Act, 2016")
    assert {"RERA", "RERDA"} <= rera
    assert "RTI" in title_initials("The Right to Information Act, 2005")
    assert "TPA" in title_initials("The Transfer of Property Act, 1882")


def test_a_plain_file_acts_initials_are_not_an_unknown_name(
        empty_engine: Engine, small_act: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])  # no registry, so no aliases
    known = empty_engine.ask("What is the penalty for unlawful eviction under the MTA?")
    assert not known.abstained
    assert not any("never mentions" in n for n in known.notices)
    assert any(c.provision_id.endswith("#s.4") for c in known.citations)
    unknown = empty_engine.ask("What is the penalty for unlawful eviction under the QZX?")
    assert unknown.abstained
    assert any("never mentions QZX" in n for n in unknown.notices)


def test_a_party_named_in_the_facts_is_not_an_unknown_subject(
        empty_engine: Engine, small_act: Path) -> None:
    empty_engine.ingest([SourceSpec(small_act)])
    # One capitalised word in the user's own facts is a party, not what is asked about.
    party = empty_engine.ask("My landlord Sharma evicted me without an order of the Rent "
                             "Court. What penalty does he face?")
    assert not any("never mentions" in n for n in party.notices)
    assert any(c.provision_id.endswith("#s.4") for c in party.citations)
    # A capitalised stop word before it opens the sentence; it makes no name of two words.
    asked = empty_engine.ask("Can Sharma evict a tenant without an order of the Rent Court?")
    assert not any("never mentions" in n for n in asked.notices)
    # A name of several words the corpus never uses (a case, a scheme) still is.
    case = empty_engine.ask("Did the court in Neelkamal Realtors allow eviction without an "
                            "order of the Rent Court?")
    assert case.abstained
    assert any("never mentions Neelkamal, Realtors" in n for n in case.notices)
    # So does one word with an article: a thing, not a person.
    thing = empty_engine.ask("Within what time must the landlord refund the Zorblax deposit?")
    assert thing.abstained and any("never mentions Zorblax" in n for n in thing.notices)
