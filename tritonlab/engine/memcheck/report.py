"""The out-of-bounds report: what was touched, by which program, on which of the learner's lines, and the
learner's own mask expression for it."""

from __future__ import annotations

import ast
import functools
import linecache
import re
from typing import Any, TypeVar

_MAX_OFFSETS = 8


# ----------------------------------------------------------------------------------------------------------
# The report


class OutOfBounds(Exception):
    """A load or store whose masked-in lanes fall outside every tensor handed to the kernel."""

    def __init__(
        self,
        *,
        access: str,
        kernel: str,
        arg: str | None,
        program_id: tuple[int, int, int],
        lanes: int,
        offsets: list[int],
        extent: int,
        file: str | None,
        line: int | None,
        reason: str = "past_end",
        op: str | None = None,
        numel: int | None = None,
        shape: tuple[int, ...] | None = None,
        strides: tuple[int, ...] | None = None,
        grid: tuple[int, int, int] | None = None,
        code: str | None = None,
        span: tuple[int, int] | None = None,
        strides_passed: dict | None = None,
        promise: dict | None = None,
        ints: dict | None = None,
        caller: dict | None = None,
    ) -> None:
        self.access = access
        self.kernel = kernel
        self.arg = arg
        self.program_id = tuple(int(p) for p in program_id)
        self.lanes = int(lanes)
        self.offsets = [int(o) for o in offsets][:_MAX_OFFSETS]
        self.extent = int(extent)
        self.file = file
        self.line = line
        self.reason = reason
        self.op = op or access
        self.numel = self.extent if numel is None else int(numel)
        self.shape = tuple(shape) if shape is not None else None
        self.strides = tuple(strides) if strides is not None else None
        self.grid = tuple(grid) if grid is not None else None
        self.code = code
        self.strides_passed = strides_passed
        self.promise = promise
        self.ints = dict(ints or {})  # the launch's integer arguments (strides among them), for mask_facts
        # the faulting line is in a @triton.jit helper: its name, the caller's line, and which of the helper's
        # loop-range parameters the caller passed as what ({"function", "line", "bounds": [{param, arg}]})
        self.caller = caller
        self.span = (
            span if span is not None else ((min(self.offsets), max(self.offsets)) if self.offsets else None)
        )
        super().__init__(self.message)

    def __reduce__(self):
        return (_oob_from_dict, (self.to_dict(),))

    @property
    def program(self) -> str:
        """'program 3' for a 1-D grid, 'program (3, 1)' when the grid (or the id) uses more axes."""
        axes = 1
        if self.grid is not None:
            axes = max((i + 1 for i, g in enumerate(self.grid) if g > 1), default=1)
        axes = max(axes, max((i + 1 for i, p in enumerate(self.program_id) if p), default=1))
        if axes == 1:
            return f"program {self.program_id[0]}"
        return "program (" + ", ".join(str(p) for p in self.program_id[:axes]) + ")"

    @property
    def message(self) -> str:
        target = self.arg or "memory"
        verb = "load from" if self.access == "load" else "store to"
        if self.op not in ("load", "store"):
            verb = f"{self.op.replace('_', ' ')} on"
        lanes = f"{self.lanes} lane{'s' if self.lanes != 1 else ''}"
        if self.span is None:
            where = f"{lanes} outside every tensor argument"
        elif self.span[0] == self.span[1]:
            where = f"element offset {self.span[0]} ({lanes})"
        else:
            where = f"element offsets {self.span[0]}..{self.span[1]} ({lanes})"
        what = "the load" if self.access == "load" else "the store"
        if self.op not in ("load", "store"):
            what = "the atomic"
        if self.arg is None:
            return (
                f"{verb} an address outside every tensor argument in {self.program}: {lanes} — "
                f"check the pointer arithmetic"
            )
        if self.reason == "gap":
            view = f"shape {tuple(self.shape or ())}, strides {tuple(self.strides or ())}"
            return (
                f"{verb} {target} outside the view in {self.program}: {where} fall between the elements of a "
                f"strided view ({view}) — step through it with the tensor's strides"
            )
        if self.reason == "before_start" and self.int32_wrap:
            wrap = self.int32_wrap
            row = (
                f" (row {wrap['row']}, {wrap['row_stride']} elements per row)"
                if wrap["row"] is not None
                else ""
            )
            return (
                f"{verb} {target} out of bounds in {self.program}: {where}, before the start of the tensor — "
                f"that is element {wrap['offset']}{row} minus 2**32: an offset computed in int32 passed "
                "2**31 and wrapped; compute it in int64 (tl.program_id(0).to(tl.int64) * stride)"
            )
        if self.reason == "before_start":
            return (
                f"{verb} {target} out of bounds in {self.program}: {where}, before the start of the tensor — "
                f"check the offset arithmetic (negative offsets) or mask {what}"
            )
        size = f"the tensor has {self.numel} element{'' if self.numel == 1 else 's'}"
        if self.numel != self.extent:
            plural = "" if self.extent == 1 else "s"
            size = f"the view spans {self.extent} element{plural} ({self.numel} in the view)"
        return f"{verb} {target} out of bounds in {self.program}: {where}, {size} — {self._mask_hint(what)}"

    @property
    def int32_wrap(self) -> dict | None:
        """{offset, row, row_stride} when the offsets before the tensor are offsets inside it minus 2**32: an
        offset computed in int32 (`row * stride`, int32 by default) passed 2**31 and wrapped."""
        if self.reason != "before_start" or self.span is None:
            return None
        offset = self.span[0] + 2**32
        if not 0 <= offset < self.extent or self.span[1] >= 0:
            return None
        strides = self.strides or ()
        stride = strides[0] if len(strides) >= 2 and strides[0] > 0 else None
        return {"offset": offset, "row": offset // stride if stride else None, "row_stride": stride}

    def mask_facts(self) -> dict:
        """The learner's own words for the guard: the mask expression of the faulting line (None: no mask) and
        the index names its pointer is built from that the mask never mentions, with their axes."""
        facts = _mask_facts(self.code, self.file, self.line)
        names = facts.pop("pointer_names", set())
        pointer_source, mask_source = facts.pop("pointer_source", ""), facts.pop("mask_source", None)
        if facts.get("bounded") and self.ints:
            wrong = _wrong_bound(pointer_source, mask_source, self.ints, self.shape, self.strides)
            if wrong:
                facts["wrong_bound"] = wrong
        if self.ints and self.strides is not None:
            foreign = [
                {"name": n, "value": v}
                for n, v in self.ints.items()
                if n in names and "stride" in n.lower() and v not in self.strides and v > 1
            ]
            if foreign:
                facts["foreign"] = foreign
        return facts

    def _mask_hint(self, what: str) -> str:
        desc = descriptor_access(self.code)
        if desc:
            return (
                f"{desc} is a tensor descriptor: its accesses take no mask — the shape and strides it was "
                f"built with bound them, and here they reach past {self.arg}'s tensor: check the shape and "
                f"strides given where {desc} is made (tl.make_tensor_descriptor)"
            )
        if self.strides_passed:
            return swapped_strides_hint(self.arg or "", self.strides_passed)
        if self.promise and promise_holds(self.promise):
            return promise_hint(self.promise, self.line) + "; otherwise " + self._plain_mask_hint(what)
        if self.promise:  # FLAG=False promises nothing: the masked branch itself misses a bound
            return self._plain_mask_hint(what) + unpromised_note(self.promise, self.mask_facts())
        return self._plain_mask_hint(what)

    def _plain_mask_hint(self, what: str) -> str:
        facts = self.mask_facts()
        mask, unbounded = facts.get("mask"), facts.get("unbounded") or []
        range_hint = caller_range_hint(self.caller) if not mask and facts.get("parsed") else None
        if range_hint:
            return range_hint
        if facts.get("foreign"):
            steps = ", ".join(f"{f['name']} = {f['value']}" for f in facts["foreign"])
            return (
                f"the pointer steps with {steps}, which is not a stride of {self.arg} (its strides are "
                f"{tuple(self.strides or ())}): step through {self.arg} with its own strides"
            )
        if unbounded:
            names = " and ".join(f"{u['name']} (axis {u['axis']})" for u in unbounded)
            if mask:
                return f"the mask ({mask}) never bounds {names}: add a bound for it to the mask of {what}"
            return f"{what} has no mask: bound {names} (and every other index) with a mask"
        if mask and facts.get("precedence"):
            return (
                f"the mask ({mask}) does not bound what it seems to: in {facts['precedence']} Python's & "
                "binds "
                "tighter than < (and a chained comparison is not elementwise) — put each comparison in "
                "parentheses: (a < n) & (b < m)"
            )
        if mask and facts.get("advance"):
            adv = facts["advance"]
            return (
                f"{adv['pointer']} advances inside the loop, but the mask compares {adv['index']} with "
                f"{adv['bound']}, which never shrinks: bound it by what is left ({adv['bound']} - k * "
                "BLOCK_K)"
            )
        if mask and facts.get("loop_offset"):
            return loop_offset_hint(mask, facts["loop_offset"])
        if mask and facts.get("extra"):
            return (
                f"the mask ({mask}) bounds the indices, but the pointer also adds "
                f"{' + '.join(facts['extra'])}, and {self.arg} already points at its first element: drop the "
                "extra offset"
            )
        if mask and facts.get("wrong_bound"):
            return wrong_bound_hint(mask, self.arg or "?", facts["wrong_bound"])
        if mask and facts.get("bounded"):
            return (
                f"the mask ({mask}) bounds every index, yet these lanes land past the end: unless one of its "
                "bounds is wrong, the address itself is off — check the strides and any offset added to the "
                f"pointer, and the shape the tensor was allocated with {tuple(self.shape or ())}"
            )
        if mask:
            return (
                f"the mask ({mask}) lets these lanes through: it must be False for every offset past the end"
            )
        if facts.get("parsed"):
            return f"{what} has no mask: pass mask= with a bound for each index (e.g. offsets < n_elements)"
        return f"mask {what} (offsets < n_elements)"

    def to_dict(self) -> dict:
        return {
            "access": self.access,
            "op": self.op,
            "kernel": self.kernel,
            "arg": self.arg,
            "program_id": list(self.program_id),
            "grid": list(self.grid) if self.grid is not None else None,
            "lanes": self.lanes,
            "offsets": list(self.offsets),
            "span": list(self.span) if self.span is not None else None,
            "extent": self.extent,
            "numel": self.numel,
            "shape": list(self.shape) if self.shape is not None else None,
            "strides": list(self.strides) if self.strides is not None else None,
            "reason": self.reason,
            "file": self.file,
            "line": self.line,
            "code": self.code,
            "descriptor": descriptor_access(self.code),
            "strides_passed": self.strides_passed,
            "promise": self.promise,
            "caller": self.caller,
            "int32_wrap": self.int32_wrap,
            **{k: v for k, v in self.mask_facts().items() if k != "parsed"},
            "message": self.message,
        }


def caller_range_hint(caller: dict | None) -> str | None:
    """An unmasked access in a helper that loops over a range its caller chose: the caller's range is where a
    guard belongs as much as the access (the attention starter's unmasked block helper, by design)."""
    if not isinstance(caller, dict) or not caller.get("bounds"):
        return None
    given = ", ".join(f"{b['param']} = {b['arg']}" for b in caller["bounds"])
    helper = caller["function"]
    return (
        f"this access in {helper} has no mask, and {helper} walks the range its caller gives it — the call "
        f"at line {caller['line']} passes {given}: keep that range inside the tensor there (or mask the "
        "access here)"
    )


def loop_offset_hint(mask: str, offset: dict) -> str:
    var, index = offset["loop_var"], offset["mask_index"]
    moved = f"{offset['index']} = {offset['expr']}" if offset.get("index") else f"{var} + {index}"
    bound = offset.get("index") or f"{var} + {index}"
    return (
        f"the pointer's offsets are {moved}, but the mask ({mask}) compares {index}, which leaves out the "
        f"loop's {var}: from the loop's second step on, lanes past the end pass it — bound {bound} instead"
    )


def swapped_strides_hint(arg: str, passed: dict) -> str:
    given = ", ".join(f"{n}={v}" for n, v in zip(passed["params"], passed["values"], strict=False))
    where = f" (the launch at line {passed['launch_line']})" if passed.get("launch_line") else ""
    return (
        f"the strides passed for {arg} are in the wrong order{where}: {given}, but the tensor passed as "
        f"{arg} has strides {tuple(passed['strides'])} — in-range indices then walk out of the tensor "
        "whatever the mask says"
    )


def wrong_bound_hint(mask: str, arg: str, wrong: dict) -> str:
    index, bound, value, axis, extent = (
        wrong[k] for k in ("index", "bound", "bound_value", "axis", "extent")
    )
    expected = wrong.get("expected")
    fix = (
        f"compare {index} with {expected} ({expected} = {extent}), not {bound}"
        if expected
        else f"compare {index} with the length of that axis ({extent}), not {bound}"
    )
    return (
        f"in the mask ({mask}) the term {wrong['term']} bounds {index} by {bound} = {value}, but {index} "
        f"indexes axis {axis} of {arg} (through {wrong['stride']}), which has {extent} entries: its values "
        f"{extent}..{value - 1} pass the mask and land past the end — {fix}"
    )


_PRODUCT = re.compile(r"\b([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\*\s*([A-Za-z_]\w*)\b")


def _wrong_bound(
    pointer: str, mask: str | None, ints: dict, shape: tuple | None, strides: tuple | None
) -> dict | None:
    """A mask term that compares an index with the wrong size: the index steps along one axis of the tensor
    (it multiplies that axis's stride) whose length is smaller than the bound it is compared with, so its
    out-of-range values pass the mask (rows < n_cols while rows runs past n_rows). Returns the term, the
    index, the bound and its value, the axis and its length, and the integer argument equal to that length
    (the bound it should use), when there is one."""
    if not mask or not shape or not strides or len(shape) != len(strides):
        return None
    try:
        tree = ast.parse(mask.strip(), mode="eval")
    except SyntaxError:
        return None
    compared = {
        n.id
        for c in ast.walk(tree)
        if isinstance(c, ast.Compare)
        for n in c.comparators
        if isinstance(n, ast.Name)
    }
    axis_of: dict[str, tuple[int, str]] = {}
    for a, b in _PRODUCT.findall(pointer):
        for index, stride in ((a, b), (b, a)):
            value = ints.get(stride)
            if value is None or index in ints or stride in compared or list(strides).count(value) != 1:
                continue
            axis_of.setdefault(index, (list(strides).index(value), stride))
    terms: list[tuple[ast.Compare, str, str]] = []  # (the comparison, its index, the size it is bounded by)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            continue
        left, right = node.left, node.comparators[0]
        if isinstance(node.ops[0], ast.Gt):
            left, right = right, left
        elif not isinstance(node.ops[0], ast.Lt):
            continue
        if not isinstance(right, ast.Name) or right.id not in ints:
            continue
        indices = [n.id for n in ast.walk(left) if isinstance(n, ast.Name) and n.id in axis_of]
        if len(set(indices)) == 1:
            terms.append((node, indices[0], right.id))
    # the bounds are the tensor's sizes in another order (the output allocated like x, not transposed): the
    # mask is right and the allocation is what is off - the plain 'bounds every index' sentence says so
    if len(terms) == len(shape) and sorted(int(ints[b]) for _, _, b in terms) == sorted(
        int(d) for d in shape
    ):
        return None
    for node, index, bound in terms:
        axis, stride = axis_of[index]
        extent, value = int(shape[axis]), int(ints[bound])
        if value <= extent:
            continue
        candidates = [
            n
            for n, v in ints.items()
            if v == extent and n != bound and "stride" not in n.lower() and not n.upper().startswith("BLOCK")
        ]
        stem = index.rstrip("s").lower()
        candidates.sort(key=lambda n: stem not in n.lower())
        return {
            "term": ast.get_source_segment(mask.strip(), node),
            "index": index,
            "bound": bound,
            "bound_value": value,
            "axis": axis,
            "stride": stride,
            "extent": extent,
            "expected": candidates[0] if candidates else None,
        }
    return None


def promise_holds(promise: dict) -> bool:
    """A flag launched True promises something (EVEN_K: every K step is full); launched False (0) it promises
    nothing, and the line it guards is the branch meant to mask everything."""
    return bool(promise.get("value"))


def unpromised_note(promise: dict, facts: dict) -> str:
    """The tail after the mask hint for a line in a FLAG=False branch: that branch is the one for partial
    blocks, so an index its mask leaves unbounded needs the bound of what is left
    (offs_k < K - k * BLOCK_K)."""
    unbounded = facts.get("unbounded") or []
    if not unbounded:
        return ""
    names = " and ".join(u["name"] for u in unbounded)
    example = f", e.g. {unbounded[0]['name']} < K - k * BLOCK_K" if promise["name"].endswith("_K") else ""
    return (
        f" (this is the {promise['name']}=False branch, which runs when the blocks do not divide the size: "
        f"bound {names} by what is left of its range{example})"
    )


def promise_hint(promise: dict, line: int | None) -> str:
    name, value = promise["name"], promise["value"]
    where = ""
    if promise.get("line"):
        where = f" (line {promise['line']}: {name}={promise.get('expr') or '...'})"
    return (
        f"line {line} runs only because the launch passed {name}={value}{where}: if that promise does not "
        f"hold for this case, fix how the wrapper computes {name}"
    )


_AXIS_PATTERNS = (
    (0, re.compile(r"(\w+)\s*\[\s*:\s*,\s*None\s*\]")),
    (1, re.compile(r"(\w+)\s*\[\s*None\s*,\s*:\s*\]")),
)


_DESCRIPTOR_ACCESS = re.compile(r"\b(\w+)\.(?:load|store|atomic_\w+)\s*\(")


def descriptor_access(code: str | None) -> str | None:
    """The descriptor's name when the line accesses memory through one (`b_desc.load([...])`), else None."""
    for match in _DESCRIPTOR_ACCESS.finditer(code or ""):
        if match.group(1) != "tl":
            return match.group(1)
    return None


def _mask_facts(code: str | None, file: str | None, line: int | None) -> dict:
    """Read the faulting tl.load/tl.store call: its mask= text, and the 2D index names (x[:, None] is axis 0,
    x[None, :] axis 1) of its pointer — inline, or from the pointer variable's assignments above the line —
    that the mask does not mention. Best effort: {} when the line is not a plain call."""
    if not code:
        return {}
    try:
        tree = ast.parse(code.strip().rstrip(":"), mode="exec")
    except SyntaxError:  # a call spread over several lines: read the whole statement that starts here
        code = _statement(file, line)
        try:
            tree = ast.parse(code or "", mode="exec")
        except SyntaxError:
            return {}
    call = next(
        (
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr in ("load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg")
        ),
        None,
    )
    if call is None or not call.args:
        return {}
    assert isinstance(call.func, ast.Attribute)  # the search above matched only attribute calls
    text = (code or "").strip().rstrip(":")
    mask_node = next((k.value for k in call.keywords if k.arg == "mask"), None)
    if mask_node is None and call.func.attr == "store" and len(call.args) >= 3:
        mask_node = call.args[2]
    elif mask_node is None and call.func.attr == "load" and len(call.args) >= 2:
        mask_node = call.args[1]
    mask = ast.get_source_segment(text, mask_node) if mask_node is not None else None
    if isinstance(mask_node, ast.Name) and file and line:  # mask=mask: show what the learner assigned to it
        defined = _assignments(mask_node.id, file, line).strip()
        if defined:
            mask = f"{mask_node.id} = {defined}"
    pointer = ast.get_source_segment(text, call.args[0]) or ""
    source = pointer
    if isinstance(call.args[0], ast.Name) and file and line:
        source += " " + _assignments(call.args[0].id, file, line)
    axes: dict[str, int] = {}
    for axis, pattern in _AXIS_PATTERNS:
        for name in pattern.findall(source):
            axes.setdefault(name, axis)
    mentioned = set(re.findall(r"\w+", mask or ""))
    unbounded = [{"name": n, "axis": a} for n, a in axes.items() if n not in mentioned]
    # the mask names every index of the pointer with a strict bound: then the address itself may be off
    indices = set(axes) or (set(re.findall(r"[A-Za-z_]\w*", pointer)) - {"tl", "None"})
    bounded = bool(mask) and not unbounded and bool(indices & mentioned) and "<=" not in (mask or "")
    facts: dict = {"parsed": True, "mask": mask, "unbounded": unbounded, "bounded": bounded}
    mask_source = (
        mask.split(" = ", 1)[1] if mask and isinstance(mask_node, ast.Name) and " = " in mask else mask
    )
    precedence = _precedence(mask_source)
    if precedence:
        facts["precedence"] = precedence
    elif mask and isinstance(call.args[0], ast.Name) and file and line:
        advance = _loop_bound(file, line, call.args[0].id, mask_source or "")
        if advance:
            facts["advance"] = advance
    if mask and not precedence and "advance" not in facts and file and line:
        offset = _loop_offset(file, line, source, mask_source or "")
        if offset:
            facts["loop_offset"] = offset
    facts["pointer_names"] = set(re.findall(r"[A-Za-z_]\w*", source))
    facts["pointer_source"], facts["mask_source"] = source, mask_source
    extra = _extra_terms(call.args[0], text, mentioned | set(axes), file, line)
    if bounded and extra:
        facts["extra"] = extra
    return facts


def _precedence(mask: str | None) -> str | None:
    """`a & b < n` is `(a & b) < n`, and `0 <= x < n` on blocks is `(0 <= x) and (x < n)` — Python's `and`,
    which a block cannot do: a comparison with `&`/`|` inside an operand, or a chained comparison. Returns
    the offending part."""
    if not mask:
        return None
    try:
        tree = ast.parse(mask.strip(), mode="eval")
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        mixed = any(
            isinstance(n, ast.BinOp) and isinstance(n.op, (ast.BitAnd, ast.BitOr))
            for operand in operands
            for n in ast.walk(operand)
        )
        if mixed or len(node.ops) > 1:
            return ast.get_source_segment(mask.strip(), node) or mask
    return None


def _loop_bound(file: str, line: int, pointer: str, mask: str) -> dict | None:
    """The faulting access sits in a loop that advances `pointer` (`a_ptrs += BLOCK_K * stride_ak`) while its
    mask compares an index with a bound the loop never changes (`offs_k < K`): after the first step the bound
    must shrink with the pointer (`K - k * BLOCK_K`)."""
    tree = _parsed_file(file)
    if tree is None:
        return None
    loops = [n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and _spans_line(n, line)]
    if not loops:
        return None
    loop = min(loops, key=lambda n: (getattr(n, "end_lineno", n.lineno) or n.lineno) - n.lineno)
    steps = [
        n
        for n in ast.walk(loop)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id == pointer
    ]
    if not steps:
        return None
    # the index that walks with the pointer: the one multiplied by a stride the advance also uses
    step_names = {n.id for s in steps for n in ast.walk(s.value) if isinstance(n, ast.Name)}
    walking: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == pointer for t in node.targets
        ):
            for product in ast.walk(node.value):
                if isinstance(product, ast.BinOp) and isinstance(product.op, ast.Mult):
                    sides = [
                        {n.id for n in ast.walk(s) if isinstance(n, ast.Name)}
                        for s in (product.left, product.right)
                    ]
                    if sides[0] & step_names:
                        walking |= sides[1] - step_names
                    elif sides[1] & step_names:
                        walking |= sides[0] - step_names
    changed = {
        t.id
        for n in ast.walk(loop)
        if isinstance(n, (ast.Assign, ast.AugAssign))
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }
    if isinstance(loop, ast.For) and isinstance(loop.target, ast.Name):
        changed.add(loop.target.id)
    try:
        compares = [n for n in ast.walk(ast.parse(mask.strip(), mode="eval")) if isinstance(n, ast.Compare)]
    except SyntaxError:
        return None
    for compare in compares:
        names = {n.id for n in ast.walk(compare.left) if isinstance(n, ast.Name)}
        if walking and not names & walking:
            continue
        for bound in compare.comparators:
            if isinstance(bound, ast.Name) and bound.id not in changed:
                left = ast.get_source_segment(mask.strip(), compare.left) or "the index"
                return {"pointer": pointer, "bound": bound.id, "index": left}
    return None


