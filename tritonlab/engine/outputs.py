"""Verify beyond one output tensor: several outputs, gradients, registered operators — all as lesson data.

Lessons 1-10 return one tensor and verify compares it with one reference. Lessons 11-12 need more, and adding
a lesson must stay adding a folder, so `[exercise.verify]` says what to compare and this module does it:

    outputs     = ["o", "lse"]        the wrapper returns a tuple, the reference expression too, in this order
    mode        = "grad"              call the wrapper, then .backward(dy) through it (the learner's autograd)
    grad_inputs = ["x", "w"]          the inputs whose .grad is compared; outputs become out, grad_x, grad_w
    grad_output = "randn"             how dy is made (seeded, the forward output's shape, dtype): randn | ones
    output_tolerance = { grad_w = { float16 = { atol = …, rtol = … } } }
                                      per output, over the per-dtype default
    deterministic = true              a second identical run must give the same bits (no atomics): every
                                      case on a GPU; on the interpreter one case, its programs reversed
    ops         = ["ns::name", …]     these operators must be dispatched during the call (torch.library ops)
    compile     = true                on a GPU, torch.compile(fullgraph=True) of the wrapper must match eager

Each output is compared on its own (shape, dtype, unwritten elements, values) and every fact says which output
it is about; the words are made by the UI. A `Plan` is None for a plain one-tensor exercise, so the old path
is untouched.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import zlib

import torch

from tritonlab.engine.diagnose import diagnose


def _changed(now: torch.Tensor, before: torch.Tensor) -> int:
    """Elements that differ (NaN equal to NaN): how much of a tensor a call wrote over."""
    if now.shape != before.shape or now.dtype != before.dtype:
        return max(now.numel(), 1)
    same = (
        (now == before) | (torch.isnan(now) & torch.isnan(before))
        if now.is_floating_point()
        else now == before
    )
    return int((~same).sum())


@dataclasses.dataclass
class Plan:
    names: list[str]  # one per compared tensor, in the order the (wrapped) call returns them
    grad_inputs: list[str]  # empty unless mode = "grad"
    input_names: list[str]  # the wrapper's positional arguments, in order
    grad_output: str = "randn"
    seed: int = 0
    # the gradient each leaf received in the last backward (an input name -> the tensor autograd passed on
    # from the learner's backward, before accumulating it): what the runner asks "did a kernel write it?"
    received: dict = dataclasses.field(default_factory=dict)
    # elements of dy (the gradient .backward handed the learner's backward) that differ after it: the backward
    # wrote into its incoming gradient
    upstream_changed: int = 0

    @staticmethod
    def for_exercise(exercise, seed: int = 0) -> Plan | None:
        spec = exercise.verify
        mode = getattr(spec, "mode", "values")
        names = list(getattr(spec, "outputs", None) or [])
        if mode != "grad" and not names and not getattr(spec, "ops", None):
            return None
        grad_inputs = list(getattr(spec, "grad_inputs", None) or []) if mode == "grad" else []
        if mode == "grad":
            names = (names or ["out"])[:1] + [f"grad_{name}" for name in grad_inputs]
        return Plan(
            names=names or ["out"],
            grad_inputs=grad_inputs,
            input_names=[i.name for i in exercise.inputs],
            grad_output=getattr(spec, "grad_output", "randn") or "randn",
            seed=seed,
        )

    # --- calling
    # ------------------------------------------------------------------------------------------------
    def wrap(self, fn):
        """fn(*inputs, **kw) -> a tuple of tensors (or None for a missing gradient), one per name."""
        if not self.grad_inputs:

            def call_values(*args, **kwargs):
                result = fn(*args, **kwargs)
                return tuple(result) if isinstance(result, (tuple, list)) else (result,)

            return call_values

        def call_with_backward(*args, **kwargs):
            args = list(args)
            leaves = []
            for name in self.grad_inputs:
                index = self.input_names.index(name)
                leaf = (
                    args[index].detach().requires_grad_(True)
                )  # shares memory: guard zones and poison still apply
                args[index] = leaf
                leaves.append(leaf)
                self.received.pop(name, None)
                leaf.register_hook(functools.partial(self._received, name))
            out = fn(*args, **kwargs)
            # one forward output: a tuple or a list (`return y, rstd`) is the wrong return type, not its
            # first element (taking out[0] passed a wrapper that returned torch.ops' whole (y, rstd) pair)
            if not isinstance(out, torch.Tensor):
                return (out,) + (None,) * len(leaves)
            if not out.requires_grad:
                raise NotDifferentiable()
            from tritonlab.engine import memcheck

            dy = self.upstream(out)
            kept = dy.detach().clone()
            with memcheck.phase("backward"):  # the launches in here are the backward's own
                out.backward(dy)
            self.upstream_changed = _changed(dy.detach(), kept)
            return (out.detach(),) + tuple(leaf.grad for leaf in leaves)

        return call_with_backward

    def _received(self, name: str, grad):
        self.received[name] = grad
        return None  # the gradient goes on unchanged

    def upstream(self, out: torch.Tensor) -> torch.Tensor:
        """dy for .backward: seeded, so the learner's run and the reference get the very same values."""
        # Made on the output's device (the judge's reference runs on the same device as the learner's call):
        # a float64 randn on the CPU took 0.12 s per 8192x4096 dy, 7.8 s of a lesson 12 GPU verify (H200).
        if self.grad_output == "ones":
            return torch.ones(out.shape, dtype=out.dtype, device=out.device)
        gen = torch.Generator(device=out.device).manual_seed(
            self.seed * 1_000_003 + zlib.crc32(b"grad_output")
        )
        values = torch.randn(out.shape, generator=gen, dtype=torch.float32, device=out.device)
        return values.to(dtype=out.dtype)

    def reference(self, exercise, inputs: dict, params: dict, kwargs: dict) -> tuple:
        """The reference expression through the same call (and the same backward), on fresh copies of the
        inputs."""
        from tritonlab.engine import exercise_env

        def expression(*args, **kw):
            names = dict(zip(self.input_names, args, strict=False))
            return exercise_env.reference(exercise, names, params, kw)

        copies = [v.detach().clone() if isinstance(v, torch.Tensor) else v for v in inputs.values()]
        with torch.enable_grad():
            result = self.wrap(expression)(*copies, **kwargs)
        return tuple(t.detach() if isinstance(t, torch.Tensor) else t for t in result)

    # --- comparing
    # ----------------------------------------------------------------------------------------------
    def compare(
        self, got, expected: tuple, tolerances: dict, diagnoses: list, case: dict, unwritten=None
    ) -> None:
        """Per-output facts into case["outputs"]; diagnoses carry "output": name. `tolerances`: name -> (atol,
        rtol). `unwritten(tensor)` -> bool mask of poisoned (never written) elements, or None."""
        rows = case.setdefault("outputs", [])
        got = tuple(got) if isinstance(got, (tuple, list)) else (got,)
        if len(got) != len(self.names):
            diagnoses.append(
                {
                    "kind": "wrong-outputs",
                    "got": len(got),
                    "expected": len(self.names),
                    "names": list(self.names),
                    "message": f"the wrapper returned {len(got)} values, expected {len(self.names)} "
                    f"({', '.join(self.names)})",
                }
            )
            return
        worst_abs = worst_rel = None
        mismatches = 0
        for name, mine, ref in zip(self.names, got, expected, strict=False):
            atol, rtol = _tolerance(tolerances, name)
            row = {"name": name, "passed": False, "atol": atol, "rtol": rtol}
            rows.append(row)
            found = _check_tensor(name, mine, ref)
            if found:
                diagnoses.extend(found)
                continue
            mask = unwritten(mine) if (unwritten is not None and mine.numel()) else None
            report = diagnose(mine.detach(), ref.to(mine.device), atol=atol, rtol=rtol, unwritten_mask=mask)
            for key in ("max_abs_err", "max_rel_err", "mismatches", "first"):
                row[key] = report.get(key)
            for diag in report.get("diagnoses", []):
                diag["output"] = name
                if name.startswith("grad") and diag.get("cause") == "all-wrong":
                    # the forward's output is compared on its own: argument order and dtype are not it
                    diag["message"] = (
                        diag.get("message", "").split(":", 1)[0] + ": every element of this gradient is "
                        "wrong — check its formula in the backward"
                    )
                diag["message"] = f"{name}: {diag.get('message', '')}"
                diagnoses.append(diag)
            row["passed"] = not report.get("diagnoses")
            mismatches += int(report.get("mismatches") or 0)
            worst_abs = _max(worst_abs, report.get("max_abs_err"))
            worst_rel = _max(worst_rel, report.get("max_rel_err"))
        case.update(max_abs_err=worst_abs, max_rel_err=worst_rel, mismatches=mismatches)
        self._swapped(got, expected, tolerances, rows, diagnoses)

    def _swapped(self, got: tuple, expected: tuple, tolerances: dict, rows: list, diagnoses: list) -> None:
        """Two failing outputs that each hold the other's expected values: returned in the wrong order
        (`return db, da` for (grad_a, grad_b)). Their mismatches become cause `swapped`, naming the other."""
        failing = [i for i, row in enumerate(rows) if not row["passed"] and i < len(got)]
        for i, j in itertools.combinations(failing, 2):
            a, b, ea, eb = got[i], got[j], expected[i], expected[j]
            tensors = all(isinstance(t, torch.Tensor) for t in (a, b, ea, eb))
            if not tensors or a.shape != eb.shape or b.shape != ea.shape or a.shape == (0,):
                continue
            other_for_i = _holds(a, eb, _tolerance(tolerances, self.names[j]))
            if not other_for_i or not _holds(b, ea, _tolerance(tolerances, self.names[i])):
                continue
            for diag in diagnoses:
                name = diag.get("output")
                if diag.get("kind") == "mismatch" and name in (self.names[i], self.names[j]):
                    other = self.names[j] if name == self.names[i] else self.names[i]
                    diag.update(cause="swapped", swapped_with=other)
                    body = str(diag.get("message", "")).removeprefix(f"{name}: ")
                    diag["message"] = (
                        f"{name}: {body.split(':')[0]}: it holds the expected {other}, and {other} holds "
                        f"the expected {name} — the two are returned in the wrong order"
                    )
            return

    def compare_bits(self, first, second, diagnoses: list, order: str = "same") -> None:
        """Two runs on identical inputs: the same bits, output by output (deterministic = true). `order`:
        "same" (a GPU, where the order changes by itself) or "reversed" (the interpreter ran the second one's
        programs in reverse order)."""
        for name, a, b in zip(self.names, first, second, strict=False):
            if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) and a.shape == b.shape:
                same = torch.equal(a, b) or torch.equal(torch.nan_to_num(a), torch.nan_to_num(b))
                if not same:
                    differ = int((a != b).sum())
                    how = (
                        "with the programs run in reverse order"
                        if order == "reversed"
                        else "on the same inputs"
                    )
                    diagnoses.append(
                        {
                            "kind": "nondeterministic",
                            "output": name,
                            "changed": differ,
                            "order": order,
                            "message": f"{name}: two runs {how} differ in {differ} elements — the "
                            "result depends on the order programs run in (atomics, or a program reading "
                            "another's result)",
                        }
                    )


