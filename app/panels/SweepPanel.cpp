//===- SweepPanel.cpp - Every combination of -D values, ranked ------------===//
//
// -D lists and sizes, a Sweep button, and the result: per size, one bar
// per variant (median TFLOP/s over its processes, fastest first), cuBLAS
// on the same shape as a line across them, the ratio and its spread
// beside each bar; failures in red with their status; then what the
// compiler said of every variant. The work happens in SweepWorker (the
// compiles) and in klx-run --sweep (the GPU, a child process). Without a
// GPU the pane shows the compile table and says why nothing ran; a
// result written on a machine with a GPU opens from its file.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "views/Elide.h"
#include "widgets/Palette.h"

#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace klx::app {
namespace {

std::string format(const char *fmt, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, fmt, value);
  return buffer;
}

ImU32 barColour(const SweepBar &bar) {
  if (bar.ok())
    return bar.rank == 1 ? palette::theme().goodText
                         : palette::theme().variantA;
  if (bar.status == "not_compiled" || bar.status == "no_bundle")
    return palette::theme().dimText;
  return palette::theme().failedMarker;
}

/// What stands right of a bar: its figures, or what went wrong; a
/// ladder's rung also says what it gained over the rung before.
std::string barText(const SweepBar &bar, const SweepBar *previous) {
  if (!bar.ok())
    return bar.status;
  std::string text = format("%.1f TFLOP/s", bar.tflops);
  if (bar.ratio > 0)
    text += format("  %.2fx", bar.ratio) + format(" [%.2f", bar.ratioMin) +
            format(", %.2f]", bar.ratioMax);
  if (previous && previous->ok() && previous->tflops > 0)
    text += format("  %+.0f%%", 100 * (bar.tflops / previous->tflops - 1));
  return text;
}