def _loop_offset(file: str, line: int, pointer: str, mask: str) -> dict | None:
    """The faulting access sits in `for start in range(...)` and its pointer's offset includes the loop's
    variable (`cols = start + lanes`, or `+ start + lanes` inline), but the mask bounds only the part that
    does not move (`lanes < n_cols`): from the loop's second step on, lanes past the end pass. Returns the
    offset's name and expression, the loop variable and the mask's index."""
    tree = _parsed_file(file)
    if tree is None:
        return None
    loops = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.For) and isinstance(n.target, ast.Name) and _spans_line(n, line)
    ]
    if not loops:
        return None
    loop = min(loops, key=lambda n: (getattr(n, "end_lineno", n.lineno) or n.lineno) - n.lineno)
    assert isinstance(loop.target, ast.Name)
    var = loop.target.id
    mentioned = set(re.findall(r"[A-Za-z_]\w*", mask))
    if var in mentioned:
        return None
    # the names assigned inside the loop, before the access, from an expression that uses the loop variable
    moving: dict[str, tuple[str, set[str]]] = {}
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.lineno < line
        ):
            names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            if var in names or names & set(moving):
                moving[node.targets[0].id] = (ast.unparse(node.value), names - {var})
    in_pointer = set(re.findall(r"[A-Za-z_]\w*", pointer))
    if in_pointer & mentioned & (set(moving) | {var}):
        return None
    for name, (expr, parts) in moving.items():
        if name in in_pointer and parts & mentioned and name not in mentioned:
            index = sorted(parts & mentioned)[0]
            return {"index": name, "expr": expr, "loop_var": var, "mask_index": index}
    if var in in_pointer:  # `x_ptr + start + lanes` inline
        inline = next((n for n in sorted(mentioned) if n in in_pointer), None)
        if inline:
            return {"index": None, "expr": None, "loop_var": var, "mask_index": inline}
    return None


