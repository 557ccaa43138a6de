// klx-lint: each lint once where it fires and once, on a near neighbour,
// where it must stay quiet. The shapes are those of MLIR's own GPU tests
// (gpu.launch bodies, gpu.func kernels with workgroup attributions,
// nvgpu mbarrier groups) and of hand-written warp-specialized kernels.
// RUN: klx-opt %s -split-input-file -klx-lint='chip=sm_90a' -verify-diagnostics

// Workgroup memory from memref.alloc inside a kernel: a device malloc.
gpu.module @kernels {
  // expected-note @below {{the kernel}}
  gpu.func @alloc_in_kernel(%out: memref<32xf32>) kernel {
    // expected-warning @below {{'memref.alloc' of workgroup memory inside a kernel does not make shared memory: it lowers to a call of the device malloc in each thread, global memory no other thread sees, so what one thread stores another never reads (LLVM may then drop those reads and what depends on them); declare the buffer as a workgroup(...) attribution of the gpu.func, or as a memref.global in address space 3 read with memref.get_global}}
    %tile = memref.alloc() : memref<32xf32, #gpu.address_space<workgroup>>
    %tx = gpu.thread_id x
    %v = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.return
  }
  // The same buffer declared as shared memory is what it says.
  gpu.func @attribution(%out: memref<32xf32>)
      workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) kernel {
    %tx = gpu.thread_id x
    %v = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tx] : memref<32xf32>
    gpu.return
  }
  // Global memory from memref.alloc is a device malloc, as written.
  gpu.func @global_alloc(%out: memref<32xf32>) kernel {
    %buffer = memref.alloc() : memref<32xf32>
    gpu.return
  }
}

// -----

// The gpu.launch form, with an integer address space 3.
func.func @host(%n: index) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-note @below {{the kernel}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-warning @below {{declare the buffer as a workgroup(...) attribution of the gpu.launch}}
    %tile = memref.alloc() : memref<32xf32, 3>
    gpu.terminator
  }
  // Host code may allocate what it likes.
  %host = memref.alloc() : memref<32xf32, 3>
  return
}

// -----

// A block barrier under a branch on the thread.
gpu.module @barriers {
  gpu.func @divergent(%flag: i1, %data: memref<128xf32>) kernel {
    // expected-note @below {{the thread is read here}}
    %tx = gpu.thread_id x
    %c64 = arith.constant 64 : index
    %low = arith.cmpi ult, %tx, %c64 : index
    // expected-note @below {{this 'scf.if' depends on 'gpu.thread_id'}}
    scf.if %low {
      // expected-warning @below {{'gpu.barrier' waits for every thread of the block, but it is under a condition that depends on the thread: threads that go the other way never arrive}}
      gpu.barrier
    }
    // A branch every thread takes alike (a kernel argument): quiet.
    scf.if %flag {
      gpu.barrier
    }
    // A condition read from memory: the lint cannot say, so it is quiet.
    %v = memref.load %data[%c64] : memref<128xf32>
    %zero = arith.constant 0.0 : f32
    %positive = arith.cmpf ogt, %v, %zero : f32
    scf.if %positive {
      gpu.barrier
    }
    // A named barrier for the threads that take the branch: what to do.
    %c1 = arith.constant 1 : i32
    %c64i = arith.constant 64 : i32
    scf.if %low {
      nvvm.barrier id = %c1 number_of_threads = %c64i
    }
    gpu.return
  }
}

// -----

// The thread index of a gpu.launch, through a loop bound.
func.func @launch_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // expected-note @below {{the thread is read here}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    // expected-note @below {{this 'scf.for' depends on the gpu.launch's thread index}}
    scf.for %i = %c0 to %tx step %c1 {
      // expected-warning @below {{but it is in a loop that depends on the thread}}
      gpu.barrier
    }
    // A loop every thread runs alike: quiet.
    scf.for %i = %c0 to %c32 step %c1 {
      gpu.barrier
    }
    gpu.terminator
  }
  return
}

// -----

