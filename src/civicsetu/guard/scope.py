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
# Words that make a sentence a request to the system rather than a question about the law:
# an imperative at the start of a clause ("Draft ...", "please prepare ..."), "can you /
# could you / would you ...", "help me ...", "I need you to ...". "Who has to prepare the
# agreement for sale?" and "Can the Central Government predict ...?" ask about the law.
_ASKED = (
    r"(?:(?:^|[.!?;:,\n])\s*(?:(?:hi|hello|hey|ok|okay|now|then|also|and|so)\s*,?\s+)*"
    r"(?:(?:please|pls|plz|kindly)\s+)?"
    r"|\b(?:please|pls|plz|kindly)\s+"
    r"|\b(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+|kindly\s+)?"
    r"|\bhelp\s+(?:me|us)\s+(?:to\s+)?"
    r"|\b(?:need|want|like)\s+you\s+to\s+"
    r")(?:(?:also|just|quickly)\s+)?"
)
_DRAFT_VERB = r"(?:draft|write|prepare|compose|generate)"
_DOCUMENT = (
    r"(?:a|an|my|the|our|this|that)?\s*(?:[\w'-]+\s+){0,3}"
    r"(?:legal\s+)?(?:notice|petition|plaint|complaint|agreement|contract|letter|affidavit|"
    r"will|deed|reply|application|appeal|memo|lease|nda)\b"
)
DRAFTING = re.compile(
    # asked of the system: "Draft a notice", "can you prepare an agreement", "help me write"
    rf"{_ASKED}\b{_DRAFT_VERB}\b\s+(?:(?:me|us)\s+)?{_DOCUMENT}"
    # "write me an agreement" anywhere: the document is for the user
    rf"|\b{_DRAFT_VERB}\s+(?:me|us)\s+{_DOCUMENT}"
    # "prepare a notice to my builder for me"
    rf"|\b{_DRAFT_VERB}\s+{_DOCUMENT}[^.?!]{{0,60}}\bfor\s+(?:me|us)\b"
    # "help me with drafting a notice"
    rf"|\b(?:help|assist)(?:\s+(?:me|us))?\s+(?:with|in)\s+(?:drafting|writing|preparing|"
    rf"composing)\s+{_DOCUMENT}", _I)
ADVICE = re.compile(
    r"\bshould\s+i\s+(?:sue|file|settle|sign|accept|appeal|go\s+to\s+court)\b|\bwill\s+i\s+"
    r"win\b|\bwhat\s+are\s+my\s+chances\b|\bbe\s+my\s+lawyer\b|\brepresent\s+me\b|\bwhich\s+"
    r"lawyer\b|\blegal\s+strateg(?:y|ies)\b|\bwhat\s+(?:strategy|tactics?)\s+should\b|"
    r"\bhow\s+much\s+(?:compensation\s+)?will\s+i\s+get\b"
    # a prediction asked of the system, or of the user's own case
    rf"|{_ASKED}\bpredict\b|\bpredict\b[^.?!]{{0,40}}\b(?:my|our)\b", _I)
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
