"""Fetch registry sources over HTTP into a content-addressed cache.

Files are stored as ``<cache>/<sha256><suffix>`` with a small index from URL to hash, ETag
and Last-Modified, so a second run sends a conditional request and an unchanged source
is never downloaded twice. Offline, a cached copy is used (with a warning); a download
that fails half-way leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import httpx

from civicsetu.errors import SourceError

USER_AGENT = "CivicSetu (+https://github.com/civicsetu) document fetcher"
TIMEOUT_S = 60.0


@dataclass(frozen=True, slots=True)
class Fetched:
    path: Path
    sha256: str
    status: str  # downloaded | not-modified | cached-offline
    suffix: str


class Downloader:
    def __init__(self, cache_dir: Path, client: httpx.Client | None = None) -> None:
        self.cache_dir = cache_dir
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        self._index_path = cache_dir / "index.json"
        self._client = client or httpx.Client(timeout=TIMEOUT_S, follow_redirects=True,
                                              headers={"User-Agent": USER_AGENT})

    def close(self) -> None:
        self._client.close()

    def fetch(self, url: str, expected_sha256: str | None = None) -> Fetched:
        index = self._index()
        known = index.get(url)
        headers = {}
        if known and self._file(known).exists():
            if known.get("etag"):
                headers["If-None-Match"] = known["etag"]
            if known.get("last_modified"):
                headers["If-Modified-Since"] = known["last_modified"]
        try:
            with self._client.stream("GET", url, headers=headers) as response:
                if response.status_code == 304 and known:
                    return self._cached(known, "not-modified", expected_sha256, url)
                if response.status_code >= 400:
                    raise SourceError(f"{url}: the server answered HTTP "
                                      f"{response.status_code}; check the registry URL")
                suffix = _suffix(url, response.headers.get("content-type", ""))
                sha, path = self._store(response, suffix)
                entry = {"sha256": sha, "etag": response.headers.get("etag", ""),
                         "last_modified": response.headers.get("last-modified", ""),
                         "suffix": suffix}
        except httpx.TransportError as exc:
            if known and self._file(known).exists():
                return self._cached(known, "cached-offline", expected_sha256, url)
            raise SourceError(f"{url}: cannot download ({exc.__class__.__name__}: {exc}); "
                              "check the network or put the file on disk and use its path") \
                from exc
        if expected_sha256 and sha != expected_sha256:
            path.unlink(missing_ok=True)
            raise SourceError(f"{url}: downloaded bytes have sha256 {sha[:12]}…, the registry "
                              f"pins {expected_sha256[:12]}…; the source changed, check it "
                              "and update the pin")
        index[url] = entry
        self._write_index(index)
        return Fetched(path, sha, "downloaded", suffix)

    def _cached(self, known: dict[str, str], status: str, expected: str | None,
                url: str) -> Fetched:
        if expected and known["sha256"] != expected:
            raise SourceError(f"{url}: the cached copy does not match the registry's sha256 "
                              "pin; delete the cache entry or fix the pin")
        return Fetched(self._file(known), known["sha256"], status, known.get("suffix", ""))

    def _file(self, known: dict[str, str]) -> Path:
        return self.cache_dir / f"{known['sha256']}{known.get('suffix', '')}"

    def _store(self, response: httpx.Response, suffix: str) -> tuple[str, Path]:
        digest = hashlib.sha256()
        fd, tmp = tempfile.mkstemp(dir=self.cache_dir, prefix=".part-")
        try:
            with os.fdopen(fd, "wb") as fh:
                for block in response.iter_bytes():
                    digest.update(block)
                    fh.write(block)
            sha = digest.hexdigest()
            final = self.cache_dir / f"{sha}{suffix}"
            os.replace(tmp, final)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return sha, final

    def _index(self) -> dict[str, dict[str, str]]:
        if not self._index_path.exists():
            return {}
        try:
            data: dict[str, dict[str, str]] = json.loads(self._index_path.read_text())
            return data
        except (json.JSONDecodeError, OSError):
            return {}

    def _write_index(self, index: dict[str, dict[str, str]]) -> None:
        tmp = self._index_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(index, indent=1, sort_keys=True))
        os.replace(tmp, self._index_path)


_TYPES = {"application/pdf": ".pdf", "text/html": ".html", "text/plain": ".txt",
          "text/markdown": ".md",
          "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx"}


def _suffix(url: str, content_type: str) -> str:
    path_suffix = Path(httpx.URL(url).path).suffix.lower()
    if path_suffix in {".pdf", ".html", ".htm", ".txt", ".md", ".docx"}:
        return path_suffix
    return _TYPES.get(content_type.split(";")[0].strip().lower(), ".html")
