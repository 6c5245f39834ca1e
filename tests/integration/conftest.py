"""The integration tests' worker: one interpreter worker per test module (module scope: a test that breaks its
worker breaks only its own module's).

Its verdicts are the interpreter's (out-of-bounds lines, recorded stores): what a learner without a GPU sees. A GPU
names some of them only after the app's interpreter replay or audit, which a bare worker request does not run, and
adds checks the interpreter skips (lesson 12's determinism and torch.compile). A module that wants the backend the
machine has defines its own `worker` (backend "auto")."""

import pytest

from tritonlab.engine.client import WorkerClient


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="interpreter")
    yield client
    client.close()
