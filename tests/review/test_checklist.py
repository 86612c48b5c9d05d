"""The shipped YAML checklist and user extensions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from civicsetu.errors import InputError
from civicsetu.review.checklist import Label, Risk, load_checklist
from tests.conftest import SHARED

COMMON = {"governing-law", "jurisdiction", "liability-cap", "unlimited-liability", "indemnity",
          "termination-notice", "auto-renewal", "assignment", "non-compete",
          "confidentiality-term", "data-protection", "audit-rights", "payment-terms",
          "service-levels"}


def test_shipped_checklist_has_the_contractnli_and_common_items() -> None:
    checklist = load_checklist()
    ids = {i.id for i in checklist.items}
    assert ids >= COMMON
    assert len([i for i in checklist.items if i.group == "nda"]) == 17
    assert checklist.version >= 1
    for item in checklist.items:
        assert set(item.risk) == set(Label)
        assert all(r.rationale for r in item.risk.values())


def test_nda_items_match_the_contractnli_hypotheses() -> None:
    dev = SHARED / "eval" / "contractnli" / "dev.json"
    if not dev.exists():
        pytest.skip("ContractNLI dev file not present")
    labels = json.loads(dev.read_text(encoding="utf-8"))["labels"]
    checklist = load_checklist()
    for key, spec in labels.items():
        assert checklist.get(key).hypothesis == spec["hypothesis"]


def test_user_file_adds_and_replaces_items(tmp_path: Path) -> None:
    extra = tmp_path / "mine.yaml"
    extra.write_text(
        "name: firm\nversion: 3\nitems:\n"
        "  - id: escrow\n    hypothesis: Source code is held in escrow.\n"
        "    cues: ['escrow']\n    risk:\n      not_mentioned: [HIGH, 'No escrow.']\n"
        "  - id: indemnity\n    hypothesis: Mutual indemnity.\n    cues: ['mutual']\n",
        encoding="utf-8")
    checklist = load_checklist(extra)
    assert checklist.version == 3
    assert checklist.get("escrow").risk[Label.NOT_MENTIONED].level is Risk.HIGH
    assert checklist.get("indemnity").hypothesis == "Mutual indemnity."
    assert checklist.get("governing-law").group == "commercial"


@pytest.mark.parametrize("body, message", [
    ("items: [{id: x, hypothesis: y, cues: ['(']}]", "bad cue pattern"),
    ("items: [{id: x, hypothesis: y, risk: {entailed: [SEVERE, z]}}]", "risk.entailed"),
    ("items: [{title: no id}]", "needs at least"),
    ("just text", "top-level 'items'"),
    ("items: [", "not valid YAML"),
])
def test_bad_user_checklists_say_what_is_wrong(tmp_path: Path, body: str, message: str) -> None:
    extra = tmp_path / "bad.yaml"
    extra.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_checklist(extra)
