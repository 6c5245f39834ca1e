import os

import torch


def add(x, y):
    print("about to exit")
    os._exit(3)
