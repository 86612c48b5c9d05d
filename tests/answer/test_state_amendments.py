"""The States' amendments India Code prints after a section are searchable with the
section but never quoted as the central Act (real bundled index)."""

from __future__ import annotations

import pytest

from civicsetu.answer.extractive import _candidate_units
from civicsetu.engine import Engine
from civicsetu.types import Hit

REGISTRATION = "the-registration-act-1908"
STAMP = "the-indian-stamp-act-1899"


@pytest.mark.parametrize(("doc_id", "section"), [
    (REGISTRATION, "s.80"),   # no sub-sections: the amendments follow the section's text
    (REGISTRATION, "s.25"),   # after the last sub-section
    (STAMP, "s.62"),
])
def test_no_unit_of_a_section_quotes_its_state_amendments(bundled: Engine, doc_id: str,
                                                          section: str) -> None:
    provisions = bundled.store.provisions_of_section(doc_id, section)
    whole = provisions[0]
    assert "STATE AMENDMENT" in whole.text  # kept with the section, so it is searchable
    hit = Hit("c", doc_id, section, whole.text, whole.start, whole.end, 1.0)
    units = _candidate_units([hit], bundled.store)
    assert units
    for u in units:
        assert "STATE AMENDMENT" not in u.text and "[Vide" not in u.text, u.provision.path


def test_an_answer_from_an_amended_section_shows_only_the_central_text(
        bundled: Engine) -> None:
    answer = bundled.ask("What is the punishment if a company issues a share-warrant "
                         "without it being duly stamped?")
    assert not answer.abstained
    assert any(c.provision_id == f"{STAMP}#s.62(2)" for c in answer.citations)
    for c in answer.citations:
        assert "STATE AMENDMENT" not in c.quote and "Arunachal" not in c.quote, c.label
    # Arunachal Pradesh's amendment of s.62 once made a clause "Section 62(ii)".
    assert not any(c.provision_id.startswith(f"{STAMP}#s.62(i") for c in answer.citations)
