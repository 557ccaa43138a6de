// klx-lds-alias-scope: each named LDS base gets a scope, and an access is
// tagged only when its pointer provably derives from exactly one base.
// RUN: klx-opt %s -split-input-file -klx-lds-alias-scope -verify-diagnostics | FileCheck %s

// CHECK-DAG: #[[DOM:.*]] = #llvm.alias_scope_domain<{{.*}}description = "klx.lds_bases of tagged">
// CHECK-DAG: #[[A:.*]] = #llvm.alias_scope<{{.*}}domain = #[[DOM]], description = "a">
// CHECK-DAG: #[[B:.*]] = #llvm.alias_scope<{{.*}}domain = #[[DOM]], description = "b">
llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<2048 x i8>
// CHECK-LABEL: llvm.func @tagged
llvm.func @tagged(%g: !llvm.ptr<1>, %i: i64) attributes {klx.lds_bases = {a = [0, 1024], b = [1024, 1024]}} {
  %root = llvm.mlir.addressof @lds : !llvm.ptr<3>
  %b = llvm.getelementptr %root[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // A dynamic index past a base stays in it.
  %pa = llvm.getelementptr %root[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %pb = llvm.getelementptr %b[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  // CHECK: rocdl.global.load.lds {{.*}} {alias_scopes = [#[[B]]], noalias_scopes = [#[[A]]]}
  rocdl.global.load.lds %g, %b, 4, 0, 0
  // CHECK: llvm.load {{.*}} {alias_scopes = [#[[A]]], {{.*}}noalias_scopes = [#[[B]]]}
  %x = llvm.load %pa : !llvm.ptr<3> -> f32
  // CHECK: llvm.store {{.*}} {alias_scopes = [#[[B]]], {{.*}}noalias_scopes = [#[[A]]]}
  llvm.store %x, %pb : f32, !llvm.ptr<3>
  // A constant offset inside b, through ptrtoint and an add.
  %int = llvm.ptrtoint %root : !llvm.ptr<3> to i32
  %c1536 = llvm.mlir.constant(1536 : i32) : i32
  %sum = llvm.add %int, %c1536 : i32
  %pc = llvm.inttoptr %sum : i32 to !llvm.ptr<3>
  // CHECK: llvm.load {{.*}} {alias_scopes = [#[[B]]], {{.*}}noalias_scopes = [#[[A]]]}
  %y = llvm.load %pc : !llvm.ptr<3> -> f32
  // A constant offset of 1022 with 4 bytes runs across a and b: untagged.
  %across = llvm.getelementptr %root[1022] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %z = llvm.load %across : !llvm.ptr<3> -> f32
  // Global memory is not touched.
  // CHECK: llvm.store %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} : f32, !llvm.ptr<1>
  llvm.store %y, %g : f32, !llvm.ptr<1>
  llvm.return
}

// -----

llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<2048 x i8>
// What is not provably one base stays untagged.
// CHECK-LABEL: llvm.func @ambiguous
llvm.func @ambiguous(%c: i1, %i: i32, %g: !llvm.ptr<1>) attributes {klx.lds_bases = {a = [0, 1024], b = [1024, 1024]}} {
  %root = llvm.mlir.addressof @lds : !llvm.ptr<3>
  %b = llvm.getelementptr %root[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // An LDS-DMA writes a whole wave's bytes (64 x 4 here): from 1020 they
  // run into b.
  %edge = llvm.getelementptr %root[1020] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  // CHECK: rocdl.global.load.lds %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, 4, 0, 0{{$}}
  rocdl.global.load.lds %g, %edge, 4, 0, 0
  // ... and so does one whose offset moves it past a's end.
  // CHECK: rocdl.global.load.lds %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, 4, 1000, 0{{$}}
  rocdl.global.load.lds %g, %root, 4, 1000, 0
  // A run-time index from inside a base rather than from its start.
  %inner = llvm.getelementptr %root[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %p0 = llvm.getelementptr %inner[%i] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v0 = llvm.load %p0 : !llvm.ptr<3> -> f32
  // An address squeezed into 16 bits may wrap.
  %narrow = llvm.ptrtoint %b : !llvm.ptr<3> to i16
  %one6 = llvm.mlir.constant(4 : i16) : i16
  %moved = llvm.add %narrow, %one6 : i16
  %p7 = llvm.inttoptr %moved : i16 to !llvm.ptr<3>
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v7 = llvm.load %p7 : !llvm.ptr<3> -> f32
  %ia = llvm.ptrtoint %root : !llvm.ptr<3> to i32
  %ib = llvm.ptrtoint %b : !llvm.ptr<3> to i32
  // or on an address
  %or = llvm.or %ia, %i : i32
  %p1 = llvm.inttoptr %or : i32 to !llvm.ptr<3>
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v1 = llvm.load %p1 : !llvm.ptr<3> -> f32
  // sub on an address
  %sub = llvm.sub %ib, %i : i32
  %p2 = llvm.inttoptr %sub : i32 to !llvm.ptr<3>
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v2 = llvm.load %p2 : !llvm.ptr<3> -> f32
  // an add of two bases
  %two = llvm.add %ia, %ib : i32
  %p3 = llvm.inttoptr %two : i32 to !llvm.ptr<3>
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v3 = llvm.load %p3 : !llvm.ptr<3> -> f32
  // a GEP whose index is another base's address
  %p4 = llvm.getelementptr %root[%ib] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v4 = llvm.load %p4 : !llvm.ptr<3> -> f32
  // a select between bases
  %p5 = llvm.select %c, %root, %b : i1, !llvm.ptr<3>
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v5 = llvm.load %p5 : !llvm.ptr<3> -> f32
  llvm.br ^merge(%root : !llvm.ptr<3>)
^merge(%p6: !llvm.ptr<3>):
  // a block-argument merge
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v6 = llvm.load %p6 : !llvm.ptr<3> -> f32
  llvm.return
}

// -----

llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<2048 x i8>
// An integer loop counter (a block argument fed by plain arithmetic) is an
// offset, not an address: the pointer still derives from b.
// CHECK-LABEL: llvm.func @loop_offset
llvm.func @loop_offset(%n: i32) attributes {klx.lds_bases = {a = [0, 1024], b = [1024, 1024]}} {
  %root = llvm.mlir.addressof @lds : !llvm.ptr<3>
  %b = llvm.getelementptr %root[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %zero = llvm.mlir.constant(0 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^loop(%zero : i32)
^loop(%k: i32):
  %p = llvm.getelementptr %b[%k] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
  // CHECK: llvm.load {{.*}}alias_scopes
  %v = llvm.load %p : !llvm.ptr<3> -> f32
  %next = llvm.add %k, %one : i32
  %more = llvm.icmp "slt" %next, %n : i32
  llvm.cond_br %more, ^loop(%next : i32), ^done
^done:
  llvm.return
}

// -----

llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<2048 x i8>
// One base aliases nothing else: nothing to tag.
// CHECK-LABEL: llvm.func @one_base
llvm.func @one_base(%i: i64) attributes {klx.lds_bases = {a = [0, 2048]}} {
  %root = llvm.mlir.addressof @lds : !llvm.ptr<3>
  %p = llvm.getelementptr %root[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  // CHECK: llvm.load %{{[0-9a-z_]+}} : !llvm.ptr<3> -> f32
  %v = llvm.load %p : !llvm.ptr<3> -> f32
  llvm.return
}

// -----

llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<2048 x i8>
// expected-error @below {{klx.lds_bases: bases 'a' and 'b' overlap}}
llvm.func @overlap() attributes {klx.lds_bases = {a = [0, 1024], b = [512, 1024]}} {
  llvm.return
}

// -----

llvm.mlir.global internal @lds() {addr_space = 3 : i32} : !llvm.array<2048 x i8>
// expected-error @below {{klx.lds_bases: base 'b' ends at byte 3072, past the 2048 bytes of @lds}}
llvm.func @past_the_end() attributes {klx.lds_bases = {a = [0, 1024], b = [2048, 1024]}} {
  %root = llvm.mlir.addressof @lds : !llvm.ptr<3>
  llvm.return
}

// -----

llvm.mlir.global internal @x() {addr_space = 3 : i32} : !llvm.array<1024 x i8>
llvm.mlir.global internal @y() {addr_space = 3 : i32} : !llvm.array<1024 x i8>
// expected-error @below {{klx.lds_bases describes one LDS allocation, but the function takes the address of 2 LDS globals}}
llvm.func @two_globals() attributes {klx.lds_bases = {a = [0, 512], b = [512, 512]}} {
  %x = llvm.mlir.addressof @x : !llvm.ptr<3>
  %y = llvm.mlir.addressof @y : !llvm.ptr<3>
  llvm.return
}

// -----

// expected-error @below {{'klx.lds_bases' must map each base's name to [offset, size] in bytes, size > 0}}
llvm.func @malformed() attributes {klx.lds_bases = {a = [0]}} {
  llvm.return
}
