"""Check an LLM's answer before it is shown.

Always (the citation-index layer): every ``[n]`` names a source in the context, at least
one source is cited, every double-quoted passage stands verbatim (white space aside) in
a source the same sentence cites, every number, amount, period or date in a sentence
appears in the sources that sentence cites, a section a sentence names is one its
sources are or mention (no "Section 2(42) ... [1]" over a source that is s.2(37)), and a
sentence that cites nothing does not state the law: no number, quote or section, and
fewer than ``RESTATES_LAW`` of the sources' content words. A failing answer is retried
when ``Settings.llm_retries`` allows, then its passing sentences are kept
(``agent.pipeline.verified_sentences``, applied to a passing answer too) or the
extractive answer replaces it; an unverified sentence is never shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from civicsetu.answer.numbers import values as number_values
from civicsetu.answer.verify import fold
from civicsetu.search.query import STOPWORDS
from civicsetu.types import Citation

RESTATES_LAW = 6  # an uncited sentence sharing this many content words with the sources
_MARK = re.compile(r"\[(\d{1,2})\]")
_QUOTE = re.compile(r"[\"“]([^\"”]{12,})[\"”]")
_NUMBER = re.compile(r"(?<![\w.])(?:₹\s?|Rs\.?\s?)?\d[\d,]*(?:\.\d+)?(?:\s*(?:lakhs?|crores?)\b)?"
                     r"(?!\w)", re.IGNORECASE)
_NUMBER_WORDS = re.compile(
    r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    r"thirty|forty|forty-five|fifty|sixty|ninety|hundred|thousand|lakh|crore)\b"
    r"(?:[ -](?:one|two|three|four|five|six|seven|eight|nine|ten|hundred|thousand|lakh|"
    r"crore|per\s+cent|days?|months?|years?))*", re.IGNORECASE)
# Provision references are names, not quantities: "section 18(1)" need not be quoted.
_REFERENCE = re.compile(
    r"\b(?:sub-)?(?:sections?|rules?|regulations?|articles?|clauses?|chapter|s\.|r\.|art\.)"
    r"\s*\(?\d+[A-Z]?\)?(?:\s*\(\w{1,5}\))*|\b(?:Act|Code|Rules|Regulations),?\s+\d{4}\b",
    re.IGNORECASE)
_SECTION_NAME = re.compile(r"\b(?:sections?|sec\.?|s\.)\s*(\d{1,4}[A-Z]{0,2})\b", re.IGNORECASE)
_ABBREVIATION = re.compile(r"(?:^|[\s(])(?:Rs|Re|No|Nos|s|ss|Sec|cl|r|art|viz|i\.e|e\.g|"
                           r"etc|[A-Z])\.$")
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)(?:\s*(?:\[\d{1,2}\])+)?")


@dataclass(slots=True)
class Validation:
    ok: bool
    cited: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def validate_answer(text: str, sources: Sequence[Citation]) -> Validation:
    problems: list[str] = []
    marks = [int(n) for n in _MARK.findall(text)]
    if not marks:
        problems.append("no source is cited")
    if len(re.findall(r"[A-Za-z]{2,}", _MARK.sub(" ", text))) < 3:
        problems.append("the answer has no sentence")
    bad = sorted({n for n in marks if not 1 <= n <= len(sources)})
    if bad:
        problems.append(f"cites sources that do not exist: {bad}")
    source_words = content_words(" ".join(c.quote for c in sources))
    for sentence in sentences_of(text):
        cited = [int(n) for n in _MARK.findall(sentence) if 1 <= int(n) <= len(sources)]
        if not cited:
            # A sentence may frame the answer uncited, but a number or a quote it states
            # would then be checked against nothing.
            bare = _REFERENCE.sub(" ", _MARK.sub("", sentence))
            restates = bool(_named_sections(sentence)) or \
                len(content_words(sentence) & source_words) >= RESTATES_LAW
            if _numbers(bare) or _QUOTE.search(bare) or restates:
                problems.append("a sentence states the law (a number, a quote, a section or "
                                "the sources' words) without citing a source: "
                                f"{' '.join(sentence.split())[:60]!r}")
            continue
        wrong = _named_sections(sentence) - _held_sections([sources[n - 1] for n in cited])
        if wrong:
            problems.append(f"names section {', '.join(sorted(wrong))}, which the sources "
                            f"[{', '.join(map(str, cited))}] do not hold or mention")
        evidence = fold(" ".join(sources[n - 1].quote for n in cited)).lower()
        for quote in _QUOTE.findall(sentence):
            if fold(quote).lower() not in evidence:
                problems.append(f"quote not verbatim in [{', '.join(map(str, cited))}]: "
                                f"{quote[:60]!r}")
        claim = _REFERENCE.sub(" ", _MARK.sub("", sentence))
        # Numbers compare by value, however written: "60 days" is "sixty days", and
        # "Rs. 10,00,000" is "ten lakh rupees" (answer/numbers.py).
        stated = number_values(_REFERENCE.sub(" ", evidence))
        for number in _numbers(claim):
            wanted = number_values(number)
            found = wanted <= stated if wanted else number.lower() in evidence
            if not found:
                problems.append(f"'{number}' is not in the cited text")
    return Validation(not problems, sorted(set(n for n in marks if 1 <= n <= len(sources))),
                      problems)


def sentences_of(text: str) -> list[str]:
    """The sentences of an answer, each with the ``[n]`` marks that close it; a full stop
    after an abbreviation ("Rs.", "s.", "No.") does not end a sentence."""
    out: list[str] = []
    for m in _SENTENCE.finditer(text):
        part = m.group(0)
        if not part.strip():
            continue
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] += part
        else:
            out.append(part)
    return out



def content_words(text: str) -> set[str]:
    """The words of four letters or more that are not stop words, lower-cased."""
    return {w for w in re.findall(r"[a-z]{4,}", fold(text).lower()) if w not in STOPWORDS}


def carries_claim(sentence: str, cited: Sequence[Citation]) -> bool:
    """The sentence says something its sources say: two or more of their content words
    ("The sources are [1] and [2]." says nothing)."""
    return len(content_words(_MARK.sub(" ", sentence))
               & content_words(" ".join(c.quote for c in cited))) >= 2


def _named_sections(text: str) -> set[str]:
    """Section numbers a sentence names: "Section 2(42)" and "s. 59" -> {"2", "59"}."""
    return {m.group(1).upper() for m in _SECTION_NAME.finditer(_MARK.sub(" ", text))}


def _held_sections(cited: Sequence[Citation]) -> set[str]:
    """Sections the cited sources are (by their labels) or mention in their text."""
    held: set[str] = set()
    for c in cited:
        held |= _named_sections(c.label) | _named_sections(c.quote)
        section = c.provision_id.partition("#")[2]
        m = re.match(r"s\.(\d+[A-Z]{0,2})", section)
        if m:
            held.add(m.group(1).upper())
    return held


def _numbers(text: str) -> list[str]:
    found = [m.group(0).strip() for m in _NUMBER.finditer(text)]
    found += [" ".join(m.group(0).split()) for m in _NUMBER_WORDS.finditer(text)]
    return [n for n in found if n]


