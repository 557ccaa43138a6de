// klx-to-nvgpu{instrument}: the kernel takes a trace buffer and its capacity
// (events per warp) as its last two parameters. Each traced CTA owns a slot
// of 6 header words + 12 warps x (1 + capacity): thread 0 stamps
// globaltimer, clock64 and smid at the start (and the first two before
// returning); each warp counts its events in an alloca (a register once
// LLVM promotes it) and builds clock << 32 | stage << 8 | kind in every
// thread; only its writer stores it (one guarded 8-byte store), or past the
// capacity its count in the warp's first word instead. A barrier wait is
// recorded only where a non-blocking mbarrier.test_wait finds its phase
// incomplete.
// RUN: klx-opt %samples/nvidia/gemm_ws_persistent.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent "--klx-to-nvgpu=instrument=true" | FileCheck %s
// RUN: klx-opt %samples/nvidia/gemm_ws_persistent.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent "--klx-to-nvgpu=instrument=true trace-ctas=2" | FileCheck %s --check-prefix=FIRST
// RUN: klx-opt %samples/nvidia/gemm_ws_persistent.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent "--klx-to-nvgpu=instrument=true trace-cta-list=3,7" | FileCheck %s --check-prefix=LIST
// RUN: klx-opt %samples/nvidia/gemm_ws_persistent.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent --klx-to-nvgpu | FileCheck %s --check-prefix=PLAIN
// Ping-pong waits for each MMA at once: its issue is stamped after the
// group is committed (wait_group 1, the default, free), then a warp sync
// keeps the stamp's stores before the wait_group 0. The release right
// after it is held and stamped late: its word (no clock), slot and whether
// to store go to allocas, and the next event (the next MMA's stamp, or the
// turn's pass) puts its own clock in the word and stores it, as the return
// does for one still held. The MMA's descriptors are built
// before the consumer wait in front of it, out of the branch around a
// recorded wait; without a trace they stay after the wait.
// RUN: klx-opt %samples/nvidia/gemm_pingpong.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent "--klx-to-nvgpu=instrument=true" | FileCheck %s --check-prefix=PINGPONG
// RUN: klx-opt %samples/nvidia/gemm_pingpong.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent --klx-to-nvgpu | FileCheck %s --check-prefix=PINGPONG-PLAIN
// Two producers: the second pipeline's events carry its index above the
// stage (1 << 24): its copies (kind 5) and releases (kind 7).
// RUN: klx-opt %samples/nvidia/gemm_two_producers.mlir --klx-materialize-schedule --klx-warp-specialize --klx-circular-buffer --klx-persistent "--klx-to-nvgpu=instrument=true" | FileCheck %s --check-prefix=TWO

