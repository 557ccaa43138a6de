//===- PipelineRunTest.cpp - Snapshots, stop-after, parameters ------------===//

#include "TestSupport.h"

#include "klx/InitAll.h"
#include "klx/Pipeline/Compiler.h"
#include "klx/Target/CudaTools.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/StringExtras.h"

using namespace klx;

namespace {
std::vector<std::string> stepNames(const PipelineRun &run) {
  std::vector<std::string> names;
  for (const Snapshot &s : run.snapshots)
    names.push_back(s.displayName());
  return names;
}

PipelineRun compileSample(const std::string &path, CompileOptions options) {
  return runPipeline(test::readSource(path), path, options);
}

const char *kTinyKernel = "module attributes {klx.params = {stages = 4 : i64, "
                          "pingpong = false, tile = \"128x128\"}} {\n"
                          "  gpu.module @m {\n"
                          "    gpu.func @k() kernel {\n"
                          "      gpu.return\n"
                          "    }\n"
                          "  }\n"
                          "}\n";
} // namespace

TEST_CASE("Snapshots follow the NVIDIA pipeline in order", "[pipeline]") {
  CompileOptions options;
  options.stopAfter = "llvm-opt";
  PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
  REQUIRE(run.succeeded());
  std::vector<std::string> names = stepNames(run);
  std::vector<std::string> expected = {"parse",
                                       "klx-lint",
                                       "convert-nvgpu-to-nvvm",
                                       "gpu-kernel-outlining",
                                       "convert-vector-to-scf",
                                       "convert-scf-to-cf",
                                       "convert-nvvm-to-llvm",
                                       "convert-func-to-llvm",
                                       "expand-strided-metadata",
                                       "nvvm-attach-target",
                                       "lower-affine",
                                       "convert-arith-to-llvm",
                                       "convert-index-to-llvm",
                                       "canonicalize",
                                       "cse",
                                       "convert-gpu-to-nvvm",
                                       "canonicalize#2",
                                       "cse#2",
                                       "reconcile-unrealized-casts",
                                       "ensure-debug-info-scope-on-llvm-func",
                                       "gpu-to-llvm",
                                       "convert-math-to-llvm",
                                       "canonicalize#3",
                                       "cse#3",
                                       "reconcile-unrealized-casts#2",
                                       "llvm-ir",
                                       "llvm-opt"};
  CHECK(names == expected);
  // The plan that --stop-after checks against is the same list.
  std::vector<std::string> planned =
      plannedStepNames(loweringOptionsFor(options, Target::SM90a));
  planned.resize(expected.size());
  CHECK(planned == expected);
}

TEST_CASE("Changed flags say which passes changed the printed IR",
          "[pipeline]") {
  CompileOptions options;
  options.stopAfter = "reconcile-unrealized-casts#2";
  PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
  REQUIRE(run.succeeded());
  auto changed = [&](llvm::StringRef name) {
    const Snapshot *s = run.findSnapshot(name);
    REQUIRE(s);
    return s->changed;
  };
  // saxpy has no nvgpu ops and no affine ops: nothing to convert.
  CHECK_FALSE(changed("convert-nvgpu-to-nvvm"));
  CHECK_FALSE(changed("lower-affine"));
  // The pattern driver of convert-vector-to-scf also erases the unused
  // thread and block ids that outlining materialised: a visible change.
  CHECK(changed("convert-vector-to-scf"));
  CHECK(changed("gpu-kernel-outlining"));
  CHECK(changed("convert-scf-to-cf"));
  CHECK(changed("convert-gpu-to-nvvm"));
  CHECK(changed("gpu-to-llvm"));
  for (const Snapshot &s : run.snapshots) {
    CHECK_FALSE(s.text.empty());
    CHECK(s.opCount > 0);
    CHECK(s.wallMs >= 0);
  }
  // The kernel after outlining and the gpu.module anchors.
  const Snapshot *outlined = run.findSnapshot("gpu-kernel-outlining");
  CHECK(outlined->text.find("gpu.module @saxpy_kernel") != std::string::npos);
  CHECK(outlined->opCounts.at("gpu.launch_func") == 1);
  CHECK(run.findSnapshot("convert-gpu-to-nvvm")->anchor ==
        "gpu.module @saxpy_kernel");
  CHECK(run.findSnapshot("gpu-to-llvm")->anchor == "builtin.module");
}

