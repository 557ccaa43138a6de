//===- DiagnosticList.cpp - The compile's messages, one row each ----------===//

#include "widgets/DiagnosticList.h"

#include "widgets/Palette.h"

#include <cstdio>

using namespace klx;
using namespace klx::app;

void klx::app::collectDiagnostics(const PipelineRun &run,
                                  std::vector<Diag> &diagnostics,
                                  std::map<unsigned, Severity> &lineSeverity) {
  for (const Diag &diag : run.allDiagnostics()) {
    diagnostics.push_back(diag);
    // Only positions in this file mark the editor.
    if (diag.loc.isKnown() && diag.loc.file == run.fileName) {
      Severity &worst = lineSeverity[diag.loc.line];
      worst = std::max(worst, diag.severity);
    }
  }
}

void klx::app::lineMessagesTooltip(const std::vector<Diag> &diagnostics,
                                   unsigned line) {
  ImGui::BeginTooltip();
  for (const Diag &diag : diagnostics)
    if (diag.loc.line == line)
      ImGui::Text("%s: %s", severityName(diag.severity).data(),
                  diag.message.c_str());
  ImGui::EndTooltip();
}

void klx::app::drawDiagnosticList(const std::vector<Diag> &diagnostics,
                                  CommandQueue &commands, float height) {
  ImGui::BeginChild("diagnostics", ImVec2(-1, height), true);
  for (const Diag &diag : diagnostics) {
    ImVec4 colour = palette::diagnosticText(diag.severity == Severity::Error);
    char where[64] = "";
    if (diag.loc.isKnown())
      std::snprintf(where, sizeof(where), "%u:%u ", diag.loc.line,
                    diag.loc.col);
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    std::string row = std::string(where) + severityName(diag.severity).str() +
                      ": " + diag.message +
                      (diag.step.empty() ? "" : " [" + diag.step + "]");
    if (ImGui::Selectable(row.c_str()) && diag.loc.isKnown())
      commands.push(cmd::FocusSourceLine{int(diag.loc.line)});
    // The list is one line per message: the whole of it on hover.
    if (ImGui::IsItemHovered() &&
        ImGui::CalcTextSize(row.c_str()).x > ImGui::GetItemRectSize().x) {
      ImGui::BeginTooltip();
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 50);
      ImGui::TextUnformatted(row.c_str());
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    ImGui::PopStyleColor();
    for (const Diag &note : diag.notes)
      ImGui::TextDisabled("    note %u:%u: %s", note.loc.line, note.loc.col,
                          note.message.c_str());
  }
  ImGui::EndChild();
}
