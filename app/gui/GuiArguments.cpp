//===- GuiArguments.cpp - The window's command line -----------------------===//

#include "GuiArguments.h"

#include "core/Layout.h"
#include "core/Pane.h"

#include "klx/Support/Target.h"

#include "llvm/Support/raw_ostream.h"

using namespace klx;
using namespace klx::gui;

namespace {

/// What reading one option did: not this reader's option, read, or
/// refused (after saying why).
enum class Read { NotMine, Done, Refused };

Read refuse(llvm::StringRef why) {
  llvm::errs() << "klx: " << why << "\n";
  return Read::Refused;
}

/// --NAME=TEXT options kept as they are written.
Read readTextOption(llvm::StringRef arg, GuiArguments &args) {
  struct TextOption {
    const char *prefix;
    std::string GuiArguments::*field;
  };
  static const TextOption kOptions[] = {
      {"--pass=", &GuiArguments::pass},
      {"--role=", &GuiArguments::role},
      {"--timeline-at=", &GuiArguments::timelineAt},
      {"--paste=", &GuiArguments::paste},
      {"--ready-file=", &GuiArguments::readyFile},
      {"--screenshot-when=", &GuiArguments::screenshotWhen},
      {"--compare=", &GuiArguments::compare},
      {"--screenshot=", &GuiArguments::screenshot},
      {"--ptxas=", &GuiArguments::ptxas},
      {"--nvdisasm=", &GuiArguments::nvdisasm},
      {"--target=", &GuiArguments::target},
      {"--run=", &GuiArguments::run},
      {"--sweep=", &GuiArguments::sweep},
      {"--open-trace=", &GuiArguments::trace},
  };
  for (const TextOption &option : kOptions)
    if (arg.consume_front(option.prefix)) {
      args.*option.field = arg.str();
      return Read::Done;
    }
  return Read::NotMine;
}

/// Options that name one of a few things: a layout, a theme, a pane.
Read readChoiceOption(llvm::StringRef arg, GuiArguments &args) {
  if (arg.consume_front("--layout=")) {
    if (!app::parseLayoutName(arg))
      return refuse("--layout expects explore, diff or teach");
    args.layout = arg.str();
  } else if (arg.consume_front("--theme=")) {
    if (!app::parseThemeName(arg))
      return refuse("--theme expects dark or light");
    args.theme = arg.str();
  } else if (arg.consume_front("--show=")) {
    args.show = app::paneNamed(arg);
    if (!args.show)
      return refuse("--show: no pane is called '" + arg.str() +
                    "'; the panes are " + app::paneTitles());
  } else {
    return Read::NotMine;
  }
  return Read::Done;
}

/// Options that take a number, each in its own range.
Read readNumberOption(llvm::StringRef arg, GuiArguments &args) {
  if (arg.consume_front("--zoom=")) {
    arg.consume_back("%");
    if (arg.getAsInteger(10, args.zoomPercent) ||
        args.zoomPercent < app::kMinZoomPercent ||
        args.zoomPercent > app::kMaxZoomPercent)
      return refuse("--zoom expects a percentage from " +
                    std::to_string(app::kMinZoomPercent) + " to " +
                    std::to_string(app::kMaxZoomPercent));
  } else if (arg.consume_front("--frames=")) {
    if (arg.getAsInteger(10, args.frames) || args.frames < 1)
      return refuse("--frames expects a positive number");
  } else if (arg.consume_front("--exit-after-idle=")) {
    if (arg.getAsDouble(args.exitAfterIdle) || args.exitAfterIdle <= 0)
      return refuse("--exit-after-idle expects seconds");
  } else if (arg.consume_front("--timeout=")) {
    if (arg.getAsDouble(args.timeout) || args.timeout <= 0)
      return refuse("--timeout expects seconds");
  } else if (arg.consume_front("--snapshot-limit=")) {
    if (arg.getAsDouble(args.snapshotLimitMB) || args.snapshotLimitMB <= 0)
      return refuse("--snapshot-limit expects megabytes");
  } else if (arg.consume_front("--measured-cta=")) {
    if (arg.getAsInteger(10, args.measuredCta) || args.measuredCta < 0)
      return refuse("--measured-cta expects a CTA's block id (0 or more)");
  } else {
    return Read::NotMine;
  }
  return Read::Done;
}

/// Flags, -D values and the file.
Read readOtherArgument(int argc, char **argv, int &i, GuiArguments &args) {
  llvm::StringRef arg = argv[i];
  if (arg == "--counterexample") {
    args.counterexample = true;
  } else if (arg == "--diff") {
    args.diff = true;
  } else if (arg.consume_front("--run-timeline=")) {
    args.run = arg.str();
    args.runTimeline = true;
  } else if (arg == "-D" && i + 1 < argc) {
    args.defines.push_back(argv[++i]);
  } else if (arg.consume_front("-D") && !arg.empty()) {
    args.defines.push_back(arg.str());
  } else if (arg.starts_with("-")) {
    return refuse("unknown option '" + arg.str() + "' (see `klx help`)");
  } else if (args.file.empty()) {
    args.file = arg.str();
  } else {
    return refuse("more than one FILE");
  }
  return Read::Done;
}

} // namespace

std::optional<GuiArguments> klx::gui::parseGuiArguments(int argc, char **argv) {
  GuiArguments args;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    Read read = readTextOption(arg, args);
    if (read == Read::NotMine)
      read = readChoiceOption(arg, args);
    if (read == Read::NotMine)
      read = readNumberOption(arg, args);
    if (read == Read::NotMine)
      read = readOtherArgument(argc, argv, i, args);
    if (read == Read::Refused)
      return std::nullopt;
  }
  if (!args.target.empty() && !parseTarget(args.target)) {
    llvm::errs() << "klx: unknown target '" << args.target << "'\n";
    return std::nullopt;
  }
  return args;
}
