//===- WarpRolesPanel.cpp - Kernel, warpgroups, warps and their roles -----===//
//
// Draws the role trees of the step that stands for the selected one: the
// register file split among the warpgroups, each warpgroup's budget and
// warps (filled by how many threads work), then the roles with their ops
// and barriers, then the checks. Clicking a role tints its ops in the IR
// and Source panes; clicking an op or a check focuses its source line.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "klx/Analysis/RoleTree/RoleTreeFormat.h"
#include "views/RoleView.h"
#include "widgets/Palette.h"
#include "widgets/TextInView.h"

#include <algorithm>
#include <cstdio>

namespace klx::app {
namespace {

constexpr float kMaxRegsPerThread = 256.0f;

/// The role a warp is drawn in: the name of its first innermost role, or
/// "" (its colour's key).
llvm::StringRef warpRole(const RoleTree &tree, const WarpNode &warp) {
  return warp.roles.empty()
             ? llvm::StringRef()
             : llvm::StringRef(tree.roles[warp.roles.front()].name);
}
/// A warpgroup is drawn in its first warp's role.
llvm::StringRef groupRole(const RoleTree &tree, const WarpgroupNode &group) {
  return group.warps.empty() ? "" : warpRole(tree, group.warps.front());
}
/// Registers per thread of a warpgroup: its own count, else what ptxas
/// allocated (`allocated`, 0 when unknown).
unsigned groupRegs(const WarpgroupNode &group, unsigned allocated) {
  return group.regs ? group.regs : allocated;
}

/// `allocated`: what ptxas gave each thread, for a tree whose IR sets no
/// register count (0 when unknown too).
void drawRegisterFile(const RoleTree &tree, unsigned allocated) {
  ImDrawList *draw = ImGui::GetWindowDrawList();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float width = std::max(120.0f, ImGui::GetContentRegionAvail().x);
  float height = ImGui::GetTextLineHeight();
  draw->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height),
                      palette::theme().barBackground);
  float x = origin.x;
  for (const WarpgroupNode &group : tree.warpgroups) {
    float share = float(group.threads) * groupRegs(group, allocated) /
                  kRegistersPerSM * width;
    llvm::StringRef role = groupRole(tree, group);
    float end = std::min(origin.x + width, x + share);
    draw->AddRectFilled(ImVec2(x, origin.y), ImVec2(end, origin.y + height),
                        palette::roleBackground(role));
    draw->AddRect(ImVec2(x, origin.y), ImVec2(end, origin.y + height),
                  palette::role(role));
    x += share;
  }
  bool over = tree.registerTotal > kRegistersPerSM;
  char label[96];
  if (tree.registerTotal)
    std::snprintf(label, sizeof(label), "%u of 65536 registers%s",
                  tree.registerTotal, over ? ": too many" : "");
  else if (allocated)
    std::snprintf(label, sizeof(label), "%u of 65536 registers (ptxas)",
                  allocated * tree.threads);
  else
    std::snprintf(label, sizeof(label), "registers unknown: no cap at entry");
  draw->AddText(ImVec2(origin.x + 4, origin.y),
                over ? palette::theme().errorText : palette::theme().brightText,
                label);
  ImGui::Dummy(ImVec2(width, height));
}

