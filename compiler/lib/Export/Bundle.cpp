//===- Bundle.cpp - Writing a Bundle --------------------------------------===//

#include "klx/Export/Bundle.h"

#include "klx/Pipeline/PipelineRun.h"

#include "klx/Analysis/Protocol/BarrierSim.h"
#include "klx/Support/ExternalTool.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace klx;
namespace bf = klx::rt::bundlefile;

namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

template <size_t N> llvm::json::Array array(const std::array<int64_t, N> &a) {
  return llvm::json::Array(a);
}

llvm::json::Object paramJson(const LaunchParam &param) {
  llvm::json::Object object{{bf::kParamName, param.name},
                            {bf::kParamKind, kindName(param.kind)}};
  if (!param.dtype.empty())
    object[bf::kParamDtype] = param.dtype;
  if (param.kind == LaunchParam::Kind::TensorMap) {
    object[bf::kBox] = array(param.box);
    object[bf::kSwizzle] = param.swizzleBytes;
  }
  if (param.kind == LaunchParam::Kind::Memref)
    object[bf::kRank] = param.rank;
  if (param.kind == LaunchParam::Kind::Trace) {
    object[bf::kCtas] = param.traceCtas;
    object[bf::kCtaList] = llvm::json::Array(param.traceCtaList);
    object[bf::kWarps] = param.traceWarps;
    object[bf::kFormat] = param.traceFormat;
  }
  return object;
}

bool hasParam(const KernelLaunch &launch, llvm::StringRef name,
              LaunchParam::Kind kind) {
  return llvm::any_of(launch.params, [&](const LaunchParam &p) {
    return p.name == name && p.kind == kind;
  });
}

llvm::json::Object problemJson(const BundleContents &bundle) {
  const KernelLaunch &launch = bundle.launch;
  if (const std::optional<GatherLaunch> &g = launch.gather)
    return llvm::json::Object{
        {bf::kProblemKind, bf::kGather},
        {bf::kFormula,
         llvm::formatv("y[i] = x[{0} + {1}] + {2}, idx in [0, N)",
                       g->indirect ? "idx[i]" : "i", g->offset, g->add)
             .str()},
        {bf::kIndex, g->indirect ? "idx" : "i"},
        {bf::kOffset, g->offset},
        {bf::kAdd, g->add},
        {bf::kN, bundle.problem.m}};
  // D's element type: the TMA-store epilogue may round the f32
  // accumulators to bf16 or f16.
  std::string out = "f32";
  for (const LaunchParam &param : launch.params)
    if (param.name == "D" && !param.dtype.empty())
      out = param.dtype;
  llvm::json::Object gemm{
      {bf::kProblemKind, bf::kGemm},
      {bf::kProblemDtype, launch.dtype},
      {bf::kAccumulator, "f32"},
      {bf::kOutDtype, out},
      {bf::kLayout,
       llvm::formatv("D[M,N] ({0}) = A[M,K] x B[K,N], row-major", out).str()},
      {bf::kM, bundle.problem.m},
      {bf::kN, bundle.problem.n},
      {bf::kK, bundle.problem.k}};
  // A kernel that computes on its accumulators stores its epilogue of
  // A x B, which klx-run evaluates for its reference.
  if (launch.epilogue)
    gemm[bf::kEpilogue] = *launch.epilogue;
  return gemm;
}

} // namespace

ProblemSize klx::defaultProblemSize(const KernelLaunch &launch) {
  if (launch.gather)
    return kDefaultGatherSize;
  // A kernel that reduces rows within a tile takes N up to tile_n.
  ProblemSize size = kDefaultProblemSize;
  if (launch.reducesRows() && launch.tile[1] > 0)
    size.n = std::min(size.n, launch.tile[1]);
  return size;
}

std::string klx::checkProblemSize(const KernelLaunch &launch,
                                  llvm::StringRef target,
                                  const ProblemSize &size) {
  rt::ProblemLimits limits;
  limits.entry = launch.entry;
  limits.target = target.str();
  limits.gather = bool(launch.gather);
  limits.block = launch.block[0];
  limits.gatherOffset = launch.gather ? launch.gather->offset : 0;
  limits.tile = launch.tile;
  limits.elementBytes = launch.dtype == "f32" ? 4 : 2;
  limits.reducesRowsInATile = launch.reducesRows();
  return rt::checkProblemSize(limits, size);
}

std::string klx::sourceDigest(llvm::StringRef text) {
  return llvm::formatv("xxh3:{0:x-16}", llvm::xxh3_64bits(text)).str();
}

