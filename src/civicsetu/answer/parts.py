"""Which quote answers which part of the question.

A question's form says what kind of statement answers it: "where do I appeal?" asks for a
forum the provision directs to; "who decides ...?" and "how is he chosen?" for an agent it
empowers; "how fast?", "what deadline?" and "within what time?" for a period; "how much?",
"what deposit?" for an amount; "what punishment?" for a penalty; "how is the order
enforced?" for execution or recovery; "any leeway?" for an exception; "can I file?" or
"how do I challenge it?" for a remedy. A several-part question asks several of these ("who
decides the compensation, and how fast?"), and the retrieval often finds each part's
provision without the quotes (chosen by the whole question's words) showing it.

``asks`` reads the kinds each part of the question asks for, with that part's own words;
``answering_units`` gives, for each (part, kind) no chosen quote states, the retrieved unit
that states that kind of thing and shares the most of the part's words, and which shown
quotes answer a part (a weak quote that answers none can then be left out). Nothing here
knows any Act: the kinds are read from the question's grammar and the units' wording
(numbers in canonical form, ``answer/numbers.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import lru_cache

from civicsetu.answer.numbers import canonical, rupee_amounts, rupee_range
from civicsetu.answer.units import KEEP_RELATIVE, Unit
from civicsetu.search.decompose import ACTORS, split_parts
from civicsetu.search.lexicon import expansions, focus_terms
from civicsetu.search.query import STOPWORDS

# The question forms of each kind (matched on one part of the question).
ASK_FORMS: dict[str, re.Pattern[str]] = {
    "period": re.compile(
        r"\bhow\s+(?:fast|soon|quickly|long)\b|\bby\s+when\b|\bhow\s+much\s+time\b|"
        r"\bwithin\s+(?:what|which|how)\b|\bdeadlines?\b|\btime[\s-]+limits?\b|"
        r"\bhow\s+many\s+(?:days|weeks|months|years)\b|\blimitation\s+period\b|"
        r"\bwhen\s+(?:must|should|does|do|will)\s+(?:\w+\s+){0,3}(?:expire|lapse|end)\b|"
        r"\btoo\s+late\b",
        re.IGNORECASE),
    "amount": re.compile(
        r"\bhow\s+much\b(?!\s+time)|\b(?:maximum|minimum|max)\s+(?:\w+\s+)?(?:fine|penalty|"
        r"amount|compensation|fee)\b|\b(?:pre-?)?deposit\b|\bwhat\s+percentage\b|"
        r"\bhow\s+many\s+(?:rupees|per\s*cent)\b|\b(?:have|need)\s+to\s+pay\b",
        re.IGNORECASE),
    # Where a matter goes: the forum an appeal or a complaint lies to.
    "forum": re.compile(
        r"\b(?:which|what)\s+(?:\w+\s+)?(?:forum|court|commission|tribunal|bench)\b|"
        r"\bto\s+whom\b|\bwhere\s+(?:\w+\s+){0,4}(?:appeal|complain|file|go|goes|lie|lies|"
        r"challenge|take|turn|approach|report)\w*\b|"
        # the asker's own "who do I complain to?", "who can I go to?": where, not who acts
        r"\bwho(?:m)?\s+(?:do|can|should|could|would|must)\s+(?:i|we)\s+(?:\w+\s+){0,2}?"
        r"(?:complain|appeal|go|turn|apply|write|report|approach)\w*\b|"
        # the body a matter is brought before: "which body hears that?"
        r"\b(?:which|what)\s+(?:\w+\s+)?(?:authority|body|officer)\s+(?:hears|handles|"
        r"deals\s+with)\b",
        re.IGNORECASE),
    # Who acts: the authority that decides, hears, appoints, or may hold an office.
    "agent": re.compile(
        r"(?:^|[,;:(]\s*|\b(?:and|or|but|compare|then|also|so)\s+)(?:who|whom)\b"
        r"(?!\s+(?:do|can|should|could|would|must)\s+(?:i|we)\b)|"
        r"\b(?:which|what)\s+(?:\w+\s+)?(?:authority|officer|body)\b"
        r"(?!\s+(?:hears|handles|deals\s+with)\b)|"
        r"\bhow\s+(?:\w+\s+){0,2}(?:chosen|appointed|selected)\b",
        re.IGNORECASE),
    # How an order is made to bite: execution, recovery.
    "enforcement": re.compile(
        r"\b(?:enforc\w*|execut(?:ed|ion)|recover\w*|implement\w*)\b|\bstill\s+(?:refuses|"
        r"fails|does\s+not)\b", re.IGNORECASE),
    # A way out of a rule or a missed time: an exception, an extension, a condonation.
    "exception": re.compile(
        r"\b(?:leeway|exceptions?|extensions?|extend\w*|condon\w*|relax\w*|exempt\w*|"
        r"grace)\b", re.IGNORECASE),
    # A remedy the asker may take: a complaint, an appeal, an application, a claim.
    "remedy": re.compile(
        r"\b(?:can|may|could)\s+(?:i|we|he|she|they|you|a|an|the|my|our)\s+(?:\w+\s+){0,3}"
        r"(?:file|complain|appeal|apply|claim|sue|approach|challenge)\w*\b|"
        r"\ballows?\s+(?:a|an|the)?\s*(?:complaint|appeal|claim|suit|application)s?\b|"
        # "how do I challenge it?", "what can I do?", "what are my options / next steps?"
        r"\bhow\s+(?:do|can|should|would|could)\s+(?:i|we)\s+(?:\w+\s+){0,2}(?:file|complain|"
        r"appeal|apply|claim|sue|approach|challenge|contest|object|dispute)\w*\b|"
        r"\bwhat\s+(?:can|should|could)\s+(?:i|we)\s+do\b|\b(?:my|our)\s+(?:options|remed\w*|"
        r"next\s+steps?)\b|"
        # what the asker is owed: "do I get anything?", "can I get my money back?"
        r"\b(?:do|can|could|will|would|should)\s+(?:i|we)\s+get\s+(?:anything|something|"
        r"(?:it|them)\s+back|(?:my|our|the|a|an|any)\s+(?:\w+\s+)?(?:back|refund\w*|"
        r"compensation|interest))\b|"
        r"\b(?:am|are)\s+(?:i|we)\s+(?:owed|entitled)\b|\bwhat\s+(?:do|can|will)\s+(?:i|we)\s+get\b",
        re.IGNORECASE),
    "penalty": re.compile(
        r"\b(?:what|which)\s+(?:\w+\s+){0,2}(?:punishment|penalt\w*|sentence)\b|"
        r"\bpunish\w*\b|\bimprison\w*\b|\bjail\b|\bprosecut\w*\b|\bfined\b",
        re.IGNORECASE),
}
# The statements of each kind (matched on a unit's text in canonical number form).
STATES: dict[str, re.Pattern[str]] = {
    "period": re.compile(r"\b\d+\s+(?:(?:clear|working)\s+)?(?:days?|weeks?|months?|years?)\b",
                         re.IGNORECASE),
    "amount": re.compile(r"\b\d+\s+(?:rupees|per\s+cent)\b|\brupees\s+\d", re.IGNORECASE),
    "enforcement": re.compile(r"\b(?:executable|executed\s+as|recover\w*|as\s+a\s+decree|"
                              r"arrears\s+of\s+land\s+revenue|enforce\w*)\b", re.IGNORECASE),
    "exception": re.compile(r"\bProvided\s+(?:further\s+)?that\b|\b[Nn]otwithstanding\b|"
                            r"\bmay\s+(?:\w+\s+)?(?:direct|condone|extend|allow|entertain|"
                            r"exempt|relax)\b|\bsufficient\s+cause\b", re.IGNORECASE),
    "remedy": re.compile(r"\bmay\s+(?:\w+\s+){0,2}(?:file|prefer|make|apply|approach|"
                         r"institute)\b|\bentitled\s+to\b|"
                         # what is owed: "he shall be paid ... interest", "liable ... to return"
                         r"\bshall\s+be\s+(?:paid|compensated|returned|refunded)\b|"
                         r"\bliable\b[^.;:]{0,160}?\bto\s+(?:return|refund|pay|compensate)\b",
                         re.IGNORECASE),
    "penalty": re.compile(r"\b(?:imprisonment|punishable|penalty|fine)\b", re.IGNORECASE),
}
# An authority the provision directs to or gives the power ("an appeal to the High Court",
# "dealt with by the adjudicating officer", "the State Commission shall have jurisdiction"):
# the noun with up to two words that name which one.
_AUTHORITY = (r"(?:Authority|Tribunal|Commission|Court|[Oo]fficer|Registrar|Collector|Judge|"
              r"Magistrate|Government|Committee|Board|Bench|Chairperson|Commissioner)\b")
_NAMED = r"(?P<name>(?:[\w-]+\s+){0,2}" + _AUTHORITY + r")"
_DIRECTED = {
    # "an appeal to the State Commission", "before such officer"; "with" only after a
    # filing verb ("file a complaint with the Authority", "may be filed with a District
    # Commission"): "in consultation with the Government" sends nothing there.
    "forum": re.compile(r"(?:\b(?:to|before)\s+(?:the|a|an|such)\s+|"
                        r"\b(?:fil(?:e|ed|ing)|lodged?|made|make|preferred|presented)\s+"
                        r"(?:(?:a|an|the|his|her|its|such|any)\s+)?(?:\w+\s+)?"
                        r"with\s+(?:the|a|an)\s+)" + _NAMED),
    "agent": re.compile(r"\b(?:by|be|been)\s+(?:the|a|an)\s+" + _NAMED + r"|"
                        r"\b(?:[Tt]he|[Aa]n?)\s+(?P<subject>(?:[\w-]+\s+){0,2}" + _AUTHORITY
                        # "the Registrar, in cases where the delay ..., may direct"
                        + r")(?:\s*,[^,;:.]{1,100},)?\s+(?:shall|may)\b"),
}
_WORD = re.compile(r"[a-z0-9]+")
# A definition clause: '(a) "appropriate Government" means ...'.
_DEFINITION = re.compile(r"^\W*(?:\(\w+\)\s*)*[\"“'‘][^\"”’']{1,80}[\"”'’]\s+(?:means|includes)\b")
_CONDITION = re.compile(r"^\s*(?:if|when|once|after|unless)\b", re.IGNORECASE)
# Question words that carry the form, not the subject.
_FORM_WORDS = frozenset("""
how fast soon quickly long much many deadline deadlines time limit limits within period
maximum minimum max percentage forum court body bench chosen appointed selected
punishment penalty penalties sentence enforced enforce leeway exception extension
compare versus each first next steps both days anything something
""".split())  # noqa: SIM905 - a word list reads better as text
# A context word (a party of the dispute) counts this much against a part's own words.
ACTOR_WEIGHT = 0.5
# The whole question's subject words, lent to a thin part, count this much.
SUBJECT_WEIGHT = 0.25


@dataclass(frozen=True, slots=True)
class Ask:
    """One kind of statement a part of the question asks for, with the part's words."""

    kind: str
    part: str
    words: dict[str, tuple[float, str]]  # stem -> (weight: parties weigh less, a word)
    docs: tuple[str, ...] = ()  # Acts the part names ("... under RERA"): its answer's Act
    refers: bool = False  # it points back at an earlier part's answer ("if I lose there")


