"""The committed UI build: every asset index.html loads is in the package, none from a URL.

The browser tests prove the running UI makes no outside request; this quick check catches a
stale or partial `npm run build` without a browser.
"""

from __future__ import annotations

import re
from pathlib import Path

import civicsetu

STATIC = Path(civicsetu.__file__).resolve().parent / "web" / "static"


def test_index_loads_only_packaged_assets() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    refs = re.findall(r'(?:src|href)="([^"#]+)"', html)
    assets = [r for r in refs if not r.startswith("data:")]
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for ref in assets:
        assert not re.match(r"^[a-z]+:|^//", ref), f"index.html loads {ref} from outside"
        assert (STATIC / ref).is_file(), \
            f"{ref} is missing: run `cd web && npm ci && npm run build`"


def test_every_built_script_is_referenced_or_imported() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    scripts = sorted(p.name for p in (STATIC / "assets").glob("*.js"))
    texts = {s: (STATIC / "assets" / s).read_text(encoding="utf-8") for s in scripts}
    for name in scripts:
        others = html + "".join(t for s, t in texts.items() if s != name)
        assert name in others, f"stale build output {name}: rebuild the UI"