std::string klx::bundleManifest(const BundleContents &bundle) {
  const KernelLaunch &launch = bundle.launch;
  llvm::json::Array params;
  for (const LaunchParam &param : launch.params)
    params.push_back(paramJson(param));
  llvm::json::Object defines;
  for (const auto &[name, value] : bundle.defines)
    defines[name] = value;
  llvm::json::Object manifest{
      {bf::kVersionKey, bf::kVersion},
      {bf::kSource, bundle.source},
      {bf::kDefines, std::move(defines)},
      {bf::kTarget, bundle.target},
      {bf::kBinary, bundle.isAmd() ? "kernel.hsaco" : "kernel.cubin"},
      {bf::kEntry, launch.entry},
      {bf::kBlock, array(launch.block)},
      {bf::kCluster, array(launch.cluster)},
      {bf::kDynamicSharedMemory, launch.dynamicSharedBytes},
      {bf::kGrid, launch.grid},
      {bf::kProblem, problemJson(bundle)},
      {bf::kParams, std::move(params)},
      {bf::kAbi, llvm::json::Array(launch.abi)},
  };
  if (!bundle.sourceDigest.empty())
    manifest[bf::kSourceDigest] = bundle.sourceDigest;
  if (!launch.gather) {
    manifest[bf::kTile] = array(launch.tile);
    manifest[bf::kClusterTiles] = array(launch.clusterTiles);
  }
  if (bundle.isAmd())
    manifest[bf::kAmdgcn] = "kernel.s";
  else
    manifest[bf::kPtx] = "kernel.ptx";
  if (const PtxasFunctionReport *r = bundle.resources)
    manifest[bf::kResources] =
        llvm::json::Object{{bf::kRegisters, r->registers},
                           {bf::kStaticSharedMemory, r->sharedBytes},
                           {bf::kStackFrame, r->stackFrameBytes},
                           {bf::kSpillStores, r->spillStoreBytes},
                           {bf::kSpillLoads, r->spillLoadBytes}};
  if (const std::optional<SimulatedVerdict> &sim = bundle.simulated)
    manifest[bf::kSimulated] =
        llvm::json::Object{{bf::kCompletes, sim->completes},
                           {bf::kProtocolError, sim->protocolError},
                           {bf::kFindings, llvm::json::Array(sim->findings)},
                           {bf::kBlocked, llvm::json::Array(sim->blocked)},
                           {bf::kLatency, sim->latency}};
  if (bundle.trace) {
    const TraceBundle &trace = *bundle.trace;
    llvm::json::Array traceParams;
    const LaunchParam *buffer = nullptr;
    for (const LaunchParam &param : trace.launch.params) {
      traceParams.push_back(paramJson(param));
      if (param.kind == LaunchParam::Kind::Trace)
        buffer = &param;
    }
    manifest[bf::kTrace] = llvm::json::Object{
        {bf::kBinary, "kernel.trace.cubin"},
        {bf::kParams, std::move(traceParams)},
        {bf::kAbi, llvm::json::Array(trace.launch.abi)},
        {bf::kFormat, rt::kTraceFormat},
        {bf::kCtas, buffer ? buffer->traceCtas : 0},
        {bf::kCtaList, buffer ? llvm::json::Array(buffer->traceCtaList)
                              : llvm::json::Array()},
        {bf::kWarps, buffer ? buffer->traceWarps : 0},
        {bf::kClock, "clock64, aligned by globaltimer"},
        {bf::kWarpRoles, llvm::json::Array(trace.warpRoles)}};
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return text;
}

/// ld.lld -shared: the relocatable object the AMDGPU backend emits becomes
/// the code object (.hsaco) a HIP runtime loads.
static llvm::Expected<std::string> linkCodeObject(llvm::StringRef object) {
  llvm::Expected<std::string> lld = findLlvmTool("ld.lld");
  if (!lld)
    return lld.takeError();
  llvm::Expected<TempFile> input = TempFile::create("klx-kernel", "o");
  if (!input)
    return input.takeError();
  llvm::Expected<TempFile> output = TempFile::create("klx-kernel", "hsaco");
  if (!output)
    return output.takeError();
  if (llvm::Error e = input->write(object))
    return std::move(e);
  llvm::Expected<ToolResult> linked =
      runTool(*lld, {"-shared", input->path(), "-o", output->path()});
  if (!linked)
    return linked.takeError();
  if (linked->exitCode != 0)
    return fail("ld.lld could not link the code object: " + linked->output);
  return output->read();
}

namespace {

using Kind = LaunchParam::Kind;

/// A gather's parameters are those klx-run knows: y[i] = x[idx[i] + offset]
/// + add (or x[i + offset]).
llvm::Error checkGatherParams(const KernelLaunch &launch, bool amd) {
  if (amd)
    return fail("klx-run runs gathers on NVIDIA GPUs only");
  for (const char *name : {"idx", "x", "y"}) {
    if (!launch.gather->indirect && llvm::StringRef(name) == "idx")
      continue;
    if (!hasParam(launch, name, Kind::Memref))
      return fail(llvm::formatv("kernel @{0} has no memref parameter "
                                "'{1}': klx-run knows the gather y[i] = "
                                "x[idx[i] + offset] + add (or x[i + "
                                "offset])",
                                launch.entry, name));
  }
  for (const LaunchParam &param : launch.params)
    if (param.kind != Kind::Memref && param.kind != Kind::Unused)
      return fail(llvm::formatv("kernel @{0}: parameter '{1}' is none of "
                                "idx, x, y, which klx-run knows",
                                launch.entry, param.name));
  return llvm::Error::success();
}

/// A GEMM's parameters are those klx-run knows: D = A x B and its sizes.
llvm::Error checkGemmParams(const KernelLaunch &launch, bool amd) {
  // NVIDIA kernels read A and B through TMA, AMD kernels as memrefs; D
  // is a memref, or a tensor map when the epilogue stores by TMA.
  Kind operandKind = amd ? Kind::Memref : Kind::TensorMap;
  Kind outputKind = !amd && hasParam(launch, "D", Kind::TensorMap)
                        ? Kind::TensorMap
                        : Kind::Memref;
  for (auto [name, kind] :
       {std::pair{"A", operandKind}, {"B", operandKind}, {"D", outputKind}})
    if (!hasParam(launch, name, kind))
      return fail(llvm::formatv("kernel @{0} has no {1} parameter '{2}': "
                                "klx-run knows D = A x B",
                                launch.entry, kindName(kind), name));
  // M and N may be implicit in the grid; K is a size or a count of k tiles.
  if (!hasParam(launch, "K", Kind::Scalar) &&
      !hasParam(launch, "k_tiles", Kind::Scalar))
    return fail(llvm::formatv("kernel @{0} has no scalar parameter 'K' or "
                              "'k_tiles': klx-run needs to pass the depth",
                              launch.entry));
  for (const LaunchParam &param : launch.params)
    if (param.kind == Kind::Scalar &&
        !llvm::is_contained({"M", "N", "K", "k_tiles"}, param.name))
      return fail(llvm::formatv("kernel @{0}: scalar parameter '{1}' is none "
                                "of M, N, K, k_tiles, which klx-run knows",
                                launch.entry, param.name));
  return llvm::Error::success();
}

/// The one kernel of `run` with launch facts, if its parameters are those
/// klx-run knows.
llvm::Expected<const KernelLaunch &> launchOfRun(const PipelineRun &run,
                                                 bool amd) {
  if (run.launches.empty())
    return fail("no kernel carries launch facts (klx.launch): klx-to-nvgpu "
                "writes them for klx tile kernels, and a hand-written "
                "gpu.func can carry its own (see gemm_tma_wgmma.mlir)");
  if (run.launches.size() != 1)
    return fail(llvm::formatv("{0} kernels with launch facts; a bundle holds "
                              "one",
                              run.launches.size()));
  const KernelLaunch &launch = run.launches.front();
  if (llvm::Error error = launch.gather ? checkGatherParams(launch, amd)
                                        : checkGemmParams(launch, amd))
    return std::move(error);
  return launch;
}

/// The simulated protocol of kernel `entry`, when klx can model it: the
/// timeline's step first (klx's own model of a klx kernel), then any.
std::optional<SimulatedVerdict> simulatedVerdict(const PipelineRun &run,
                                                 const std::string &entry) {
  std::vector<const Snapshot *> order;
  if (int step = run.timelineStep(); step >= 0)
    order.push_back(&run.snapshots[step]);
  for (auto it = run.snapshots.rbegin(); it != run.snapshots.rend(); ++it)
    order.push_back(&*it);
  for (const Snapshot *snapshot : order) {
    auto model = llvm::find_if(
        snapshot->facts.protocols,
        [&](const sim::ProtocolModel &m) { return m.kernel == entry; });
    if (model == snapshot->facts.protocols.end())
      continue;
    sim::Timeline timeline = sim::simulate(*model);
    SimulatedVerdict verdict;
    verdict.completes = timeline.verdict.completes;
    verdict.protocolError = timeline.verdict.protocolError;
    verdict.findings = timeline.verdict.findings;
    verdict.latency = timeline.latency.describe();
    for (const sim::BlockedWait &b : timeline.verdict.blocked)
      verdict.blocked.push_back(
          b.waiting ? llvm::formatv("{0} waits on {1}[{2}] for parity {3} "
                                    "({4} arrivals, {5} bytes pending)",
                                    b.role, b.barrier, b.slot, b.expectedParity,
                                    b.pendingArrivals, b.pendingBytes)
                          .str()
                    : b.role + " stopped at " + b.op);
    return verdict;
  }
  return std::nullopt;
}

} // namespace

llvm::Expected<const KernelLaunch &> klx::bundleLaunch(const PipelineRun &run) {
  return launchOfRun(run, !isNvidia(run.target));
}

llvm::Expected<BundleContents> klx::bundleFromRun(const PipelineRun &run) {
  if (!run.succeeded())
    return fail("the kernel did not compile (see the diagnostics above)");
  bool amd = !isNvidia(run.target);
  llvm::Expected<const KernelLaunch &> launch = launchOfRun(run, amd);
  if (!launch)
    return launch.takeError();
  const DeviceArtifacts *artifacts = nullptr;
  for (const DeviceArtifacts &a : run.artifacts)
    if (!(amd ? a.amdgcnObject : a.cubin).empty())
      artifacts = &a;
  if (!artifacts)
    return fail(amd ? "no code object: the run stopped before the amdgcn "
                      "step, or was not asked for one"
                    : "no cubin: the run stopped before the cubin step");
  BundleContents bundle;
  if (amd) {
    llvm::Expected<std::string> hsaco = linkCodeObject(artifacts->amdgcnObject);
    if (!hsaco)
      return hsaco.takeError();
    bundle.hsaco = std::move(*hsaco);
    bundle.amdgcn = artifacts->amdgcn;
  }
  bundle.simulated = simulatedVerdict(run, launch->entry);
  bundle.launch = *launch;
  bundle.problem = defaultProblemSize(*launch);
  bundle.target = targetName(run.target).str();
  bundle.source = run.fileName;
  bundle.sourceDigest = sourceDigest(run.source);
  bundle.cubin = artifacts->cubin;
  bundle.ptx = artifacts->ptx;
  if (artifacts->ptxas)
    bundle.resources = artifacts->ptxas->find(launch->entry);
  return bundle;
}

std::string klx::whyNoTimeline(const PipelineRun &run) {
  if (!isNvidia(run.target))
    return "its target, " + targetName(run.target).str() +
           ", records none: the recording is added as klx-to-nvgpu lowers a "
           "tile kernel for sm_90a";
  if (!run.lowering.klxKernels)
    return "it is written in gpu/nvgpu ops, and only klx tile kernels "
           "(klx.kernel) record a timeline: the recording is added as "
           "klx-to-nvgpu lowers them";
  return "";
}

llvm::Expected<TraceBundle> klx::traceBundleFromRun(const PipelineRun &run) {
  llvm::Expected<BundleContents> plain = bundleFromRun(run);
  if (!plain)
    return plain.takeError();
  TraceBundle trace;
  trace.launch = plain->launch;
  trace.cubin = plain->cubin;
  trace.ptx = plain->ptx;
  if (llvm::none_of(trace.launch.params, [](const LaunchParam &p) {
        return p.kind == LaunchParam::Kind::Trace;
      })) {
    std::string why = whyNoTimeline(run);
    return fail(why.empty()
                    ? "the instrumented build of kernel '" +
                          trace.launch.entry + "' has no trace parameter"
                    : "kernel '" + trace.launch.entry + "': " + why +
                          ". Export it without --trace to time it");
  }
  // Names per warp, from the role tree klx-to-nvgpu left.
  const Snapshot *lowered = run.findSnapshot("klx-to-nvgpu");
  if (lowered && !lowered->facts.roles.empty()) {
    const RoleTree &tree = lowered->facts.roles.front();
    for (const WarpgroupNode &group : tree.warpgroups)
      for (const WarpNode &warp : group.warps)
        trace.warpRoles.push_back(warp.roles.empty()
                                      ? std::string("-")
                                      : tree.roles[warp.roles.front()].name);
  }
  return trace;
}

llvm::Error klx::writeBundle(llvm::StringRef dir,
                             const BundleContents &bundle) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return fail(dir + ": cannot create the folder: " + ec.message());
  auto write = [&](llvm::StringRef name,
                   llvm::StringRef contents) -> llvm::Error {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
    if (ec)
      return fail(path + ": cannot write: " + ec.message());
    os << contents;
    return llvm::Error::success();
  };
  if (bundle.isAmd()) {
    if (llvm::Error e = write("kernel.hsaco", bundle.hsaco))
      return e;
    if (llvm::Error e = write("kernel.s", bundle.amdgcn))
      return e;
    return write("manifest.json", bundleManifest(bundle));
  }
  if (llvm::Error e = write("kernel.cubin", bundle.cubin))
    return e;
  if (llvm::Error e = write("kernel.ptx", bundle.ptx))
    return e;
  if (bundle.trace) {
    if (llvm::Error e = write("kernel.trace.cubin", bundle.trace->cubin))
      return e;
    if (llvm::Error e = write("kernel.trace.ptx", bundle.trace->ptx))
      return e;
  }
  return write("manifest.json", bundleManifest(bundle));
}
