import torch
import triton
import triton.language as tl


def add(x, y):
    if x.shape != y.shape:
        raise ValueError("shapes differ")
    total = x.numel() / undefined_name
    return x
