#!/usr/bin/env python3
"""PyTorch's linear layer with bias and GELU (tanh), bf16, on the GPU: the
references klx's fused sample (samples/nvidia/linear_gelu.mlir) is measured
against besides the cuBLASLt GELU_BIAS matmul klx-run times in-process.

  unfused    torch.mm (cuBLAS, bf16 out), then bias add and GELU as PyTorch's
             own elementwise kernels: the GEMM and a separate pass over D
  addmm+gelu torch.addmm (cuBLASLt with the bias fused), then GELU
  fused      torch._addmm_activation(use_gelu=True): cuBLASLt's GELU_BIAS

Each is checked against float64 on sampled rows, then timed: CUDA events
around each launch, 20 after warm-up, the median printed as one JSON line
per size. Run it in several processes and take the median of medians
(bench/gpu/linear-gelu.sh does).
"""
import json
import sys

import torch
import torch.nn.functional as F

from cuda_timing import timed


def main(sizes):
    torch.manual_seed(0)
    for size in sizes:
        m, n, k = (int(x) for x in size.split("x"))
        a = torch.empty(m, k, device="cuda").uniform_(-1, 1).bfloat16()
        b = torch.empty(k, n, device="cuda").uniform_(-1, 1).bfloat16()
        bias = torch.empty(n, device="cuda").uniform_(-1, 1) * (k / 9) ** 0.5
        bias16 = bias.bfloat16()
        ways = {
            "unfused": lambda: F.gelu(torch.mm(a, b) + bias16, approximate="tanh"),
            "addmm+gelu": lambda: F.gelu(torch.addmm(bias16, a, b), approximate="tanh"),
            "fused": lambda: torch._addmm_activation(bias16, a, b, use_gelu=True),
        }
        rows = torch.arange(0, m, max(1, m // 16), device="cuda")
        want = F.gelu(a[rows].double() @ b.double() + bias16.double(), approximate="tanh")
        result = {"size": size, "device": torch.cuda.get_device_name(),
                  "torch": torch.__version__}
        for name, fn in ways.items():
            got = fn()[rows].double()
            error = ((got - want).norm() / want.norm()).item()
            ms = timed(fn)
            result[name] = {"ms": ms, "tflops": 2 * m * n * k / ms / 1e9,
                            "rel_error": error}
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["8192x8192x8192", "4096x4096x4096"])
