//===- TransformSteps.cpp - A transform script as visible steps -----------===//

#include "TransformSteps.h"

#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"

using namespace klx;
namespace transform = mlir::transform;

namespace {

transform::NamedSequenceOp findEntryPoint(mlir::ModuleOp module) {
  transform::NamedSequenceOp entry;
  module.walk([&](transform::NamedSequenceOp sequence) {
    if (sequence.getSymName() !=
        transform::TransformDialect::kTransformEntryPointSymbolName)
      return mlir::WalkResult::advance();
    entry = sequence;
    return mlir::WalkResult::interrupt();
  });
  return entry;
}

/// The entry point's top-level ops but its terminator.
llvm::SmallVector<mlir::Operation *>
topLevelOps(transform::NamedSequenceOp entry) {
  llvm::SmallVector<mlir::Operation *> ops;
  if (entry.getBody().empty())
    return ops;
  for (mlir::Operation &op : entry.getBody().front().without_terminator())
    ops.push_back(&op);
  return ops;
}

/// A transform op at the top of a module or nested module: a schedule (or
/// a library of named sequences it calls), not part of the payload.
bool isSchedule(mlir::Operation *op) {
  return llvm::isa<transform::TransformOpInterface>(op) &&
         llvm::isa<mlir::ModuleOp>(op->getParentOp());
}

/// Erases every transform op at the top of a module or nested module (the
/// schedule and any library of named sequences it calls), and the
/// attribute that announced them: the payload is what the lowering sees.
void eraseSchedules(mlir::ModuleOp module) {
  llvm::SmallVector<mlir::Operation *> schedules;
  module.walk([&](mlir::Operation *op) {
    if (isSchedule(op)) {
      schedules.push_back(op);
      return mlir::WalkResult::skip();
    }
    return mlir::WalkResult::advance();
  });
  for (mlir::Operation *op : schedules)
    op->erase();
  module.walk([](mlir::ModuleOp nested) {
    nested->removeAttr(transform::TransformDialect::kWithNamedSequenceAttrName);
  });
}

} // namespace

std::vector<std::string> klx::transformStepNames(mlir::ModuleOp module) {
  std::vector<std::string> names;
  if (transform::NamedSequenceOp entry = findEntryPoint(module))
    for (mlir::Operation *op : topLevelOps(entry))
      names.push_back(op->getName().getStringRef().str());
  return names;
}

void klx::warnUnrunSchedules(mlir::ModuleOp module) {
  if (findEntryPoint(module))
    return;
  // Only the first: one is enough to explain why nothing was applied.
  module.walk([](mlir::Operation *op) {
    if (!isSchedule(op))
      return mlir::WalkResult::advance();
    mlir::emitWarning(op->getLoc())
        << "this '" << op->getName()
        << "' is not run: klx runs the transform script named @"
        << transform::TransformDialect::kTransformEntryPointSymbolName
        << ", as mlir-opt -transform-interpreter does, and the payload is "
           "lowered as it stands; write the script as "
           "transform.named_sequence @"
        << transform::TransformDialect::kTransformEntryPointSymbolName
        << "(%root: !transform.any_op {transform.readonly}) in a module "
           "marked transform.with_named_sequence";
    return mlir::WalkResult::interrupt();
  });
}

mlir::OwningOpRef<mlir::ModuleOp>
klx::applyTransformPrefix(mlir::ModuleOp input, size_t count) {
  mlir::OwningOpRef<mlir::ModuleOp> copy(input.clone());
  transform::NamedSequenceOp entry = findEntryPoint(*copy);
  if (!entry)
    return copy;
  // Later ops use earlier ones' handles, never the reverse: erasing from
  // the end leaves a well-formed prefix.
  llvm::SmallVector<mlir::Operation *> ops = topLevelOps(entry);
  for (size_t i = ops.size(); i > count; --i) {
    if (!ops[i - 1]->use_empty()) {
      mlir::emitError(ops[i - 1]->getLoc())
          << "cannot show this schedule step by step: the entry point's "
             "terminator uses this op's results";
      return nullptr;
    }
    ops[i - 1]->erase();
  }
  transform::TransformOptions options;
  if (mlir::failed(transform::applyTransformNamedSequence(
          copy->getOperation(), entry, /*transformModule=*/nullptr, options)))
    return nullptr;
  eraseSchedules(*copy);
  return copy;
}
