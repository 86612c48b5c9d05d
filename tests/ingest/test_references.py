"""Reference extraction against hand-written labels (tests/ingest/data/README.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from civicsetu.corpus import bundled_acts
from civicsetu.ingest.loader import load_document
from civicsetu.ingest.references import extract_references
from civicsetu.ingest.statute import parse_provisions
from civicsetu.types import DocType, Document, Reference

LABELS = Path(__file__).parent / "data" / "reference_labels.jsonl"


def _target(ref: Reference, doc_id: str) -> str:
    if ref.target_doc == doc_id:
        return ref.target_path
    return f"@{ref.target_name}" + (f"#{ref.target_path}" if ref.target_path else "")


def score_against_labels() -> tuple[float, float, int, list[str]]:
    rows = [json.loads(line) for line in LABELS.read_text().splitlines()]
    acts = {a.id: a for a in bundled_acts()}
    found_total = labelled_total = matched = 0
    misses: list[str] = []
    by_doc: dict[str, list[dict[str, object]]] = {}
    for row in rows:
        by_doc.setdefault(row["doc"], []).append(row)
    for doc_id, doc_rows in by_doc.items():
        document = load_document(acts[doc_id].path, doc_id=doc_id)
        provisions, _ = parse_provisions(doc_id, document.text)
        refs = extract_references(document, provisions)
        for row in doc_rows:
            section = f"{doc_id}#{row['section']}"
            found = Counter(_target(r, doc_id) for r in refs
                            if r.src == section or r.src.startswith(section + "("))
            labelled = Counter(row["targets"])  # type: ignore[arg-type]
            matched += sum((found & labelled).values())
            found_total += sum(found.values())
            labelled_total += sum(labelled.values())
            misses += [f"{section}: extra {t}" for t in (found - labelled).elements()]
            misses += [f"{section}: missed {t}" for t in (labelled - found).elements()]
    return matched / found_total, matched / labelled_total, labelled_total, misses


def test_precision_and_recall_on_hand_labelled_references() -> None:
    precision, recall, labelled, misses = score_against_labels()
    assert labelled >= 100
    assert precision >= 0.95, misses
    assert recall >= 0.90, misses


def _refs(text: str, doc_type: DocType = DocType.ACT, parent: str | None = None,
          path: str = "s.9") -> list[tuple[str | None, str, str]]:
    body = f"## Section {path[2:]} - Test.\n\n{text}\n"
    document = Document("doc", "Test Act, 2030", body, "t", doc_type=doc_type,
                        parent_id=parent)
    provisions, _ = parse_provisions("doc", body)
    return [(r.target_doc, r.target_path, r.target_name)
            for r in extract_references(document, provisions)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("as provided in section 11.", [("doc", "s.11", "")]),
        ("under sub-section (1) of section 71.", [("doc", "s.71(1)", "")]),
        ("under clause (l) of sub-section (2) of section 4.", [("doc", "s.4(2)(l)", "")]),
        ("the provisions of sections 3 to 6 apply.",
         [("doc", "s.3", ""), ("doc", "s.4", ""), ("doc", "s.5", ""), ("doc", "s.6", "")]),
        ("in section 2 of the Architects Act, 1972 (20 of 1972).",
         [(None, "s.2", "Architects Act, 1972")]),
        ("registered under the Companies Act, 2013.", [(None, "", "Companies Act, 2013")]),
        ("(1) A notice.\n\n(2) A notice under sub-section (1) is final.", [("doc", "s.9(1)", "")]),
        ("specified in the First Schedule.", [("doc", "sch.1", "")]),
    ],
)
def test_reference_forms(text: str, expected: list[tuple[str | None, str, str]]) -> None:
    assert _refs(text) == expected


def test_a_rule_citing_the_act_points_to_the_parent_and_is_derived() -> None:
    body = ("1. Application.—(1) The application under sub-section (1) of section 4 of the Act "
            "shall be in Form A.\n2. Fees.—The fee under rule 1 is ten rupees.\n")
    document = Document("rules", "Model Rules, 2030", body, "t", doc_type=DocType.RULES,
                        parent_id="act")
    provisions, _ = parse_provisions("rules", body, DocType.RULES)
    refs = extract_references(document, provisions)
    assert [(r.src, r.target_doc, r.target_path, r.derived) for r in refs] == [
        ("rules#r.1(1)", "act", "s.4(1)", True), ("rules#r.2", "rules", "r.1", False)]
