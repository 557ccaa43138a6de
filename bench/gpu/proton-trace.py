#!/usr/bin/env python3
# A Proton intra-kernel trace of a Triton kernel, for testing klx's import
# of traces klx did not write (tests/fixtures/trace/h100-proton-matmul.*):
# a 1024^3 f16 matmul, 128 x 128 x 64 blocks, with Proton scopes around
# each k step's loads and MMA and around the store, recorded with
# backend="instrumentation", data="trace". Needs a GPU and Triton with
# Proton (3.6.0 on the H100 it was written on).
#   proton-trace.py OUT_DIR    writes OUT_DIR/proton_matmul.chrome_trace
import os
import sys

import torch
import triton
import triton.language as tl
import triton.profiler as proton
import triton.profiler.language as pl

# Proton's scopes in Triton kernels (not only Gluon ones).
if hasattr(pl, "enable_semantic"):
    pl.enable_semantic("triton")


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
           BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        pl.enter_scope("load")
        a = tl.load(a_ptr + rows[:, None] * K + (k + ks)[None, :])
        b = tl.load(b_ptr + (k + ks)[:, None] * N + cols[None, :])
        pl.exit_scope("load")
        pl.enter_scope("mma")
        acc = tl.dot(a, b, acc)
        pl.exit_scope("mma")
    pl.enter_scope("store")
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc.to(tl.float16))
    pl.exit_scope("store")


def main(out_dir):
    size = 1024
    a = torch.randn(size, size, device="cuda", dtype=torch.float16)
    b = torch.randn(size, size, device="cuda", dtype=torch.float16)
    c = torch.empty(size, size, device="cuda", dtype=torch.float16)
    print("torch", torch.__version__, "triton", triton.__version__,
          torch.cuda.get_device_name(0))
    proton.start(os.path.join(out_dir, "proton_matmul"), data="trace",
                 backend="instrumentation")
    matmul[(size // 128, size // 128)](a, b, c, size, size, size, BM=128,
                                       BN=128, BK=64)
    torch.cuda.synchronize()
    proton.finalize()
    # The kernel must still be right with the scopes in it.
    error = (c.float() - (a.float() @ b.float())).abs().max().item()
    print("largest difference from torch in f32:", error)
    return 0 if error < 0.25 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
