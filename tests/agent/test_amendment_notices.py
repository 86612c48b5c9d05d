"""Amendment notices quote the footnote the law prints, which says what was changed: the
words of a section, its proviso, its Illustrations. A summary built from the footnote's
verb ("Section 39 was omitted") said of sections in force that they were gone (real
bundled index)."""

from __future__ import annotations

from datetime import date

import pytest

from civicsetu.answer.messages import AMENDED_SINCE_NOTICE, AMENDMENT_NOTICE
from civicsetu.engine import Engine
from civicsetu.search.hybrid import SearchFilters

TPA_39 = "Section 39 of the Transfer of Property Act, 1882"


@pytest.mark.slow
def test_each_footnote_of_a_quoted_provision_is_shown_in_its_own_words(
        bundled: Engine) -> None:
    answer = bundled.ask("What does section 39 of the Transfer of Property Act say?")
    assert answer.citations[0].provision_id == "the-transfer-of-property-act-1882#s.39"
    for note in ('The words "with the intention of defeating such right" omitted by Act 20 '
                 'of 1929, s. 11.',
                 'The Illustrations omitted by Act 20 of 1929, s. 11.'):
        assert AMENDMENT_NOTICE.format(label=TPA_39, note=note) in answer.notices
    assert not [n for n in answer.notices if "was omitted" in n], answer.notices


@pytest.mark.slow
def test_the_footnote_number_printed_before_a_note_is_left_out(bundled: Engine) -> None:
    # The Stamp Act's footnote reads "1 Subs. by Act 43 of 1955, ..." in the text.
    answer = bundled.ask("What does section 3 of the Indian Stamp Act say?")
    notes = [n for n in answer.notices if n.startswith("Amendment footnote to Section 3 ")]
    assert notes and all("“Subs. by Act 43 of 1955" in n for n in notes), answer.notices


@pytest.mark.slow
def test_the_law_on_a_date_flags_quotes_amended_since(bundled: Engine) -> None:
    # Section 39's footnotes record amendments by Act 20 of 1929.
    query = "What does section 39 of the Transfer of Property Act say?"
    before = bundled.ask(query, filters=SearchFilters(as_of=date(1920, 1, 1)))
    assert AMENDED_SINCE_NOTICE.format(label=TPA_39, date="1920-01-01") in before.notices
    after = bundled.ask(query, filters=SearchFilters(as_of=date(1930, 1, 1)))
    assert not [n for n in after.notices if n.startswith("Footnotes to")], after.notices
