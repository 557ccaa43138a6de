//===- AssemblyPanel.cpp - PTX, SASS, AMDGCN and what ptxas says ----------===//

#include "Panel.h"

#include "views/SourceCorrelation.h"
#include "widgets/CorrelatedTextView.h"
#include "widgets/Palette.h"
#include "widgets/SaveAsDialog.h"

#include "llvm/Support/FormatVariadic.h"

namespace klx::app {
namespace {

struct AssemblyTab {
  EmitKind kind;
  const char *name;
};

constexpr AssemblyTab kTabs[] = {{EmitKind::PTX, "PTX"},
                                 {EmitKind::SASS, "SASS"},
                                 {EmitKind::AMDGCN, "AMDGCN"}};

const char *kindName(EmitKind kind) {
  for (const AssemblyTab &tab : kTabs)
    if (tab.kind == kind)
      return tab.name;
  return "asm";
}

const std::string &textOf(const DeviceArtifacts &a, EmitKind kind) {
  switch (kind) {
  case EmitKind::PTX:
    return a.ptx;
  case EmitKind::SASS:
    return a.sass;
  default:
    return a.amdgcn;
  }
}

class AssemblyPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Assembly; }

  void draw(const AppState &state, CommandQueue &commands) override {
    bool stale = false;
    const PipelineRun *shown = resultRun(state, stale);
    if (!shown) {
      ImGui::TextDisabled(state.compiling ? "compiling..." : "no run yet");
      return;
    }
    const PipelineRun &run = *shown;
    if (stale && !run.artifacts.empty()) {
      // The kernel has errors now: the last good assembly, faded (the
      // text view draws its colours through the style's alpha).
      ImGui::TextColored(palette::toVec4(palette::theme().errorText),
                         "the kernel has errors (see the Source pane)");
      ImGui::TextDisabled("below: the last compile that worked");
      ImGui::PushStyleVar(ImGuiStyleVar_Alpha, 0.55f);
      drawArtifacts(state, commands, run, stale);
      ImGui::PopStyleVar();
      return;
    }
    drawArtifacts(state, commands, run, stale);
  }

private:
  void drawArtifacts(const AppState &state, CommandQueue &commands,
                     const PipelineRun &run, bool stale) {
    if (run.artifacts.empty()) {
      ImGui::TextWrapped(
          "No assembly yet: the run %s before the backend steps.",
          run.succeeded() ? "stopped" : "failed");
      return;
    }
    // One module at a time: the view's, which File > Save writes too.
    size_t shown = shownModule(run, state.view);
    if (run.artifacts.size() > 1) {
      ImGui::SetNextItemWidth(-1);
      if (ImGui::BeginCombo(
              "##module",
              ("gpu.module @" + run.artifacts[shown].moduleName).c_str())) {
        for (size_t i = 0; i < run.artifacts.size(); ++i)
          if (ImGui::Selectable(run.artifacts[i].moduleName.c_str(),
                                i == shown))
            commands.push(cmd::SelectModule{run.artifacts[i].moduleName});
        ImGui::EndCombo();
      }
    }
    const DeviceArtifacts &artifacts = run.artifacts[shown];
    drawReport(artifacts);

    EmitKind selectedKind =
        !stale && size_t(state.view.selected) < run.snapshots.size()
            ? run.snapshots[state.view.selected].kind
            : EmitKind::MLIR;
    if (ImGui::BeginTabBar("kinds")) {
      for (const AssemblyTab &tab : kTabs) {
        if (!targetProduces(run.target, tab.kind))
          continue;
        // Selecting a PTX/SASS/AMDGCN step brings its tab forward.
        ImGuiTabItemFlags flags = 0;
        if (selectedKind == tab.kind && lastSelected != state.view.selected)
          flags = ImGuiTabItemFlags_SetSelected;
        if (ImGui::BeginTabItem(tab.name, nullptr, flags)) {
          drawAssembly(state, commands, artifacts, tab.kind,
                       shown + (stale ? 8 : 0));
          ImGui::EndTabItem();
        }
      }
      ImGui::EndTabBar();
    }
    lastSelected = state.view.selected;
  }

