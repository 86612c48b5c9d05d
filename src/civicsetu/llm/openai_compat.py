"""Any OpenAI-compatible chat endpoint over HTTP: OpenAI, Groq, Ollama, vLLM, llama.cpp.

``openai:MODEL`` uses https://api.openai.com/v1 and ``OPENAI_API_KEY``; ``groq:MODEL``
uses Groq and ``GROQ_API_KEY``; ``ollama:MODEL`` uses http://127.0.0.1:11434/v1 with no
key; ``openai-compatible:MODEL@BASE_URL`` any server (key from
``CIVICSETU_LLM_API_KEY`` when set). Token counts come from the response's ``usage``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import httpx

from civicsetu.errors import InputError
from civicsetu.llm.base import (
    Completion,
    LLMError,
    Message,
    ProviderUnavailable,
    RateLimited,
    Usage,
    register,
)

TIMEOUT_S = 120.0
PROVIDERS = {
    "openai": ("https://api.openai.com/v1", "OPENAI_API_KEY"),
    "groq": ("https://api.groq.com/openai/v1", "GROQ_API_KEY"),
    "ollama": ("http://127.0.0.1:11434/v1", None),
}


class OpenAICompatible:
    def __init__(self, model: str, base_url: str, api_key: str | None = None,
                 provider: str = "openai-compatible", timeout: float = TIMEOUT_S,
                 client: httpx.Client | None = None) -> None:
        if not model:
            raise InputError(f"{provider}: give a model name, e.g. {provider}:MODEL")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.provider = provider
        self.name = f"{provider}:{model}"
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(timeout=timeout, headers=headers)

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        body: dict[str, Any] = {
            "model": self.model, "max_tokens": max_tokens, "temperature": temperature,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
        }
        if stop:
            body["stop"] = list(stop)
        t0 = time.perf_counter()
        try:
            response = self._client.post(f"{self.base_url}/chat/completions", json=body)
        except httpx.TimeoutException as exc:
            raise ProviderUnavailable(f"{self.name}: timed out ({exc})") from exc
        except httpx.TransportError as exc:
            raise ProviderUnavailable(f"{self.name}: cannot reach {self.base_url} ({exc}); "
                                      "is the server running?") from exc
        if response.status_code == 429:
            raise RateLimited(f"{self.name}: rate limited (HTTP 429)")
        if response.status_code >= 500:
            raise ProviderUnavailable(f"{self.name}: server error HTTP {response.status_code}")
        if response.status_code >= 400:
            raise LLMError(f"{self.name}: HTTP {response.status_code}: "
                           f"{response.text[:200]}; check the model name and API key")
        try:
            data = response.json()
            text = data["choices"][0]["message"]["content"] or ""
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise LLMError(f"{self.name}: unexpected response shape ({exc})") from exc
        usage = data.get("usage") or {}
        return Completion(text, str(data.get("model") or self.model), self.provider,
                          Usage(int(usage.get("prompt_tokens") or 0),
                                int(usage.get("completion_tokens") or 0)),
                          time.perf_counter() - t0)


    def stream(self, messages: Sequence[Message], on_token: Callable[[str], None], *,
               max_tokens: int = 512, temperature: float = 0.0,
               stop: Sequence[str] = ()) -> Completion:
        """Like ``complete`` with ``"stream": true``: ``on_token`` gets each content delta
        as the server sends it (``llm.streaming``); usage from the final chunk if sent."""
        body: dict[str, Any] = {
            "model": self.model, "max_tokens": max_tokens, "temperature": temperature,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "stream": True, "stream_options": {"include_usage": True},
        }
        if stop:
            body["stop"] = list(stop)
        t0 = time.perf_counter()
        pieces: list[str] = []
        usage: dict[str, Any] = {}
        model = self.model
        try:
            with self._client.stream("POST", f"{self.base_url}/chat/completions",
                                     json=body) as response:
                if response.status_code >= 400:
                    response.read()
                    self._raise_for(response)
                for line in response.iter_lines():
                    if not line.startswith("data:"):
                        continue
                    payload = line[5:].strip()
                    if payload == "[DONE]":
                        break
                    try:
                        chunk = json.loads(payload)
                    except ValueError as exc:
                        raise LLMError(f"{self.name}: malformed stream chunk ({exc})") from exc
                    model = str(chunk.get("model") or model)
                    usage = chunk.get("usage") or usage
                    for choice in chunk.get("choices") or []:
                        piece = (choice.get("delta") or {}).get("content") or ""
                        if piece:
                            pieces.append(piece)
                            on_token(piece)
        except httpx.TimeoutException as exc:
            raise ProviderUnavailable(f"{self.name}: timed out ({exc})") from exc
        except httpx.TransportError as exc:
            raise ProviderUnavailable(f"{self.name}: cannot reach {self.base_url} ({exc}); "
                                      "is the server running?") from exc
        if not usage:
            # Servers that do not honour include_usage (llama.cpp's): one delta is one
            # token, and the prompt is estimated at four characters a token.
            usage = {"prompt_tokens": sum(len(m.content) for m in messages) // 4,
                     "completion_tokens": len(pieces)}
        return Completion("".join(pieces), model, self.provider,
                          Usage(int(usage.get("prompt_tokens") or 0),
                                int(usage.get("completion_tokens") or 0)),
                          time.perf_counter() - t0)

    def _raise_for(self, response: httpx.Response) -> None:
        if response.status_code == 429:
            raise RateLimited(f"{self.name}: rate limited (HTTP 429)")
        if response.status_code >= 500:
            raise ProviderUnavailable(f"{self.name}: server error HTTP {response.status_code}")
        raise LLMError(f"{self.name}: HTTP {response.status_code}: "
                       f"{response.text[:200]}; check the model name and API key")


def _named(provider: str) -> Any:
    base_url, key_env = PROVIDERS[provider]

    def build(model: str) -> OpenAICompatible:
        key = os.environ.get(key_env) if key_env else None
        if key_env and not key:
            raise InputError(f"{provider}:{model} needs the {key_env} environment variable")
        return OpenAICompatible(model, base_url, key, provider)

    return build


def _generic(rest: str) -> OpenAICompatible:
    model, sep, base_url = rest.rpartition("@")
    if not sep or not base_url.startswith(("http://", "https://")):
        raise InputError("openai-compatible needs MODEL@BASE_URL, e.g. "
                         "openai-compatible:smollm2@http://127.0.0.1:8080/v1")
    return OpenAICompatible(model, base_url, os.environ.get("CIVICSETU_LLM_API_KEY"))


def register_builtins() -> None:
    for provider in PROVIDERS:
        register(provider, _named(provider))
    register("openai-compatible", _generic)
