//===- ExportTest.cpp - The one path from a compile to a bundle -----------===//
//
// exportBundle, which klx export, the Run pane, Save bundle and klx sweep
// share: what it writes, and each kind of problem said as its kind.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Export/Export.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace klx;

namespace {
const PipelineRun &compiled(const char *sample) {
  static std::map<std::string, PipelineRun> runs;
  auto it = runs.find(sample);
  if (it == runs.end()) {
    CompileOptions options;
    options.emitGoal = EmitKind::Cubin;
    it = runs.emplace(sample,
                      runPipeline(test::readSource(sample), sample, options))
             .first;
  }
  return it->second;
}

/// A fresh folder, removed when the test ends.
struct Folder {
  std::string path;
  Folder() {
    llvm::SmallString<128> made;
    REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("klx-export", made));
    path = std::string(made);
  }
  ~Folder() { llvm::sys::fs::remove_directories(path); }
};

ExportError::Kind kindOf(llvm::Error error) {
  ExportError::Kind kind = ExportError::Kind::Kernel;
  bool seen = false;
  llvm::handleAllErrors(std::move(error), [&](const ExportError &e) {
    kind = e.kind;
    seen = true;
  });
  CHECK(seen);
  return kind;
}
} // namespace

TEST_CASE("A problem size's flag is what --size= takes, for every kind",
          "[export]") {
  for (ProblemSize size :
       {ProblemSize{2048, 4096, 512}, ProblemSize{4096, 0, 0}}) {
    INFO(size.str());
    std::optional<ProblemSize> parsed = parseProblemSize(size.flag());
    REQUIRE(parsed);
    CHECK(*parsed == size);
  }
  CHECK(ProblemSize{4096, 0, 0}.flag() == "4096");
  CHECK(ProblemSize{4096, 0, 0}.str() == "N=4096");
}

TEST_CASE("exportBundle writes the bundle a request asks for", "[export]") {
  const PipelineRun &run = compiled("samples/nvidia/gemm_ws_persistent.mlir");
  REQUIRE(run.succeeded());
  Folder dir;
  BundleRequest request;
  request.size = ProblemSize{256, 512, 128};
  request.defines = {{"stages", "3"}};
  llvm::Expected<BundleContents> bundle =
      exportBundle(run, request, dir.path + "/b");
  REQUIRE(bool(bundle));
  CHECK(bundle->problem == ProblemSize{256, 512, 128});
  CHECK(bundle->defines.at("stages") == "3");
  auto manifest = llvm::MemoryBuffer::getFile(dir.path + "/b/manifest.json");
  REQUIRE(manifest);
  CHECK((*manifest)->getBuffer().contains("\"stages\""));
  CHECK(llvm::sys::fs::exists(dir.path + "/b/kernel.cubin"));
}

TEST_CASE("exportBundle says each problem by its kind", "[export]") {
  const PipelineRun &gemm = compiled("samples/nvidia/gemm_ws_persistent.mlir");
  // A size the kernel cannot take (a gather's for a gemm): the caller's,
  // worded by checkProblemSize.
  llvm::Expected<ProblemSize> size = bundleSize(gemm, ProblemSize{4096, 0, 0});
  REQUIRE_FALSE(bool(size));
  CHECK(kindOf(size.takeError()) == ExportError::Kind::Size);
  // A kernel with no launch facts: the kernel's.
  const PipelineRun &saxpy = compiled("samples/nvidia/saxpy.mlir");
  llvm::Expected<ProblemSize> none = bundleSize(saxpy, std::nullopt);
  REQUIRE_FALSE(bool(none));
  CHECK(kindOf(none.takeError()) == ExportError::Kind::Kernel);
  // A CTA list named twice, and a folder that cannot be made.
  BundleRequest twice;
  twice.trace = true;
  twice.traceCtas = "5,3,5";
  llvm::Expected<BundleContents> traced = makeBundle(gemm, twice);
  REQUIRE_FALSE(bool(traced));
  CHECK(kindOf(traced.takeError()) == ExportError::Kind::TraceCtas);
  Folder dir;
  {
    std::error_code ec;
    llvm::raw_fd_ostream(dir.path + "/file", ec) << "not a folder";
    REQUIRE_FALSE(ec);
  }
  llvm::Expected<BundleContents> written =
      exportBundle(gemm, BundleRequest(), dir.path + "/file/b");
  REQUIRE_FALSE(bool(written));
  CHECK(kindOf(written.takeError()) == ExportError::Kind::Write);
}