def _tolerance(tolerances: dict, name: str) -> tuple[float, float]:
    """(atol, rtol) of one output: its own, else the exercise's ("*"), else float32's."""
    return tolerances.get(name, tolerances.get("*", (1e-5, 1.3e-6)))


def _holds(mine: torch.Tensor, expected: torch.Tensor, tol: tuple[float, float]) -> bool:
    """Every element of `mine` within (atol, rtol) of `expected`."""
    atol, rtol = tol
    return torch.allclose(mine.detach().float(), expected.to(mine.device).float(), atol=atol, rtol=rtol)


class NotDifferentiable(RuntimeError):
    """The wrapper's output is not connected to autograd: no backward can reach the learner's gradients."""

    def __init__(self):
        super().__init__(
            "the wrapper's output does not require grad: call your torch.autograd.Function with "
            "Function.apply(...) (or the registered operator), not the kernels directly"
        )


def tolerances(exercise, plan: Plan, dtype: str, default: tuple[float, float]) -> dict:
    """name -> (atol, rtol): the per-output override for this dtype, else the exercise's per-dtype
    tolerance."""
    per_output = getattr(exercise.verify, "output_tolerance", None) or {}
    result = {}
    for name in plan.names:
        custom = (per_output.get(name) or {}).get(dtype) or {}
        result[name] = (float(custom.get("atol", default[0])), float(custom.get("rtol", default[1])))
    return result


