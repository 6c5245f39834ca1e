"""The Textual app. Talks to kernels only through `tritonlab.engine.lab.Lab`; never imports torch/triton."""