void drawWarpgroup(const RoleTree &tree, const WarpgroupNode &group,
                   unsigned allocated) {
  ImDrawList *draw = ImGui::GetWindowDrawList();
  ImGui::Text("wg %u", group.index);
  ImGui::SameLine(ImGui::GetFontSize() * 3.2f);
  // The budget as a bar against the most a thread can have.
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float height = ImGui::GetTextLineHeight();
  float barWidth = ImGui::GetFontSize() * 7;
  llvm::StringRef role = groupRole(tree, group);
  unsigned count = groupRegs(group, allocated);
  draw->AddRectFilled(origin, ImVec2(origin.x + barWidth, origin.y + height),
                      palette::theme().barBackground);
  draw->AddRectFilled(
      origin,
      ImVec2(origin.x + barWidth * std::min(1.0f, count / kMaxRegsPerThread),
             origin.y + height),
      palette::roleBackground(role));
  char regs[32];
  std::snprintf(regs, sizeof(regs), count ? "%u regs" : "? regs", count);
  draw->AddText(ImVec2(origin.x + 4, origin.y), palette::theme().brightText,
                regs);
  ImGui::Dummy(ImVec2(barWidth, height));

  // One box per warp, filled by the share of its threads that work.
  float box = ImGui::GetFontSize() * 2.2f;
  for (const WarpNode &warp : group.warps) {
    ImGui::SameLine();
    ImVec2 p = ImGui::GetCursorScreenPos();
    llvm::StringRef r = warpRole(tree, warp);
    float fill =
        warp.activeThreads == 0
            ? 0.0f
            : std::max(0.12f, float(warp.activeThreads) / kThreadsPerWarp);
    draw->AddRectFilled(p, ImVec2(p.x + box * fill, p.y + height),
                        palette::roleBackground(r));
    draw->AddRect(p, ImVec2(p.x + box, p.y + height), palette::role(r));
    char label[16];
    std::snprintf(label, sizeof(label), "%u", warp.index);
    draw->AddText(ImVec2(p.x + 3, p.y),
                  warp.activeThreads ? palette::theme().brightText
                                     : palette::theme().dimText,
                  label);
    ImGui::PushID(int(warp.index));
    ImGui::InvisibleButton("warp", ImVec2(box, height));
    ImGui::PopID();
    if (ImGui::IsItemHovered()) {
      std::string roles;
      for (int index : warp.roles)
        roles += (roles.empty() ? "" : " + ") + tree.roles[index].name;
      ImGui::SetTooltip(
          "warp %u, threads %u-%u\nrole: %s\n%u thread%s doing "
          "its work%s",
          warp.index, warp.index * kThreadsPerWarp,
          std::min(tree.threads, (warp.index + 1) * kThreadsPerWarp) - 1,
          roles.empty() ? "(none)" : roles.c_str(), warp.activeThreads,
          warp.activeThreads == 1 ? "" : "s",
          warp.activeThreads == 0 ? " (idle: only setmaxnreg)" : "");
    }
  }
}

class WarpRolesPanel final : public Panel {
public:
  Pane pane() const override { return Pane::WarpRoles; }

  void draw(const AppState &state, CommandQueue &commands) override {
    if (!state.run || state.run->snapshots.empty()) {
      ImGui::TextDisabled(state.compiling ? "compiling..." : "no run yet");
      return;
    }
    const PipelineRun &run = *state.run;
    RoleSource source = roleSourceFor(run, state.view.selected);
    if (source.step < 0) {
      const char *why =
          !run.succeeded()
              ? "The run stopped before any step had warp roles; the "
                "Source pane lists why."
          : isAmd(run.target)
              ? "Warp roles (warpgroups, setmaxnreg) are NVIDIA's; this AMD "
                "kernel has none."
              : "No step has a kernel whose roles klx can read: a gpu.func "
                "needs known_block_size, a gpu.launch constant block sizes, "
                "and scf control flow.";
      ImGui::TextWrapped("%s", why);
      return;
    }
    const Snapshot &snapshot = run.snapshots[source.step];
    drawWhere(state, commands, run, source);
    // A lesson step that looks at the roles scrolls the trees to the role
    // it names (else the first): in a short pane they were below the
    // register file.
    if (const PaneReveal *reveal = reveals.take(state, pane())) {
      revealRole = reveal->text.empty() ? "" : reveal->text.front();
      revealPending = true;
    }
    shown.clear();
    if (ImGui::BeginChild("trees")) {
      for (size_t k = 0; k < snapshot.facts.roles.size(); ++k) {
        ImGui::PushID(int(k));
        drawTree(state, commands, snapshot.facts.roles[k]);
        ImGui::PopID();
      }
    }
    ImGui::EndChild();
    revealPending = false; // a role it names that is not here: none to show
    addTextInView("roles", std::move(shown));
  }

private:
  void drawWhere(const AppState &state, CommandQueue &commands,
                 const PipelineRun &run, RoleSource source) {
    const std::string stepName = run.snapshots[source.step].displayName();
    if (source.where == RoleSource::Selected) {
      ImGui::Text("after %s", stepName.c_str());
    } else {
      const std::string selected =
          run.snapshots[std::min<size_t>(state.view.selected,
                                         run.snapshots.size() - 1)]
              .displayName();
      ImGui::TextDisabled(source.where == RoleSource::Later
                              ? "no roles yet at %s; they appear at"
                              : "no branches left to read at %s; from",
                          selected.c_str());
      ImGui::SameLine();
      if (ImGui::SmallButton(stepName.c_str()))
        commands.push(cmd::SelectStep{source.step});
    }
    if (!state.view.focusedRole.empty()) {
      ImGui::SameLine();
      if (ImGui::SmallButton("clear focus"))
        commands.push(cmd::FocusRole{});
    }
  }

