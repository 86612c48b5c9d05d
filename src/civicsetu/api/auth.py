"""API keys on every ``/api/v1`` route, then the per-key rate limit.

A key travels as ``Authorization: Bearer <key>`` or ``X-API-Key: <key>``; a key in the query
string is refused (query strings end up in logs and browser history). Open mode (no key)
is honoured only when configured and only for clients on the loopback interface; the
server refuses to start in open mode on any other address (``cli_serve``).
"""

from __future__ import annotations

import ipaddress

from fastapi import Request

from civicsetu.api.problems import ApiProblem
from civicsetu.api.ratelimit import retry_after

QUERY_KEY_NAMES = {"api_key", "apikey", "key", "token", "access_token", "x-api-key"}


def is_loopback(host: str | None) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost``."""
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _offered_key(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if header and scheme.lower() == "bearer" and value.strip():
        return value.strip()
    if header:
        raise ApiProblem(401, "the Authorization header must be `Bearer <key>`",
                         "unauthorized", {"WWW-Authenticate": "Bearer"})
    key = request.headers.get("x-api-key", "").strip()
    return key or None


async def authorize(request: Request) -> str:
    """The caller's identity (``key:<id>`` or ``open:<address>``), after the rate limit."""
    state = request.app.state.civicsetu
    if any(name.lower() in QUERY_KEY_NAMES for name in request.query_params):
        raise ApiProblem(400, "API keys are not accepted in the query string; send "
                         "`Authorization: Bearer <key>` or `X-API-Key: <key>`",
                         "key-in-query")
    secret = _offered_key(request)
    client = request.client.host if request.client else ""
    if secret is None:
        if state.settings.api.open_mode and is_loopback(client):
            who = f"open:{client}"
        else:
            raise ApiProblem(401, "an API key is required: send `Authorization: Bearer <key>`;"
                             " create one with `civicsetu keys create NAME`", "unauthorized",
                             {"WWW-Authenticate": "Bearer"})
    else:
        key = state.db.key_for(secret)
        if key is None:
            raise ApiProblem(401, "this API key is not known; check it, or create one with "
                             "`civicsetu keys create NAME`", "unauthorized",
                             {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        if not key.active:
            raise ApiProblem(401, f"API key {key.id} was revoked on {key.revoked_at}; "
                             "ask for a new one", "key-revoked",
                             {"WWW-Authenticate": 'Bearer error="invalid_token"'})
        who = f"key:{key.id}"
    wait = request.app.state.limiter.take(who)
    if wait > 0:
        raise ApiProblem(429, f"rate limit of {state.settings.api.rate_limit_per_minute} "
                         f"requests per minute reached; retry in {retry_after(wait)} s",
                         "rate-limited", {"Retry-After": retry_after(wait)})
    request.state.caller = who
    return who
