import ctypes

import torch


def add(x, y):
    ctypes.string_at(0)  # reads address 0: SIGSEGV
    return x + y
