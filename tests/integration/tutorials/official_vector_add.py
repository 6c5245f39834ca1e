# Official Triton tutorial, copied verbatim as a learner file for TritonLab's tests.
# Upstream: triton-lang/triton, python/tutorials/01-vector-add.py, commit 545699290b851e70231ee3017481851170f1583d
# (MIT licence). Exercise 5/add (entry `add(x, y)`, the tutorial's own name: no alias needed).
# Removed, and nothing else changed:
#   - the module docstring, kept below as the comment block "Vector Addition ...";
#   - the module-level unit test after the wrapper (torch.manual_seed(0); size = 98432; x = torch.rand(...);
#     y = ...; output_torch = x + y; output_triton = add(x, y); print(...) x3) and its "# %%" prose cells;
#   - the benchmark: @triton.testing.perf_report(...) def benchmark(size, provider): ... and
#     benchmark.run(print_data=True, show_plots=True), with their "# %%" prose cells.
#
# """
# Vector Addition
# ===============
#
# In this tutorial, you will write a simple vector addition using Triton.
#
# In doing so, you will learn about:
#
# * The basic programming model of Triton.
#
# * The `triton.jit` decorator, which is used to define Triton kernels.
#
# * The best practices for validating and benchmarking your custom ops against native reference implementations.
#
# """

# %%
# Compute Kernel
# --------------

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_kernel(x_ptr,  # *Pointer* to first input vector.
               y_ptr,  # *Pointer* to second input vector.
               output_ptr,  # *Pointer* to output vector.
               n_elements,  # Size of the vector.
               BLOCK_SIZE: tl.constexpr,  # Number of elements each program should process.
               # NOTE: `constexpr` so it can be used as a shape value.
               ):
    # There are multiple 'programs' processing different data. We identify which program
    # we are here:
    pid = tl.program_id(axis=0)  # We use a 1D launch grid so axis is 0.
    # This program will process inputs that are offset from the initial data.
    # For instance, if you had a vector of length 256 and block_size of 64, the programs
    # would each access the elements [0:64, 64:128, 128:192, 192:256].
    # Note that offsets is a list of pointers:
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    # Create a mask to guard memory operations against out-of-bounds accesses.
    mask = offsets < n_elements
    # Load x and y from DRAM, masking out any extra elements in case the input is not a
    # multiple of the block size.
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    # Write x + y back to DRAM.
    tl.store(output_ptr + offsets, output, mask=mask)


# %%
# Let's also declare a helper function to (1) allocate the `z` tensor
# and (2) enqueue the above kernel with appropriate grid/block sizes:


def add(x: torch.Tensor, y: torch.Tensor):
    # We need to preallocate the output.
    output = torch.empty_like(x)
    assert x.device == DEVICE and y.device == DEVICE and output.device == DEVICE
    n_elements = output.numel()
    # The SPMD launch grid denotes the number of kernel instances that run in parallel.
    # It is analogous to CUDA launch grids. It can be either Tuple[int], or Callable(metaparameters) -> Tuple[int].
    # In this case, we use a 1D grid where the size is the number of blocks:
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    # NOTE:
    #  - Each torch.tensor object is implicitly converted into a pointer to its first element.
    #  - `triton.jit`'ed functions can be indexed with a launch grid to obtain a callable GPU kernel.
    #  - Don't forget to pass meta-parameters as keywords arguments.
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    # We return a handle to z but, since `torch.cuda.synchronize()` hasn't been called, the kernel is still
    # running asynchronously at this point.
    return output
