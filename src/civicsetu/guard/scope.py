"""Out-of-scope questions: drafting requests, personal legal advice, other topics.

They get a fixed refusal (``answer/messages.py``) instead of an answer. The checks are
deliberately narrow: "what must a notice under section 7 contain?" is in scope; "draft
a notice for me" is not. "off-topic" (no word of ``LEGAL_WORDS``) is only a first
reading: plain words about a dispute ("he took my car on a trip and damaged it") use
none of them, so the agent refuses such a question only when the retrieval finds no
support for it either (``answer.evidence.lay_question_supported``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from civicsetu.answer.messages import (
    OUT_OF_SCOPE_ADVICE,
    OUT_OF_SCOPE_DRAFTING,
    OUT_OF_SCOPE_TOPIC,
    UNSUPPORTED_LANGUAGE,
)
from civicsetu.guard.encoding import mostly_unsupported_script

_I = re.IGNORECASE
DRAFTING = re.compile(
    r"\b(?:draft|write|prepare|compose|generate)\b\s+(?:me\s+)?(?:a|an|my|the|our)?\s*"
    r"(?:(?:better|new|stronger|simple|short|standard|model|sample|fair|mutual)\s+){0,2}"
    r"(?:legal\s+)?(?:notice|petition|plaint|complaint|agreement|contract|letter|affidavit|"
    r"will|deed|reply|application|appeal|memo|lease|nda)\b", _I)
ADVICE = re.compile(
    r"\bshould\s+i\s+(?:sue|file|settle|sign|accept|appeal|go\s+to\s+court)\b|\bwill\s+i\s+"
    r"win\b|\bwhat\s+are\s+my\s+chances\b|\bbe\s+my\s+lawyer\b|\brepresent\s+me\b|\bwhich\s+"
    r"lawyer\b|\blegal\s+strateg(?:y|ies)\b|\bwhat\s+(?:strategy|tactics?)\s+should\b|"
    r"\bhow\s+much\s+(?:compensation\s+)?will\s+i\s+get\b|\bpredict\b", _I)
LEGAL_WORDS = re.compile(
    r"\b(?:act|section|rule|law|legal|court|tribunal|authority|rera|builder|promoter|flat|"
    r"apartment|property|registration|penalty|appeal|complaint|contract|agreement|consumer|"
    r"rights?|duty|obligation|liab\w*|allottee|tenant|landlord|stamp|deed|sale|refund|"
    r"compensation|land|acquisition|insolvency|limitation|information|rti|notice|clause|"
    r"interest|possession|title|mortgage|lease|government|commission|officer|offence|"
    r"regulat\w*|project|housing|real\s+estate|advertis\w*|developer|broker|agent|"
    r"homebuyers?|buyers?|sellers?|court|judge|fine|jail|fee|tax|duty)\b", _I)


@dataclass(frozen=True, slots=True)
class ScopeCheck:
    in_scope: bool
    reason: str = ""
    message: str = ""


def check_scope(query: str) -> ScopeCheck:
    if mostly_unsupported_script(query):
        return ScopeCheck(False, "language", UNSUPPORTED_LANGUAGE)
    if DRAFTING.search(query):
        return ScopeCheck(False, "drafting", OUT_OF_SCOPE_DRAFTING)
    if ADVICE.search(query):
        return ScopeCheck(False, "personal-advice", OUT_OF_SCOPE_ADVICE)
    if not LEGAL_WORDS.search(query):
        return ScopeCheck(False, "off-topic", OUT_OF_SCOPE_TOPIC)
    return ScopeCheck(True)
