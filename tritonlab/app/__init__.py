"""The Textual app. Talks to kernels only through `tritonlab.engine.client.WorkerClient`; never imports torch/triton."""