  void drawTree(const AppState &state, CommandQueue &commands,
                const RoleTree &tree) {
    ImGui::Text("@%s", tree.kernel.c_str());
    ImGui::SameLine();
    // Without a count in the IR, what ptxas allocated stands in.
    unsigned allocated =
        tree.registersAtEntry ? 0 : ptxasRegisters(state, tree);
    if (tree.registersAtEntry)
      ImGui::TextDisabled("%u threads, %u regs/thread at entry (%s)",
                          tree.threads, tree.registersAtEntry,
                          tree.form.c_str());
    else if (allocated)
      ImGui::TextDisabled("%u threads, %u regs/thread as ptxas allocated, no "
                          "cap in the IR (%s)",
                          tree.threads, allocated, tree.form.c_str());
    else
      ImGui::TextDisabled("%u threads, no register cap at entry (%s)",
                          tree.threads, tree.form.c_str());
    if (tree.clusterCtas > 1) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("clusters of %u CTAs: each CTA runs this tree; "
                          "the barrier uses marked so reach the others",
                          tree.clusterCtas);
      ImGui::PopTextWrapPos();
    }
    drawRegisterFile(tree, allocated);
    for (const WarpgroupNode &group : tree.warpgroups) {
      ImGui::PushID(int(group.index));
      drawWarpgroup(tree, group, allocated);
      ImGui::PopID();
    }
    ImGui::Separator();
    for (size_t r = 0; r < tree.roles.size(); ++r) {
      ImGui::PushID(int(r));
      drawRole(state, commands, tree, int(r));
      ImGui::PopID();
    }
    drawChecks(commands, tree);
    ImGui::Spacing();
  }

  void drawRole(const AppState &state, CommandQueue &commands,
                const RoleTree &tree, int index) {
    const Role &role = tree.roles[index];
    ImDrawList *draw = ImGui::GetWindowDrawList();
    ImVec2 p = ImGui::GetCursorScreenPos();
    float size = ImGui::GetTextLineHeight();
    draw->AddRectFilled(ImVec2(p.x + 2, p.y + 2),
                        ImVec2(p.x + size - 2, p.y + size - 2),
                        palette::role(role.name));
    ImGui::Dummy(ImVec2(size, size));
    ImGui::SameLine();
    std::string label = role.name;
    if (role.parent >= 0)
      label += " (in " + tree.roles[role.parent].name + ")";
    if (role.regs)
      label += std::string(role.regsIncrease ? "  setmaxnreg.inc "
                                             : "  setmaxnreg.dec ") +
               std::to_string(*role.regs);
    bool focused = state.view.focusedRole == role.name;
    if (ImGui::Selectable(label.c_str(), focused))
      commands.push(cmd::FocusRole{focused ? "" : role.name});
    if (revealPending && llvm::StringRef(label).contains(revealRole)) {
      ImGui::SetScrollHereY(0.15f);
      revealPending = false;
    }
    if (recordingTextInView() && ImGui::IsItemVisible())
      shown.push_back({unsigned(shown.size() + 1), label});
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("click to tint this role's ops in the IR and Source");
    ImGui::Indent(size);
    std::string details = "threads " + threadRanges(role.warps, tree.threads) +
                          ", " + std::to_string(role.activeThreads) +
                          " active; " + std::to_string(role.ops.size()) +
                          " ops, " + std::to_string(role.barriers.size()) +
                          " barrier uses";
    if (ImGui::TreeNode("ops", "%s", details.c_str())) {
      for (size_t i = 0; i < role.ops.size(); ++i) {
        const RoleOpRef &op = role.ops[i];
        if (isBookkeepingOp(op.name))
          continue;
        char row[160];
        std::snprintf(row, sizeof(row), "%-36s line %u, %u thread%s",
                      op.name.c_str(), op.source.line, op.threads,
                      op.threads == 1 ? "" : "s");
        ImGui::PushID(int(i));
        if (ImGui::Selectable(row) && op.source.isKnown())
          commands.push(cmd::FocusSourceLine{int(op.source.line)});
        ImGui::PopID();
      }
      for (const BarrierUse &use : role.barriers)
        ImGui::TextDisabled("%s %s%s (line %u)",
                            barrierActionName(use.action).data(),
                            use.displayName().c_str(),
                            !use.acrossCluster ? ""
                            : use.action == BarrierAction::CompleteTx
                                ? ", multicast to the cluster"
                                : ", of a CTA of the cluster",
                            use.source.line);
      ImGui::TreePop();
    }
    ImGui::Unindent(size);
  }

  /// Registers ptxas gave the tree's kernel, 0 when the run has no report.
  static unsigned ptxasRegisters(const AppState &state, const RoleTree &tree) {
    if (!state.run)
      return 0;
    for (const DeviceArtifacts &module : state.run->artifacts)
      if (module.ptxas)
        if (const PtxasFunctionReport *report = module.ptxas->find(tree.kernel))
          return report->registers;
    return 0;
  }

  void drawChecks(CommandQueue &commands, const RoleTree &tree) {
    if (tree.checks.empty()) {
      bool anything = llvm::any_of(tree.roles, [](const Role &role) {
        return role.regs || !role.barriers.empty();
      });
      if (anything)
        ImGui::TextColored(palette::toVec4(palette::theme().goodText),
                           "registers, setmaxnreg and barriers check out");
      else
        ImGui::TextDisabled("nothing to check: no setmaxnreg, no barriers");
      return;
    }
    for (size_t i = 0; i < tree.checks.size(); ++i) {
      const RoleCheck &check = tree.checks[i];
      ImGui::PushStyleColor(
          ImGuiCol_Text,
          palette::diagnosticText(check.severity == Severity::Error));
      ImGui::PushID(int(i));
      std::string row =
          severityName(check.severity).str() + ": " + check.message;
      // Selectable does not wrap; a long message must stay readable.
      ImGui::TextWrapped("%s", row.c_str());
      if (revealPending && llvm::StringRef(row).contains(revealRole)) {
        ImGui::SetScrollHereY(0.15f);
        revealPending = false;
      }
      if (recordingTextInView() && ImGui::IsItemVisible())
        shown.push_back({unsigned(shown.size() + 1), row});
      if (ImGui::IsItemClicked() && check.source.isKnown())
        commands.push(cmd::FocusSourceLine{int(check.source.line)});
      ImGui::PopID();
      ImGui::PopStyleColor();
    }
  }

  RevealTracker reveals;  // the lesson steps' requests
  std::string revealRole; // the text of the role or check it names
  bool revealPending = false;
  std::vector<LineInView> shown; // for a screenshot's layout file
};

} // namespace

std::unique_ptr<Panel> createWarpRolesPanel() {
  return std::make_unique<WarpRolesPanel>();
}

} // namespace klx::app
