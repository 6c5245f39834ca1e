"""The global rule and the code generator's node types on a real GPU (Triton's compile, not the interpreter's
stand-ins): every kernel the interpreter accepts passes, every one it refuses fails to compile with the same cause
(tests/integration/test_global_rule.py and test_unsupported_construct.py hold the files)."""

import pytest

from tests.integration import test_unsupported_construct as constructs
from tests.integration.test_global_rule import ACCEPTED, REFUSED
from tests.integration.test_global_rule import verify as _verify
from tritonlab.engine.client import WorkerClient

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def gpu_worker():
    client = WorkerClient(backend="gpu")
    yield client
    client.close()


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_accepted_globals_pass_on_the_gpu(gpu_worker, tmp_path, name):
    result = _verify(gpu_worker, tmp_path, name, ACCEPTED[name])
    assert result["passed"], (name, result.get("summary"), result.get("error"))


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_globals_do_not_compile_on_the_gpu(gpu_worker, tmp_path, name):
    text, global_name, plain, _value = REFUSED[name]
    result = _verify(gpu_worker, tmp_path, name, text)
    assert result["passed"] is False
    err = result["error"]
    assert (err["kind"], err.get("cause"), err.get("name")) == (
        "compile",
        "global-not-constexpr",
        global_name,
    ), err
    assert err["plain_function"] is plain


@pytest.mark.parametrize("name", sorted(constructs.ACCEPTED))
def test_accepted_constructs_pass_on_the_gpu(gpu_worker, tmp_path, name):
    result = _verify(gpu_worker, tmp_path, name, constructs.ACCEPTED[name])
    assert result["passed"], (name, result.get("summary"), result.get("error"))


@pytest.mark.parametrize("name", sorted(constructs.REFUSED))
def test_refused_constructs_do_not_compile_on_the_gpu(gpu_worker, tmp_path, name):
    text, construct, line_text = constructs.REFUSED[name]
    result = _verify(gpu_worker, tmp_path, name, text)
    assert result["passed"] is False
    err = result["error"]
    assert (err["kind"], err.get("cause"), err.get("construct")) == (
        "compile",
        "unsupported-construct",
        construct,
    )
    assert err["line"] == text.splitlines().index(line_text) + 1, err
