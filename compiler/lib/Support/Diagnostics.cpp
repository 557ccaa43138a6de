//===- Diagnostics.cpp - Diagnostics as data ------------------------------===//

#include "klx/Support/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

using namespace klx;

llvm::StringRef klx::severityName(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "note";
  case Severity::Remark:
    return "remark";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

SourceLoc klx::toSourceLoc(mlir::Location loc) {
  SourceLoc result;
  // Walk into wrapping locations until the first file position: for fused
  // locations that is the first component, which is where the op was written.
  loc->walk([&](mlir::Location nested) {
    if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(nested)) {
      result.file = fileLoc.getFilename().str();
      result.line = fileLoc.getLine();
      result.col = fileLoc.getColumn();
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return result;
}

static Severity toSeverity(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Note:
    return Severity::Note;
  case mlir::DiagnosticSeverity::Remark:
    return Severity::Remark;
  case mlir::DiagnosticSeverity::Warning:
    return Severity::Warning;
  case mlir::DiagnosticSeverity::Error:
    return Severity::Error;
  }
  return Severity::Error;
}

void klx::printDiag(llvm::raw_ostream &os, const Diag &diag) {
  if (diag.loc.isKnown())
    os << diag.loc.file << ':' << diag.loc.line << ':' << diag.loc.col << ": ";
  else if (!diag.loc.file.empty())
    os << diag.loc.file << ": ";
  os << severityName(diag.severity) << ": " << diag.message;
  if (!diag.step.empty())
    os << " [" << diag.step << ']';
  os << '\n';
  for (const Diag &note : diag.notes)
    printDiag(os, note);
}

bool klx::hasErrors(const std::vector<Diag> &diags) {
  return llvm::any_of(
      diags, [](const Diag &d) { return d.severity == Severity::Error; });
}

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext &context,
                                         std::vector<Diag> &sink)
    : context(context), sink(sink) {
  handlerId = context.getDiagEngine().registerHandler(
      [this](mlir::Diagnostic &diag) { return handle(diag); });
}

DiagnosticCollector::~DiagnosticCollector() {
  context.getDiagEngine().eraseHandler(handlerId);
}

mlir::LogicalResult DiagnosticCollector::handle(mlir::Diagnostic &diagnostic) {
  Diag diag;
  diag.severity = toSeverity(diagnostic.getSeverity());
  diag.loc = toSourceLoc(diagnostic.getLocation());
  diag.message = diagnostic.str();
  diag.step = currentStep;
  for (mlir::Diagnostic &note : diagnostic.getNotes()) {
    Diag noteDiag;
    noteDiag.severity = Severity::Note;
    noteDiag.loc = toSourceLoc(note.getLocation());
    noteDiag.message = note.str();
    diag.notes.push_back(std::move(noteDiag));
  }
  sink.push_back(std::move(diag));
  return mlir::success();
}
