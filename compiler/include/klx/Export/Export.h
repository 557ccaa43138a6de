//===- Export.h - From a compile to a bundle on disk ------------*- C++ -*-===//
//
// The one path from a finished compile to a bundle klx-run launches:
// `klx export`, the window's Run pane and File > Save bundle, and each
// variant of `klx sweep` come through exportBundle. What differs between
// them is data (a BundleRequest: the size, the variant's -D values, the
// recording); what can go wrong is said by kind (ExportError), so that
// each caller words it for its place (an exit code, the Run pane's
// history, a sweep variant's note).
//
//===----------------------------------------------------------------------===//

#ifndef KLX_EXPORT_EXPORT_H
#define KLX_EXPORT_EXPORT_H

#include "klx/Export/Bundle.h"
#include "klx/Pipeline/Compiler.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace klx {

/// What a bundle holds besides the compile's kernel and launch facts.
struct BundleRequest {
  /// The size klx-run uses without --size; empty: the kernel's default.
  std::optional<ProblemSize> size;
  /// The variant's -D NAME=VALUE, which the manifest records.
  std::vector<std::pair<std::string, std::string>> defines;
  /// Also the instrumented build (klx export --trace, the Run pane's
  /// "record timeline"): the compile's source is compiled once more with
  /// `options` and `traceCtas` recording. Takes as long as the compile.
  bool trace = false;
  std::string traceCtas = "all";
  CompileOptions options;
  /// Called with the instrumented compile once it ran (its diagnostics).
  std::function<void(const PipelineRun &)> tracedRunDone;
};

/// What went wrong, by kind: the caller's mistake (a size or a CTA list
/// the kernel cannot take, a folder that cannot be written) or the
/// kernel's (no bundle can be made of it, or of its instrumented build).
class ExportError : public llvm::ErrorInfo<ExportError> {
public:
  enum class Kind { Kernel, Size, TraceCtas, Trace, Write };
  static char ID;
  ExportError(Kind kind, std::string message)
      : kind(kind), message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override { os << message; }
  std::error_code convertToErrorCode() const override {
    return llvm::inconvertibleErrorCode();
  }
  /// The caller's mistake rather than the kernel's.
  bool isUsage() const { return kind != Kind::Kernel && kind != Kind::Trace; }

  Kind kind;
  std::string message;
};

/// The size a bundle of `run` runs at: `asked`, or the kernel's default;
/// an ExportError (Size: "WHY" as checkProblemSize says it, Kernel: no
/// bundle can be made of the run) where it cannot. Cheap: what the window
/// checks before it hands a run to the GPU worker.
llvm::Expected<ProblemSize> bundleSize(const PipelineRun &run,
                                       std::optional<ProblemSize> asked);

/// The bundle of `run` as `request` asks, its instrumented build compiled
/// when asked for.
llvm::Expected<BundleContents> makeBundle(const PipelineRun &run,
                                          const BundleRequest &request);

/// makeBundle, written into `dir` (created if missing): what is written.
llvm::Expected<BundleContents> exportBundle(const PipelineRun &run,
                                            const BundleRequest &request,
                                            llvm::StringRef dir);

} // namespace klx

#endif // KLX_EXPORT_EXPORT_H
