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

std::vector<SweepVariant> klx::compileSweep(llvm::StringRef source,
                                            llvm::StringRef fileName,
                                            const CompileOptions &base,
                                            const SweepPlan &plan,
                                            llvm::StringRef dir, unsigned jobs,
                                            const SweepProgress &progress) {
  std::vector<PlannedVariant> planned = plannedVariants(plan);
  std::vector<SweepVariant> variants(planned.size());
  std::atomic<size_t> next{0};
  std::mutex finishing;
  size_t done = 0;
  auto work = [&] {
    for (size_t i = next++; i < planned.size(); i = next++) {
      CompileOptions options = base;
      options.defines = planned[i].defines;
      options.emitGoal = EmitKind::Cubin;
      options.codeObject = true; // AMD: the object ld.lld links
      auto start = std::chrono::steady_clock::now();
      PipelineRun run = runPipeline(source.str(), fileName.str(), options);
      SweepVariant &variant = variants[i];
      variant = summarizeSweepVariant(run, planned[i]);
      variant.compileSeconds = std::chrono::duration<double>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
      writeVariantBundle(run, dir, plan, planned[i], variant);
      std::lock_guard<std::mutex> lock(finishing);
      ++done;
      if (progress)
        progress(done, planned.size(), variant);
    }
  };
  std::vector<std::thread> threads;
  size_t threadCount = std::min<size_t>(std::max(jobs, 1u), planned.size());
  for (size_t t = 1; t < threadCount; ++t)
    threads.emplace_back(work);
  work();
  for (std::thread &thread : threads)
    thread.join();
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
