//===- Diagnostics.h - Diagnostics as data ----------------------*- C++ -*-===//
//
// Every message the compiler produces (parser, verifier, passes, backend
// tools) becomes a Diag value so the CLI can print it as file:line:col and
// the GUI can draw it at the line. Libraries never print to stderr.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_DIAGNOSTICS_H
#define KLX_SUPPORT_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace klx {

enum class Severity { Note, Remark, Warning, Error };

llvm::StringRef severityName(Severity severity);

/// A source position. line/col are 1-based; 0 means unknown.
struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned col = 0;

  bool isKnown() const { return line != 0; }
};

/// Resolves an MLIR location to the outermost file:line:col it carries
/// (through name, call-site and fused locations).
SourceLoc toSourceLoc(mlir::Location loc);

struct Diag {
  Severity severity = Severity::Error;
  SourceLoc loc;
  std::string message;
  /// The step (pass or backend tool) that reported it; empty for parsing.
  std::string step;
  std::vector<Diag> notes;
};

/// Prints "file:line:col: error: message" and the notes below it, the way
/// clang and mlir-opt do.
void printDiag(llvm::raw_ostream &os, const Diag &diag);

bool hasErrors(const std::vector<Diag> &diags);

/// Collects every diagnostic reported on a context while alive, instead of
/// letting MLIR print them. The current step name is stamped on each one.
class DiagnosticCollector {
public:
  DiagnosticCollector(mlir::MLIRContext &context, std::vector<Diag> &sink);
  ~DiagnosticCollector();

  void setStep(llvm::StringRef step) { currentStep = step.str(); }

private:
  mlir::LogicalResult handle(mlir::Diagnostic &diagnostic);

  mlir::MLIRContext &context;
  std::vector<Diag> &sink;
  std::string currentStep;
  mlir::DiagnosticEngine::HandlerID handlerId;
};

} // namespace klx

#endif // KLX_SUPPORT_DIAGNOSTICS_H
