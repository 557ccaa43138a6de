//===- MaterializeSchedule.cpp - klx.params to a checked schedule ---------===//

#include "klx/Dialect/Klx/Transforms/Passes.h"
#include "klx/Dialect/Klx/Transforms/Transforms.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

namespace klx {
#define GEN_PASS_DEF_KLXMATERIALIZESCHEDULEPASS
#include "klx/Dialect/Klx/Transforms/Passes.h.inc"
} // namespace klx

using namespace mlir;
using namespace klx;

namespace {

// Hopper limits the checks use, beside ScheduleAttr::kRegisterFile.
constexpr int64_t kMaxSharedBytes = 232448; // 227 KB per CTA (opt-in)
constexpr int64_t kMaxThreads = 1024;

/// Reads an integer or boolean parameter, keeping the default when absent.
template <typename T>
LogicalResult read(KernelOp kernel, DictionaryAttr params, StringRef name,
                   T &value) {
  Attribute attr = params ? params.get(name) : Attribute();
  if (!attr)
    return success();
  if constexpr (std::is_same_v<T, bool>) {
    if (auto b = dyn_cast<BoolAttr>(attr)) {
      value = b.getValue();
      return success();
    }
    if (auto i = dyn_cast<IntegerAttr>(attr)) {
      value = i.getInt() != 0;
      return success();
    }
  } else {
    if (auto i = dyn_cast<IntegerAttr>(attr)) {
      value = i.getInt();
      return success();
    }
  }
  return kernel.emitOpError("klx.params: '")
         << name << "' must be "
         << (std::is_same_v<T, bool> ? "a boolean" : "an integer") << ", got "
         << attr;
}

} // namespace

llvm::ArrayRef<llvm::StringLiteral> klx::scheduleParamNames() {
  // alias_scopes, bridge_steps and const_reg_tensor are the pipeline's
  // (klx-lds-alias-scope, klx-bridge-steps, klx-const-reg-tensor), not the
  // schedule's, but live in the same klx.params.
  static const llvm::StringLiteral names[] = {
      "alias_scopes", "bridge_steps",     "cluster_m",
      "cluster_n",    "const_reg_tensor", "consumer_regs",
      "consumers",    "deferred_release", "dtype",
      "epilogue",     "group_m",          "out_dtype",
      "persistent",   "pingpong",         "producer_regs",
      "producers",    "raster",           "shared_full_barrier",
      "stages",       "tile_k",           "tile_m",
      "tile_n",       "warp_specialize"};
  return names;
}

/// The string parameter `name`: one of `choices`, or `fallback` when the
/// parameter is absent; anything else is an error that lists `allowed`.
static FailureOr<StringRef> readChoice(KernelOp kernel, DictionaryAttr params,
                                       StringRef name,
                                       ArrayRef<StringRef> choices,
                                       StringRef fallback, StringRef allowed) {
  Attribute attr = params ? params.get(name) : Attribute();
  if (!attr)
    return fallback;
  auto value = dyn_cast<StringAttr>(attr);
  if (value && llvm::is_contained(choices, value.getValue()))
    return value.getValue();
  return kernel.emitOpError("klx.params: ")
         << name << " must be " << allowed << ", got " << attr;
}

/// Names the kernel arguments that are M, N (the tile loop's extents) and K
/// (what klx.k_tiles counts): later passes lose the tile loop, and a runner
/// needs to know which parameter is which size.
static void recordProblemDims(KernelOp kernel) {
  Builder b(kernel.getContext());
  SmallVector<NamedAttribute> dims;
  auto name = [&](StringRef dim, Value value) {
    auto arg = dyn_cast<BlockArgument>(value);
    if (arg && arg.getOwner() == &kernel.getBodyBlock() &&
        llvm::none_of(dims,
                      [&](NamedAttribute d) { return d.getName() == dim; }))
      dims.push_back(
          b.getNamedAttr(dim, b.getI64IntegerAttr(arg.getArgNumber())));
  };
  kernel.walk([&](ForEachTileOp loop) {
    if (loop.getExtents().size() >= 2) {
      name("M", loop.getExtents()[0]);
      name("N", loop.getExtents()[1]);
    }
  });
  kernel.walk([&](KTilesOp kTiles) { name("K", kTiles.getExtent()); });
  if (!dims.empty())
    kernel->setAttr(kDimsAttrName, b.getDictionaryAttr(dims));
}