@functools.lru_cache(maxsize=8)
def _parse(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def parsed_source(file: str | None) -> tuple[str, ast.Module] | None:
    """The text linecache holds for `file` and its syntax tree, parsed once per distinct text: the judge asks
    several questions of one learner file (the store's statement, its assignments, a transpose). Callers read
    the tree and never change it."""
    if not file:
        return None
    source = "".join(linecache.getlines(file))
    tree = _parse(source)
    return (source, tree) if tree is not None else None


def _parsed_file(file: str) -> ast.Module | None:
    found = parsed_source(file)
    return found[1] if found else None


def _spans_line(node: ast.AST, line: int) -> bool:
    start = int(getattr(node, "lineno", 0) or 0)
    return start <= line <= int(getattr(node, "end_lineno", None) or start)


def _extra_terms(pointer: ast.expr, text: str, indices: set, file: str | None, line: int | None) -> list[str]:
    """The terms of `base + off + cols * stride` after the base that are a plain offset: a name, attribute or
    call, not a product and not derived from the program id (a row start is not extra): an offset added to a
    pointer that already points at element 0 (`b_ptr + b.storage_offset() + cols`)."""
    terms: list[ast.expr] = []

    def flatten(node: ast.expr) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            flatten(node.left)
            flatten(node.right)
        else:
            terms.append(node)

    flatten(pointer)
    extra = []
    for term in terms[1:]:
        if not isinstance(term, (ast.Name, ast.Attribute, ast.Call)):
            continue
        names = {n.id for n in ast.walk(term) if isinstance(n, ast.Name)}
        if not names or names & indices:
            continue
        if isinstance(term, ast.Name) and file and line:
            made = _assignments(term.id, file, line)
            if any(mark in made for mark in ("program_id", "pid", "*", "arange")):
                continue
        segment = ast.get_source_segment(text, term)
        if segment:
            extra.append(segment)
    return extra


def _statement(file: str | None, line: int | None) -> str | None:
    """The source of the statement of `file` that starts at `line`, dedented (None when there is none)."""
    found = parsed_source(file) if line else None
    if found is None:
        return None
    source, tree = found
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno == line and not isinstance(node, ast.FunctionDef):
            text = ast.get_source_segment(source, node)
            return text.strip() if text else None
    return None


def _assignments(name: str, file: str, line: int, lookback: int = 60) -> str:
    """The right-hand sides of `name = ...` / `name += ...` in the lines above `line` (same kernel,
    usually)."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\s*(?:\+|-)?=\s*(.+)$")
    found = []
    for number in range(max(1, line - lookback), line):
        match = pattern.match(linecache.getline(file, number))
        if match:
            found.append(match.group(1))
    return " ".join(found)


def _oob_from_dict(d: dict) -> OutOfBounds:
    keys = (
        "access",
        "kernel",
        "arg",
        "lanes",
        "offsets",
        "extent",
        "file",
        "line",
        "reason",
        "op",
        "numel",
        "code",
    )
    kwargs: dict[str, Any] = {k: d.get(k) for k in keys}
    kwargs["program_id"] = tuple(d.get("program_id") or (0, 0, 0))
    kwargs["strides_passed"] = d.get("strides_passed")
    kwargs["promise"] = d.get("promise")
    kwargs["caller"] = d.get("caller")
    for k in ("shape", "strides", "grid", "span"):
        kwargs[k] = tuple(d[k]) if d.get(k) is not None else None
    return OutOfBounds(**kwargs)


class WaitsForever(Exception):
    """A program of an interpreted launch repeats one atomic (or volatile load: `op`) at one line, and neither
    the memory nor what it returns changes: a spin-wait on other programs. The interpreter runs one program at
    a time, so no other program can ever change what it reads — it would spin until the timeout."""

    def __init__(
        self,
        kernel: str,
        file: str | None,
        line: int | None,
        program: tuple,
        grid: tuple,
        times: int,
        reversed_order: bool,
        op: str = "atomic",
    ):
        self.kernel, self.file, self.line, self.program, self.grid = kernel, file, line, program, grid
        self.times, self.reversed_order, self.op = times, reversed_order, op
        super().__init__(
            f"program {program} of {kernel} repeated the {op} at line {line} {times} times and nothing it "
            "reads changed: it waits for other programs that cannot run while it waits"
        )

    def to_dict(self) -> dict:
        return {
            "kernel": self.kernel,
            "line": self.line,
            "program_id": list(self.program),
            "grid": list(self.grid),
            "times": self.times,
            "order": "reversed" if self.reversed_order else "in-order",
            "op": self.op,
        }


_E = TypeVar("_E", bound=BaseException)


def _behind(exc: BaseException | None, cls: type[_E]) -> _E | None:
    """The `cls` exception behind `exc`, following __cause__ and __context__ (the interpreter wraps them)."""
    seen: set[int] = set()
    pending = [exc]
    while pending:
        e = pending.pop(0)
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, cls):
            return e
        pending.extend([e.__cause__, e.__context__])
    return None


def find_waits_forever(exc: BaseException | None) -> WaitsForever | None:
    """The WaitsForever behind `exc`."""
    return _behind(exc, WaitsForever)


def find_oob(exc: BaseException | None) -> OutOfBounds | None:
    """The OutOfBounds behind `exc`."""
    return _behind(exc, OutOfBounds)
