"""Every numbering style we promise: one fixture per seed rule format, Acts, contracts."""

from __future__ import annotations

import pytest

from civicsetu.ingest.statute import parse_provisions
from civicsetu.ingest.units import find_units
from civicsetu.types import DocType

NEWLINE_DOT = """MAHARASHTRA REAL ESTATE (REGULATION AND DEVELOPMENT) RULES, 2017

1.
Short title and commencement
(1) These rules may be called the Maharashtra Real Estate Rules, 2017.
(2) They shall come into force on the date of their publication.

2.
Definitions
(1) In these rules, unless the context otherwise requires,-
(a) "Act" means the Real Estate (Regulation and Development) Act, 2016;
(b) "section" means a section of the Act.

3.
Fee for registration
The promoter shall pay a fee of ten rupees per square metre.
"""

SAME_LINE_EM_DASH = """1. Short title.—These rules may be called the Model Rules, 2017.
2. Definitions.—(1) In these rules,—
(a) "Act" means the Real Estate (Regulation and Development) Act, 2016;
(b) "Form" means a form appended to these rules.
3. Application for registration.—(1) The promoter shall apply in Form A.
(2) The application shall be signed by the promoter.
"""

RULE_PREFIX = """Rule 1 - Short title and commencement
These rules may be called the Model Rules, 2017.

Rule 2 - Interest payable
The rate of interest payable shall be the State Bank of India highest marginal cost of
lending rate plus two per cent.

Rule 3. Disclosure of sale
(1) The promoter shall disclose the sale.
(2) The disclosure shall be in writing.
"""

EN_DASH = """1. Short title and commencement.–(1) These rules may be called the KA Rules, 2017.
(2) They shall come into force from the date of publication.
2. Definitions.–In these rules, unless the context otherwise requires, "Act" means the Act.
3. Information to be furnished.-(1) The promoter shall furnish the information.
(2) The promoter shall also furnish an affidavit.
"""

DASH_PAREN = """3-(1)
Application for registration of project: The promoter shall apply to the Authority.
(2) The application shall be made in Form A.
4-(1)
Withdrawal of deposited amount: The promoter may withdraw the amount.
(2) The withdrawal shall be certified by an engineer.
"""

DASH_NEWLINE = """5-
Time limit for deciding an application
The Authority shall decide the application within thirty days.
6-
Rate of interest
The rate of interest shall be two per cent above the lending rate.
"""

ACT_TEXT = """THE MODEL ACT, 2030
ACT NO. 3 OF 2030
1. Short title and commencement.—(1) This Act may be called the Model Act, 2030.
(2) It shall come into force on such date as the Central Government may appoint.
2. Definitions.—In this Act, unless the context otherwise requires,—
(a) "allottee" means a person to whom a plot has been allotted;
(b) "promoter" means a person who constructs a building.
2A. Application.—This Act applies to all projects.
3. Registration.—(1) No promoter shall advertise without registration.
(2) Notwithstanding anything contained in sub-section (1), no registration is required
where the area is small.
THE FIRST SCHEDULE
Fees payable
1. For registration, ten rupees.
"""


@pytest.mark.parametrize(
    ("name", "text", "doc_type", "expected"),
    [
        ("newline-dot-newline", NEWLINE_DOT, DocType.RULES,
         ["r.1", "r.1(1)", "r.1(2)", "r.2", "r.2(1)", "r.2(1)(a)", "r.2(1)(b)", "r.3"]),
        ("same-line em dash", SAME_LINE_EM_DASH, DocType.RULES,
         ["r.1", "r.2", "r.2(1)", "r.2(1)(a)", "r.2(1)(b)", "r.3", "r.3(1)", "r.3(2)"]),
        ("Rule N prefix", RULE_PREFIX, DocType.RULES,
         ["r.1", "r.2", "r.3", "r.3(1)", "r.3(2)"]),
        ("en dash and .-", EN_DASH, DocType.RULES,
         ["r.1", "r.1(1)", "r.1(2)", "r.2", "r.3", "r.3(1)", "r.3(2)"]),
        ("N-(1) then title", DASH_PAREN, DocType.RULES,
         ["r.3", "r.3(1)", "r.3(2)", "r.4", "r.4(1)", "r.4(2)"]),
        ("N- then title line", DASH_NEWLINE, DocType.RULES, ["r.5", "r.6"]),
        ("Act text with em dash", ACT_TEXT, DocType.ACT,
         ["s.1", "s.1(1)", "s.1(2)", "s.2", "s.2(a)", "s.2(b)", "s.2A", "s.3", "s.3(1)",
          "s.3(2)", "sch.1"]),
    ],
)
def test_each_numbering_style_parses_to_the_right_ids(
        name: str, text: str, doc_type: DocType, expected: list[str]) -> None:
    provisions, warnings = parse_provisions("doc", text, doc_type)
    assert [p.path for p in provisions] == expected, name
    assert not warnings
    for p in provisions:
        assert p.text == text[p.start:p.end]


