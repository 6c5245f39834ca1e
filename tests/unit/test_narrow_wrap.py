"""OutOfBounds.narrow_wrap (probe round 16a finding 4c): offsets before the tensor that are offsets inside it
minus 2**16 (or 2**8), in a file whose kernel casts to that type, are said as int16 (int8) offsets that wrapped,
at the cast's line; without such a cast, or when the offsets do not fit, the usual 'negative offsets'."""

from tritonlab.engine.memcheck.report import OutOfBounds, _narrow_cast
from tritonlab.present.diagnoses import describe

KERNEL = """import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = (pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)).to(tl.int16)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
"""


def _oob(file, span, extent=98432):
    return OutOfBounds(
        access="load",
        kernel="square_kernel",
        arg="x_ptr",
        program_id=(32, 0, 0),
        lanes=1024,
        offsets=list(range(span[0], span[0] + 8)),
        extent=extent,
        numel=extent,
        shape=(extent,),
        strides=(1,),
        reason="before_start",
        span=span,
        file=file,
        line=10,
    )


def test_int16_offsets_that_wrapped_are_named_at_the_cast(tmp_path):
    path = tmp_path / "learner.py"
    path.write_text(KERNEL)
    oob = _oob(str(path), (-32768, -31745))
    assert oob.narrow_wrap == {
        "bits": 16,
        "offset": 32768,
        "cast_line": 8,
        "cast": "offsets = (pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)).to(tl.int16)",
    }
    assert "int16" in oob.message and "line 8" in oob.message, oob.message
    said = describe({"kind": "oob", "message": "x", "detail": oob.to_dict()}, "en")
    assert "narrowed to int16 at line 8" in said, said
    assert "int16" in describe({"kind": "oob", "message": "x", "detail": oob.to_dict()}, "ja")


def test_without_a_narrow_cast_or_a_fitting_offset_it_stays_negative_offsets(tmp_path):
    plain = tmp_path / "plain.py"
    plain.write_text(KERNEL.replace(".to(tl.int16)", ""))
    assert _narrow_cast(str(plain), 16) is None
    oob = _oob(str(plain), (-32768, -31745))
    assert oob.narrow_wrap is None and "negative offsets" in oob.message
    cast = tmp_path / "learner.py"
    cast.write_text(KERNEL)
    # -5 + 2**16 lies past a tensor of 40,000 elements; -70,000 + 2**16 is still negative
    assert _oob(str(cast), (-5, -1), extent=40000).narrow_wrap is None
    assert _oob(str(cast), (-70000, -69000)).narrow_wrap is None
