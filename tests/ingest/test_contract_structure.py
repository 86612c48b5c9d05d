"""Contract numbering the parser must keep: articles, sections, sub-clauses, schedules in
any case, and unnumbered headed paragraphs."""

from __future__ import annotations

from civicsetu.ingest.statute import parse_provisions
from civicsetu.types import DocType

NUMBERED = """SERVICES AGREEMENT

ARTICLE I DEFINITIONS
Section 1.1 Definitions. "Affiliate" means any entity controlling a party.
Section 1.2 Interpretation. Headings are for convenience.
ARTICLE II SERVICES
Section 2.1 Scope. The Supplier shall:
(a) deliver the goods; and
(b) install them, including:
(i) testing; and
(ii) training.
Section 2.2 Acceptance. Acceptance occurs on signature.

Schedule 2 Fees
Fees are INR 10,000 per month.

Annex A Contacts
Names and addresses of the contacts.
"""

HEADED = """Letter agreement

Confidentiality
Each party shall keep the other party's information confidential for three years.

Governing Law
This letter is governed by the laws of Singapore and the courts of Singapore decide.
"""


def test_numbered_contract_paths() -> None:
    provisions, warnings = parse_provisions("svc", NUMBERED, DocType.CONTRACT)
    assert warnings == []
    assert [p.path for p in provisions] == [
        "art.1", "cl.1.1", "cl.1.2", "art.2", "cl.2.1", "cl.2.1(a)", "cl.2.1(b)",
        "cl.2.1(b)(i)", "cl.2.1(b)(ii)", "cl.2.2", "sch.2", "sch.a"]
    by_path = {p.path: p for p in provisions}
    assert by_path["sch.2"].title == "Fees"
    assert by_path["sch.2"].text == "Fees are INR 10,000 per month."
    assert by_path["cl.2.1(b)(ii)"].text == "(ii) training."
    for p in provisions:
        assert NUMBERED[p.start:p.end] == p.text


def test_unnumbered_headed_paragraphs() -> None:
    provisions, _ = parse_provisions("letter", HEADED, DocType.CONTRACT)
    assert [(p.path, p.title) for p in provisions] == [("p.1", "Confidentiality"),
                                                       ("p.2", "Governing Law")]
    assert provisions[1].text.startswith("This letter is governed by the laws of Singapore")
