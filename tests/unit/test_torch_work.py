"""engine/torch_work.py: which torch operators on the inputs' values count as the kernel's work done by torch:
what torch computed from the inputs counts once a learner kernel is handed it (a launch record's ptrs).

Each rule with a false-pass side (torch did the work: found) and a false-fail side (a wrapper's legitimate torch
calls: not found). The "learner" functions live in a file of their own, as a learner's wrapper does."""

import importlib.util
import textwrap

import pytest

torch = pytest.importorskip("torch")

from tritonlab.engine.torch_work import TorchWork  # noqa: E402

LEARNER = """
import torch
import torch.nn.functional as F


def lse_in_torch(logits, target):
    lse = torch.logsumexp(logits.float(), dim=1)
    return lse


def legit(logits, target):
    out = torch.empty_like(logits)              # allocation: no input values
    xf = logits.float().contiguous().view(-1)   # cast, copy, view
    padded = F.pad(logits, (0, 3))              # a pad
    scaled = logits * 0.5                       # elementwise arithmetic on an input
    assert int(target.max()) < logits.shape[1]  # validating integer class ids
    partial = torch.empty_like(logits)          # a kernel's scratch (stage 1 writes it) ...
    return partial


def second_stage(partial):
    return partial.sum(0)                        # ... and torch sums it (lesson 12's stage 2)


def grads_by_autograd(a, b, dc):
    with torch.enable_grad():
        a_ = a.detach().requires_grad_()
        b_ = b.detach().requires_grad_()
        return torch.autograd.grad(F.silu(a_) * b_, (a_, b_), dc)


def handed(x, y):
    return x + y                 # the answer, computed by torch, for a kernel to "guard"


def handed_copy(x):
    return x.float().contiguous().view(-1)


def scratch_after_free(x):
    tmp = x * 2.0
    del tmp
    return torch.empty_like(x)   # may reuse tmp's memory


def numpy_lse(x):
    import numpy as np

    return torch.from_numpy(np.logaddexp.reduce(x.numpy(), axis=1))


def numpy_into_a_view(x):
    import numpy as np

    lse = torch.empty(x.shape[0])
    host = x.numpy()
    lse.numpy()[:] = np.logaddexp.reduce(host, axis=1)
    return lse


def numpy_view_only_read(x):
    import numpy as np

    out = torch.zeros(x.shape[0])
    assert np.isfinite(x.numpy()).all() and not out.numpy().any()
    return out


def numpy_back_by_dlpack(x):
    import numpy as np

    return torch.from_dlpack(np.ascontiguousarray(np.exp(x.numpy())))


def numpy_back_by_frombuffer(x):
    import numpy as np

    return torch.frombuffer(bytearray(np.exp(x.numpy()).tobytes()), dtype=x.dtype)


def numpy_check_then_buffer(x):
    import numpy as np

    assert np.isfinite(x.numpy()).all()
    return torch.empty(x.shape[0])


def no_device(x):
    return torch.empty(x.shape, dtype=x.dtype)


def with_device(x):
    return torch.empty(x.shape, dtype=x.dtype, device=x.device)


def derived(x):
    shifted = x - 1.0        # elementwise: allowed, but its result still carries x's values
    return shifted.exp()     # the transcendental the kernel should compute


def softmax_in_a_string(x):
    scope = {"torch": torch, "x": x}
    exec(compile("ref = torch.softmax(x.float(), dim=-1)", "<softmax-helper>", "exec"), scope)
    return scope["ref"]


def softmax_under_a_file_name(x):
    scope = {"torch": torch, "x": x}
    exec(compile("ref = torch.softmax(x.float(), dim=-1)", "softmax_helper_not_on_disk.py", "exec"), scope)
    return scope["ref"]


def shapes_in_a_string(x):
    scope = {"torch": torch, "x": x}
    exec(compile("out = torch.empty_like(x.float()).view(-1)", "<shape-helper>", "exec"), scope)
    return scope["out"]
"""


