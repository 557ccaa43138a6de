//===- ThreadValuesTest.cpp - Values per thread, as real kernels pick
//------===//
//
// The evaluators behind the role tree and the protocol reader, on the
// idioms kernels use to pick threads: a warp index broadcast with
// shfl.sync, a lane elected with elect.sync, butterflies, warp and lane
// ids; and what they must call unknown rather than guess.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "Analysis/Threads/Divergence.h"
#include "Analysis/Threads/ThreadValues.h"
#include "klx/Pipeline/Compiler.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

using namespace klx;
using namespace klx::threads;

namespace {

/// A 64-thread kernel whose body is `body`; every op with a `test.name`
/// attribute can be looked up by it. %tid (index), %t32 (i32), %all (-1),
/// %c0i, %c1i, %c5i, %c31i (i32) and %c0, %c32 (index) are defined.
std::string kernel(const std::string &body) {
  return "module attributes {gpu.container_module} {\n"
         "gpu.module @m {\n"
         "gpu.func @k(%p: memref<64xi32>) kernel attributes "
         "{known_block_size = array<i32: 64, 1, 1>} {\n"
         "  %c0 = arith.constant 0 : index\n"
         "  %c32 = arith.constant 32 : index\n"
         "  %all = arith.constant -1 : i32\n"
         "  %c0i = arith.constant 0 : i32\n"
         "  %c1i = arith.constant 1 : i32\n"
         "  %c5i = arith.constant 5 : i32\n"
         "  %c31i = arith.constant 31 : i32\n"
         "  %tid = gpu.thread_id x\n"
         "  %t32 = arith.index_cast %tid : index to i32\n" +
         body +
         "  gpu.return\n"
         "}\n}\n}\n";
}

struct Evaluated {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::optional<KernelShape> shape;
  std::unique_ptr<Divergence> divergence;
  std::unique_ptr<ThreadValues> values;

  explicit Evaluated(const std::string &body) {
    module =
        mlir::parseSourceString<mlir::ModuleOp>(kernel(body), context.get());
    REQUIRE(module);
    mlir::gpu::GPUFuncOp func;
    module->walk([&](mlir::gpu::GPUFuncOp f) { func = f; });
    std::string why;
    shape = readKernelShape(func, why);
    REQUIRE(shape);
    divergence = std::make_unique<Divergence>(*shape);
    values = std::make_unique<ThreadValues>(*shape, *divergence);
  }
  mlir::Value named(llvm::StringRef name) {
    mlir::Value found;
    module->walk([&](mlir::Operation *op) {
      if (auto attr = op->getAttrOfType<mlir::StringAttr>("test.name"))
        if (attr.getValue() == name)
          found = op->getResult(0);
    });
    REQUIRE(found);
    return found;
  }
  std::vector<uint64_t> lanes(llvm::StringRef name) {
    const ThreadValues::Lanes *l = values->eval(named(name));
    INFO(values->whyUnknown(named(name)).why);
    REQUIRE(l);
    return *l;
  }
};

} // namespace

TEST_CASE("thread values: the warp index broadcast with shfl.sync idx",
          "[thread-values]") {
  Evaluated e("  %w = arith.shrui %t32, %c5i : i32\n"
              "  %warp = nvvm.shfl.sync idx %all, %w, %c0i, %c31i "
              "{test.name = \"warp\"} : i32 -> i32\n");
  std::vector<uint64_t> warp = e.lanes("warp");
  for (unsigned t = 0; t < 64; ++t)
    CHECK(warp[t] == t / 32);
}

TEST_CASE("thread values: bfly, down and up shuffles", "[thread-values]") {
  Evaluated e("  %x = nvvm.shfl.sync bfly %all, %t32, %c1i, %c31i "
              "{test.name = \"bfly\"} : i32 -> i32\n"
              "  %d = nvvm.shfl.sync down %all, %t32, %c1i, %c31i "
              "{test.name = \"down\"} : i32 -> i32\n"
              "  %u = nvvm.shfl.sync up %all, %t32, %c1i, %c0i "
              "{test.name = \"up\"} : i32 -> i32\n");
  std::vector<uint64_t> bfly = e.lanes("bfly"), down = e.lanes("down"),
                        up = e.lanes("up");
  for (unsigned t = 0; t < 64; ++t) {
    INFO("thread " << t);
    CHECK(bfly[t] == (t ^ 1));
    // Past the clamp (lane 31 down, lane 0 up) a lane keeps its own.
    CHECK(down[t] == (t % 32 == 31 ? t : t + 1));
    CHECK(up[t] == (t % 32 == 0 ? t : t - 1));
  }
}