# The amount as what an agent decides ("who decides how much?").
_DECIDES_HOW_MUCH = re.compile(r"\b(?:decides?|determines?|fix(?:es)?|assess(?:es)?|sets?|"
                               r"calculates?|works?\s+out)\s+how\s+much\b(?!\s+time)",
                               re.IGNORECASE)
# A part that points back at the forum or authority an earlier part asked for.
_BACK_REFERENCE = re.compile(r"\bthere\b|\b(?:that|this|the\s+same)\s+(?:forum|commission|court|"
                             r"tribunal|authority|officer|body|bench)\b", re.IGNORECASE)


# Endings taken off before the six-letter cut, and the letters each must leave.
_SUFFIXES = (("ations", 4), ("ation", 4), ("ments", 4), ("ment", 4), ("ings", 4), ("ing", 4),
             ("als", 5), ("al", 5), ("ed", 4), ("es", 4), ("s", 4))


def stem(word: str) -> str:
    """A light stem: a common ending off, then at most six letters ("refused", "refusal"
    and "refusing" are one word; so are "appeal", "appeals" and "appealing")."""
    for suffix, keep in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= keep:
            word = word[:-len(suffix)]
            break
    return word[:6]


def asks(question: str, names: Callable[[str], list[str]] | None = None) -> list[Ask]:
    """The kinds of statement each part of ``question`` asks for, in the order asked. A
    part that only sets a condition ("if I lose there") lends its words to the next; a
    part with no form of its own (the second side of a comparison) asks what the part
    before it asked. ``names`` gives the Acts a text names."""
    parts = split_parts(question)
    out: list[Ask] = []
    carry = ""
    previous: list[str] = []
    subject = _words(parts[0]) if parts else {}
    for i, part in enumerate(parts):
        asking = _asking_sentence(part) if i == 0 else part
        kinds = [k for k, form in ASK_FORMS.items() if form.search(asking)]
        if "agent" in kinds and _DECIDES_HOW_MUCH.search(asking):
            kinds.remove("amount")  # "who decides how much?" asks who, not how much
        if not kinds and _CONDITION.match(part) and i + 1 < len(parts):
            carry = f"{carry} {part}"
            continue
        if not kinds:
            kinds = previous
        text = f"{carry} {asking}".strip()
        carry = ""
        previous = kinds
        words = _words(text, focus=True)
        if sum(1 for w, _ in words.values() if w == 1.0) < 2:
            # A thin part ("within what time?") asks about the question's subject.
            words = {**{s: (SUBJECT_WEIGHT, w) for s, (_, w) in subject.items()}, **words}
        docs = tuple(names(text)) if names else ()
        refers = i > 0 and _BACK_REFERENCE.search(text) is not None
        out.extend(Ask(k, part, words, docs, refers) for k in kinds)
    return out