/// What a cluster of `clusterM` x `clusterN` CTAs needs of the rest of the
/// schedule: one line of CTAs (the release spreads each consumer's 128
/// arrivals evenly over the CTAs its stages come from, which a 2-D cluster's
/// row-and-column set of 3 does not divide), shares of 8 rows or more (the
/// 128-byte swizzle's repeat), the persistent warp-specialized walk (the
/// CTAs of a cluster stay in step over the same number of tile groups) and
/// TMA stores (they clip a tile past D's edge; the direct epilogue
/// writes whole tiles into a D padded to the tile, not to the cluster).
static LogicalResult checkCluster(KernelOp kernel, int64_t clusterM,
                                  int64_t clusterN, int64_t tileM,
                                  int64_t tileK, bool persistent,
                                  bool warpSpecialize, int64_t producers,
                                  bool tmaStore) {
  auto allowed = [](int64_t v) { return v == 1 || v == 2 || v == 4; };
  if (!allowed(clusterM) || !allowed(clusterN))
    return kernel.emitOpError("schedule: cluster_m and cluster_n must be 1, "
                              "2 or 4 CTAs; got ")
           << clusterM << " x " << clusterN;
  if (clusterM * clusterN == 1)
    return success();
  if (clusterM > 1 && clusterN > 1)
    return kernel.emitOpError("schedule: a cluster is one column "
                              "(cluster_m) or one row (cluster_n) of tiles; "
                              "got ")
           << clusterM << " x " << clusterN;
  if (!persistent || !warpSpecialize || producers != 1)
    return kernel.emitOpError(
        "schedule: a cluster needs persistent = true, warp_specialize = "
        "true and one producer (its CTAs walk the tiles in step and each "
        "producer multicasts its share of a stage)");
  if (!tmaStore)
    return kernel.emitOpError(
        "schedule: a cluster needs epilogue = \"tma\": its last column or row "
        "of tiles may lie past D, which a TMA store clips and the direct "
        "epilogue would write");
  if ((tileK / clusterM) % 8 != 0 || (tileM / clusterN) % 8 != 0)
    return kernel.emitOpError("schedule: each CTA loads a share of ")
           << tileK / clusterM << " rows of B's boxes or " << tileM / clusterN
           << " of A's; shares must be multiples of 8 rows";
  return success();
}

namespace {

/// The schedule's parameters, as klx.params gives them (or their
/// defaults), read and then checked against what the hardware can run.
struct ScheduleParams {
  int64_t tileM = 128, tileN = 128, tileK = 64, stages = 4, consumers = 2;
  int64_t producerRegs = 40, consumerRegs = 232, producers = 1, groupM = 1;
  int64_t clusterM = 1, clusterN = 1;
  bool warpSpecialize = true, pingpong = false, persistent = false;
  bool sharedFullBarrier = false, hilbert = false, tmaStore = false;
  bool deferRelease = true;
  Type dtype, outDtype; // outDtype: null for f32
  std::string outName;

