//===- klx-opt.cpp - MlirOptMain with every klx dialect and pass ----------===//

#include "klx/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  klx::registerAllPasses();
  mlir::DialectRegistry registry;
  klx::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "klx optimizer driver\n", registry));
}
