"""Document ids, look-alike titles and multi-Act files (``ingest/identity.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from civicsetu.corpus import bundled_acts
from civicsetu.errors import InputError
from civicsetu.ingest.identity import (
    base_id,
    lookalikes,
    several_acts,
    slug,
    user_doc_id,
)
from civicsetu.types import check_doc_id, check_node_id, split_provision_id


@pytest.mark.parametrize(("name", "expected"), [
    ("rules", "rules"),
    ("Café Règles", "cafe-regles"),
    ("the-real-estate-act-2016", "the-real-estate-act-2016"),
    ("नियम", ""),
    ("   ", ""),
])
def test_slug_is_ascii(name: str, expected: str) -> None:
    assert slug(name) == expected


def test_non_latin_name_falls_back_to_title_then_to_a_path_hash() -> None:
    assert base_id(Path("/x/नियम.txt"), "Model Rules, 2020") == "model-rules-2020"
    hashed = base_id(Path("/x/नियम.txt"), "नियम")
    assert hashed.startswith("doc-") and len(hashed) == 12
    assert hashed == base_id(Path("/x/नियम.txt"), "नियम")  # stable
    assert hashed != base_id(Path("/y/नियम.txt"), "नियम")


def test_two_files_with_one_name_get_two_ids_and_each_keeps_its_own() -> None:
    held: dict[str, str] = {}
    first = user_doc_id(Path("/a/rules.txt"), "Rules", held.get)
    held[first] = "/a/rules.txt"
    second = user_doc_id(Path("/b/rules.txt"), "Rules", held.get)
    held[second] = "/b/rules.txt"
    assert first == "rules"
    assert second.startswith("rules-") and second != first
    assert user_doc_id(Path("/a/rules.txt"), "Rules", held.get) == first
    assert user_doc_id(Path("/b/rules.txt"), "Rules", held.get) == second


def test_bundled_ids_are_the_file_stems() -> None:
    for act in bundled_acts():
        assert act.id == act.path.stem == slug(act.path.stem)


def test_lookalike_titles_match_after_normalising() -> None:
    others = [("rera", ("Real Estate (Regulation and Development) Act, 2016",
                        "Real Estate (Regulation and Development) Act")),
              ("rti", ("Right to Information Act, 2005", "Right to Information Act"))]
    assert lookalikes(["The REAL ESTATE (Regulation and Development) Act, 2016."],
                      others) == ["rera"]
    assert lookalikes(["Model Tenancy Act, 2099"], others) == []


def test_a_file_with_two_acts_is_detected_and_one_act_is_not() -> None:
    one = "# The A Act, 2001\n\n1. Short title.--This Act may be called the A Act, 2001.\n"
    two = one + "\n# The B Act, 2002\n\n1. Short title.--This Act may be called the B Act, 2002."
    assert several_acts(one) == []
    assert several_acts(two) == ["The A Act, 2001", "The B Act, 2002"]
    plain = two.replace("# ", "")  # a .txt without headings: section 1 names each Act
    assert several_acts(plain) == ["A Act, 2001", "B Act, 2002"]
    for act in bundled_acts():
        assert several_acts(act.path.read_text(encoding="utf-8")) == [], act.id


@pytest.mark.parametrize("bad", ["", "#", "DOC#", "#s.1", "a b#s.1", "doc#s 1", "doc#\x00"])
def test_malformed_provision_ids_are_input_errors(bad: str) -> None:
    with pytest.raises(InputError, match="is not a provision id"):
        split_provision_id(bad)


@pytest.mark.parametrize("bad", ["", "a b", "a#", "\t"])
def test_malformed_document_ids_are_input_errors(bad: str) -> None:
    with pytest.raises(InputError):
        check_doc_id(bad)
    with pytest.raises(InputError):
        check_node_id(bad)


def test_split_provision_id_still_raises_value_error_for_old_callers() -> None:
    with pytest.raises(ValueError, match="DOC#PATH"):
        split_provision_id("DOC#")
    assert split_provision_id("rera#s.18(1)(b)") == ("rera", "s.18(1)(b)")