// CHECK: gpu.func @gemm({{.*}}, %{{.*}}: index, %[[TRACE:.*]]: !llvm.ptr, %[[CAP:.*]]: i64) kernel
// CHECK-SAME: {cta_list = array<i64>, ctas = 0 : i64, format = 3 : i64, kind = "trace", name = "trace", warps = 12 : i64}
// Every CTA records: its slot is its block id.
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[COUNTER:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[HWORD:.*]] = llvm.alloca %{{.*}} x i64
// CHECK: %[[HOLDS:.*]] = llvm.alloca %{{.*}} x i1
// CHECK: scf.if
// CHECK:   nvvm.read.ptx.sreg.globaltimer : i64
// CHECK:   llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64}
// CHECK:   nvvm.read.ptx.sreg.clock64 : i64
// CHECK:   nvvm.read.ptx.sreg.smid : i32
// Producer: a wait on empty, tested, bracketed where it blocks, then the
// copies, by lane 0.
// CHECK: %[[EMPTY:.*]] = nvgpu.mbarrier.get %{{.*}}[%{{.*}}] : {{.*}} -> i32
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[EMPTY]] : i32 to !llvm.ptr<3>
// CHECK: %[[READY:.*]] = nvvm.mbarrier.test.wait %[[PTR]], %{{.*}} : !llvm.ptr<3>, i32 -> i1
// CHECK: %[[BLOCKS:.*]] = arith.xori %[[READY]], %{{.*}} : i1
// CHECK: scf.if %[[BLOCKS]] {
// CHECK: nvvm.read.ptx.sreg.clock64 : i64
// CHECK: %[[N:.*]] = llvm.load %[[COUNTER]] : !llvm.ptr -> i64
// CHECK: llvm.store %{{.*}}, %[[COUNTER]] : i64, !llvm.ptr
// CHECK: %[[FITS:.*]] = arith.cmpi ult, %[[N]], %{{.*}} : i64
// CHECK: arith.ori %c3_i64
// CHECK: %[[STORE:.*]] = arith.andi %{{.*}}, %[[FITS]] : i1
// CHECK: scf.if %[[STORE]] {
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64}
// CHECK-NEXT: }
// CHECK: scf.if
// CHECK-NEXT: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64}
// CHECK-NEXT: }
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: arith.ori %c4_i64
// One copy event per stage, once its last copy (B's, after A's) is
// issued: nothing between the empty barrier's phase and the copies.
// CHECK-NOT: arith.ori %c5_i64
// CHECK: nvgpu.tma.async.load
// CHECK-NOT: arith.ori %c5_i64
// CHECK: nvgpu.tma.async.load
// CHECK: arith.ori %c5_i64
// CHECK-NOT: nvgpu.tma.async.load
// Consumers: by the first thread of each warpgroup. The MMA left in
// flight is stamped before its issue and its event held; it is stored
// after the group is committed (wait_group 2 returns at once), before the
// wait for the group before it.
// CHECK: nvvm.mbarrier.test.wait
// CHECK: arith.ori %c1_i64
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: arith.ori %c2_i64
// CHECK: %[[STAMP:.*]] = arith.ori %c6_i64
// CHECK: %[[STAMPWORD:.*]] = arith.ori %[[STAMP]]
// CHECK: llvm.store %[[STAMPWORD]], %[[HWORD]] : i64, !llvm.ptr
// CHECK-NOT: llvm.store %[[STAMPWORD]]
// A word stamped late would take a clock read here; the MMA's has its late
// bit clear, and LLVM drops that branch (the PTX has no clock read there).
// CHECK: nvgpu.warpgroup.mma {{.*}}waitGroup = 2 : i64
// CHECK-NEXT: %[[H:.*]] = llvm.load %[[HOLDS]] : !llvm.ptr -> i1
// CHECK-NEXT: %[[W:.*]] = llvm.load %[[HWORD]] : !llvm.ptr -> i64
// CHECK: %[[LATEBIT:.*]] = arith.andi %[[W]], %c128_i64
// CHECK: %[[LATE:.*]] = arith.cmpi ne, %[[LATEBIT]]
// CHECK: %[[READ:.*]] = arith.andi %[[H]], %[[LATE]] : i1
// CHECK: scf.if %[[READ]] -> (i64) {
// CHECK-NEXT: nvvm.read.ptx.sreg.clock64
// CHECK: %[[STAMPED:.*]] = arith.ori %[[W]], %{{.*}} : i64
// CHECK: scf.if %[[H]] {
// CHECK-NEXT: llvm.store %[[STAMPED]], %{{.*}} {alignment = 8 : i64}
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// The release is recorded after its arrive.
// CHECK-NOT: arith.ori %c7_i64
// CHECK: nvgpu.mbarrier.arrive
// CHECK: arith.ori %c7_i64
// The end stamp, before the one return.
// CHECK: nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: nvvm.read.ptx.sreg.clock64 : i64
// CHECK-NEXT: arith.constant 3 : index
// CHECK-COUNT-1: gpu.return

// FIRST: {cta_list = array<i64>, ctas = 2 : i64, format = 3 : i64
// FIRST: arith.cmpi ult, %{{.*}}, %c2 : index

// LIST: {cta_list = array<i64: 3, 7>, ctas = 0 : i64, format = 3 : i64
// LIST: arith.cmpi eq, %{{.*}}, %c3 : index
// LIST: arith.cmpi eq, %{{.*}}, %c7 : index
// LIST: arith.select

