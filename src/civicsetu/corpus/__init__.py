"""The bundled default corpus: 11 central Acts shipped as package data."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path


@dataclass(frozen=True, slots=True)
class BundledAct:
    id: str
    path: Path
    aliases: tuple[str, ...]


def bundled_acts() -> list[BundledAct]:
    root = resources.files(__name__)
    manifest = tomllib.loads((root / "bundled.toml").read_text(encoding="utf-8"))
    acts = []
    for spec in manifest["document"]:
        path = Path(str(root / "acts" / f"{spec['id']}.md"))
        acts.append(BundledAct(spec["id"], path, tuple(spec.get("aliases", ()))))
    return acts