@pytest.fixture(scope="module")
def learner(tmp_path_factory):
    path = tmp_path_factory.mktemp("learner") / "learner_file.py"
    path.write_text(textwrap.dedent(LEARNER))
    spec = importlib.util.spec_from_file_location("learner_file", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, str(path)


def _inputs():
    return {"logits": torch.randn(4, 8), "target": torch.randint(0, 8, (4,))}


def hand(launches: list, path: str, *tensors) -> None:
    """A learner launch given these tensors (what memcheck.track_launches records)."""
    launches.append({"file": path, "ptrs": [t.data_ptr() for t in tensors]})


def test_a_torch_reduction_on_an_input_is_found_with_the_learners_line(learner):
    module, path = learner
    inputs = _inputs()
    launches: list = []
    with TorchWork(path, inputs, lambda: launches) as work:
        lse = module.lse_in_torch(**inputs)
        hand(launches, path, lse, torch.empty(4))
    assert [(f["op"], f["input"]) for f in work.found] == [("logsumexp", "logits")]
    assert work.found[0]["line"] == 7  # the torch.logsumexp line of LEARNER
    # computed and never handed to a kernel (a wrapper's self-check): nothing
    with TorchWork(path, inputs, lambda: []) as work:
        module.lse_in_torch(**inputs)
    assert work.found == []


def test_allocations_casts_pads_scales_and_integer_checks_are_not_work(learner):
    module, path = learner
    inputs = _inputs()
    with TorchWork(path, inputs) as work:
        module.legit(**inputs)
    assert work.found == []


def test_a_buffer_a_learner_kernel_was_given_is_the_kernels(learner):
    """partial = torch.empty_like(x) carries nothing; even a buffer that held a copy of x is the kernel's once
    a learner launch was given it (the launch record's ptrs), so torch's second-stage sum is allowed."""
    module, path = learner
    inputs = _inputs()
    launches: list = []
    with TorchWork(path, inputs, lambda: launches) as work:
        partial = inputs["logits"].clone()  # tainted: a copy of the input's values
        launches.append({"file": path, "ptrs": [partial.data_ptr()]})
        module.second_stage(partial)
    assert work.found == []
    # the same sum handed to a kernel with no launch in between: torch summed the input's copy itself
    launches = []
    with TorchWork(path, inputs, lambda: launches) as work:
        total = module.second_stage(inputs["logits"].clone())
        hand(launches, path, total)
    assert [f["op"] for f in work.found] == ["sum"]


def test_a_launch_of_another_files_kernel_does_not_clear_the_taint(learner):
    module, path = learner
    inputs = _inputs()
    launches: list = []
    with TorchWork(path, inputs, lambda: launches) as work:
        copy = inputs["logits"].clone()
        launches.append({"file": "/elsewhere/kernels.py", "ptrs": [copy.data_ptr()]})
        total = module.second_stage(copy)
        hand(launches, path, total)
    assert [f["op"] for f in work.found] == ["sum"]


def test_gradients_from_torch_autograd_in_the_learners_backward_are_found(learner):
    module, path = learner
    a, b = torch.randn(3, 5), torch.randn(3, 5)
    launches: list = []
    with TorchWork(path, {"a": a, "b": b}, lambda: launches) as work:
        ga, gb = module.grads_by_autograd(a, b, torch.ones(3, 5))
        hand(launches, path, ga, gb)
    ops = {f["op"] for f in work.found}
    assert ops and all("silu" in op or op.endswith("_backward") for op in ops), ops
    assert {f["input"] for f in work.found} <= {"a", "b"}


def test_values_derived_from_an_input_keep_its_name(learner):
    module, path = learner
    x = torch.randn(6)
    launches: list = []
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        hand(launches, path, module.derived(x))
    assert [(f["op"], f["input"]) for f in work.found] == [("exp", "x")]


def test_the_labs_own_torch_calls_are_not_the_learners(learner):
    _, path = learner
    inputs = _inputs()
    with TorchWork(path, inputs) as work:
        torch.logsumexp(inputs["logits"], dim=1)  # this test file is not the learner's
    assert work.found == []


def test_a_value_torch_computed_from_inputs_and_handed_to_a_kernel_is_found(learner):
    """x + y is elementwise (allowed while it stays in the wrapper), but handed to a learner kernel that is not
    given x and y it is part of the answer torch computed: found, with `handed`. Given x and y too, it is a
    reference the kernel checks itself against (tamper corpus t37): not counted."""
    module, path = learner
    x, y = torch.randn(8), torch.randn(8)
    launches: list = []
    with TorchWork(path, {"x": x, "y": y}, lambda: launches) as work:
        answer = module.handed(x, y)
        launches.append({"file": path, "ptrs": [answer.data_ptr(), torch.empty(8).data_ptr()]})
    assert [(f["op"], f["input"], f.get("handed")) for f in work.found] == [("add", "x", True)]
    launches = []
    with TorchWork(path, {"x": x, "y": y}, lambda: launches) as work:
        answer = module.handed(x, y)
        launches.append({"file": path, "ptrs": [x.data_ptr(), y.data_ptr(), answer.data_ptr()]})
    assert work.found == []


def test_a_copy_of_an_input_handed_to_a_kernel_is_not_work(learner):
    module, path = learner
    x = torch.randn(4, 8, dtype=torch.float16)
    launches: list = []
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        copy = module.handed_copy(x)
        launches.append({"file": path, "ptrs": [copy.data_ptr()]})
    assert work.found == []


def test_a_fresh_buffer_at_a_freed_computed_tensors_address_is_not_work(learner):
    module, path = learner
    x = torch.randn(1024)
    launches: list = []
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        out = module.scratch_after_free(x)
        launches.append({"file": path, "ptrs": [x.data_ptr(), out.data_ptr()]})
    assert work.found == []


def test_a_numpy_result_of_input_values_handed_to_a_kernel_is_found(learner):
    module, path = learner
    x = torch.randn(3, 7)
    launches: list = []
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        lse = module.numpy_lse(x)
        launches.append({"file": path, "ptrs": [lse.data_ptr()]})
    assert [(f["op"], f["input"], f.get("handed")) for f in work.found] == [("numpy", "x", True)]
    assert "numpy" not in vars(torch.Tensor)  # restored as it was: TensorBase's method, no attribute added


def test_inputs_checked_in_numpy_then_a_torch_buffer_is_not_work(learner):
    module, path = learner
    x = torch.randn(3, 7)
    launches: list = []
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        out = module.numpy_check_then_buffer(x)
        launches.append({"file": path, "ptrs": [x.data_ptr(), out.data_ptr()]})
    assert work.found == []


def test_a_buffer_allocated_with_no_device_and_handed_to_a_kernel_is_noted(learner):
    module, path = learner
    x = torch.randn(5)
    for make, expected in ((module.no_device, 1), (module.with_device, 0)):
        launches: list = []
        with TorchWork(path, {"x": x}, lambda launches=launches: launches) as work:
            out = make(x)
            launches.append({"file": path, "ptrs": [x.data_ptr(), out.data_ptr()]})
        assert len(work.device_found) == expected, (make.__name__, work.device_found)


def test_the_perturbing_run_shifts_only_values_torch_computed_from_inputs(learner):
    """The second run of an excused self-check: computed values move by 1, copies and fresh buffers do not."""
    module, path = learner
    x, y = torch.zeros(4), torch.zeros(4)
    with TorchWork(path, {"x": x, "y": y}, perturb=True):
        answer = module.handed(x, y)
        copy = module.handed_copy(x)
        fresh = module.with_device(x)
    assert torch.equal(answer, torch.ones(4))  # x + y = 0, shifted to 1
    assert torch.equal(copy, torch.zeros(4)) and fresh.shape == x.shape


def test_torch_work_in_a_string_exec_is_named_at_the_line_that_ran_it(learner):
    """Probe round 10: a softmax compiled under the file name "<softmax-helper>" was nobody's line, so the
    buffer handed to a copy kernel went uncounted on fp16/bf16; the frames of string code are seen through to
    the learner's exec line. The false-fail side: a string that only allocates and reshapes is no work."""
    module, path = learner
    x = torch.randn(4, 8)
    launches: list = []
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        ref = module.softmax_in_a_string(x)
        hand(launches, path, ref, torch.empty(4))
    exec_line = (
        textwrap.dedent(LEARNER)
        .splitlines()
        .index(
            '    exec(compile("ref = torch.softmax(x.float(), dim=-1)", "<softmax-helper>", "exec"), scope)'
        )
        + 1
    )
    assert [(f["op"], f["line"]) for f in work.found] == [("_softmax", exec_line)]
    # probe round 11: the same under a file name that is on no disk
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        ref = module.softmax_under_a_file_name(x)
        hand(launches, path, ref)
    assert [f["op"] for f in work.found] == ["_softmax"]
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        out = module.shapes_in_a_string(x)
        hand(launches, path, out)
    assert work.found == []


OPS = """
import torch


@torch.library.custom_op("tritonlab_tw_test::exp_rows", mutates_args=())
def exp_rows(x: torch.Tensor) -> torch.Tensor:
    return torch.exp(x)          # the body computes with torch


@torch.library.custom_op("tritonlab_tw_test::scratch_like", mutates_args=())
def scratch_like(x: torch.Tensor) -> torch.Tensor:
    return torch.empty_like(x)   # the body only allocates


def call_exp(x):
    return torch.ops.tritonlab_tw_test.exp_rows(x)


def call_scratch(x):
    return torch.ops.tritonlab_tw_test.scratch_like(x)
"""


def test_an_operators_body_is_watched_and_the_operator_still_dispatches(tmp_path):
    """Probe round 9: lesson 12's backward operator computed dx and the dy * x_hat rows with torch in its
    body, unseen (a dispatch mode is off inside its own handler). The body now runs under a fresh mode, and a
    mode below still sees the operator itself (the lab's OpRecorder asks that the operator ran)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    path = tmp_path / "learner_ops.py"
    path.write_text(OPS)
    spec = importlib.util.spec_from_file_location("learner_ops", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    seen: list = []

    class Below(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func._schema.name))
            return func(*args, **(kwargs or {}))

    x = torch.randn(4, 8)
    launches: list = []
    with Below(), TorchWork(str(path), {"x": x}, lambda: launches) as work:
        out = module.call_exp(x)
        hand(launches, str(path), out)
    assert [(f["op"], f["line"]) for f in work.found] == [("exp", 7)]
    assert "tritonlab_tw_test::exp_rows" in seen
    with TorchWork(str(path), {"x": x}, lambda: launches) as work:
        out = module.call_scratch(x)
        hand(launches, str(path), out)
    assert work.found == []


def test_numpy_results_brought_back_another_way_or_written_into_a_view_are_found(learner):
    """Probe round 12: numpy's result came back by torch.from_dlpack, torch.frombuffer, or was written into a
    learner buffer through its numpy view (`lse.numpy()[:] = ...`), with no operator seeing it. Found like
    torch.from_numpy; a numpy view only read (a check, a print) is no work."""
    module, path = learner
    x = torch.randn(3, 7)
    for make in (module.numpy_into_a_view, module.numpy_back_by_dlpack, module.numpy_back_by_frombuffer):
        launches: list = []
        with TorchWork(path, {"x": x}, lambda launches=launches: launches) as work:
            made = make(x)
            launches.append({"file": path, "ptrs": [made.data_ptr()]})
        assert [(f["op"], f["input"]) for f in work.found] == [("numpy", "x")], make.__name__
    launches = []
    with TorchWork(path, {"x": x}, lambda: launches) as work:
        out = module.numpy_view_only_read(x)
        launches.append({"file": path, "ptrs": [x.data_ptr(), out.data_ptr()]})
    assert work.found == []
