"""Which names the loop rule compares (interpreter_support.carried_names): the names a GPU compile carries through a
loop — bound before it where the code generator still sees them, and assigned in its body. Python keeps every local
of an earlier trip or an earlier loop alive; a GPU compile does not, so those must not be compared (a false
refusal). The integration side is tests/integration/test_loop_carried_type.py."""

import ast
import textwrap

from tritonlab.engine.interpreter_support import assignment_lines, carried_names, loop_at, parse_type


def plan(source: str) -> dict[int, tuple[str, ...]]:
    func = ast.parse(textwrap.dedent(source)).body[0]
    return {line: names for (line, _), names in carried_names(func).items()}


def test_a_name_bound_before_and_assigned_in_the_body_is_carried():
    got = plan(
        """
        def k(x_ptr, n, BLOCK: tl.constexpr):
            m = -float("inf")
            l = 0.0
            for start in range(0, n, BLOCK):
                x = tl.load(x_ptr + start)
                m_new = tl.maximum(m, x)
                l = l + x
                m = m_new
        """
    )
    assert got == {5: ("l", "m")}  # not x or m_new (local to a trip), not start (the loop's own variable)


def test_a_local_of_an_earlier_trip_or_an_earlier_loop_is_not_carried():
    got = plan(
        """
        def k(x, n):
            for i in range(n):
                for j in range(2):
                    twice = x + x
                twice = 0.0
            for i in range(n):
                t = x
            for i in range(n):
                t = 0.0
        """
    )
    assert got == {3: (), 4: (), 7: (), 9: ()}


def test_a_runtime_if_carries_only_what_both_branches_bind_a_constexpr_if_either():
    got = plan(
        """
        def k(x, n, FLAG: tl.constexpr):
            if n > 0:
                a = 0.0
                b = 0.0
            else:
                a = 1.0
            if FLAG:
                c = 0.0
            for i in range(n):
                a = a + x
                b = b + x
                c = c + x
        """
    )
    assert got == {10: ("a", "c")}


def test_static_range_is_unrolled_and_while_is_compiled():
    got = plan(
        """
        def k(x, n):
            v = 0.0
            for i in tl.static_range(2):
                v = v + x
            w = 0.0
            while w < n:
                w = w + 1.0
        """
    )
    assert got == {7: ("w",)}


def test_the_new_value_is_followed_through_one_copy():
    tree = ast.parse(
        textwrap.dedent(
            """
            def k(x, n):
                m = 0.0
                for i in range(n):
                    m_new = tl.maximum(m, x)
                    m = m_new
                    s = 0.0
                    s += x
            """
        )
    )
    loop = loop_at(tree, 4)
    assert assignment_lines(loop, "m") == (6, 5, "m_new")
    assert assignment_lines(loop, "s") == (8, 8, None)
    assert assignment_lines(loop, "q") == (None, None, None)


def test_types_as_triton_prints_them():
    assert parse_type("fp32") == ([], "fp32")
    assert parse_type("<['64'], fp32>") == ([64], "fp32")
    assert parse_type("<['16', '64'], bf16>") == ([16, 64], "bf16")
    assert parse_type("<['8'], pointer<fp16>>") == ([8], "pointer<fp16>")
    assert parse_type("pointer<fp16>") == ([], "pointer<fp16>")