def _asking_sentence(part: str) -> str:
    sentences = [s for s in re.split(r"(?<=[.!])\s+", part) if s.strip()]
    return sentences[-1] if sentences else part


# What the asker rules out ("not because the seller denied signing") is not the subject.
_RULED_OUT = re.compile(r"\b(?:not\s+(?:because|due\s+to|on\s+the\s+ground)|rather\s+than|"
                        r"instead\s+of)\b[^).;?]*", re.IGNORECASE)


def _words(text: str, focus: bool = False) -> dict[str, tuple[float, str]]:
    """The stems of ``text``'s subject words (question-form words and what the asker rules
    out left out) and of the statute's words for them (``lexicon``); parties and statute
    words weigh less."""
    low = _RULED_OUT.sub(" ", text.lower())
    out: dict[str, tuple[float, str]] = {}
    for w in _WORD.findall(low):
        if w in STOPWORDS or w in _FORM_WORDS or len(w) < 3:
            continue
        out.setdefault(stem(w), (ACTOR_WEIGHT if w in ACTORS else 1.0, w))
    for term in [*expansions(low), *(focus_terms(text) if focus else [])]:
        for w in _WORD.findall(term.lower()):
            if w not in STOPWORDS and w not in _FORM_WORDS and len(w) >= 3:
                out.setdefault(stem(w), (ACTOR_WEIGHT, w))
    return out


