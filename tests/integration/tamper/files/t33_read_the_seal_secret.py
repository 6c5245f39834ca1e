# expect: runtime
# ruff: noqa  (a hostile learner file: its oddities are the point)
import os


def add(x, y):
    """Knows where the lab keeps its data (the test writes the path in): reads the progress seal's secret to
    forge a tick, and writes a progress file beside it."""
    with open(os.path.join("@DATA_DIR@", "secret-v1")) as handle:
        handle.read()
    with open(os.path.join("@DATA_DIR@", "progress-v1.json"), "w") as handle:
        handle.write("{}")
    return x + y