// An mbarrier wait with a constant parity in a loop.
!barriers = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
gpu.module @parity {
  gpu.func @constant_parity(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %false = arith.constant false
    %ticks = arith.constant 10000000 : index
    %bars = nvgpu.mbarrier.create -> !barriers
    nvgpu.mbarrier.init %bars[%c0], %c1 : !barriers
    // expected-note @below {{the loop}}
    scf.for %k = %c0 to %n step %c1 {
      // expected-warning @below {{'nvgpu.mbarrier.try_wait.parity' waits for the constant parity 0 in every round of a loop: an mbarrier's phase flips each time it completes}}
      nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %ticks : !barriers
    }
    // The parity carried and flipped: quiet.
    %true = arith.constant true
    %last = scf.for %k = %c0 to %n step %c1 iter_args(%phase = %false) -> (i1) {
      nvgpu.mbarrier.try_wait.parity %bars[%c0], %phase, %ticks : !barriers
      %next = arith.xori %phase, %true : i1
      scf.yield %next : i1
    }
    // One round per barrier of the group (a prologue over the stages).
    scf.for %s = %c0 to %c2 step %c1 {
      nvgpu.mbarrier.try_wait.parity %bars[%s], %false, %ticks : !barriers
    }
    // More rounds than barriers: the first comes round again.
    // expected-note @below {{the loop}}
    scf.for %s = %c0 to %c8 step %c1 {
      %stage = arith.remui %s, %c2 : index
      // expected-warning @below {{waits for the constant parity 0 in every round}}
      nvgpu.mbarrier.try_wait.parity %bars[%stage], %false, %ticks : !barriers
    }
    // A barrier made again in each round starts at phase 0 each time.
    scf.for %k = %c0 to %n step %c1 {
      %fresh = nvgpu.mbarrier.create -> !barriers
      nvgpu.mbarrier.init %fresh[%c0], %c1 : !barriers
      nvgpu.mbarrier.try_wait.parity %fresh[%c0], %false, %ticks : !barriers
    }
    // Outside a loop: the first phase, as MLIR's TMA tests wait.
    nvgpu.mbarrier.try_wait.parity %bars[%c0], %false, %ticks : !barriers
    gpu.return
  }
}

// -----

// An AMD op for an NVIDIA chip.
gpu.module @vendor {
  gpu.func @mixed(%a: vector<4xf16>, %c: vector<16xf32>) kernel {
    // expected-warning @below {{'amdgpu.mfma' is an AMD op, and sm_90a is an NVIDIA chip; upstream's lowering of it fails or makes code the chip cannot run (1 more use below)}}
    %r = amdgpu.mfma 32x32x8 %a * %a + %c blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    %s = amdgpu.mfma 32x32x8 %a * %a + %r blgp = none : vector<4xf16>, vector<4xf16>, vector<16xf32>
    gpu.return
  }
}

// -----

// mma.sync fragments indexed by the thread index x: what
// transform.nvgpu.rewrite_matmul_as_mma_sync makes of a matmul whose warps
// were mapped to x. Right with 32 threads in x, wrong with more.
!a_frag = vector<4x2xf16>
!b_frag = vector<2x2xf16>
func.func @lanes(%a: memref<16x16xf16>, %b: memref<16x8xf16>,
                 %c: memref<16x8xf16>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  // expected-note @below {{the kernel}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    // expected-note @below {{the thread index x is read here}}
    %lane = gpu.thread_id x
    %row = affine.apply affine_map<()[s0] -> (s0 floordiv 4)>()[%lane]
    %x = memref.load %a[%row, %row] : memref<16x16xf16>
    %fa = vector.broadcast %x : f16 to !a_frag
    %y = memref.load %b[%row, %row] : memref<16x8xf16>
    %fb = vector.broadcast %y : f16 to !b_frag
    // expected-warning @below {{'nvgpu.mma.sync' takes each lane's fragment at the thread index x, but the block has 64 threads in x}}
    %d = nvgpu.mma.sync(%fa, %fb, %fb) {mmaShape = [16, 8, 16]}
        : (!a_frag, !b_frag, !b_frag) -> !b_frag
    gpu.terminator
  }
  // One warp in x, the others in y: the thread index x is the lane.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c32, %sz = %c1) {
    %row = affine.apply affine_map<()[s0] -> (s0 floordiv 4)>()[%tx]
    %x = memref.load %a[%row, %row] : memref<16x16xf16>
    %fa = vector.broadcast %x : f16 to !a_frag
    %fb = vector.broadcast %x : f16 to !b_frag
    %d = nvgpu.mma.sync(%fa, %fb, %fb) {mmaShape = [16, 8, 16]}
        : (!a_frag, !b_frag, !b_frag) -> !b_frag
    gpu.terminator
  }
  // 64 threads in x, the lane taken mod 32: what a hand-written kernel does.
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %lane = arith.remui %tx, %c32 : index
    %row = affine.apply affine_map<()[s0] -> (s0 floordiv 4)>()[%lane]
    %x = memref.load %a[%row, %row] : memref<16x16xf16>
    %fa = vector.broadcast %x : f16 to !a_frag
    %fb = vector.broadcast %x : f16 to !b_frag
    %d = nvgpu.mma.sync(%fa, %fb, %fb) {mmaShape = [16, 8, 16]}
        : (!a_frag, !b_frag, !b_frag) -> !b_frag
    gpu.terminator
  }
  return
}
