import os

import torch


def add(x, y):
    out = x + y
    os._exit(3)  # skips every handler: the crash report still names this line
    return out
