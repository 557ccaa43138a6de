//===- NoGui.cpp - klx built with KLX_BUILD_APP=OFF -----------------------===//

#include "Gui.h"

#include "llvm/Support/raw_ostream.h"

int klx::gui::run(int, char **) {
  llvm::errs() << "klx: this build has no window (configured with "
                  "-DKLX_BUILD_APP=OFF); use a subcommand, e.g. "
                  "`klx pipeline FILE` (see `klx help`)\n";
  return 2;
}