TEST_CASE("Each printed op knows its source line", "[pipeline]") {
  CompileOptions options;
  options.stopAfter = "convert-scf-to-cf";
  PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
  REQUIRE(run.succeeded());
  const Snapshot &parse = run.snapshots.front();
  REQUIRE_FALSE(parse.origins.empty());
  // The fma in the source is on the line that mentions math.fma; the IR
  // line the origin points at must hold that op.
  std::string source = test::readSource("samples/nvidia/saxpy.mlir");
  llvm::SmallVector<llvm::StringRef> sourceLines, irLines;
  llvm::StringRef(source).split(sourceLines, '\n');
  unsigned fmaLine = 0;
  for (unsigned i = 0; i < sourceLines.size(); ++i)
    if (sourceLines[i].contains("= math.fma"))
      fmaLine = i + 1;
  REQUIRE(fmaLine);
  const Snapshot *last = run.findSnapshot("convert-scf-to-cf");
  llvm::StringRef(last->text).split(irLines, '\n');
  bool found = false;
  for (const LineOrigin &origin : last->origins)
    if (origin.source.line == fmaLine) {
      REQUIRE(origin.line >= 1);
      REQUIRE(origin.line <= irLines.size());
      CHECK(irLines[origin.line - 1].contains("math.fma"));
      found = true;
    }
  CHECK(found);
}

TEST_CASE("--stop-after stops at a pass, an occurrence or a backend step",
          "[pipeline]") {
  CompileOptions options;
  SECTION("parse only") {
    options.stopAfter = "parse";
    PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
    CHECK(run.succeeded());
    CHECK(run.snapshots.size() == 1);
  }
  SECTION("a nested pass") {
    options.stopAfter = "convert-gpu-to-nvvm";
    PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
    CHECK(run.succeeded());
    CHECK(run.snapshots.back().name == "convert-gpu-to-nvvm");
    CHECK(run.artifacts.empty());
  }
  SECTION("the second canonicalize") {
    options.stopAfter = "canonicalize#2";
    PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
    CHECK(run.snapshots.back().displayName() == "canonicalize#2");
  }
  SECTION("ptx: no cubin") {
    options.stopAfter = "ptx";
    PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
    REQUIRE(run.succeeded());
    REQUIRE(run.artifacts.size() == 1);
    CHECK_FALSE(run.artifacts[0].ptx.empty());
    CHECK(run.artifacts[0].cubin.empty());
    CHECK(run.snapshots.back().name == "ptx");
  }
  SECTION("an unknown step lists the real ones") {
    options.stopAfter = "no-such-pass";
    PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
    CHECK(run.status == RunStatus::EnvironmentError);
    REQUIRE(run.diagnostics.size() == 1);
    CHECK(run.diagnostics[0].message.find("convert-gpu-to-nvvm") !=
          std::string::npos);
  }
  SECTION("an AMD step on the NVIDIA target is unknown") {
    options.stopAfter = "amdgcn";
    PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
    CHECK(run.status == RunStatus::EnvironmentError);
  }
}

TEST_CASE("The cubin step parses ptxas; SASS says why it is missing",
          "[pipeline]") {
  CompileOptions options;
  options.nvdisasmPath = "/nonexistent/nvdisasm";
  PipelineRun run =
      compileSample("samples/nvidia/gemm_tma_wgmma.mlir", options);
  REQUIRE(run.succeeded());
  REQUIRE(run.artifacts.size() == 1);
  const DeviceArtifacts &a = run.artifacts[0];
  REQUIRE(a.ptxas);
  const PtxasFunctionReport *gemm = a.ptxas->find("gemm_tma_wgmma");
  REQUIRE(gemm);
  CHECK(gemm->registers > 100);
  CHECK(gemm->stackFrameBytes == 0);
  CHECK(a.cubin.size() > 1000);
  CHECK(llvm::StringRef(a.cubin).starts_with("\x7f"
                                             "ELF"));
  CHECK(a.counts.at(EmitKind::PTX).get("wgmma.mma_async") == 8);
  CHECK(a.counts.at(EmitKind::PTX).get("cp.async.bulk.tensor") == 6);
  const Snapshot &sass = run.snapshots.back();
  CHECK(sass.name == "sass");
  CHECK(sass.text.empty());
  CHECK(sass.skippedReason.find("nvdisasm") != std::string::npos);
  CHECK(a.sassMissingReason == sass.skippedReason);
}

TEST_CASE("A missing ptxas is an environment error that names it",
          "[pipeline]") {
  CompileOptions options;
  options.ptxasPath = "/nonexistent/bin/ptxas";
  PipelineRun run = compileSample("samples/nvidia/saxpy.mlir", options);
  CHECK(run.status == RunStatus::EnvironmentError);
  const Snapshot &cubin = run.snapshots.back();
  CHECK(cubin.name == "cubin");
  CHECK(cubin.failed);
  REQUIRE(cubin.diagnostics.size() == 1);
  CHECK(cubin.diagnostics[0].message ==
        "ptxas not found at '/nonexistent/bin/ptxas'");
  // What came before is still there to look at.
  CHECK_FALSE(run.artifacts[0].ptx.empty());
}