void barTooltip(const SweepBar &bar) {
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(bar.variant.c_str());
  ImGui::Text("%s, %d of %d processes passed", bar.status.c_str(), bar.passed,
              bar.processes);
  if (bar.tflops > 0)
    ImGui::Text("median %.1f TFLOP/s; cuBLAS %.1f", bar.tflops,
                bar.cublasTflops);
  if (bar.ratio > 0)
    ImGui::Text("klx / cuBLAS (alternating) %.3f, min %.3f, max %.3f",
                bar.ratio, bar.ratioMin, bar.ratioMax);
  if (bar.relativeError >= 0)
    ImGui::Text("relative error %.2e", bar.relativeError);
  if (!bar.message.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextWrapped("%s", bar.message.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndTooltip();
}

/// Where the chart's parts go: in a wide pane a label column beside the
/// bars; in a narrow one each name on its own line above its bar.
struct ChartGeometry {
  bool stacked = false;
  float width = 0, labelWidth = 0, barLeft = 0, barMax = 0;
  float line = 0, row = 0;
};

ChartGeometry chartGeometry(const SweepSizeResult &size) {
  ChartGeometry g;
  g.width = std::max(160.0f, ImGui::GetContentRegionAvail().x);
  g.line = ImGui::GetTextLineHeightWithSpacing();
  float names = 0;
  for (const SweepBar &bar : size.bars)
    names = std::max(names, ImGui::CalcTextSize(bar.variant.c_str()).x);
  float figures = ImGui::CalcTextSize(
                      size.ordered ? "000.0 TFLOP/s  0.00x [0.00, 0.00]  +00%"
                                   : "000.0 TFLOP/s  0.00x [0.00, 0.00]")
                      .x;
  // Names in a column when they and the figures leave the bars room.
  g.stacked = names + figures + ImGui::GetFontSize() * 12 > g.width;
  g.labelWidth = g.stacked ? g.width : names;
  g.barLeft = g.stacked ? 0 : names + 8;
  // Stacked, the figures are written over the bar (a pale fill), so the
  // bars keep the pane's width.
  g.barMax = g.stacked ? g.width - 4
                       : std::max(30.0f, g.width - g.barLeft - figures - 12);
  g.row = g.stacked ? g.line * 2 : g.line * 1.25f;
  return g;
}

/// The chart of one size: bars scaled to the largest of them and cuBLAS,
/// fastest first, the figures after each, cuBLAS as a line across them;
/// hovering a bar tells its processes, spread and check.
void drawChart(const SweepSizeResult &size) {
  ChartGeometry g = chartGeometry(size);
  double scale = size.largestTflops();
  ImDrawList *draw = ImGui::GetWindowDrawList();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float top = origin.y + g.line; // the first line holds cuBLAS's label
  float x0 = origin.x + g.barLeft;
  const palette::Theme &theme = palette::theme();
  for (size_t i = 0; i < size.bars.size(); ++i) {
    const SweepBar &bar = size.bars[i];
    float y = top + g.row * float(i);
    std::string label =
        elideMiddle(bar.variant, "...", [&](std::string_view text) {
          return ImGui::CalcTextSize(text.data(), text.data() + text.size())
                     .x <= g.labelWidth;
        });
    draw->AddText(ImVec2(origin.x, y + 2), theme.brightText, label.c_str());
    float barY = g.stacked ? y + g.line : y;
    float barHeight = g.stacked ? g.line : g.row;
    float length =
        scale > 0 && bar.tflops > 0 ? float(bar.tflops / scale) * g.barMax : 0;
    ImU32 fill = g.stacked ? (barColour(bar) & 0x00ffffffu) | 0xa0000000u
                           : barColour(bar);
    if (length > 0)
      draw->AddRectFilled(ImVec2(x0, barY + 3),
                          ImVec2(x0 + length, barY + barHeight - 3), fill, 2);
    // Wide, the figures stand in one column right of the longest bar
    // (aligned, clear of the cuBLAS line); stacked, on the bar itself.
    draw->AddText(
        ImVec2(g.stacked ? x0 + 4 : x0 + g.barMax + 8, barY + 2),
        g.stacked && bar.ok() ? theme.brightText : barColour(bar),
        barText(bar, size.ordered && i ? &size.bars[i - 1] : nullptr).c_str());
    ImGui::SetCursorScreenPos(ImVec2(origin.x, y));
    ImGui::InvisibleButton(("bar" + std::to_string(i)).c_str(),
                           ImVec2(g.width, g.row));
    if (ImGui::IsItemHovered())
      barTooltip(bar);
  }
  if (size.cublasTflops > 0 && scale > 0) {
    float x = x0 + float(size.cublasTflops / scale) * g.barMax;
    // Across the bars only: stacked, the names between them stay clear.
    for (size_t i = 0; i < size.bars.size(); ++i) {
      float y = top + g.row * float(i) + (g.stacked ? g.line : 0);
      draw->AddLine(ImVec2(x, y - (g.stacked && i ? 0 : 2)),
                    ImVec2(x, y + (g.stacked ? g.line : g.row)),
                    theme.headingText, 2);
    }
    std::string text = format("cuBLAS %.1f", size.cublasTflops);
    float textWidth = ImGui::CalcTextSize(text.c_str()).x;
    draw->AddText(
        ImVec2(std::clamp(x - textWidth / 2, x0,
                          std::max(x0, origin.x + g.width - textWidth)),
               origin.y + 2),
        theme.headingText, text.c_str());
  }
  ImGui::SetCursorScreenPos(origin);
  ImGui::Dummy(ImVec2(g.width, g.line + g.row * float(size.bars.size()) + 4));
}

void drawCompileTable(const std::vector<SweepCompileRow> &variants) {
  if (!ImGui::BeginTable("compiled", 6,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                             ImGuiTableFlags_SizingFixedFit |
                             ImGuiTableFlags_ScrollX))
    return;
  ImGui::TableSetupColumn("variant");
  ImGui::TableSetupColumn("registers");
  ImGui::TableSetupColumn("shared bytes");
  ImGui::TableSetupColumn("spills st/ld");
  ImGui::TableSetupColumn("roles");
  ImGui::TableSetupColumn("simulated protocol");
  ImGui::TableHeadersRow();
  for (const SweepCompileRow &v : variants) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(v.name.c_str());
    ImGui::TableNextColumn();
    if (!v.compiled) {
      ImGui::TextColored(palette::toVec4(palette::theme().errorText), "%s",
                         v.error.c_str());
      continue;
    }
    ImGui::TextUnformatted(v.registers.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(v.shared.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(v.spills.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(v.roles.empty() ? "-" : v.roles.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(v.simulated.empty() ? "-" : v.simulated.c_str());
  }
  ImGui::EndTable();
}

class SweepPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Sweep; }

  void draw(const AppState &state, CommandQueue &commands) override {
    const SweepState &sweep = state.sweep;
    if (sweep.serial != shownSerial) {
      // A result from elsewhere (a file, --sweep) shows what it ran.
      shownSerial = sweep.serial;
      if (!sweep.axes.empty())
        axes = sweep.axes;
    }
    drawRequest(state, commands);
    drawStatus(sweep);
    if (sweep.results)
      drawResults(*sweep.results, sweep.source);
    else if (!sweep.progress.running)
      ImGui::TextDisabled("Each variant is compiled on every core; where "
                          "there is a GPU each runs in klx-run, checked and "
                          "timed against cuBLAS, and the variants are "
                          "ranked here.");
  }

private:
  void drawRequest(const AppState &state, CommandQueue &commands) {
    float avail = ImGui::GetContentRegionAvail().x;
    float button = ImGui::CalcTextSize("Sweep").x + 24;
    ImGui::SetNextItemWidth(std::max(120.0f, (avail - button) * 0.6f));
    bool enter = ImGui::InputTextWithHint(
        "##axes", "-D lists: tile_n=128,256 stages=3,4", &axes,
        ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(
        std::max(80.0f, ImGui::GetContentRegionAvail().x - button));
    enter |=
        ImGui::InputTextWithHint("##sizes", "sizes: 8192x8192x8192 ...", &sizes,
                                 ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    bool busy = state.sweep.progress.running;
    if (busy)
      ImGui::BeginDisabled();
    if ((ImGui::Button("Sweep") || enter) && !busy)
      commands.push(cmd::StartSweep{axes, sizes});
    if (busy)
      ImGui::EndDisabled();

    ImGui::SetNextItemWidth(
        std::max(120.0f, ImGui::GetContentRegionAvail().x - button));
    bool open = ImGui::InputTextWithHint(
        "##results", "or a result: klx sweep --json / klx-run --sweep --json",
        &resultsPath, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if ((ImGui::Button("Open") || open) && !resultsPath.empty())
      commands.push(cmd::OpenSweepResults{resultsPath});
  }

  void drawStatus(const SweepState &sweep) {
    if (sweep.progress.running) {
      float fraction = sweep.progress.total ? float(sweep.progress.done) /
                                                  float(sweep.progress.total)
                                            : 0.0f;
      ImGui::ProgressBar(fraction, ImVec2(-1, 0), sweep.progress.phase.c_str());
    }
    if (!sweep.error.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().errorText);
      ImGui::TextWrapped("%s", sweep.error.c_str());
      ImGui::PopStyleColor();
    }
  }

  void drawResults(const SweepResults &results, const std::string &source) {
    ImGui::Separator();
    std::string heading = results.file.empty() ? source : results.file;
    if (!results.device.empty())
      heading += "  on " + results.device;
    ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().headingText);
    ImGui::TextWrapped("%s", heading.c_str());
    ImGui::PopStyleColor();
    if (!results.notRun.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().warningText);
      ImGui::TextWrapped("%s", results.notRun.c_str());
      ImGui::PopStyleColor();
    }
    if (results.measured() && results.sizes.front().ordered) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().dimText);
      ImGui::TextWrapped("a ladder: each rung adds one technique to the one "
                         "above it; the percentages are its gain");
      ImGui::PopStyleColor();
    }
    if (results.measured() && ImGui::BeginTabBar("sizes")) {
      for (const SweepSizeResult &size : results.sizes)
        if (ImGui::BeginTabItem(size.size.empty() ? "each bundle's size"
                                                  : size.size.c_str())) {
          drawChart(size);
          ImGui::EndTabItem();
        }
      ImGui::EndTabBar();
    }
    if (results.variants.empty())
      return;
    ImGui::SetNextItemOpen(!results.measured(), ImGuiCond_Appearing);
    if (ImGui::CollapsingHeader("what the compiler said"))
      drawCompileTable(results.variants);
  }

  std::string axes, sizes, resultsPath;
  uint64_t shownSerial = 0;
};

} // namespace

std::unique_ptr<Panel> createSweepPanel() {
  return std::make_unique<SweepPanel>();
}

} // namespace klx::app
