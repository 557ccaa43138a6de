//===- SaveAsDialog.h - "Save ... as" for the window's artifacts -*- C++
//-*-===//
//
// The menu items that save the step's IR, the PTX, the cubin, the SASS, the
// AMDGCN or a bundle, and the small dialog that asks where (a path,
// suggested beside the kernel's file). Saving itself is a command the
// controller carries out.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_SAVEASDIALOG_H
#define KLX_APP_WIDGETS_SAVEASDIALOG_H

#include "core/Artifacts.h"
#include "widgets/PathField.h"

#include <string>

namespace klx::app {

class SaveAsDialog {
public:
  /// Inside an open menu: a "Save ... as..." item per artifact of the run's
  /// target, disabled (with why, on hover) where it cannot be saved.
  void menuItems(const AppState &state);
  /// The item of one artifact (a pane's menu offers its own).
  void menuItem(const AppState &state, ArtifactKind kind);
  /// Every frame, in the same window as the menu: the dialog once an item
  /// was chosen; Save pushes Command::SaveArtifact.
  void draw(CommandQueue &commands);

private:
  bool pendingOpen = false;
  ArtifactKind kind = ArtifactKind::StepIR;
  /// Where to save: it completes folders as it is typed (Tab).
  PathField path{PathKinds::Folders, nullptr};
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_SAVEASDIALOG_H
