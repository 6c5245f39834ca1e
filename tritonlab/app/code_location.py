"""Where a line of the learner's file is: inside a @triton.jit kernel, a host function (the wrapper), or
neither.

A hang's traceback names a line; "the kernel may loop forever" is wrong when that line is in the wrapper. The
answer comes from the source the learner ran (no import, no torch): the innermost `def` around the line and
whether it is decorated with `jit`.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    line: int
    function: str | None  # None: module level
    in_kernel: bool


def locate(source: str, line: int) -> Location:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return Location(line, None, False)
    best: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            end = getattr(node, "end_lineno", None) or node.lineno
            if node.lineno <= line <= end and (best is None or node.lineno >= best.lineno):
                best = node
    if best is None:
        return Location(line, None, False)
    return Location(line, best.name, any(_is_jit(d) for d in best.decorator_list))


def _is_jit(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("jit", "autotune", "heuristics")
