import torch


def add(x, y):
    if x.shape != y.shape:
        raise ValueError("shapes differ")
    # a learner's "give up" that is not an Exception: it must be reported with this line, not kill the worker
    raise BaseException("not finished yet")
