//===- SweepCompile.cpp - Compile every variant of a sweep ----------------===//
//
// Each variant is a whole runPipeline of its own, on a thread of a small
// pool; its bundle is written as soon as it finishes, while its run (which
// the bundle's resources point into) is still alive.
//
//===----------------------------------------------------------------------===//

#include "klx/Export/Sweep.h"

#include "klx/Export/Export.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>

using namespace klx;

std::string klx::missingCubin(const PipelineRun &run) {
  for (const Snapshot &snapshot : run.snapshots)
    if (snapshot.kind == EmitKind::Cubin && !snapshot.skippedReason.empty())
      return "no cubin: " + snapshot.skippedReason;
  return "";
}

/// Writes the variant's bundle into dir/FOLDER from its finished run, or
/// says in the variant why there is none.
static void writeVariantBundle(const PipelineRun &run, llvm::StringRef dir,
                               const SweepPlan &plan,
                               const PlannedVariant &planned,
                               SweepVariant &variant) {
  if (!variant.compiled || dir.empty())
    return;
  if (std::string why = missingCubin(run); !why.empty()) {
    variant.bundleNote = why;
    return;
  }
  // Sizes of the plan the kernel cannot take are said, not refused: the
  // bundle runs at the others.
  for (const std::string &text : plan.sizes)
    if (std::optional<ProblemSize> size = parseProblemSize(text))
      if (llvm::Expected<ProblemSize> fits = bundleSize(run, *size); !fits)
        llvm::handleAllErrors(fits.takeError(), [&](const ExportError &e) {
          if (e.kind == ExportError::Kind::Size)
            variant.bundleNote += (variant.bundleNote.empty() ? "" : "; ") +
                                  ("--size=" + e.message);
        });
  BundleRequest request;
  request.defines = variant.defines;
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, planned.folder);
  if (llvm::Expected<BundleContents> bundle = exportBundle(run, request, path);
      !bundle) {
    llvm::handleAllErrors(bundle.takeError(), [&](const ExportError &e) {
      variant.bundleNote = e.kind == ExportError::Kind::Kernel
                               ? "no bundle: " + e.message
                               : e.message;
    });
    return;
  }
  variant.folder = planned.folder;
}

namespace {

/// Runs fn(i) for i in [0, count) on up to `jobs` threads, this one among
/// them.
void parallelFor(size_t count, unsigned jobs,
                 const std::function<void(size_t)> &fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < count; i = next++)
      fn(i);
  };
  std::vector<std::thread> threads;
  size_t threadCount = std::min<size_t>(std::max(jobs, 1u), count);
  for (size_t t = 1; t < threadCount; ++t)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
}

/// Every variant's timeline over the same work: the most tiles and k steps
/// any variant's model covers (a variant with more stages goes round its
/// ring over more k steps). The variants simulated over less compile again
/// with that bound; their bundles stay as they are.
void simulateOnEqualWork(llvm::StringRef source, llvm::StringRef fileName,
                         const CompileOptions &base,
                         llvm::ArrayRef<PlannedVariant> planned,
                         std::vector<SweepVariant> &variants, unsigned jobs) {
  ModelSize common{0, 0};
  for (const SweepVariant &v : variants) {
    common.tiles = std::max(common.tiles, v.timelineTiles);
    common.kSteps = std::max(common.kSteps, v.timelineKSteps);
  }
  std::vector<size_t> behind;
  for (size_t i = 0; i < variants.size(); ++i)
    if (variants[i].timelineTiles > 0 &&
        (variants[i].timelineTiles != common.tiles ||
         variants[i].timelineKSteps != common.kSteps))
      behind.push_back(i);
  parallelFor(behind.size(), jobs, [&](size_t j) {
    size_t i = behind[j];
    CompileOptions options = base;
    options.defines = planned[i].defines;
    options.modelSize = common;
    PipelineRun run = runPipeline(source.str(), fileName.str(), options);
    summarizeSweepTimeline(run, variants[i]);
  });
}

} // namespace

std::vector<SweepVariant> klx::compileSweep(llvm::StringRef source,
                                            llvm::StringRef fileName,
                                            const CompileOptions &base,
                                            const SweepPlan &plan,
                                            llvm::StringRef dir, unsigned jobs,
                                            const SweepProgress &progress) {
  std::vector<PlannedVariant> planned = plannedVariants(plan);
  std::vector<SweepVariant> variants(planned.size());
  std::mutex finishing;
  size_t done = 0;
  parallelFor(planned.size(), jobs, [&](size_t i) {
    CompileOptions options = base;
    options.defines = planned[i].defines;
    options.emitGoal = EmitKind::Cubin;
    options.codeObject = true; // AMD: the object ld.lld links
    auto start = std::chrono::steady_clock::now();
    PipelineRun run = runPipeline(source.str(), fileName.str(), options);
    SweepVariant &variant = variants[i];
    variant = summarizeSweepVariant(run, planned[i]);
    variant.compileSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    writeVariantBundle(run, dir, plan, planned[i], variant);
    std::lock_guard<std::mutex> lock(finishing);
    ++done;
    if (progress)
      progress(done, planned.size(), variant);
  });
  simulateOnEqualWork(source, fileName, base, planned, variants, jobs);
  return variants;
}

llvm::Error klx::writeSweepFile(llvm::StringRef dir, llvm::StringRef fileName,
                                const SweepPlan &plan,
                                llvm::ArrayRef<SweepVariant> variants) {
  llvm::SmallString<256> path(dir);
  llvm::sys::path::append(path, "sweep.json");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return llvm::createStringError(ec, "%s: cannot write: %s", path.c_str(),
                                   ec.message().c_str());
  os << llvm::formatv("{0:2}", sweepJson(fileName, plan, variants)) << "\n";
  return llvm::Error::success();
}
