"""Bounds on what the pipeline reads, so hostile input costs one line, not the machine's memory.

* A YAML file (registry, paper settings) is at most :data:`MAX_YAML_BYTES` long.
* A parsed YAML document or workflow config holds at most :data:`MAX_VALUES` values once YAML
  aliases are expanded: ``*name`` repeats the mapping or list of ``&name`` without copying it, so a
  few lines ("billion laughs") can stand for 10^9 values, and a walk over them (schema validation,
  hashing a rule's params) would never end. :func:`count_values` counts them without expanding
  (each shared object is counted once per reference, from a memo of its own count).
* A value quoted in an error message is cut to :data:`MAX_QUOTED` characters
  (:func:`short_repr`): ``registry=/etc/passwd`` is not echoed whole.
"""

from __future__ import annotations

from typing import Any

#: Longest YAML file read (bytes). The project's largest settings file is about 15 kB.
MAX_YAML_BYTES = 16 * 2**20
#: Most values (mappings, lists and scalars, aliases expanded) in one YAML document or config.
MAX_VALUES = 1_000_000
#: Longest quotation of a value in an error message (characters).
MAX_QUOTED = 80


def count_values(obj: Any, limit: int = MAX_VALUES) -> int | None:
    """How many values ``obj`` holds with every shared (aliased) mapping or list counted at each
    reference, or None when that exceeds ``limit`` or an object contains itself. Linear in the
    number of distinct objects (iterative: no recursion limit)."""
    sizes: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[Any, bool]] = [(obj, False)]
    while stack:
        x, done = stack.pop()
        if not isinstance(x, (dict, list, tuple)):
            continue
        key = id(x)
        children = [*x.keys(), *x.values()] if isinstance(x, dict) else list(x)
        if done:
            total = 1 + sum(sizes.get(id(c), 1) for c in children)
            active.discard(key)
            if total > limit:
                return None
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in active:
            return None  # contains itself
        active.add(key)
        stack.append((x, True))
        stack.extend((c, False) for c in children if isinstance(c, (dict, list, tuple)))
    return sizes.get(id(obj), 1)


def too_many_values(obj: Any, limit: int = MAX_VALUES) -> str | None:
    """None if ``obj`` is within ``limit`` values (:func:`count_values`), else the reason."""
    if count_values(obj, limit) is not None:
        return None
    return (f"holds more than {limit:,} values once YAML aliases (*name) are expanded, or refers to "
            "itself; refused")


def short_repr(value: Any, limit: int = MAX_QUOTED) -> str:
    """``repr(value)`` cut to ``limit`` characters, saying how long it was."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"