def unit_stems(u: Unit) -> frozenset[str]:
    """The light stems of the unit's words."""
    return _stems(u.text)


@lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    return frozenset(stem(t) for t in _WORD.findall(text.lower()))


def states(kind: str, u: Unit, part: str = "") -> bool:
    """Does the unit state a thing of this kind (a period, an amount ...)? An authority
    counts when the provision directs to it or empowers it and the part (``part``) does
    not already name it ("after the Appellate Tribunal" is not answered by that Tribunal)."""
    if kind in _DIRECTED:
        if _DEFINITION.match(u.text):
            return False  # what a term means names no forum or agent that acts
        return authority(kind, u, part) is not None
    text = _canonical(u.text)
    if kind == "period" and (unit := _PERIOD_UNIT.search(part)):
        # "how many years?" is answered by a period in years, not by one in days.
        return re.search(rf"\b\d+\s+(?:(?:clear|working)\s+)?{unit.group(1)}s?\b", text,
                         re.IGNORECASE) is not None
    return STATES[kind].search(text) is not None


# The unit a period question names ("how many years", "in how many days").
_PERIOD_UNIT = re.compile(r"\bhow\s+many\s+(day|week|month|year)s?\b", re.IGNORECASE)


def authority(kind: str, u: Unit, part: str = "") -> str | None:
    """The forum the unit directs to, or the agent it empowers (``kind``), that ``part``
    does not already name, lower-cased ("state commission"); None if none."""
    low = " ".join(part.lower().split())
    for m in _DIRECTED[kind].finditer(u.text):
        name = " ".join((m.group("name") or m.group("subject")).lower().split())
        if name not in low:
            return name
    return None


