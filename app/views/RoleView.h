//===- RoleView.h - The role tree the window shows --------------*- C++ -*-===//
//
// The Warp roles pane, and the IR and Source panes when a role is focused,
// need the same answers: which step's tree to show for the selected step,
// and which lines the focused role's ops are on. No ImGui here.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_ROLEVIEW_H
#define KLX_APP_VIEWS_ROLEVIEW_H

#include "klx/Pipeline/PipelineRun.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace klx::app {

/// The step whose role trees stand for the selected step.
struct RoleSource {
  int step = -1; // -1: no step of the run has roles
  enum Where {
    Selected, // the selected step has them
    Earlier,  // the last earlier step with roles (control flow lowered since)
    Later,    // the first later step with them (not specialized yet)
  } where = Selected;
};
RoleSource roleSourceFor(const PipelineRun &run, int selected);

/// Lines of `snapshot`'s text holding the ops of role `name` (1-based,
/// sorted); empty when the snapshot has no such role.
std::vector<unsigned> roleIRLines(const Snapshot &snapshot,
                                  llvm::StringRef name);

/// Lines of the input file the role's ops came from (1-based, sorted), read
/// from the tree that stands for step `selected`.
std::vector<unsigned> roleSourceLines(const PipelineRun &run, int selected,
                                      llvm::StringRef name);

/// The first error the role trees' checks found, at the first step that
/// has one ("barrier 'full' is initialised for 1 arrival per phase, but
/// producer_a and producer_b arrive on it"), for the status bar: a run
/// that compiles can still break its barriers. Empty when none.
std::string firstRoleError(const PipelineRun &run);

/// The colour slot (0-5) of a role, decided by its name alone so that a
/// role has one colour in every pane and at every step: producers are
/// warm (producer, producer_a: orange; producer_b: yellow), consumers cool
/// (consumer, consumer0: blue; consumer1: purple; consumer2: green); names
/// with a number (thread 0, threads 1-127) by that number; other names by
/// a hash of the name. -1 for no role.
int roleColourSlot(llvm::StringRef name);

} // namespace klx::app

#endif // KLX_APP_VIEWS_ROLEVIEW_H
