"""contracts._output_layout: the output-layout fact says what the strides show — transposed, padded rows (a slice
of a wider buffer, with the entry's line that makes it), or only its strides — and guesses torch.empty_like only
when an input has the output's shape and strides (probe round 16a finding 3)."""

from types import SimpleNamespace

import torch

from tritonlab.engine import contracts

EXERCISE = SimpleNamespace(entry="copy_2d")

SOURCE = """
import torch


def copy_2d(x):
    n_rows, n_cols = x.shape
    padded = torch.empty((n_rows, 16))
    output = padded[:, :n_cols]
    return output
"""


def test_padded_rows_are_a_slice_named_at_its_line(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text(SOURCE)
    x = torch.zeros(7, 13)
    got = torch.empty(7, 16)[:, :13]
    fact = contracts._output_layout(EXERCISE, {"x": x}, got, str(path))
    assert fact["padded"] and not fact["transposed"] and fact["like"] is None, fact
    assert fact["line"] == 8 and fact["source"] == "output = padded[:, :n_cols]", fact
    assert "empty_like" not in fact["message"] and "wider buffer" in fact["message"], fact


def test_empty_like_is_guessed_only_for_an_input_with_the_outputs_strides():
    odd = torch.empty(7, 26)[:, ::2]  # strides (26, 2): not padded rows, not transposed
    twin = torch.zeros(7, 26)[:, ::2]
    fact = contracts._output_layout(EXERCISE, {"x": twin}, odd, None)
    assert not fact["padded"] and not fact["transposed"] and fact["like"] == "x", fact
    assert "empty_like keeps x's layout" in fact["message"], fact
    fact = contracts._output_layout(EXERCISE, {"x": twin.contiguous()}, odd, None)
    assert fact["like"] is None and "empty_like" not in fact["message"], fact


def test_no_line_without_a_returned_slice(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text(SOURCE.replace("padded[:, :n_cols]", "padded.narrow(1, 0, n_cols)"))
    got = torch.empty(7, 16)[:, :13]
    fact = contracts._output_layout(EXERCISE, {}, got, str(path))
    assert fact["padded"] and "line" not in fact, fact