_canonical = lru_cache(maxsize=4096)(canonical)  # a unit is checked for several kinds


def relevance(ask: Ask, u: Unit, idf: dict[str, float],
              held: frozenset[str] | None = None) -> float:
    """Share of the part's words the unit holds, each weighed by its idf (``idf``: by the
    lower-cased word; a word the question search did not weigh counts 1). With ``held``
    (the stems some candidate holds), a word no candidate holds is left out of the share."""
    weights = {s: w * idf.get(word, 1.0) for s, (w, word) in ask.words.items()
               if held is None or s in held}
    total = sum(weights.values()) or 1.0
    tokens = unit_stems(u)
    return sum(w for s, w in weights.items() if s in tokens) / total


MARGIN = 0.0
# A unit whose rupee threshold holds the amount the question states ("my flat cost ₹1.5
# crore" and "exceeds rupees one crore, but does not exceed rupees ten crore") counts this
# much more; one whose threshold leaves it out does not answer.
RANGE_WEIGHT = 0.5


def fits_amount(u: Unit, amounts: list[Decimal]) -> bool | None:
    """Does the unit's rupee threshold hold one of the question's ``amounts``? None when the
    question states no amount or the unit sets no threshold."""
    if not amounts:
        return None
    found = _range(u.text)
    if found is None:
        return None
    return any(found.holds(a) for a in amounts)


_range = lru_cache(maxsize=4096)(rupee_range)


@dataclass(slots=True)
class PartAnswers:
    """The units added for unanswered parts, and which shown units answer a part."""

    added: list[Unit]
    answering: set[tuple[str, int]]  # (provision id, start) of every answering unit
    asks: int  # how many (part, kind) asks the question has
    unanswered: int = 0  # asks that no retrieved unit answers