// PINGPONG: llvm.alloca %{{.*}} x i64
// PINGPONG: %[[HWORD:.*]] = llvm.alloca %{{.*}} x i64
// PINGPONG-NEXT: %[[HSLOT:.*]] = llvm.alloca %{{.*}} x i64
// PINGPONG-NEXT: %[[HOLDS:.*]] = llvm.alloca %{{.*}} x i1
// PINGPONG: %[[DESCA:.*]] = nvgpu.warpgroup.generate.descriptor
// PINGPONG-NEXT: %[[DESCB:.*]] = nvgpu.warpgroup.generate.descriptor
// PINGPONG: nvvm.mbarrier.test.wait
// PINGPONG: nvgpu.mbarrier.try_wait.parity
// PINGPONG-NOT: generate.descriptor
// PINGPONG: nvgpu.warpgroup.mma %[[DESCA]], %[[DESCB]], {{.*}} {transposeB} :
// The MMA's stamp stores what is held: a word stamped late (its late bit
// set) takes this clock.
// PINGPONG: %[[MCLOCK:.*]] = nvvm.read.ptx.sreg.clock64
// PINGPONG: arith.ori %c6_i64
// PINGPONG: llvm.store
// PINGPONG: %[[H:.*]] = llvm.load %[[HOLDS]] : !llvm.ptr -> i1
// PINGPONG: %[[W:.*]] = llvm.load %[[HWORD]] : !llvm.ptr -> i64
// PINGPONG: %[[WLATE:.*]] = arith.andi %[[W]], %c128_i64
// PINGPONG: %[[LATE:.*]] = arith.cmpi ne, %[[WLATE]]
// PINGPONG: %[[SHIFTED:.*]] = arith.shli %[[MCLOCK]], %c32
// PINGPONG: %[[STAMP:.*]] = arith.select %[[LATE]], %[[SHIFTED]], %c0
// PINGPONG: %[[STAMPED:.*]] = arith.ori %[[W]], %[[STAMP]]
// PINGPONG: scf.if %[[H]] {
// PINGPONG-NEXT: llvm.store %[[STAMPED]], %{{.*}} {alignment = 8 : i64}
// PINGPONG: llvm.store %false{{.*}}, %[[HOLDS]]
// PINGPONG: nvvm.bar.warp.sync %c-1_i32 : i32
// PINGPONG-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// The release's word: kind 7 with the late bit (135), and no clock.
// PINGPONG: %[[RWORD:.*]] = arith.ori %c135_i64
// PINGPONG: llvm.store %[[RWORD]], %[[HWORD]] : i64, !llvm.ptr
// PINGPONG: llvm.store %{{.*}}, %[[HOLDS]] : i1, !llvm.ptr
// PINGPONG-NOT: llvm.store %[[RWORD]]
// PINGPONG: nvgpu.mbarrier.arrive
// The second consumer's turn pass is the last event in the text and
// stores what was held; the return then stores whatever is still held
// (nothing here; a kernel whose last event is a held release needs it),
// with a clock read only if that is a word stamped late, before the end
// stamps.
// PINGPONG: arith.ori %c10_i64
// PINGPONG: arith.ori %c10_i64
// PINGPONG: llvm.load %[[HOLDS]]
// PINGPONG-NOT: sreg.clock64
// PINGPONG: %[[LAST:.*]] = llvm.load %[[HOLDS]]
// PINGPONG-NEXT: llvm.load %[[HWORD]]
// PINGPONG-NOT: sreg.clock64
// PINGPONG: %[[LASTLATE:.*]] = arith.andi %[[LAST]], %{{.*}} : i1
// PINGPONG-NEXT: scf.if %[[LASTLATE]] -> (i64) {
// PINGPONG-NEXT: nvvm.read.ptx.sreg.clock64
// PINGPONG-NOT: sreg.clock64
// PINGPONG: scf.if %[[LAST]] {
// PINGPONG-NEXT: llvm.store
// PINGPONG-NOT: sreg.clock64
// PINGPONG: nvvm.read.ptx.sreg.globaltimer
// PINGPONG: gpu.return

// PINGPONG-PLAIN: nvgpu.mbarrier.try_wait.parity
// PINGPONG-PLAIN: nvgpu.mbarrier.try_wait.parity
// PINGPONG-PLAIN: nvgpu.mbarrier.try_wait.parity
// PINGPONG-PLAIN-NEXT: arith.constant
// PINGPONG-PLAIN: nvgpu.warpgroup.generate.descriptor
// PINGPONG-PLAIN: nvgpu.warpgroup.mma

// PLAIN: gpu.func @gemm({{.*}}, %{{.*}}: index) kernel
// PLAIN-NOT: clock64
// PLAIN-NOT: globaltimer

// TWO-DAG: arith.constant 16777221 : i64
// TWO-DAG: arith.constant 16777223 : i64
// TWO-DAG: arith.constant 5 : i64
