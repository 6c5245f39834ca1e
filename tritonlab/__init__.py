"""TritonLab: a terminal lab for learning to write Triton GPU kernels."""

__version__ = "0.1.0"
