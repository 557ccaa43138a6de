// Input of two-producers.mlir: the same kernel with one shared full barrier.
module attributes {klx.params = {producers = 2 : i64,
                                 shared_full_barrier = true}} {
  klx.kernel @gemm(%A: !klx.tensor, %B: !klx.tensor, %D: !klx.tensor,
                   %M: index, %N: index, %K: index) {
    klx.for_each_tile (%tm, %tn) in (%M, %N) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = klx.zero
      %k_tiles = klx.k_tiles %K
      %acc = scf.for %k = %c0 to %k_tiles step %c1
          iter_args(%partial = %zero) -> (!klx.acc) {
        %a = klx.load a %A[%tm, %k]
        %b = klx.load b %B[%k, %tn]
        %next = klx.mma %a, %b, %partial
        scf.yield %next : !klx.acc
      }
      klx.store %acc, %D[%tm, %tn]
    }
  }
}
