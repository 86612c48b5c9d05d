"""Decomposition for multi-part, multi-hop and comparison questions, and the fusion that
keeps every part in the top results.

A question such as "Which commission hears my complaint, and where must I appeal?" is
split at its question boundaries (``?``, ``; ``, ``, and where ...``, ``compared with``)
into sub-questions. Each sub-question keeps the context of the whole question: the Acts
it names or implies (passed as a preference to the search) and the parties it mentions
(builder, allottee, agent ...), so "where must I appeal?" is still asked about the
consumer complaint against the builder.

Each part is also searched with the statute's words for what its question form asks
(``lexicon.QUESTION_FOCUS``: "who decides ..." -> "adjudicating officer"), since a part's
own words rarely name the provision that answers it.

Fusion is coverage-aware rather than a plain reciprocal-rank fusion of everything: the
whole question's first provisions lead, the rest are ordered by how far the whole
question and its parts agree, and a part left out of the top ranks gets its best section
placed there, so no part is crowded out (``coverage_fuse``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from civicsetu.search.consequence import SOURCE as CONSEQUENCE
from civicsetu.search.hybrid import cut_sections
from civicsetu.search.lexicon import LAY_TO_STATUTE, focus_terms
from civicsetu.search.query import named_documents
from civicsetu.types import Hit, section_of

if TYPE_CHECKING:
    from civicsetu.search.hybrid import Searcher, SearchFilters, SearchResult

MAX_PARTS = 3
# A several-part question whose first part asks something is led by that part's best
# provision, then the whole question's best: the whole question's words mix every part's
# subject, and its first hit is often a section that several parts only brush against.
FIRST_PART_LEADS = True
MIN_PART_WORDS = 1
FUSION_K = 60  # the reciprocal-rank constant of the fusion (as in search/hybrid.py)
# When no Act is named or implied, the parts are searched in the Act of the whole
# question's best hit: a guess. The whole question's hits in other Acts then still vote,
# at this share of their weight (a wrong guess must not silence the right Act).
GUESSED_OTHER_WEIGHT = 0.5
# A comparison's probe (one side, one aspect, in its own Act) counts as covered only by
# its own best section: a side's search is narrow enough that its first hit is its answer.
COMPARE_DEPTH = 1
PART_DEPTH = 3  # a part is covered by any of its first three sections
COMPARE_PARTS = 4  # the parts of a comparison searched (the sides and what is asked of them)
_LEAD = (r"(?:if\s+\w+\s+\w+,?\s+)?(?:where|what|which|who|whom|whose|how|when|why|whether|"
         r"can|could|is|are|does|do|did|should|must|will|would|may|in\s+which|within\s+what|"
         r"under\s+which|by\s+when)\b")
# Boundaries between the parts of a question; the situation before the first "?" or the
# words before a comparison marker stay with the part they open.
_SPLIT = re.compile(
    r"\?\s*(?:and\s+|but\s+|also\s+)?|;\s+|,\s+(?:and\s+|or\s+|but\s+)?(?=" + _LEAD + r")|"
    r"\s+and\s+(?=(?:if\s+\w+|where|who|what|which|how\s+\w+|when|whether)\b\s+\w+\s+\w+)|"
    r"\s+(?:compared?\s+(?:with|to)|as\s+against|versus|vs\.?)\s+|"
    r",?\s+with\s+th(?:ose|at)\s+(?:for|of|under)\s+|"
    r"\s+with\s+(?=(?:who|what|how|where|when|which)\b)|"
    r"\s+(?:differs?|differing)\s+from\s+|\s+lines?\s+up\s+with\s+",
    re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]+")
# A comparison: its parts are the sides compared.
_CONTRAST = re.compile(r"\b(?:compare\w*|differ\w*|difference|distinguish\w*|versus|vs\.?|"
                       r"as\s+against|line\s+up\s+with|unlike)\b", re.IGNORECASE)
_CONTENT_STOP = frozenset("""
the a an and or of to in on for by with is are be was can could do does did how what
which who where when why whether must should will would may if my our i we me us it its
this that there then than also any after before under from as at long fast much many
""".split())  # noqa: SIM905 - a word list reads better as text
# Words that name the parties of a dispute: a sub-question keeps the whole question's.
ACTORS = frozenset(
    {k for k in LAY_TO_STATUTE if k in {"builder", "developer", "homebuyer", "homebuyers",
                                        "buyer", "buyers", "broker", "dealer", "landlord",
                                        "tenant", "pio"}}
    | {"promoter", "allottee", "allottees", "agent", "seller", "purchaser", "lessor",
       "lessee", "debtor", "creditor", "consumer", "complainant", "applicant", "company",
       "officer", "collector", "authority", "tribunal", "commission"})


@dataclass(frozen=True, slots=True)
class SubQuestion:
    text: str  # what is searched: the part plus the kept context
    part: str  # the part as the user wrote it


def content_words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text) if w.lower() not in _CONTENT_STOP]


_BETWEEN = re.compile(r"^(?P<head>.*\b(?:differ\w*|difference|compare\w*|distinguish\w*)\s+"
                      r"between)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s*[?.]?$",
                      re.IGNORECASE | re.DOTALL)


# "Compare A with the B" (no other boundary): split at the first "with" that opens a
# noun phrase; "differ(s) from" and "line(s) up with" are boundaries of their own (_SPLIT).
_COMPARE_WITH = re.compile(r"^(?P<a>compare\s+.+?)\s+with\s+(?P<b>(?:the|a|an|its|their|"
                           r"his|her)\s+.+)$", re.IGNORECASE | re.DOTALL)


def split_parts(question: str) -> list[str]:
    """The question's parts in the order asked (one part when it does not split).

    "How do X differ between A and B?" becomes "How do X differ between A" and "X ... B":
    the compared things each get a part, and each part keeps what is compared."""
    m = _BETWEEN.match(question.strip())
    if m:
        head = m.group("head")
        topic = re.sub(r"^\s*(?:how|what|where|when|why)\s+(?:do|does|is|are)\s+(?:the\s+)?", "",
                       re.sub(r"\s+(?:differ\w*|difference|compare\w*|distinguish\w*)\s+"
                              r"between$", "", head, flags=re.IGNORECASE), flags=re.IGNORECASE)
        return [f"{head} {m.group('a')}".strip(), f"{topic} for {m.group('b')}".strip()]
    pieces = [p.strip(" ,;.") for p in _SPLIT.split(question) if p and p.strip(" ,;.")]
    if len(pieces) == 1:
        m = _COMPARE_WITH.match(question.strip())
        if m:  # "Compare the X for A with the X for B": the two compared sides
            pieces = [m.group("a").strip(" ,;."), m.group("b").strip(" ,;.?")]
    parts: list[str] = []
    carry = ""
    for piece in pieces:
        text = f"{carry} {piece}".strip() if carry else piece
        if len(content_words(text)) < MIN_PART_WORDS:
            carry = text  # too thin to stand alone ("where"): joins the next part
            continue
        carry = ""
        parts.append(text)
    if carry:
        if parts:
            parts[-1] = f"{parts[-1]} {carry}"
        else:
            parts.append(carry)
    return parts


def decompose(question: str, mentions: list[str], sides: bool = True,
              max_parts: int = MAX_PARTS) -> list[SubQuestion]:
    """Sub-questions that each keep the whole question's named Acts and parties.

    ``mentions`` are the words of the question that name a document (as the user wrote
    them); an empty list when none is named. One sub-question means: do not split.
    With ``sides`` a comparison's parts do not carry each other's Acts and parties
    (research mode's later steps keep them: there it measured better).
    """
    parts = split_parts(question)
    if len(parts) < 2:
        return [SubQuestion(question, question)]
    low_q = question.lower()
    actors = [a for a in sorted(ACTORS) if re.search(rf"\b{re.escape(a)}\b", low_q)]
    # The first question part sets the subject the later ones ask about.
    subject = [w for w in content_words(_first_question(parts)) if len(w) > 3][:4]
    contrasted = sides and bool(_CONTRAST.search(question))
    out = []
    for i, part in enumerate(parts[:max_parts]):
        low = part.lower()
        keep = [m for m in mentions if m.lower() not in low]
        keep += [a for a in actors if not re.search(rf"\b{re.escape(a)}\b", low)]
        if contrasted and not re.search(r"\b(?:each|both|either|them)\b", low):
            # The compared sides are what the parts contrast: one side's Act or party is
            # not context for the other ("the Authority ... with the Appellate Tribunal");
            # a part asking about "each" or "both" keeps them all.
            others = " ".join(p.lower() for j, p in enumerate(parts) if j != i)
            keep = [w for w in keep if not re.search(rf"\b{re.escape(w.lower())}\b", others)]
        if len(content_words(part)) < 3:
            keep += [w for w in subject if w not in low]
        keep += [t for t in focus_terms(part) if t.lower() not in low]
        extra = " ".join(dict.fromkeys(keep))
        out.append(SubQuestion(f"{part} ({extra})" if extra else part, part))
    return out


_SITUATION = re.compile(r"^(?:if|once|after|before|until|till|during|while|since|unless|when|"
                        r"in\s+case|as\s+soon\s+as)\b", re.IGNORECASE)


def asks(part: str) -> bool:
    """Whether a question's first part asks something (its last sentence is not only a
    situation clause: "When RERA came into force", "If a promoter is prosecuted")."""
    return not _SITUATION.match(_first_question([part]).strip())


def _first_question(parts: list[str]) -> str:
    """The asking sentence of the first part (the situation told before it is context)."""
    sentences = [x for x in re.split(r"(?<=[.!])\s+", parts[0]) if x.strip()]
    return sentences[-1] if sentences else parts[0]


def coverage_fuse(whole: list[Hit], parts: list[list[Hit]], docs: list[str] | None = None,
                  window: int = 5, depth: int = 3, keep: int = 2,
                  other_weight: float = 0.0, distinct: bool = False,
                  first_asks: bool = False, depths: list[int] | None = None) -> list[Hit]:
    """The whole question's ranking and its parts' rankings fused, each part given a place.

    Counted in sections, as a reader (and the evaluation) counts them. The whole
    question's first ``keep`` provisions (pinned ones, then its best; from ``docs`` only
    when ``other_weight`` is 0; with ``first_asks`` and nothing pinned, the first part's
    best provision goes first) stay first: the answer quotes from the top, and the whole
    question's words rank its best evidence best. The rest are ordered by reciprocal-rank
    fusion in which the whole question's ranking weighs as much as all its parts together
    (each part ``1/len(parts)``), so a section that the whole question and its parts agree on
    rises, and one only a single view found sinks. The parts were searched in ``docs``
    (the question's Acts): a section the whole question found in another Act votes with
    ``other_weight`` of its weight (0: it keeps a place after them), and leads only when
    it is the whole question's best. Then coverage: a part none of whose first
    ``depth`` sections (``depths[i]`` for part i when given: a comparison's narrow probe
    counts only its first) is among the first ``window`` gets its best section placed just
    after the leader(s), in the order the parts were asked. Scores are rewritten to stay
    monotone in the new order (callers read them as a ranking)."""
    if not parts:
        return whole
    # A section is scored by the ranks of its sections in each list; its first provision
    # carries that score, its other provisions their own (provision-level) one, so one
    # section's many sub-sections cannot crowd the other sections out of the first places.
    sec_score: dict[str, float] = {}
    prov_score: dict[str, float] = {}
    for weight, ranked in [(1.0, whole), *((1.0 / len(parts), p) for p in parts)]:
        def vote(h: Hit, weight: float = weight, ranked: list[Hit] = ranked) -> float:
            other = ranked is whole and bool(docs) and h.doc_id not in (docs or [])
            return weight * other_weight if other else weight

        voters = [h for h in ranked if vote(h) > 0]
        for rank, (key, h) in enumerate(_first_per_section(voters)):
            sec_score[key] = sec_score.get(key, 0.0) + vote(h) / (FUSION_K + rank)
        for rank, h in enumerate(voters):
            prov_score[h.provision_id] = (prov_score.get(h.provision_id, 0.0)
                                          + vote(h) / (FUSION_K + rank))
    # The lead: pinned provisions, a named provision's asked-for consequence before them
    # (search/consequence.py) (else, when the first part asks, its best), the whole
    # question's best, and its next ones up to ``keep`` (from the parts' Acts when another
    # Act's hits have no vote).
    lead = [h for h in whole if h.pinned or CONSEQUENCE in h.sources]
    if first_asks and parts[0] and not lead:
        lead.append(parts[0][0])
    lead += [h for h in whole[:1] if h.provision_id not in {x.provision_id for x in lead}]
    for h in whole[1:]:
        if h.provision_id in {x.provision_id for x in lead}:
            continue
        if len(lead) >= keep:
            break
        if not h.pinned and (not docs or other_weight > 0 or h.doc_id in docs):
            lead.append(h)
    pool: dict[str, Hit] = {}
    for h in [*whole, *(h for p in parts for h in p)]:
        pool.setdefault(h.provision_id, h)
    for h in lead:
        pool.pop(h.provision_id, None)
    score: dict[str, float] = {}
    represented = {_section_key(h) for h in lead}
    for h in pool.values():
        key = _section_key(h)
        if key in represented:
            score[h.provision_id] = prov_score.get(h.provision_id, 0.0)
        else:
            represented.add(key)
            score[h.provision_id] = sec_score.get(key, 0.0)
    ordered = lead + sorted(pool.values(), key=lambda h: -score[h.provision_id])
    top = list(dict.fromkeys(_section_key(h) for h in ordered))[:window]
    placed = {_section_key(h) for h in lead}
    per_part = depths or [depth] * len(parts)
    bests = [list(dict.fromkeys(_section_key(h) for h in ranked))[:d]
             for ranked, d in zip(parts, per_part, strict=True)]
    # With ``distinct`` (the parts are the compared sides) a section covers one part only:
    # parts claim the shown sections rank by rank (each part's first section first), so
    # two sides whose lists share a section do not both count it ("who heads the
    # Authority" and "who heads the Tribunal" both list s.46).
    covered: dict[int, str] = {}
    for d in range(max(per_part, default=0) if distinct else 0):
        for i, best in enumerate(bests):
            if i in covered or d >= len(best):
                continue
            key = best[d]
            if (key in top or key in placed) and key not in covered.values():
                covered[i] = key
    inserts: list[Hit] = []
    for i, (ranked, best) in enumerate(zip(parts, bests, strict=True)):
        if not best or i in covered:
            continue
        # A definition the part's party words found ('"apartment" means ...') does not
        # show that the part is answered; its own best section may still be placed.
        defined = _defined_sections(ranked)
        if not distinct and any((k in top or k in placed) and
                                (k not in defined or k == best[0]) for k in best):
            continue
        pick = next((k for k in best if k not in covered.values()), best[0])
        if pick in top or pick in placed:
            continue
        inserts.append(next(h for h in ranked if _section_key(h) == pick))
        placed.add(pick)
        covered[i] = pick
    if inserts:
        keys = {h.provision_id for h in inserts}
        ordered = lead + inserts + [h for h in ordered[len(lead):] if h.provision_id not in keys]
    ordered = [replace(h) for h in ordered]
    top_score = max((h.score for h in ordered), default=0.0)
    for i, h in enumerate(ordered):
        if not h.pinned:
            h.score = top_score / (1 + i * 0.01)
    return ordered


# A definition clause opens with the quoted term it defines: '(e) "apartment" ... means'.
_DEFINITION = re.compile(r"^\W*(?:\(\w+\)\s*)*[\"“'‘][^\"”’']{1,80}[\"”'’]")


def _defined_sections(hits: list[Hit]) -> set[str]:
    """The sections whose first hit in ``hits`` is a definition clause."""
    return {key for key, h in _first_per_section(hits) if _DEFINITION.match(h.text)}


def _first_per_section(hits: list[Hit]) -> list[tuple[str, Hit]]:
    """(section key, its first hit) for each section of ``hits``, in order."""
    first: dict[str, Hit] = {}
    for h in hits:
        first.setdefault(_section_key(h), h)
    return list(first.items())


def _section_key(hit: Hit) -> str:
    return f"{hit.doc_id}#{section_of(hit.provision_path)}"


def search_decomposed(searcher: Searcher, query: str, *, k: int,
                      filters: SearchFilters | None = None,
                      split_from: str | None = None) -> tuple[SearchResult, list[SubQuestion]]:
    """Search the whole question, and when it has several parts each sub-question too,
    fused so every part is covered in the top ``k``. ``split_from`` is the user's own
    wording when ``query`` is a rewrite of it.

    The second-stage ranker (search/rerank.py) learned to rank for one question at a
    time: it orders each part's search and a one-part question, while a several-part
    question's whole ranking keeps the fused order the coverage fusion starts from."""
    subs: list[SubQuestion] = []
    text = split_from or query
    mentions: list[str] = []
    if searcher.settings.decompose:
        mentions = [text[s:e] for _, s, e in named_documents(text, searcher.aliases)]
        subs = decompose(text, mentions)
    whole = searcher.search(query, k=k, filters=filters, rerank=len(subs) < 2,
                            cover_sections=len(subs) < 2)
    if len(subs) < 2:
        return whole, []
    prefer = whole.analysis.named_docs + whole.analysis.implied_docs
    if not prefer and whole.hits:
        # No Act named or implied: the parts keep the Act the whole question was answered
        # from (its best provision's), so "who decides?" is asked of the same law.
        prefer = [whole.hits[0].doc_id]
    # Each part is searched in the question's Act(s) only: the part alone ("who decides
    # the compensation?") would otherwise match any Act that uses its words.
    routed = whole.analysis.named_docs + whole.analysis.implied_docs
    t_parts = time.perf_counter()
    part_filters = scoped(filters, prefer)
    # A comparison: contrast words, or parts asked across two or more Acts the question
    # names or implies ("should I complain to RERA or to the consumer commission? Do both
    # laws allow a complaint?").
    contrasted = bool(_CONTRAST.search(text)) or (searcher.settings.compare_sides
                                                  and len(set(routed)) >= 2)
    if contrasted and searcher.settings.compare_sides:
        # A comparison: each side in its own Act, once per aspect asked (search/compare.py).
        from civicsetu.search.compare import probes, search_probes

        # Every side is searched, also a fourth part ("..., or does one exclude the other?").
        sides = decompose(text, mentions, max_parts=COMPARE_PARTS)
        plan = probes(searcher, text, sides, prefer)
        part_hits = search_probes(searcher, plan, k, filters)
        depths = [COMPARE_DEPTH if p.narrow else PART_DEPTH for p in plan]
        # Two probes of one Act that lead with the same section asked the same thing
        # (the "forum" and the "deadline" of one appeal): one vote, not two.
        seen: set[tuple[str, ...]] = set()
        keep_idx = []
        for i, (p, hits_i) in enumerate(zip(plan, part_hits, strict=True)):
            sig = (*p.docs, _section_key(hits_i[0]) if hits_i else "")
            if sig not in seen:
                seen.add(sig)
                keep_idx.append(i)
        part_hits = [part_hits[i] for i in keep_idx]
        depths = [depths[i] for i in keep_idx]
    else:
        depths = [PART_DEPTH] * len(subs)
        part_hits = [searcher.search(s.text, k=k, filters=part_filters).hits for s in subs]
    # A named or implied Act lowers the whole question's other Acts in the fusion to
    # ``routed_other_weight`` of their vote (not to none: the second Act of a cross-Act
    # question is found by the whole question only, the parts being searched in the
    # routed Acts); the fallback above is a guess from one hit, and in a large library
    # that hit is often a look-alike Act while the whole question's other hits are the
    # right one, so they keep part of their vote.
    hits = coverage_fuse(whole.hits, part_hits, prefer,
                         other_weight=searcher.settings.routed_other_weight if routed
                         else GUESSED_OTHER_WEIGHT,
                         distinct=contrasted, depths=depths,
                         first_asks=FIRST_PART_LEADS and asks(subs[0].part))
    timings = dict(whole.timings_ms)
    timings["parts"] = round((time.perf_counter() - t_parts) * 1000, 2)
    return replace(whole, hits=cut_sections(hits, k), timings_ms=timings), subs


def scoped(filters: SearchFilters | None, docs: list[str]) -> SearchFilters | None:
    """``filters`` narrowed to ``docs`` (unchanged when that would leave nothing)."""
    from civicsetu.search.hybrid import SearchFilters

    if not docs:
        return filters
    if filters is None:
        return SearchFilters(doc_ids=list(docs))
    keep = [d for d in docs if not filters.doc_ids or d in filters.doc_ids]
    return replace(filters, doc_ids=keep) if keep else filters
