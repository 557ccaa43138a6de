//===- GuiArguments.cpp - The window's command line -----------------------===//

#include "GuiArguments.h"

#include "core/Layout.h"
#include "core/Pane.h"

#include "klx/Support/Target.h"

#include "llvm/Support/raw_ostream.h"

using namespace klx;
using namespace klx::gui;

std::optional<GuiArguments> klx::gui::parseGuiArguments(int argc, char **argv) {
  GuiArguments args;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg.consume_front("--pass="))
      args.pass = arg.str();
    else if (arg.consume_front("--role="))
      args.role = arg.str();
    else if (arg.consume_front("--timeline-at="))
      args.timelineAt = arg.str();
    else if (arg == "--counterexample")
      args.counterexample = true;
    else if (arg.consume_front("--show=")) {
      args.show = app::paneNamed(arg);
      if (!args.show) {
        llvm::errs() << "klx: --show: no pane is called '" << arg
                     << "'; the panes are " << app::paneTitles() << "\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--layout=")) {
      if (!app::parseLayoutName(arg)) {
        llvm::errs() << "klx: --layout expects explore, diff or teach\n";
        return std::nullopt;
      }
      args.layout = arg.str();
    } else if (arg.consume_front("--zoom=")) {
      arg.consume_back("%");
      if (arg.getAsInteger(10, args.zoomPercent) ||
          args.zoomPercent < app::kMinZoomPercent ||
          args.zoomPercent > app::kMaxZoomPercent) {
        llvm::errs() << "klx: --zoom expects a percentage from "
                     << app::kMinZoomPercent << " to " << app::kMaxZoomPercent
                     << "\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--theme=")) {
      if (!app::parseThemeName(arg)) {
        llvm::errs() << "klx: --theme expects dark or light\n";
        return std::nullopt;
      }
      args.theme = arg.str();
    } else if (arg.consume_front("--paste="))
      args.paste = arg.str();
    else if (arg.consume_front("--ready-file="))
      args.readyFile = arg.str();
    else if (arg.consume_front("--screenshot-when="))
      args.screenshotWhen = arg.str();
    else if (arg.consume_front("--compare="))
      args.compare = arg.str();
    else if (arg == "-D" && i + 1 < argc)
      args.defines.push_back(argv[++i]);
    else if (arg.consume_front("-D") && !arg.empty())
      args.defines.push_back(arg.str());
    else if (arg.consume_front("--screenshot="))
      args.screenshot = arg.str();
    else if (arg.consume_front("--frames=")) {
      if (arg.getAsInteger(10, args.frames) || args.frames < 1) {
        llvm::errs() << "klx: --frames expects a positive number\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--exit-after-idle=")) {
      if (arg.getAsDouble(args.exitAfterIdle) || args.exitAfterIdle <= 0) {
        llvm::errs() << "klx: --exit-after-idle expects seconds\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--timeout=")) {
      if (arg.getAsDouble(args.timeout) || args.timeout <= 0) {
        llvm::errs() << "klx: --timeout expects seconds\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--snapshot-limit=")) {
      if (arg.getAsDouble(args.snapshotLimitMB) || args.snapshotLimitMB <= 0) {
        llvm::errs() << "klx: --snapshot-limit expects megabytes\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--ptxas="))
      args.ptxas = arg.str();
    else if (arg.consume_front("--nvdisasm="))
      args.nvdisasm = arg.str();
    else if (arg.consume_front("--target="))
      args.target = arg.str();
    else if (arg.consume_front("--run="))
      args.run = arg.str();
    else if (arg.consume_front("--sweep="))
      args.sweep = arg.str();
    else if (arg.consume_front("--measured-cta=")) {
      if (arg.getAsInteger(10, args.measuredCta) || args.measuredCta < 0) {
        llvm::errs() << "klx: --measured-cta expects a CTA's block id (0 or "
                        "more)\n";
        return std::nullopt;
      }
    } else if (arg.consume_front("--open-trace="))
      args.trace = arg.str();
    else if (arg.consume_front("--run-timeline=")) {
      args.run = arg.str();
      args.runTimeline = true;
    } else if (arg.starts_with("-")) {
      llvm::errs() << "klx: unknown option '" << arg << "' (see `klx help`)\n";
      return std::nullopt;
    } else if (args.file.empty())
      args.file = arg.str();
    else {
      llvm::errs() << "klx: more than one FILE\n";
      return std::nullopt;
    }
  }
  if (!args.target.empty() && !parseTarget(args.target)) {
    llvm::errs() << "klx: unknown target '" << args.target << "'\n";
    return std::nullopt;
  }
  return args;
}