  /// Every parameter klx.params names, with the defaults for the rest.
  LogicalResult readFrom(KernelOp kernel, DictionaryAttr params);
  /// What the hardware can run, checked in the order a reader would
  /// (without roles, consumerRegs becomes the cap at entry).
  LogicalResult checkHardware(KernelOp kernel);
};

/// klx.params names only known parameters.
LogicalResult checkParamNames(KernelOp kernel, DictionaryAttr params) {
  if (params) {
    for (NamedAttribute entry : params) {
      if (llvm::is_contained(scheduleParamNames(), entry.getName().getValue()))
        continue;
      std::string known;
      llvm::raw_string_ostream os(known);
      llvm::interleaveComma(scheduleParamNames(), os);
      return kernel.emitOpError("klx.params: unknown parameter '")
             << entry.getName().getValue() << "' (known: " << known << ")";
    }
  }
  return success();
}

LogicalResult ScheduleParams::readFrom(KernelOp kernel, DictionaryAttr params) {
  if (failed(read(kernel, params, "tile_m", tileM)) ||
      failed(read(kernel, params, "tile_n", tileN)) ||
      failed(read(kernel, params, "tile_k", tileK)) ||
      failed(read(kernel, params, "stages", stages)) ||
      failed(read(kernel, params, "consumers", consumers)) ||
      failed(read(kernel, params, "producer_regs", producerRegs)) ||
      failed(read(kernel, params, "consumer_regs", consumerRegs)) ||
      failed(read(kernel, params, "warp_specialize", warpSpecialize)) ||
      failed(read(kernel, params, "deferred_release", deferRelease)) ||
      failed(read(kernel, params, "pingpong", pingpong)) ||
      failed(read(kernel, params, "persistent", persistent)) ||
      failed(read(kernel, params, "producers", producers)) ||
      failed(read(kernel, params, "group_m", groupM)) ||
      failed(read(kernel, params, "shared_full_barrier", sharedFullBarrier)) ||
      failed(read(kernel, params, "cluster_m", clusterM)) ||
      failed(read(kernel, params, "cluster_n", clusterN)))
    return failure();

  Builder builder(kernel.getContext());
  FailureOr<StringRef> dtypeName = readChoice(
      kernel, params, "dtype", {"f16", "bf16"}, "f16", "\"f16\" or \"bf16\"");
  FailureOr<StringRef> epilogue =
      readChoice(kernel, params, "epilogue", {"tma", "direct"}, "direct",
                 "\"tma\" (a TMA store from shared memory) or \"direct\" "
                 "(each thread stores its fragments)");
  FailureOr<StringRef> outChoice =
      readChoice(kernel, params, "out_dtype", {"f32", "bf16", "f16"}, "f32",
                 "\"f32\", \"bf16\" or \"f16\" (D's element type)");
  FailureOr<StringRef> raster = readChoice(
      kernel, params, "raster", {"row", "grouped", "hilbert"}, "grouped",
      "\"row\" (row by row), \"grouped\" (groups of group_m tile rows) or "
      "\"hilbert\" (along a Hilbert curve in blocks of 8 x 8 tiles)");
  if (failed(dtypeName) || failed(epilogue) || failed(outChoice) ||
      failed(raster))
    return failure();
  // Row by row is groups of one row; group_m does not order a curve.
  if (*raster == "row")
    groupM = 1;
  hilbert = *raster == "hilbert";
  dtype = *dtypeName == "bf16" ? builder.getBF16Type() : builder.getF16Type();
  tmaStore = *epilogue == "tma";
  outName = outChoice->str();
  // Absent means f32: a schedule that says nothing prints as before.
  outDtype = outName == "bf16"  ? Type(builder.getBF16Type())
             : outName == "f16" ? Type(builder.getF16Type())
                                : Type();
  return success();
}

LogicalResult ScheduleParams::checkHardware(KernelOp kernel) {
  // What the hardware can run, checked in the order a reader would.
  if (groupM < 1 || groupM > 64)
    return kernel.emitOpError("schedule: group_m must be 1 to 64 tile rows, "
                              "got ")
           << groupM;
  if (stages < 1)
    return kernel.emitOpError("schedule: stages must be at least 1, got ")
           << stages;
  if (!warpSpecialize && (pingpong || producers != 1))
    return kernel.emitOpError(
        "schedule: pingpong and producers = 2 are ways of specializing "
        "warps; they need warp_specialize = true");
  if (pingpong && !persistent)
    return kernel.emitOpError(
        "schedule: pingpong = true needs persistent = true: the consumers "
        "take turns over the CTA's tiles, and one tile per CTA leaves the "
        "second consumer nothing to do");
  if (pingpong && consumers < 2)
    return kernel.emitOpError(
               "schedule: pingpong = true needs at least two consumers to take "
               "turns; got ")
           << consumers;
  if (producers != 1 && producers != 2)
    return kernel.emitOpError("schedule: producers must be 1 (one warp "
                              "loads A and B) or 2 (one warp each); got ")
           << producers;
  if (sharedFullBarrier && producers != 2)
    return kernel.emitOpError("schedule: shared_full_barrier needs two "
                              "producers to share it (producers = 2)");
  if (consumers < 1)
    return kernel.emitOpError("schedule: consumers must be at least 1, got ")
           << consumers;
  if (tileK != 64)
    return kernel.emitOpError("schedule: tile_k must be 64: one k-tile row "
                              "of 16-bit elements is the 128 bytes of a "
                              "128-byte swizzle; got ")
           << tileK;
  if (tileN < 64 || tileN > 256 || tileN % 64 != 0)
    return kernel.emitOpError("schedule: tile_n must be 64, 128, 192 or 256 "
                              "(whole 64-column TMA boxes, at most wgmma's "
                              "N = 256); got ")
           << tileN;
  // Ping-pong consumers each hold a whole tile; cooperative ones split it.
  int64_t rowsPerConsumer = pingpong ? tileM : tileM / consumers;
  if (pingpong && (tileM < 64 || tileM > 256 || tileM % 64 != 0))
    return kernel.emitOpError("schedule: tile_m = ")
           << tileM << " is not a multiple of 64 rows (wgmma's M) up to 256";
  if (!pingpong && (tileM < 64 || tileM > 256 || tileM % (64 * consumers) != 0))
    return kernel.emitOpError("schedule: tile_m = ")
           << tileM << " does not split into " << consumers
           << " consumer warpgroups of a multiple of 64 rows (wgmma's M), "
              "at most 256 rows (a TMA box)";

  int64_t threads = 128 * ((warpSpecialize ? 1 : 0) + consumers);
  if (threads > kMaxThreads)
    return kernel.emitOpError("schedule: ")
           << consumers << " consumers make " << threads
           << " threads per CTA, more than " << kMaxThreads;
  // Without roles there is no setmaxnreg: every thread keeps the cap at
  // entry (.maxntid, .minnctapersm 1), which is what the accumulators get.
  if (!warpSpecialize)
    consumerRegs =
        std::min<int64_t>(255, ScheduleAttr::kRegisterFile / threads) / 8 * 8;
  int64_t registers = 128 * producerRegs + 128 * consumers * consumerRegs;
  if (warpSpecialize && registers > ScheduleAttr::kRegisterFile)
    return kernel.emitOpError("schedule: the roles do not fit the register "
                              "file: 128 x ")
           << producerRegs << " + " << consumers << " x 128 x " << consumerRegs
           << " = " << registers << " registers > "
           << ScheduleAttr::kRegisterFile;
  int64_t accRegs = rowsPerConsumer * tileN / 128;
  if (accRegs + 16 > consumerRegs)
    return kernel.emitOpError("schedule: each consumer thread holds ")
           << accRegs << " accumulator registers, which with 16 for "
           << "addresses and loop state do not fit "
           << (warpSpecialize ? "consumer_regs = " : "the registers at entry, ")
           << consumerRegs;

  if (outDtype && !tmaStore)
    return kernel.emitOpError("schedule: out_dtype = ")
           << outName << " needs epilogue = \"tma\" (the direct epilogue "
           << "stores the f32 accumulators as they are)";
  if (rowsPerConsumer > 64 && tileN != 128 && !tmaStore)
    return kernel.emitOpError("schedule: a consumer holding ")
           << rowsPerConsumer / 64 << " wgmma fragments of 64 rows needs "
           << "tile_n = 128 or epilogue = \"tma\" "
           << "(nvgpu.warpgroup.mma.store places the second fragment "
           << "by the first one's register count, which is 64 rows only "
           << "when N = 128); got tile_n = " << tileN;

  if (failed(checkCluster(kernel, clusterM, clusterN, tileM, tileK, persistent,
                          warpSpecialize, producers, tmaStore)))
    return failure();
  return success();
}

} // namespace