def answering_units(question: str, chosen: list[Unit], candidates: Callable[[], list[Unit]],
                    docs: set[str], idf: dict[str, float], floor: float,
                    names: Callable[[str], list[str]] | None = None,
                    reach: int = 1 << 30) -> PartAnswers:
    """For each part's ask, the unit (from ``docs``, or the Acts the part names) that states
    its kind and holds most of the part's words (at least ``floor`` of them; ties go to the
    better-ranked hit), unless a chosen quote states it with nearly as many (``MARGIN``).
    A unit ranked at or past ``reach`` answers only an ask no unit of its Act ranked
    before it answers on its own merit. The shares count only the words some candidate
    holds. In the order asked."""
    found = asks(question, names)
    if len(found) < 2 and len(split_parts(question)) < 2:
        return PartAnswers([], set(), 0)  # one thing asked: its own words chose its quotes
    units = candidates()  # built only for a question that asks several things
    # The asker's own words for what no candidate says ("disobeys", "leeway") cannot tell
    # which candidate answers; they would only make every candidate's share small.
    held = frozenset().union(*(unit_stems(u) for u in [*chosen, *units]))
    shown = list(chosen)
    out: list[Unit] = []
    answering: set[tuple[str, int]] = set()
    unanswered = 0
    chosen_for: list[tuple[Ask, Unit]] = []  # each answering unit with its ask
    amounts = rupee_amounts(question)
    named = ""  # the forum or authority an earlier part's answer names
    for ask in found:
        allowed = set(ask.docs) or docs
        # "If I lose there, where do I appeal?": the forum of the earlier answer is where
        # the matter already is, not where this part's answer sends it.
        if ask.refers and named:
            ask = replace(ask, part=f"{ask.part} ({named})")
        part = ask.part
        scored: dict[tuple[str, int], tuple[float, Unit]] = {}
        for u in [*shown, *units]:
            key = (u.provision.id, u.start)
            if key in scored or u.provision.doc_id not in allowed or \
                    not states(ask.kind, u, part):
                continue
            if ask.refers and named and _sends_to(u, named):
                continue  # it brings a matter to where this one already is
            fits = fits_amount(u, amounts)
            if fits is False:
                continue  # its threshold leaves the question's amount out
            rel = relevance(ask, u, idf, held) + (RANGE_WEIGHT if fits else 0.0)
            if rel >= floor:
                scored[key] = (rel, u)
        if not scored:
            unanswered += 1
            continue
        # A provision ranked at or past ``reach`` answers only an ask that no better-ranked
        # provision of its Act answers on its own merit (KEEP_RELATIVE of the best share):
        # the retrieval ranks one Act's provisions among themselves; a second Act's may all
        # come later.
        top = max(rel for rel, _ in scored.values())
        near_docs = {u.provision.doc_id for rel, u in scored.values()
                     if u.rank < reach and rel >= KEEP_RELATIVE * top}
        scored = {k: v for k, v in scored.items()
                  if v[1].rank < reach or v[1].provision.doc_id not in near_docs}
        best_rel = max(rel for rel, _ in scored.values())
        shown_keys = {(u.provision.id, u.start) for u in shown}
        near = {key for key, (rel, _) in scored.items()
                if key in shown_keys and rel >= best_rel - MARGIN}
        if near:
            answering |= near
            chosen_for += [(ask, scored[key][1]) for key in near]
            best = max((scored[key] for key in near), key=lambda x: (x[0], -x[1].rank))[1]
            named = _named_by(ask, best, part) or named
            continue
        rel, unit = max(scored.values(), key=lambda x: (x[0], -x[1].rank))
        named = _named_by(ask, unit, part) or named
        out.append(unit)
        shown.append(unit)
        answering.add((unit.provision.id, unit.start))
        chosen_for.append((ask, unit))
    kept = _one_per_part(chosen_for, out, idf, floor, held)
    answering -= {_key(u) for u in out} - {_key(u) for u in kept}
    out = kept
    return PartAnswers(out, answering, len(found), unanswered)


def _sends_to(u: Unit, name: str) -> bool:
    """Does the unit direct a matter to the authority ``name`` ("to the State Commission")?"""
    return any(" ".join(m.group("name").lower().split()) == name
               for m in _DIRECTED["forum"].finditer(u.text))


def _named_by(ask: Ask, u: Unit, part: str) -> str | None:
    return authority(ask.kind, u, part) if ask.kind in _DIRECTED else None


def _one_per_part(answered: list[tuple[Ask, Unit]], added: list[Unit],
                  idf: dict[str, float], floor: float,
                  held: frozenset[str] | None = None) -> list[Unit]:
    """``added`` without a unit added for one ask of a part when another unit answering
    that part states everything the part asks ("which forum and what deadline?" answered
    by the one provision that names the forum and its period, not by it and a look-alike
    that only states a period); a unit that also answers another part stays.
    ``answered``: each ask with a unit that answers it."""
    by_part: dict[str, list[tuple[Ask, Unit]]] = {}
    for ask, u in answered:
        by_part.setdefault(ask.part, []).append((ask, u))
    drop: set[tuple[str, int]] = set()
    for part, pairs in by_part.items():
        asked = list({a.kind: a for a, _ in pairs}.values())
        if len(asked) < 2:
            continue
        whole = next((u for _, u in pairs if all(
            states(a.kind, u, a.part) and relevance(a, u, idf, held) >= floor
            for a in asked)), None)
        if whole is None:
            continue
        elsewhere = {_key(u) for a, u in answered if a.part != part}
        drop |= {_key(v) for _, v in pairs} - elsewhere - {_key(whole)}
    return [u for u in added if _key(u) not in drop]


def _key(u: Unit) -> tuple[str, int]:
    return (u.provision.id, u.start)