class OpRecorder:
    """Records the operator names dispatched while active (e.g. 'tritonlab_l12::rms_norm_fwd'), to check that
    the learner's registered operators really carry the computation."""

    def __init__(self, wanted: list[str]):
        self.wanted = list(wanted)
        self.seen: set[str] = set()
        #: [{op, arg}]: a tensor argument the operator changed while its schema does not declare it mutated
        #: (mutates_args={} over a kernel that stores into an input): torch.compile may reorder or drop it
        self.mutated: list[dict] = []
        self._mode = None

    def __enter__(self):
        if not self.wanted:  # nothing to check: no dispatch mode, no per-op Python overhead
            return self
        from torch.utils._python_dispatch import TorchDispatchMode

        from tritonlab.engine import op_launches

        seen, wanted, mutated = self.seen, set(self.wanted), self.mutated

        class _Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                seen.add(str(func.name()))  # "aten::add.Tensor": with the overload
                op = str(func._schema.name)  # "aten::add": the operator, any overload
                seen.add(op)
                if op in wanted:  # its body runs in here: a kernel it launches must go through wrap_triton
                    kept = _undeclared_copies(func, args, kwargs or {})
                    with op_launches.inside(op):
                        out = func(*args, **(kwargs or {}))
                    for name, (now, before) in kept.items():
                        if not _same_values(now, before) and {"op": op, "arg": name} not in mutated:
                            mutated.append({"op": op, "arg": name})
                    return out
                return func(*args, **(kwargs or {}))

        self._mode = _Mode()
        self._mode.__enter__()
        return self

    def __exit__(self, *exc):
        if self._mode is not None:
            self._mode.__exit__(*exc)
        return False

    def missing(self) -> list[str]:
        return [name for name in self.wanted if name not in self.seen]


