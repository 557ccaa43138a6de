//===- TimelineVerdict.cpp - The Barrier timeline's verdicts --------------===//

#include "TimelineVerdict.h"

#include "widgets/Palette.h"

#include <imgui.h>

#include <cstdio>

using namespace klx;
using namespace klx::app;

void klx::app::modelTooltip(const TimelineView &view) {
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "@%s after %s, from %s (simulated)\nlatency model: "
        "%s%s%s",
        view.kernel.c_str(), view.stepName.c_str(), view.readFrom.c_str(),
        view.latency.c_str(),
        view.assumptions.empty() ? "" : "\nmodel: ", view.assumptions.c_str());
}

void klx::app::drawVerdict(const TimelineView &view) {
  if (view.verdict.completes) {
    ImGui::TextColored(palette::toVec4(palette::theme().goodText),
                       "simulated: completes in %.0f cycles", view.endTime);
    modelTooltip(view);
    return;
  }
  ImGui::TextColored(palette::toVec4(palette::theme().errorText),
                     "simulated: %s after %.0f cycles",
                     view.verdict.protocolError ? "DEADLOCK (protocol error)"
                                                : "DEADLOCK",
                     view.endTime);
  modelTooltip(view);
  // The reasons fold away where the pane is short, so the lanes show.
  bool roomy = ImGui::GetContentRegionAvail().y > 330;
  if (!ImGui::TreeNodeEx("why the simulation stops",
                         roomy ? ImGuiTreeNodeFlags_DefaultOpen : 0))
    return;
  ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().errorText);
  // Wrapped, never cut at the pane's edge.
  for (const sim::BlockedWait &b : view.verdict.blocked) {
    ImGui::Bullet();
    if (b.waiting)
      ImGui::TextWrapped("%s waits on %s[%d] for parity %d (%lld phases "
                         "done, %d arrivals, %lld bytes pending)",
                         b.role.c_str(), b.barrier.c_str(), b.slot,
                         b.expectedParity, (long long)b.completedPhases,
                         b.pendingArrivals, (long long)b.pendingBytes);
    else
      ImGui::TextWrapped("%s stopped at %s", b.role.c_str(), b.op.c_str());
  }
  for (const std::string &f : view.verdict.findings)
    ImGui::TextWrapped("why: %s", f.c_str());
  ImGui::PopStyleColor();
  ImGui::TreePop();
}

void klx::app::drawVerification(const TimelineView &view, bool counter,
                                CommandQueue &commands) {
  const sim::Verification *v = view.verification.get();
  if (!v)
    return;
  bool hovered = false;
  if (v->verified()) {
    ImGui::TextColored(palette::toVec4(palette::theme().goodText),
                       "every timing: verified, up to %s", view.bound.c_str());
    hovered = ImGui::IsItemHovered();
  } else if (v->fails()) {
    ImGui::TextColored(palette::toVec4(palette::theme().errorText), "%s (%s)",
                       view.verdict.completes
                           ? "but for another timing it can fail"
                           : "every timing: can fail",
                       sim::failureKindName(v->kind).data());
    hovered = ImGui::IsItemHovered();
    const char *label =
        counter ? "Show the simulation" : "Show the counterexample";
    // Beside the verdict when it fits, else under it.
    float need =
        ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < need)
      ImGui::NewLine();
    if (ImGui::SmallButton(label))
      commands.push(cmd::ShowCounterexample{!counter});
    if (counter) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().errorText);
      ImGui::TextWrapped("%s", v->summary.c_str());
      ImGui::PopStyleColor();
    }
  } else {
    ImGui::TextDisabled("every timing: unknown (%s)", v->unknownWhy.c_str());
    hovered = ImGui::IsItemHovered();
  }
  if (hovered) {
    std::string left;
    for (const std::string &line : view.leavesOut)
      left += "\n  " + line;
    ImGui::SetTooltip("klx verify explored every interleaving of the "
                      "roles and every order copies land in:\n%s\n%lld "
                      "states (%lld moves) in %.2f s%s%s",
                      view.verifyVerdict.c_str(), (long long)v->states,
                      (long long)v->transitions, v->seconds,
                      left.empty() ? "" : "\nleaves out:", left.c_str());
  }
}

void klx::app::drawCounterexampleHeader(const TimelineView &view) {
  const sim::Verification &v = *view.verification;
  ImGui::TextDisabled("@%s after %s: klx verify's counterexample, %zu "
                      "moves (one unit of time each)",
                      view.kernel.c_str(), view.stepName.c_str(),
                      v.counterexample.size());
}

void klx::app::drawMoves(const AppState &state, const TimelineView &view,
                         CommandQueue &commands) {
  const sim::Verification &v = *view.verification;
  ImGui::Separator();
  ImGui::BeginChild("moves", ImVec2(0, 0), false,
                    ImGuiWindowFlags_HorizontalScrollbar);
  ImGuiListClipper clipper;
  clipper.Begin(int(v.counterexample.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const sim::CounterStep &step = v.counterexample[size_t(i)];
      std::string who =
          step.landing ? "(copy)"
          : step.role >= 0 && step.role < int(v.trace.roleNames.size())
              ? v.trace.roleNames[size_t(step.role)]
              : "?";
      char line[512];
      std::snprintf(line, sizeof line, "%3d  %-16s %s", i + 1, who.c_str(),
                    step.what.c_str());
      bool last = i + 1 == int(v.counterexample.size());
      if (last)
        ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().errorText);
      ImGui::PushID(i);
      if (ImGui::Selectable(line, false) && step.line) {
        commands.push(cmd::SelectStep{view.step});
        if (unsigned source = sourceLineOf(*state.run, view.step, step.line))
          commands.push(cmd::FocusSourceLine{int(source)});
      }
      ImGui::PopID();
      if (last)
        ImGui::PopStyleColor();
      if (ImGui::IsItemHovered() && step.line)
        ImGui::SetTooltip("IR line %u of %s", step.line, view.stepName.c_str());
    }
  ImGui::EndChild();
}
