# Sourced by the GPU benchmarks (gemm-8192.sh, linear-gelu.sh, ladder.sh,
# multi-gpu.sh)
# with $root set to the repository: builds klx-run from runtime/ into
# /tmp/klx-build-run (bench/gpu/build-runner.sh; exits 2 where it cannot),
# exports KLX_CUBLAS, sets KLX_RUN, and defines `card`, the GPU's state in
# one CSV line (name, driver, clocks, memory clock, temperature, power,
# performance state), printed before and after a run.
KLX_CUBLAS=$(bash "$root/bench/gpu/build-runner.sh" /tmp/klx-build-run) || exit 2
export KLX_CUBLAS
KLX_RUN=/tmp/klx-build-run/bin/klx-run
card() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,pstate \
    --format=csv,noheader
}