LogicalResult klx::materializeSchedule(KernelOp kernel, DictionaryAttr params) {
  ScheduleParams p;
  if (failed(checkParamNames(kernel, params)) ||
      failed(p.readFrom(kernel, params)) || failed(p.checkHardware(kernel)))
    return failure();
  auto schedule = ScheduleAttr::get(
      kernel.getContext(), p.tileM, p.tileN, p.tileK, p.stages, p.consumers,
      p.warpSpecialize, p.pingpong, p.persistent, p.producerRegs,
      p.consumerRegs, p.dtype, p.producers, p.sharedFullBarrier, p.groupM,
      p.tmaStore, p.outDtype, p.clusterM, p.clusterN, p.hilbert,
      p.deferRelease);
  int64_t shared = schedule.dynamicSharedBytes();
  if (shared > kMaxSharedBytes) {
    InFlightDiagnostic error = kernel.emitOpError("schedule: ")
                               << p.stages << " stages of "
                               << schedule.stageBytes() << " bytes";
    if (p.tmaStore)
      error << " and the epilogue's " << schedule.epilogueBytes() << " bytes";
    return error << " need " << shared << " bytes of shared memory, more "
                 << "than the " << kMaxSharedBytes << " a CTA may use";
  }
  if (failed(fitComputeToSchedule(kernel, schedule)))
    return failure();
  kernel.setScheduleAttr(schedule);
  recordProblemDims(kernel);
  recordEpilogue(kernel);
  return success();
}

//===----------------------------------------------------------------------===//
// Pass definition
//===----------------------------------------------------------------------===//

namespace {
struct KlxMaterializeSchedulePass final
    : klx::impl::KlxMaterializeSchedulePassBase<KlxMaterializeSchedulePass> {
  void runOnOperation() override {
    auto params =
        getOperation()->getAttrOfType<DictionaryAttr>(kParamsAttrName);
    if (failed(forEachKernel(getOperation(), [&](KernelOp kernel) {
          return materializeSchedule(kernel, params);
        })))
      signalPassFailure();
  }
};
} // namespace
