//===- Registration.cpp - What a klx compile registers --------------------===//

#include "klx/Pipeline/Registration.h"

#include "klx/Conversion/Passes.h"
#include "klx/Dialect/Klx/IR/KlxDialect.h"
#include "klx/Dialect/Klx/Transforms/Passes.h"
#include "klx/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include <mutex>

void klx::registerAllDialects(mlir::DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<KlxDialect>();
}

void klx::registerAllPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    mlir::registerAllPasses();
    registerKlxPasses();
    registerKlxConversionPasses();
    registerKlxTransformsPasses();
  });
}
