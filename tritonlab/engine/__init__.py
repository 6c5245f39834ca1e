"""The engine: runs learner kernels in an isolated worker process.

Only `client` is imported by the UI process; everything else runs inside the worker (and may import
torch/triton).
"""