TEST_CASE("thread values: elect.sync takes one lane of the lanes that run it",
          "[thread-values]") {
  SECTION("the whole warp: its lowest lane") {
    Evaluated e("  %e = nvvm.elect.sync {test.name = \"e\"} -> i1\n");
    std::vector<uint64_t> e1 = e.lanes("e");
    for (unsigned t = 0; t < 64; ++t)
      CHECK(e1[t] == (t % 32 == 0 ? 1u : 0u));
  }
  SECTION("inside a branch that lets lanes 8 and up through") {
    Evaluated e("  %lane = arith.remui %tid, %c32 : index\n"
                "  %c8 = arith.constant 8 : index\n"
                "  %upper = arith.cmpi uge, %lane, %c8 : index\n"
                "  scf.if %upper {\n"
                "    %e = nvvm.elect.sync {test.name = \"e\"} -> i1\n"
                "  }\n");
    std::vector<uint64_t> e1 = e.lanes("e");
    for (unsigned t = 0; t < 64; ++t)
      CHECK(e1[t] == (t % 32 == 8 ? 1u : 0u));
  }
  SECTION("inside a branch on a loaded value: unknown, and why") {
    Evaluated e("  %v = memref.load %p[%tid] : memref<64xi32>\n"
                "  %go = arith.cmpi eq, %v, %c0i : i32\n"
                "  scf.if %go {\n"
                "    %e = nvvm.elect.sync {test.name = \"e\"} -> i1\n"
                "  }\n");
    CHECK_FALSE(e.values->eval(e.named("e")));
    std::string why = e.values->whyUnknown(e.named("e")).why;
    CHECK_THAT(why, Catch::Contains("elect.sync picks a lane among those "
                                    "that run it"));
    CHECK_THAT(why, Catch::Contains("memref.load"));
  }
}

TEST_CASE("thread values: warp ids, block sizes and %warpid",
          "[thread-values]") {
  Evaluated e("  %s = gpu.subgroup_id {test.name = \"subgroup\"} : index\n"
              "  %b = gpu.block_dim x {test.name = \"dim\"}\n"
              "  %l = gpu.lane_id {test.name = \"lane\"}\n"
              "  %w = nvvm.read.ptx.sreg.warpid {test.name = \"hw\"} : i32\n");
  std::vector<uint64_t> subgroup = e.lanes("subgroup"), dim = e.lanes("dim"),
                        lane = e.lanes("lane");
  for (unsigned t = 0; t < 64; ++t) {
    CHECK(subgroup[t] == t / 32);
    CHECK(dim[t] == 64);
    CHECK(lane[t] == t % 32);
  }
  CHECK_FALSE(e.values->eval(e.named("hw")));
  CHECK_THAT(e.values->whyUnknown(e.named("hw")).why,
             Catch::Contains("%warpid is the warp's slot on its SM"));
}

TEST_CASE("divergence: what is the same in every thread", "[thread-values]") {
  Evaluated e(
      "  %c1 = arith.constant 1 : index\n"
      "  %n = arith.constant 4 : index\n"
      "  %v = memref.load %p[%c0] {test.name = \"loaded\"} : memref<64xi32>\n"
      "  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0) -> index {\n"
      "    %k = arith.addi %i, %c1 {test.name = \"counter\"} : index\n"
      "    %b = arith.addi %a, %tid {test.name = \"carried\"} : index\n"
      "    scf.yield %b : index\n"
      "  }\n");
  CHECK(e.divergence->isUniform(e.named("counter")));
  CHECK_FALSE(e.divergence->isUniform(e.named("carried")));
  const Reason *loaded = e.divergence->varies(e.named("loaded"));
  REQUIRE(loaded);
  CHECK_THAT(loaded->why, Catch::Contains("reads memory"));
}

TEST_CASE("thread values: a chain too long to follow is unknown, not a crash",
          "[thread-values]") {
  std::string body = "  %v0 = arith.addi %tid, %c0 : index\n";
  for (int i = 1; i < 2500; ++i)
    body += "  %v" + std::to_string(i) + " = arith.addi %v" +
            std::to_string(i - 1) + ", %c0 : index\n";
  body += "  %last = arith.addi %v2499, %c0 {test.name = \"last\"} : index\n";
  Evaluated e(body);
  CHECK_FALSE(e.values->eval(e.named("last")));
  CHECK_THAT(e.values->whyUnknown(e.named("last")).why,
             Catch::Contains("a chain of more than 2000 ops"));
}