TEST_CASE("The AMD pipeline ends in AMDGCN with its metadata", "[pipeline]") {
  PipelineRun run =
      compileSample("samples/amd/lds_transpose.mlir", CompileOptions());
  REQUIRE(run.succeeded());
  CHECK(run.target == Target::GFX942); // from klx.target in the file
  CHECK(run.snapshots.back().name == "amdgcn");
  REQUIRE(run.artifacts.size() == 1);
  REQUIRE(run.artifacts[0].amdgcnMetadata);
  CHECK(run.artifacts[0].amdgcnMetadata->kernels.size() == 1);
  CHECK(run.artifacts[0].amdgcn.find("s_endpgm") != std::string::npos);
  CHECK(run.findSnapshot("convert-gpu-to-rocdl") != nullptr);

  CompileOptions gfx950;
  gfx950.target = Target::GFX950;
  PipelineRun other = compileSample("samples/amd/lds_transpose.mlir", gfx950);
  REQUIRE(other.succeeded());
  CHECK(other.artifacts[0].amdgcn.find("gfx950") != std::string::npos);
}

TEST_CASE("-D overrides declared parameters and rejects others", "[pipeline]") {
  CompileOptions options;
  options.stopAfter = "parse";
  SECTION("known names, values of the declared kind") {
    options.defines = {{"stages", "3"}, {"pingpong", "1"}, {"tile", "64x64"}};
    PipelineRun run = runPipeline(kTinyKernel, "tiny.mlir", options);
    REQUIRE(run.succeeded());
    const std::string &ir = run.snapshots[0].text;
    CHECK(ir.find("stages = 3") != std::string::npos);
    CHECK(ir.find("pingpong = true") != std::string::npos);
    CHECK(ir.find("tile = \"64x64\"") != std::string::npos);
  }
  SECTION("an unknown name lists the declared ones") {
    options.defines = {{"stagez", "3"}};
    PipelineRun run = runPipeline(kTinyKernel, "tiny.mlir", options);
    CHECK(run.status == RunStatus::EnvironmentError);
    REQUIRE(run.diagnostics.size() == 1);
    CHECK(run.diagnostics[0].message ==
          "unknown parameter 'stagez'; this kernel declares: pingpong, "
          "stages, tile");
  }
  SECTION("a value of the wrong kind") {
    options.defines = {{"stages", "many"}};
    PipelineRun run = runPipeline(kTinyKernel, "tiny.mlir", options);
    CHECK(run.status == RunStatus::EnvironmentError);
    CHECK(run.diagnostics[0].message.find("cannot be 'many'") !=
          std::string::npos);
  }
}

TEST_CASE("Two gpu.modules get one backend snapshot each per step",
          "[pipeline]") {
  const char *source =
      "module attributes {gpu.container_module} {\n"
      "  gpu.module @a { gpu.func @ka() kernel { gpu.return } }\n"
      "  gpu.module @b { gpu.func @kb() kernel { gpu.return } }\n"
      "}\n";
  CompileOptions options;
  options.stopAfter = "ptx";
  PipelineRun run = runPipeline(source, "two.mlir", options);
  REQUIRE(run.succeeded());
  REQUIRE(run.artifacts.size() == 2);
  std::vector<std::string> tail;
  for (size_t i = run.snapshots.size() - 6; i < run.snapshots.size(); ++i)
    tail.push_back(run.snapshots[i].name + " " + run.snapshots[i].anchor);
  CHECK(tail == std::vector<std::string>{
                    "llvm-ir gpu.module @a", "llvm-ir gpu.module @b",
                    "llvm-opt gpu.module @a", "llvm-opt gpu.module @b",
                    "ptx gpu.module @a", "ptx gpu.module @b"});
  // A nested pass on two anchors is one occurrence, recorded twice.
  std::vector<std::string> nested;
  for (const Snapshot &s : run.snapshots)
    if (s.name == "convert-gpu-to-nvvm")
      nested.push_back(s.displayName() + " " + s.anchor);
  CHECK(nested ==
        std::vector<std::string>{"convert-gpu-to-nvvm gpu.module @a",
                                 "convert-gpu-to-nvvm gpu.module @b"});
}

TEST_CASE("A module with no kernels says so at the backend", "[pipeline]") {
  PipelineRun run = runPipeline("func.func @host() { return }\n", "host.mlir",
                                CompileOptions());
  CHECK(run.status == RunStatus::InputError);
  std::vector<Diag> all = run.allDiagnostics();
  REQUIRE_FALSE(all.empty());
  CHECK(all.back().message.find("no gpu.module") != std::string::npos);
}

