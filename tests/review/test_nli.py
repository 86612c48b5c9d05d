"""The model-free label on small real-looking clauses."""

from __future__ import annotations

import pytest

from civicsetu.review.checklist import Label, load_checklist
from civicsetu.review.nli import classify, evidence_for
from civicsetu.review.rank import rank_units
from civicsetu.review.text import BM25

FILLER = ["This Agreement is made between Alpha Ltd and Beta Ltd.",
          "Each party has full power to enter into this Agreement.",
          "Notices shall be sent to the addresses above."]


@pytest.mark.parametrize("item_id, clause, expected", [
    ("nda-11", "The Recipient shall not reverse engineer or decompile any sample.",
     Label.ENTAILED),
    ("nda-11", "The Recipient shall keep the samples in a locked room.", Label.NOT_MENTIONED),
    ("nda-17", "The Recipient shall not copy or reproduce any Confidential Information.",
     Label.CONTRADICTED),
    ("nda-17", "The Recipient may make copies only to the extent necessary for the Purpose.",
     Label.ENTAILED),
    ("nda-3", "Confidential Information includes information disclosed orally.",
     Label.ENTAILED),
    ("unlimited-liability", "The Supplier's liability for data loss shall be unlimited.",
     Label.ENTAILED),
    ("liability-cap", "Aggregate liability shall not exceed the fees paid in one year.",
     Label.ENTAILED),
])
def test_labels(item_id: str, clause: str, expected: Label) -> None:
    item = load_checklist().get(item_id)
    texts = [*FILLER, clause]
    ranked = rank_units(item, texts, BM25(texts))
    label = classify(item, ranked)
    assert label is expected
    chosen = evidence_for(label, ranked)
    if expected is Label.NOT_MENTIONED:
        assert chosen == []
    else:
        assert [texts[s.index] for s in chosen] == [clause]