  void drawReport(const DeviceArtifacts &a) {
    // In a short pane (Teach at 1280x720) one line per kernel, the rest on
    // hover: wrapped over two, it left the code two lines.
    bool compact = ImGui::GetContentRegionAvail().y <
                   ImGui::GetTextLineHeightWithSpacing() * 14;
    if (a.ptxas) {
      for (const PtxasFunctionReport &f : a.ptxas->functions) {
        std::string full =
            llvm::formatv("{0}: {1} registers, {2} B smem, {3} "
                          "B stack, spills {4}/{5} B",
                          f.name, f.registers, f.sharedBytes, f.stackFrameBytes,
                          f.spillStoreBytes, f.spillLoadBytes)
                .str();
        bool local = f.stackFrameBytes || f.spillStoreBytes;
        if (compact) {
          ImVec4 colour = local ? palette::toVec4(palette::theme().warningText)
                                : ImGui::GetStyleColorVec4(ImGuiCol_Text);
          ImGui::TextColored(colour, "%u registers, %u B smem, %u B stack%s",
                             f.registers, f.sharedBytes, f.stackFrameBytes,
                             f.spillStoreBytes ? ", spills" : "");
          if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s%s", full.c_str(),
                              local ? "\nlocal memory in use (stack frame or "
                                      "spills)"
                                    : "");
          continue;
        }
        ImGui::TextWrapped("%s", full.c_str());
        if (local)
          ImGui::TextColored(palette::toVec4(palette::theme().warningText),
                             "  local memory in use (stack frame or spills)");
      }
      for (const PtxasMessage &m : a.ptxas->messages)
        ImGui::TextColored(palette::diagnosticText(m.isError),
                           "ptxas %s:", m.isError ? "error" : "warning"),
            ImGui::SameLine(), ImGui::TextWrapped("%s", m.text.c_str());
    }
    if (a.amdgcnMetadata)
      for (const AmdgcnKernelInfo &k : a.amdgcnMetadata->kernels)
        ImGui::TextWrapped("%s: %u VGPR, %u AGPR, %u SGPR, %u B scratch, %u B "
                           "LDS, occupancy %u",
                           k.name.c_str(), k.vgprs, k.agprs, k.sgprs,
                           k.scratchBytes, k.ldsBytes, k.occupancy);
  }

  void drawCounts(const DeviceArtifacts &a, EmitKind kind) {
    auto it = a.counts.find(kind);
    if (it == a.counts.end())
      return;
    const InstructionCounts &counts = it->second;
    // In a short pane (Teach at 1280x720) the table would leave no room
    // for the code: folded under one line there.
    size_t rows = (counts.classes.size() + 2) / 2;
    bool shortPane = ImGui::GetContentRegionAvail().y <
                     ImGui::GetTextLineHeightWithSpacing() * float(rows + 12);
    if (shortPane && !ImGui::TreeNode("counts", "instruction counts (total %u)",
                                      counts.total))
      return;
    if (ImGui::BeginTable("counts", 2,
                          ImGuiTableFlags_SizingStretchProp |
                              ImGuiTableFlags_BordersInnerV)) {
      int column = 0;
      auto cell = [&](const char *name, unsigned count, bool dim) {
        if (column++ % 2 == 0)
          ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (dim)
          ImGui::TextDisabled("%s %u", name, count);
        else
          ImGui::Text("%s %u", name, count);
      };
      cell("total", counts.total, false);
      for (const InstructionClassCount &entry : counts.classes)
        cell(entry.name.c_str(), entry.count, entry.count == 0);
      ImGui::EndTable();
    }
    if (shortPane)
      ImGui::TreePop();
  }

  /// `variant` tells the modules, and a last good run, apart.
  void drawAssembly(const AppState &state, CommandQueue &commands,
                    const DeviceArtifacts &a, EmitKind kind, size_t variant) {
    if (kind == EmitKind::SASS && a.sass.empty()) {
      ImGui::TextWrapped("No SASS: %s",
                         a.sassMissingReason.empty()
                             ? "the run stopped before the sass step."
                             : a.sassMissingReason.c_str());
      return;
    }
    const std::string &text = textOf(a, kind);
    if (text.empty()) {
      ImGui::TextDisabled("the run stopped before this step");
      return;
    }
    drawCounts(a, kind);
    uint64_t identity = (state.runSerial << 8) + uint64_t(kind) * 16 + variant;
    CorrelatedTextView &view = views[int(kind) % 3];
    view.setText(text, languageFor(kind), identity,
                 [&] { return sourceLinesOfText(text, languageFor(kind)); });
    view.followReveals(state, pane());
    CorrelatedResult result =
        view.draw(kindName(kind), ImVec2(-1, -1), state.view.focusedSourceLine,
                  {}, [&] { saveAs.menuItems(state); });
    saveAs.draw(commands);
    if (result.clickedSource)
      commands.push(cmd::FocusSourceLine{int(result.clickedSource)});
  }

  int lastSelected = -1;
  CorrelatedTextView views[3];
  SaveAsDialog saveAs;
};

} // namespace

std::unique_ptr<Panel> createAssemblyPanel() {
  return std::make_unique<AssemblyPanel>();
}

} // namespace klx::app
