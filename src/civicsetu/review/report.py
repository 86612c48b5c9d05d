"""Review reports a person can read: JSON, Markdown and self-contained HTML (quotes
highlighted, every document-derived string escaped)."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from civicsetu.review.conflicts import Conflict
from civicsetu.review.reviewer import ContractReview

LABEL_TEXT = {"entailed": "yes", "contradicted": "no (contradicted)",
              "not_mentioned": "not mentioned"}


def to_dict(reviews: Sequence[ContractReview], conflicts: Sequence[Conflict],
            checklist: str = "") -> dict[str, Any]:
    """Plain JSON-ready data for a set of reviews and their conflicts."""
    return {
        "checklist": checklist,
        "contracts": [{
            "doc_id": r.doc_id, "title": r.title, "metadata": r.metadata,
            "rejected_quotes": r.rejected_quotes,
            "findings": [{
                "item": f.item_id, "title": f.title, "group": f.group, "label": f.label.value,
                "risk": f.risk.value, "rationale": f.rationale, "value": f.value,
                "label_source": f.label_source,
                "citations": [asdict(c) for c in f.citations]} for f in r.findings],
        } for r in reviews],
        "conflicts": [{"kind": c.kind, "description": c.description,
                       "sides": [{"doc_id": s.doc_id, "value": s.value,
                                  "citation": asdict(s.citation)} for s in c.sides]}
                      for c in conflicts],
    }


def to_json(reviews: Sequence[ContractReview], conflicts: Sequence[Conflict],
            checklist: str = "") -> str:
    """The report as indented JSON."""
    return json.dumps(to_dict(reviews, conflicts, checklist), indent=2, ensure_ascii=False)


def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def to_markdown(reviews: Sequence[ContractReview], conflicts: Sequence[Conflict],
                checklist: str = "") -> str:
    """The report as Markdown: one table per contract, then the conflicts."""
    lines = ["# Contract review", "", f"Checklist: {checklist}", ""]
    for r in reviews:
        lines += [f"## {_md_cell(r.title)} (`{r.doc_id}`)", ""]
        for k, v in r.metadata.items():
            lines.append(f"- **{k.replace('_', ' ')}**: {_md_cell(v)}")
        lines += ["", "| Item | Label | Risk | Clause | Quote | Rationale |",
                  "|---|---|---|---|---|---|"]
        for f in r.findings:
            c = f.citations[0] if f.citations else None
            lines.append(f"| {_md_cell(f.title)} | {LABEL_TEXT[f.label.value]} | {f.risk.value} "
                         f"| {_md_cell(c.label) if c else ''} | "
                         f"{'> ' if c else ''}{_md_cell(c.quote) if c else ''} | "
                         f"{_md_cell(f.rationale)} |")
        lines.append("")
    lines += ["## Conflicts across contracts", ""]
    if not conflicts:
        lines.append("None found.")
    for cf in conflicts:
        lines.append(f"### {_md_cell(cf.description)}")
        for s in cf.sides:
            lines.append(f"- `{s.doc_id}` {s.citation.label}: **{_md_cell(s.value)}** — "
                         f"“{_md_cell(s.citation.quote)}”")
        lines.append("")
    return "\n".join(lines) + "\n"


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;
max-width:72rem;color:#1d2330;line-height:1.45;padding:0 1rem}
h1{font-size:1.6rem}h2{margin-top:2.2rem;border-bottom:2px solid #d8dde6;padding-bottom:.3rem}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{border:1px solid #d8dde6;padding:.45rem .55rem;vertical-align:top;text-align:left}
th{background:#f2f4f8}mark{background:#fff2a8;padding:0 .1rem}
.HIGH{background:#c62828;color:#fff}.MEDIUM{background:#ef8f00;color:#fff}
.LOW{background:#2e7d32;color:#fff}.risk{font-weight:600;padding:.1rem .45rem;border-radius:.3rem}
.meta{color:#4a5568;font-size:.92rem}.cite{color:#4a5568;font-size:.82rem}
.conflict{border-left:4px solid #c62828;padding:.2rem 1rem;margin:1rem 0;background:#fdf3f3}
.not_mentioned{color:#6b7280}
"""


def to_html(reviews: Sequence[ContractReview], conflicts: Sequence[Conflict],
            checklist: str = "") -> str:
    """A self-contained HTML page (inline CSS, no scripts, no external resources)."""
    e = html.escape
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
             "<title>Contract review</title><style>", _CSS, "</style></head><body>",
             "<h1>Contract review</h1>",
             f"<p class='meta'>Checklist {e(checklist)}. Every quote below was checked "
             "verbatim against the stored contract text; labels and risks are screening "
             "aids, not legal advice.</p>"]
    if len(reviews) > 1 or conflicts:
        parts.append("<h2>Conflicts across contracts</h2>")
        if not conflicts:
            parts.append("<p>None found.</p>")
        for cf in conflicts:
            parts.append(f"<div class='conflict'><strong>{e(cf.description)}</strong><ul>")
            for s in cf.sides:
                parts.append(f"<li><code>{e(s.doc_id)}</code> {e(s.citation.label)}: "
                             f"<strong>{e(s.value)}</strong><br><mark>{e(s.citation.quote)}"
                             f"</mark> <span class='cite'>[{e(s.citation.provision_id)} "
                             f"chars {s.citation.start}–{s.citation.end}]</span></li>")
            parts.append("</ul></div>")
    for r in reviews:
        counts = {lvl: sum(f.risk.value == lvl and f.label.value != "not_mentioned"
                           for f in r.findings) for lvl in ("HIGH", "MEDIUM", "LOW")}
        gaps = sum(f.label.value == "not_mentioned" and f.risk.value != "LOW"
                   for f in r.findings)
        parts.append(f"<h2>{e(r.title)} <code>{e(r.doc_id)}</code></h2>")
        parts.append(f"<p class='meta'>{counts['HIGH']} high-risk and {counts['MEDIUM']} "
                     f"medium-risk clauses found; {gaps} items missing that matter "
                     f"(MEDIUM or HIGH when absent); {len(r.findings)} items checked"
                     + (f"; {r.rejected_quotes} quotes failed verification and were left out"
                        if r.rejected_quotes else "") + ".</p><ul class='meta'>")
        for k, v in r.metadata.items():
            parts.append(f"<li><strong>{e(k.replace('_', ' '))}</strong>: {e(v)}</li>")
        parts.append("</ul><table><tr><th>Item</th><th>Label</th><th>Risk</th>"
                     "<th>Evidence (verbatim)</th><th>Rationale</th></tr>")
        for f in r.findings:
            quotes = "".join(
                f"<div><mark>{e(c.quote)}</mark> <span class='cite'>[{e(c.label or 'text')}"
                f", {e(c.provision_id)}, chars {c.start}–{c.end}]</span></div>"
                for c in f.citations)
            parts.append(
                f"<tr class='{f.label.value}'><td>{e(f.title)}</td>"
                f"<td>{e(LABEL_TEXT[f.label.value])}</td><td><span class='risk "
                f"{f.risk.value}'>{f.risk.value}</span></td><td>{quotes}</td>"
                f"<td>{e(f.rationale)}</td></tr>")
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts)
