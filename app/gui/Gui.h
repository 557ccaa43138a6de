//===- Gui.h - The klx window -----------------------------------*- C++ -*-===//

#ifndef KLX_APP_GUI_GUI_H
#define KLX_APP_GUI_GUI_H

namespace klx::gui {

/// `klx [FILE] [--pass=NAME] [--screenshot=OUT.png --frames=N]`. Returns
/// the process exit code; 2 when there is no display.
int run(int argc, char **argv);

} // namespace klx::gui

#endif // KLX_APP_GUI_GUI_H
