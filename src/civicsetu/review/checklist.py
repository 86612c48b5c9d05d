"""The review checklist: items loaded from the versioned YAML shipped with the package,
optionally extended or overridden by a user's YAML file of the same shape."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import Any

from civicsetu.errors import InputError


class Label(StrEnum):
    ENTAILED = "entailed"
    CONTRADICTED = "contradicted"
    NOT_MENTIONED = "not_mentioned"


class Risk(StrEnum):
    HIGH = "HIGH"
    MEDIUM = "MEDIUM"
    LOW = "LOW"


@dataclass(frozen=True, slots=True)
class RiskRule:
    level: Risk
    rationale: str


@dataclass(frozen=True)
class Item:
    id: str
    title: str
    group: str
    hypothesis: str
    query: str
    cues: tuple[re.Pattern[str], ...]
    contra_cues: tuple[re.Pattern[str], ...]
    contra_first: bool
    risk: dict[Label, RiskRule]
    extract: str | None = None

    @property
    def search_text(self) -> str:
        """The words evidence is ranked against: the statement plus the item's query."""
        return f"{self.hypothesis} {self.query}".strip()


@dataclass(frozen=True)
class Checklist:
    name: str
    version: int
    items: tuple[Item, ...]

    def get(self, item_id: str) -> Item:
        """The item with this id."""
        for item in self.items:
            if item.id == item_id:
                return item
        raise InputError(f"no checklist item {item_id!r}; known: "
                         + ", ".join(i.id for i in self.items))

    def only(self, group: str | None) -> tuple[Item, ...]:
        """Items of one group (``nda``, ``commercial``), or all for ``None``."""
        return self.items if group is None else tuple(i for i in self.items
                                                      if i.group == group)


def load_checklist(extra: Path | None = None) -> Checklist:
    """The shipped checklist, extended by ``extra`` (new ids added, same ids replaced)."""
    text = resources.files(__package__).joinpath("checklist.yaml").read_text(encoding="utf-8")
    base = _parse(text, "the shipped checklist")
    if extra is None:
        return base
    try:
        user_text = extra.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read checklist {extra}: {exc}; check the path") from exc
    user = _parse(user_text, str(extra))
    merged = {i.id: i for i in base.items}
    merged.update({i.id: i for i in user.items})
    return Checklist(f"{base.name}+{user.name}", max(base.version, user.version),
                     tuple(merged.values()))


def _parse(text: str, where: str) -> Checklist:
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InputError(f"{where} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise InputError(f"{where} needs a top-level 'items' list (see docs/CONTRACTS.md)")
    items = tuple(_item(raw, where) for raw in data["items"])
    return Checklist(str(data.get("name", where)), int(data.get("version", 1)), items)


def _item(raw: Any, where: str) -> Item:
    if not isinstance(raw, dict) or "id" not in raw or "hypothesis" not in raw:
        raise InputError(f"{where}: every item needs at least 'id' and 'hypothesis'")
    item_id = str(raw["id"])
    risk: dict[Label, RiskRule] = {}
    for label in Label:
        rule = (raw.get("risk") or {}).get(label.value, ["MEDIUM", "No rule given."])
        try:
            risk[label] = RiskRule(Risk(str(rule[0]).upper()), str(rule[1]))
        except (ValueError, IndexError, TypeError) as exc:
            raise InputError(f"{where}: item {item_id} risk.{label.value} must be "
                             "[HIGH|MEDIUM|LOW, rationale]") from exc
    return Item(
        id=item_id, title=str(raw.get("title", item_id)), group=str(raw.get("group", "user")),
        hypothesis=str(raw["hypothesis"]), query=str(raw.get("query", "")),
        cues=_patterns(raw.get("cues"), item_id, where),
        contra_cues=_patterns(raw.get("contra_cues"), item_id, where),
        contra_first=bool(raw.get("contra_first", False)), risk=risk,
        extract=str(raw["extract"]) if raw.get("extract") else None)


def _patterns(raw: Any, item_id: str, where: str) -> tuple[re.Pattern[str], ...]:
    out = []
    for p in raw or ():
        try:
            out.append(re.compile(str(p), re.IGNORECASE | re.DOTALL))
        except re.error as exc:
            raise InputError(f"{where}: item {item_id} has a bad cue pattern {p!r}: {exc}") \
                from exc
    return tuple(out)
