"""Background ingest jobs. A job ingests one uploaded file or one registry entry (through
``Engine.ingest_entries``, as ``civicsetu ingest --registry`` does) with its own ``Engine`` (SQLite
WAL lets it write while requests read), records progress in ``service.db`` so any worker
can answer ``GET /api/v1/jobs/{id}``, and bumps the corpus generation when it is done.
"""

from __future__ import annotations

import logging
import shutil
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from civicsetu.api.state import ServiceState
from civicsetu.engine import Engine
from civicsetu.errors import CivicSetuError
from civicsetu.ingest.pipeline import SourceSpec
from civicsetu.ingest.registry import RegistryEntry

log = logging.getLogger("civicsetu.api.jobs")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class JobRunner:
    """One ingest at a time (ingestion is CPU-bound and writes the one index)."""

    def __init__(self, state: ServiceState) -> None:
        self.state = state
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="civicsetu-job")

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def submit(self, spec: SourceSpec | RegistryEntry, filename: str,
               folder: Path | None) -> dict[str, Any]:
        """Queue an ingest of ``spec``; ``folder`` (an upload's) is removed if it fails."""
        job_id = uuid.uuid4().hex
        job: dict[str, Any] = {
            "id": job_id, "kind": "ingest", "status": "queued", "stage": "queued", "done": 0,
            "total": 0, "filename": filename, "created_at": _now(), "finished_at": None,
            "result": None, "error": None}
        self.state.db.save_job(job_id, job)
        self._pool.submit(self._run, job, spec, folder)
        return job

    def _run(self, job: dict[str, Any], spec: SourceSpec | RegistryEntry,
             folder: Path | None) -> None:
        db = self.state.db
        job.update(status="running", stage="parse")
        db.save_job(job["id"], job)

        def progress(_doc: str, done: int, total: int) -> None:
            job.update(stage="embed", done=done, total=total)
            db.save_job(job["id"], job)

        metrics = getattr(self.state, "metrics", None)
        try:
            with Engine(self.state.settings) as engine:
                if isinstance(spec, RegistryEntry):
                    reports = engine.ingest_entries([spec], on_progress=progress)
                else:
                    reports = engine.ingest([spec], on_progress=progress)
            report = reports[0]
            job["result"] = {"doc_id": report.doc_id, "status": report.status,
                             "provisions": report.provisions, "chunks": report.chunks,
                             "message": report.message}
            job["status"] = "failed" if report.status == "failed" else "done"
            if report.status == "failed":
                job["error"] = report.message
        except CivicSetuError as exc:
            job.update(status="failed", error=str(exc))
        except Exception:
            log.exception("ingest job %s failed", job["id"])
            job.update(status="failed", error="the ingest failed unexpectedly; see the "
                       "server log for this job id")
        finally:
            if job["status"] != "done" and folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            job.update(stage="finished", finished_at=_now())
            db.save_job(job["id"], job)
            if job["status"] == "done":
                self.state.corpus_changed()
            if metrics is not None:
                metrics.jobs.labels(job["status"]).inc()
