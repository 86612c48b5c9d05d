"""schemathesis over the live OpenAPI schema: generated requests for every operation, no
5xx, every response matching its declared status, media type and schema. Bounded: a few
dozen examples per operation, on the small Act, so the run takes about a minute."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance

from civicsetu.config import ApiSettings, Settings
from civicsetu.engine import Engine
from civicsetu.ingest.pipeline import SourceSpec
from tests.api.conftest import Live, serve
from tests.conftest import SMALL_ACT


@pytest.fixture(scope="module")
def schema_live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    root = tmp_path_factory.mktemp("schema")
    src = root / "model-tenancy-act-2099.md"
    src.write_text(SMALL_ACT, encoding="utf-8")
    with Engine(Settings(home=root / "home")) as engine:
        engine.ingest([SourceSpec(src)])
    api = ApiSettings(rate_limit_per_minute=10**6, rate_limit_burst=10**6, max_upload_mb=1)
    with serve(Settings(home=root / "home", api=api)) as live:
        yield live


def test_the_api_keeps_its_schema(schema_live: Live) -> None:
    """Every operation, generated examples (schemathesis strategies driven by Hypothesis
    directly; its pytest plugin does not load under this pytest)."""
    api = schemathesis.openapi.from_url(f"{schema_live.url}/openapi.json")
    auth = {"Authorization": f"Bearer {schema_live.key}"}
    seen = []
    for result in api.get_all_operations():
        operation = result.ok()
        seen.append(f"{operation.method.upper()} {operation.path}")

        @given(case=operation.as_strategy())
        @settings(max_examples=25, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case: Any) -> None:
            # A schema-valid request may still be refused on its meaning (a filter that
            # matches no document is a 400); every other check stays on.
            case.call_and_validate(headers=auth, excluded_checks=[positive_data_acceptance])

        run()
    assert "POST /api/v1/query" in seen and "GET /api/v1/graph/topology" in seen


def test_every_operation_documents_its_success_response(schema_live: Live,
                                                        tmp_path: Path) -> None:
    import httpx

    spec = httpx.get(f"{schema_live.url}/openapi.json").json()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            ok = [c for c in op["responses"] if c.startswith("2")]
            assert ok, (method, path)
            content = op["responses"][ok[0]].get("content", {})
            if ok[0] != "204":
                assert content, (method, path)
                schema_of = next(iter(content.values())).get("schema", {})
                assert schema_of, (method, path)
