"""The parse of the bundled Acts is pinned to ``PARSER_VERSION``.

An index re-parses a stored document only when its parser version is older than the
code's (ingest/version.py). A change that alters what the same text parses into (ids,
spans, chunks, definitions, references, amendments) without a version bump would leave
every existing index on the old parse, quoting provisions the new code would not mint.
This test fails on such a change: bump ``PARSER_VERSION`` and record the new fingerprint
below (the failure prints it).
"""

import hashlib
import json

from civicsetu.config import Settings
from civicsetu.corpus import bundled_acts
from civicsetu.ingest.loader import load_source
from civicsetu.ingest.pipeline import parse_document
from civicsetu.ingest.version import PARSER_VERSION

# PARSER_VERSION -> fingerprint of the bundled Acts' parse.
FINGERPRINTS = {
    1: "caa456a507fbba26",
    2: "caa456a507fbba26",  # unit detection of PDF texts only; the bundle is Markdown
    3: "e6f0a36cb22a8364",  # Explanations of definitions-list entries (CPA s.2(7))
    4: "01764494aaaf3eb2",  # closing words of a list go to its parent (RERA s.18(1))
}


def _fingerprint() -> str:
    settings = Settings()
    digest = hashlib.sha256()
    for act in sorted(bundled_acts(), key=lambda a: a.id):
        document, _ = load_source(act.path, doc_id=act.id)
        parsed = parse_document(document, settings)
        record = {
            "provisions": [(p.path, p.start, p.end, p.parent_path) for p in parsed.provisions],
            "chunks": [(c.provision_path, c.start, c.end) for c in parsed.chunks],
            "definitions": sorted((d.term, d.provision_id) for d in parsed.definitions),
            "references": sorted(str(r) for r in parsed.references),
            "amendments": sorted(str(a) for a in parsed.amendments),
        }
        digest.update(json.dumps(record, sort_keys=True).encode())
    return digest.hexdigest()[:16]


def test_the_parse_changes_only_with_a_new_parser_version() -> None:
    found = _fingerprint()
    version = PARSER_VERSION if PARSER_VERSION not in FINGERPRINTS else PARSER_VERSION + 1
    assert FINGERPRINTS.get(PARSER_VERSION) == found, (
        f"the bundled Acts now parse differently (fingerprint {found}); if that is meant, "
        f"set PARSER_VERSION in src/civicsetu/ingest/version.py to {version} and record "
        f"{{{version}: {found!r}}} in FINGERPRINTS")