def _undeclared_copies(func, args: tuple, kwargs: dict) -> dict:
    """name -> (tensor, a copy of it) for each tensor argument the operator's schema does not mark as
    written (no `Tensor(a!)`): what the call must leave unchanged."""
    kept: dict = {}
    try:
        params = list(func._schema.arguments)
    except Exception:  # noqa: BLE001 - no schema to read: nothing to check
        return kept
    for index, param in enumerate(params):
        value = args[index] if index < len(args) else kwargs.get(param.name)
        alias = getattr(param, "alias_info", None)
        if isinstance(value, torch.Tensor) and not (alias is not None and alias.is_write):
            kept[param.name] = (value, value.detach().clone())
    return kept


def _same_values(now, before) -> bool:
    a = now.detach()
    if a.is_floating_point():
        return bool(
            torch.equal(torch.isnan(a), torch.isnan(before))
            and torch.equal(a.nan_to_num(), before.nan_to_num())
        )
    return bool(torch.equal(a, before))


def op_diagnoses(recorder: OpRecorder, learner_file: str) -> list[dict]:
    """An operator that was never called, or one that ran but was registered by another file (a worker process
    keeps operators registered by files it loaded before: the solution's must not pass for the learner's)."""
    from tritonlab.engine.learner import same_file

    found = [
        {
            "kind": "op-not-used",
            "op": name,
            "message": f"the operator {name} was not called: "
            "register it with torch.library.triton_op and call it "
            f"as torch.ops.{name.replace('::', '.')}(...)",
        }
        for name in recorder.missing()
    ]
    for name in recorder.wanted:
        origin = op_origin(name)
        if name in recorder.seen and origin and not same_file(origin, learner_file):
            found.append(
                {
                    "kind": "op-not-yours",
                    "op": name,
                    "origin": origin,
                    "message": f"the operator {name} that ran was registered by {origin}, not by your file: "
                    "register it in your file with @triton_op",
                }
            )
    return found


