from civicsetu.ingest.enrich import extract_definitions
from civicsetu.ingest.statute import parse_provisions


def _terms(text: str) -> dict[str, str]:
    provisions, _ = parse_provisions("x", text)
    return {d.term: d.provision_id for d in extract_definitions(provisions)}


def test_an_explanations_items_still_define_their_terms() -> None:
    text = ("## Section 56 - Right to legal representation.\n\nThe applicant may appear in "
            "person or take the assistance of a chartered accountant or a company secretary "
            "or a cost accountant or a legal practitioner or any of its officers to present "
            "his case.\n\nExplanation.--For the purposes of this section,--\n\n"
            "(a) \"chartered accountant\" means a chartered accountant as defined;\n\n"
            "(b) \"company secretary\" means a company secretary as defined;\n\n"
            "(c) the word \"signed\" means signed personally.\n")
    terms = _terms(text)
    assert set(terms) == {"chartered accountant", "company secretary", "signed"}
    assert terms["company secretary"] == "x#s.56"  # the items have no id of their own


def test_a_definitions_section_may_print_its_terms_without_quotes() -> None:
    text = ("## Section 5 - Definitions.\n\nIn this Part, unless the context otherwise "
            "requires,--\n\n(7) financial creditor means any person to whom a financial debt "
            "is owed;\n\n(8) the expression includes nothing.\n\n"
            "## Section 6 - Persons who may initiate.\n\n(1) operational creditor means "
            "nothing here, this is not a definitions section.\n")
    assert _terms(text) == {"financial creditor": "x#s.5(7)"}
