"""Evidence units and the in-memory BM25."""

from __future__ import annotations

from civicsetu.review.text import BM25, segment, tokens


def test_segment_ranges_are_exact_and_skip_blank_lines() -> None:
    text = "TITLE\n\n  1. The Recipient shall not copy.  \n2. Survives termination.\n"
    spans = segment(text)
    assert [text[a:b] for a, b in spans] == ["TITLE", "1. The Recipient shall not copy.",
                                               "2. Survives termination."]


def test_long_lines_split_at_sentences() -> None:
    sentence = "The receiving party shall keep all information strictly confidential. "
    text = sentence * 12
    spans = segment(text, max_chars=200)
    assert len(spans) > 1
    assert all(text[a:b].strip() == text[a:b] for a, b in spans)
    assert "".join(text[a:b] for a, b in spans).replace(" ", "") == text.replace(" ", "")


def test_tokens_fold_plurals_and_drop_stop_words() -> None:
    assert tokens("The copies of all Employees") == ["copy", "employee"]


def test_bm25_prefers_the_matching_text() -> None:
    bm25 = BM25(["payment within thirty days", "reverse engineering is prohibited",
                 "governing law"])
    scores = bm25.scores("no reverse engineering")
    assert scores.index(max(scores)) == 1
    assert scores[2] == 0.0


def test_wrapped_lines_join_but_headings_do_not() -> None:
    text = ("1. TERM\n1.1 Either party may terminate this Agreement by\ngiving thirty days' "
            "notice.\n1.2 Next clause.\n")
    assert [text[a:b] for a, b in segment(text)] == [
        "1. TERM",
        "1.1 Either party may terminate this Agreement by\ngiving thirty days' notice.",
        "1.2 Next clause."]