def op_origin(name: str) -> str | None:
    """The file whose function a torch.library custom/triton op runs (None when torch does not say)."""
    try:
        from torch._library.custom_ops import OPDEFS
    except Exception:
        return None
    opdef = OPDEFS.get(name)
    fn = getattr(opdef, "_init_fn", None)
    candidates = [fn] + [cell.cell_contents for cell in (getattr(fn, "__closure__", None) or ())]
    for candidate in candidates:
        code = getattr(candidate, "__code__", None)
        if code is not None and "/torch/" not in code.co_filename.replace("\\", "/"):
            return code.co_filename
    return None


def op_registration(name: str) -> str | None:
    """How the operator `name` was registered: "triton_op" (torch.library.triton_op: torch.compile traces its
    wrap_triton launches), "custom_op" (torch.library.custom_op: a black box to torch.compile), "library"
    (torch.library.define / Library.impl, outside torch's op definitions), or None when this torch has no
    triton_op or the operator does not exist."""
    try:
        import torch.library as library
        from torch._library.custom_ops import OPDEFS
    except Exception:
        return None
    if not hasattr(library, "triton_op"):
        return None
    opdef = OPDEFS.get(name)
    if opdef is None:
        namespace, _, op = name.partition("::")
        try:
            getattr(getattr(torch.ops, namespace), op)
        except Exception:  # noqa: BLE001 - never defined: op-not-used says so
            return None
        return "library"
    init = getattr(opdef, "_init_fn", None)
    if str(getattr(init, "__qualname__", "")).startswith("triton_op."):
        return "triton_op"
    dispatch = getattr(opdef, "_torch_dispatch_fns", None) or {}
    if any(getattr(mode, "__name__", "") == "FunctionalTensorMode" for mode in dispatch):
        return "triton_op"  # what triton_op adds to the custom_op it makes, in any torch that has it
    return "custom_op"


def _check_tensor(name: str, got, expected) -> list[dict]:
    if got is None:
        return [
            {
                "kind": "no-gradient",
                "output": name,
                "message": f"{name}: no gradient reached this input — the backward returned None for it",
            }
        ]
    if not isinstance(got, torch.Tensor):
        return [
            {
                "kind": "wrong-shape",
                "output": name,
                "got_type": type(got).__name__,
                "message": f"{name}: got {type(got).__name__}, not a torch.Tensor",
            }
        ]
    found = []
    if tuple(got.shape) != tuple(expected.shape):
        found.append(
            {
                "kind": "wrong-shape",
                "output": name,
                "got": list(got.shape),
                "expected": list(expected.shape),
                "message": f"{name}: shape {tuple(got.shape)}, expected {tuple(expected.shape)}",
            }
        )
    if got.dtype != expected.dtype:
        found.append(
            {
                "kind": "wrong-dtype",
                "output": name,
                "got": str(got.dtype),
                "expected": str(expected.dtype),
                "message": f"{name}: dtype {str(got.dtype).replace('torch.', '')}, expected "
                f"{str(expected.dtype).replace('torch.', '')}",
            }
        )
    if got.device.type != expected.device.type:
        found.append(
            {
                "kind": "wrong-device",
                "output": name,
                "message": f"{name}: on {got.device}, expected {expected.device}",
            }
        )
    return found


def _max(a, b):
    if b is None:
        return a
    return b if a is None else max(a, b)


def wrapped(loaded, plan: Plan | None):
    """The loaded exercise with its wrapper called through the plan (a tuple back), or unchanged without a
    plan."""
    return loaded if plan is None else dataclasses.replace(loaded, wrapper=plan.wrap(loaded.wrapper))