def test_titles_come_from_each_format() -> None:
    titles = {u.path: u.title for u in find_units(NEWLINE_DOT, DocType.RULES)}
    assert titles == {"r.1": "Short title and commencement", "r.2": "Definitions",
                      "r.3": "Fee for registration"}
    titles = {u.path: u.title for u in find_units(DASH_PAREN, DocType.RULES)}
    assert titles["r.3"].startswith("Application for registration of project")
    titles = {u.path: u.title for u in find_units(ACT_TEXT, DocType.ACT)}
    assert titles["s.3"] == "Registration"


def test_years_never_become_rule_numbers() -> None:
    text = ("1. Short title.—These rules may be called the Model Rules, 2017.\n"
            "2016. The year of the Act.—This line quotes a year at its start.\n"
            "2. Definitions.—In these rules \"Act\" means the Act of\n"
            "2016. The Act applies.\n")
    assert [u.path for u in find_units(text, DocType.RULES)] == ["r.1", "r.2"]


def test_a_numbered_list_inside_a_rule_is_not_a_run_of_rules() -> None:
    text = ("7. Documents to be filed.—The promoter shall file—\n"
            "1. Copy of the title deed.—certified;\n"
            "8. Fees.—The fee is ten rupees.\n"
            "9. Appeals.—An appeal lies to the Tribunal.\n")
    assert [u.path for u in find_units(text, DocType.RULES)] == ["r.7", "r.8", "r.9"]


def test_forms_after_the_rules_become_their_own_units() -> None:
    text = SAME_LINE_EM_DASH + "FORM 'A'\n[See rule 3]\nApplication for registration\n" \
        "FORM B\nDeclaration\n"
    paths = [u.path for u in find_units(text, DocType.RULES)]
    assert paths == ["r.1", "r.2", "r.3", "form.A", "form.B"]


def test_quoted_sections_of_an_amending_act_are_not_units() -> None:
    text = ("18. Optional registration.—Any document may be registered.\n"
            "In Tripura, after section 18, the following section shall be inserted, namely:--\n"
            "18A. True copy.--(1) The officer shall refuse a document without a copy.\n"
            "19. Language.—A document in another language needs a translation.\n")
    assert [u.path for u in find_units(text, DocType.ACT)] == ["s.18", "s.19"]


CONTRACT = """NON-DISCLOSURE AGREEMENT

ARTICLE I
DEFINITIONS
1.1 "Confidential Information" means all information disclosed by the Discloser.
1.2 "Purpose" means evaluating a possible business relationship.

ARTICLE II
OBLIGATIONS
Section 2.1 Non-disclosure. The Recipient shall not disclose Confidential Information.
2.2 Return of materials. The Recipient shall return all materials on request.
2.3 Term. The obligations last for three (3) years from the Effective Date.
"""


def test_contract_articles_and_decimal_clauses() -> None:
    units = find_units(CONTRACT, DocType.CONTRACT)
    assert [u.path for u in units] == ["art.1", "cl.1.1", "cl.1.2", "art.2", "cl.2.1",
                                       "cl.2.2", "cl.2.3"]
    titles = {u.path: u.title for u in units}
    assert titles["cl.2.2"] == "Return of materials"
    assert titles["art.2"] == "OBLIGATIONS" or titles["art.2"] == ""


