#!/usr/bin/env python3
"""PyTorch's classifier head, softmax(A B) along each row, bf16, on the GPU:
the unfused pair klx's classifier_head sample is measured against (cuBLAS's
GEMM, bf16 out, then PyTorch's softmax kernel over D). Checked against
float64 on sampled rows, then timed: CUDA events around each call, 20
after warm-up, the median printed as one JSON line per size (MxNxK).
"""
import json
import sys

import torch

from cuda_timing import timed


def main(sizes):
    torch.manual_seed(0)
    for size in sizes:
        m, n, k = (int(x) for x in size.split("x"))
        a = torch.empty(m, k, device="cuda").uniform_(-1, 1).bfloat16()
        b = torch.empty(k, n, device="cuda").uniform_(-1, 1).bfloat16()
        unfused = lambda: torch.softmax(torch.mm(a, b), dim=-1)
        gemm = lambda: torch.mm(a, b)
        rows = torch.arange(0, m, max(1, m // 16), device="cuda")
        want = torch.softmax(a[rows].double() @ b.double(), dim=-1)
        got = unfused()[rows].double()
        result = {"size": size, "device": torch.cuda.get_device_name(),
                  "torch": torch.__version__,
                  "rel_error": ((got - want).norm() / want.norm()).item(),
                  "unfused_ms": timed(unfused), "gemm_ms": timed(gemm)}
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["8192x256x8192", "4096x200x4096"])