TEST_CASE("A run keeps at most maxSnapshotBytes of IR, and says so",
          "[pipeline][limits]") {
  CompileOptions options;
  options.emitGoal = EmitKind::MLIR;
  options.maxSnapshotBytes = 64 * 1024;
  PipelineRun run =
      compileSample("samples/nvidia/gemm_ws_persistent.mlir", options);
  REQUIRE(run.succeeded());
  size_t kept = 0, dropped = 0, bytes = 0;
  for (const Snapshot &s : run.snapshots) {
    if (s.skippedReason.empty()) {
      ++kept;
      bytes += s.text.size();
      continue;
    }
    ++dropped;
    CHECK(s.text.empty());
    CHECK(s.opCount > 0); // still counted
    CHECK(s.skippedReason ==
          "the IR after this step is not kept: the run's snapshots reached "
          "64 KB, the limit that keeps a huge kernel from filling memory");
  }
  CHECK(kept > 0);
  CHECK(dropped > 0);
  // At most one step past the limit.
  CHECK(bytes < options.maxSnapshotBytes +
                    2 * run.snapshots.front().text.size() + 256 * 1024);
}

TEST_CASE("Every target and switch combination makes a pass list MLIR parses",
          "[pipeline]") {
  registerAllPasses();
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  unsigned combinations = 0;
  for (Target target : {Target::SM90a, Target::GFX942, Target::GFX950})
    for (unsigned bits = 0; bits < 64; ++bits) {
      LoweringOptions options;
      options.target = target;
      options.klxKernels = bits & 1;
      options.instrument = bits & 2;
      options.ldsAliasScopes = bits & 4;
      options.constRegTensor = bits & 8;
      options.bridgeSteps = bits & 16;
      options.lineInfo = bits & 32;
      std::vector<PassStep> steps = loweringSteps(options);
      mlir::PassManager pm(context.get());
      std::string error;
      INFO(targetName(target).str() << ", switches " << bits << ": " << error);
      CHECK(mlir::succeeded(addPassSteps(pm, steps, error)));
      // Every step has a planned name, and the plan ends in the backend.
      std::vector<std::string> names = plannedStepNames(options);
      CHECK(names.size() == 1 + steps.size() + backendSteps(target).size());
      CHECK(names[1] == "klx-lint");
      ++combinations;
    }
  CHECK(combinations == 192);
}

TEST_CASE("A target is any chip LLVM knows; ptxas says which it builds",
          "[pipeline][target]") {
  for (const char *chip : {"sm_90a", "sm_80", "sm_70", "sm_100a", "sm_121f",
                           "gfx942", "gfx90a", "gfx1100"}) {
    INFO(chip);
    std::optional<Target> target = parseTarget(chip);
    REQUIRE(target);
    CHECK(targetName(*target) == chip);
    CHECK(isNvidia(*target) == llvm::StringRef(chip).starts_with("sm_"));
  }
  for (const char *chip : {"sm_999", "sm_90x", "gfx9999", "", "banana"}) {
    INFO(chip);
    CHECK_FALSE(parseTarget(chip));
  }
  CHECK(isTileDialectTarget(Target::SM90a));
  CHECK_FALSE(isTileDialectTarget(*parseTarget("sm_80")));

  // ptxas 13.0's words, cut short.
  PtxasChips chips = parsePtxasChips(
      "--gpu-name <gpu name>   (-arch)\n"
      "        Specify name of NVIDIA GPU ... PTX for .target sm_XY can be\n"
      "        Allowed values for this option:  'compute_100','compute_75',\n"
      "        'lto_90a','sm_100','sm_100a','sm_75','sm_80',\n"
      "        'sm_90','sm_90a'.\n"
      "        Default value:  'sm_75'.\n"
      "--help  (-h)\n",
      "ptxas: NVIDIA (R) Ptx optimizing assembler\n"
      "Cuda compilation tools, release 13.0, V13.0.88\n");
  CHECK(chips.release == "13.0");
  CHECK(chips.chips == std::vector<std::string>{"sm_75", "sm_80", "sm_90",
                                                "sm_90a", "sm_100", "sm_100a"});
  CHECK(chips.builds("sm_90a"));
  CHECK_FALSE(chips.builds("sm_70"));
  CHECK(chips.cannotBuild("sm_70") ==
        "ptxas 13.0 cannot build sm_70; it builds sm_75, sm_80, sm_90, "
        "sm_90a, sm_100, sm_100a (--target=CHIP chooses)");
  CHECK(parsePtxasChips("no such option", "").chips.empty());
}
