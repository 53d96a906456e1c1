"""Message selectors (selection strings): ``compile_selector(text)`` -> ``Selector``."""

from mqlite.core.selectors.compiler import Selector, compile_selector

__all__ = ["Selector", "compile_selector"]
