"""Prompt-injection screen for questions and for retrieved text.

Questions and retrieved provisions are data, never instructions. A question that tries
to instruct the system is refused; a retrieved passage that carries instructions is
kept out of an LLM's context (it can still be quoted by the extractive answerer, whose
output is the verified text itself).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_I = re.IGNORECASE
PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("override", re.compile(
        r"\b(?:ignore|disregard|forget|overrides?|overriding|bypass|skip)\b[^.\n]{0,40}"
        r"\b(?:previous|prior|"
        r"above|earlier|all|any|your|the|these|system)\b[^.\n]{0,30}\b(?:instructions?|"
        r"rules?|prompts?|directions?|guidelines?|context|constraints?)\b", _I)),
    ("new-role", re.compile(
        r"\byou\s+are\s+(?:now|no\s+longer)\b|\bfrom\s+now\s+on\b[^.\n]{0,40}\b(?:you|act|"
        r"respond|answer)\b|\bact\s+as\s+my\b|(?:^|[.!?;:]\s*|\b(?:please|now|you\s+"
        r"(?:will|must|should))\s+)act\s+as\s+(?:a|an)\b|\bpretend\s+(?:to\s+be|you)\b|"
        r"\broleplay\b|\bjailbreak\b|\bDAN\b|\bdeveloper\s+mode\b", _I)),
    ("prompt-leak", re.compile(
        r"\b(?:reveal|show|print|repeat|output|tell\s+me|display|leak|what\s+(?:is|are))\b"
        r"[^.\n]{0,40}\b(?:system\s+prompt|your\s+(?:instructions|prompt|rules)|hidden\s+"
        r"(?:prompt|instructions)|initial\s+prompt)\b", _I)),
    ("addressed-to-ai", re.compile(
        r"\bnote\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|llm|chatbot|bot)\b|"
        r"\b(?:ignore|disregard)\s+(?:the\s+)?(?:act|law|text|document|question)\s+above\b|"
        r"<!--\s*(?:system|assistant|instructions?|prompt)\b", _I)),
    ("markup", re.compile(
        r"<\|(?:im_start|im_end|system|endoftext)\|>|\[/?INST\]|<</?SYS>>|^\s*#{2,}\s*"
        r"(?:system|instruction)s?\b|\bBEGIN\s+(?:SYSTEM|ADMIN)\b|^\s*(?:system|assistant)\s*:",
        _I | re.MULTILINE)),
    ("output-control", re.compile(
        r"\b(?:always|only)\s+(?:answer|reply|respond|say|output|cite)\b[^.\n]{0,60}|"
        r"\b(?:respond|reply|answer)\s+(?:only\s+)?with\b[^.\n]{0,40}\b(?:yes|no|ok|"
        r"the\s+word|exactly)\b|\bdo\s+not\s+(?:cite|quote|verify)\b|\bcite\s+section\s+\d+"
        r"\s+(?:no\s+matter|regardless)\b", _I)),
    ("exfiltrate", re.compile(
        r"\b(?:send|post|upload|email)\b[^.\n]{0,40}\b(?:https?://|www\.|api\s*key|"
        r"password|token)\b|\bcurl\s+https?://", _I)),
]


@dataclass(frozen=True, slots=True)
class Screen:
    flagged: bool
    reasons: tuple[str, ...]


def normalise(text: str) -> str:
    """Fold look-alike characters and zero-width tricks before matching."""
    text = unicodedata.normalize("NFKC", text)
    return re.sub(r"[\u200b-\u200f\u2060\ufeff]", "", text)


def screen(text: str) -> Screen:
    folded = normalise(text)
    reasons = tuple(name for name, pattern in PATTERNS if pattern.search(folded))
    return Screen(bool(reasons), reasons)
