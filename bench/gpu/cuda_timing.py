"""Timing for the PyTorch references in bench/gpu (torch-linear.py,
torch-softmax.py): CUDA events around each call, after warm-up; the
median in milliseconds."""
import statistics

import torch


def timed(fn, repeat=20, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times)
