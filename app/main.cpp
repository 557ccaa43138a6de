//===- main.cpp - klx: the GUI, or a subcommand ---------------------------===//

#include "cli/CommandLine.h"
#include "gui/Gui.h"

#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  if (argc > 1 && klx::cli::isSubcommand(argv[1]))
    return klx::cli::runSubcommand(argc, argv);
  return klx::gui::run(argc, argv);
}
