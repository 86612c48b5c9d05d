"""LLM providers behind one protocol; ``get_llm("openai:MODEL")`` builds one by name."""

from civicsetu.llm.base import LLM, Completion, LLMError, Message, Usage, get_llm, register

__all__ = ["LLM", "Completion", "LLMError", "Message", "Usage", "get_llm", "register"]