def test_contract_with_plain_numbered_clauses() -> None:
    text = ("1. Term. This Agreement runs for two years.\n"
            "2. Payment. The Client shall pay within 30 days.\n"
            "(a) Late payments carry interest at 1% per month.\n"
            "3. Termination. Either party may terminate on 30 days' notice.\n")
    provisions, _ = parse_provisions("c", text, DocType.CONTRACT)
    assert [p.path for p in provisions] == ["cl.1", "cl.2", "cl.2(a)", "cl.3"]
    assert provisions[0].text.startswith("Term. This Agreement")


def test_markdown_headings_win_over_plain_text_styles(small_act_text: str) -> None:
    provisions, _ = parse_provisions("d", small_act_text, DocType.ACT)
    assert [p.path for p in provisions if p.parent_path is None] == ["s.1", "s.2", "s.3",
                                                                      "s.4"]


def test_pdf_style_spaced_markers_and_amendment_brackets() -> None:
    text = ("2. Definitions. — In this Act, unless the context otherwise requires, —\n"
            "4 [ ( a ) “ Aadhaar number ” means an identification number; ]\n"
            "( b ) “ Aadhaar number holder ” means an individual.\n"
            "3. Aadhaar number. — ( 1 ) Every resident shall be entitled.\n")
    provisions, _ = parse_provisions("a", text, DocType.ACT)
    assert [p.path for p in provisions] == ["s.2", "s.2(a)", "s.2(b)", "s.3", "s.3(1)"]


def test_no_structure_falls_back_to_paragraphs_and_says_so() -> None:
    provisions, warnings = parse_provisions("memo", "A note.\n\nAnother note.\n", DocType.OTHER)
    assert [p.path for p in provisions] == ["p.1", "p.2"]
    assert "paragraph by paragraph" in warnings[0]


def test_inserted_and_wrapped_section_headings_of_a_pdf_text_are_units() -> None:
    # As the Income-tax Act reads from a PDF: a section inserted by amendment prints its
    # footnote's bracket first, a long heading wraps, and inserted numbers sort letter by
    # letter (80C < 80CC < 80CCA < 80D; 80HHF < 80-I < 80-IA < 80-IB < 80J).
    text = (
        "80. Deductions to be made.— ( 1 ) In computing the total income, there shall be "
        "allowed the deductions.\n\n"
        "4 [ 80C. Deduction in respect of life insurance premia, deferred annuity, "
        "contributions to\n"
        "provident fund, etc. — ( 1 ) In computing the total income there shall be deducted.\n\n"
        "80CC. Deduction in respect of investment in certain new shares. — ( 1 ) Omitted.\n\n"
        "1 [80CCA. Deduction in respect of deposits under National Savings Scheme. — ( 1 ) "
        "Where an assessee has deposited money.\n\n"
        "80D. Deduction in respect of health insurance premia. — ( 1 ) In computing.\n\n"
        "80HHF. Deduction in respect of profits from export of film software. — ( 1 ) Text.\n\n"
        "80-IA. Deductions in respect of profits and gains from industrial undertakings or\n"
        "enterprises engaged in infrastructure development, etc. — ( 1 ) Where the gross "
        "total income includes profits.\n\n"
        "80-IB. Deduction in respect of profits and gains from certain industrial undertakings "
        "other than\ninfrastructure development undertakings. — ( 1 ) Where the gross total "
        "income includes profits.\n\n"
        "80J. [ Omitted.]. — Text.\n"
    )
    units = find_units(text, DocType.ACT)
    assert [u.path for u in units] == ["s.80", "s.80C", "s.80CC", "s.80CCA", "s.80D",
                                       "s.80HHF", "s.80-IA", "s.80-IB", "s.80J"]
    by_path = {u.path: u for u in units}
    assert by_path["s.80-IB"].title == ("Deduction in respect of profits and gains from certain "
                                        "industrial undertakings other than infrastructure "
                                        "development undertakings")
    assert by_path["s.80C"].title.endswith("contributions to provident fund, etc")
