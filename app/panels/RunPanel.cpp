//===- RunPanel.cpp - Run the kernel on the GPU, and what it measured -----===//
//
// A size, a Run button, the latest result (time, TFLOP/s, % of peak, vs
// cuBLAS, error, launch), and a history of every run across edits and
// variants with a bar chart of TFLOP/s. The runs themselves happen in
// klx-run, a child process (GpuRunWorker): a kernel that hangs or faults
// shows up here as a message, and the window keeps drawing. Without a GPU
// the button is disabled and the pane says why.
//
//===----------------------------------------------------------------------===//

#include "Panel.h"

#include "widgets/Palette.h"

#include "klx/Export/Bundle.h"
#include "klx/Runtime/RunFormat.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace klx::app {
namespace {

ImU32 statusColour(const GpuRunRecord &record) {
  if (record.passed())
    return palette::theme().goodText;
  namespace rf = rt::runfile;
  if (record.status == rf::kHang || record.status == rf::kKernelFault ||
      record.status == rf::kWrongResult)
    return palette::theme().failedMarker;
  return palette::theme().warningText;
}

std::string format(const char *fmt, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, fmt, value);
  return buffer;
}

void drawLatest(const GpuRunRecord &r) {
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(statusColour(r)), "%s",
                     r.status.c_str());
  ImGui::SameLine();
  ImGui::TextUnformatted(r.label.c_str());
  if (!r.message.empty())
    ImGui::TextWrapped("%s", r.message.c_str());
  if (r.medianMs <= 0)
    return;
  if (ImGui::BeginTable("latest", 2, ImGuiTableFlags_SizingFixedFit)) {
    auto row = [](const char *name, const std::string &value) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(palette::toVec4(palette::theme().dimText), "%s", name);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(value.c_str());
    };
    row("time", format("%.4f ms", r.medianMs) + format(" (%.4f", r.minMs) +
                    format(" - %.4f)", r.maxMs));
    row("throughput", format("%.1f TFLOP/s", r.tflops) +
                          format(", %.1f%% of peak", r.percentOfPeak));
    if (r.cublasTflops > 0)
      row("vs cuBLAS", format("%.2fx", r.vsCublas) +
                           format(" (cuBLAS %.1f TFLOP/s)", r.cublasTflops));
    if (r.relativeError >= 0)
      row("rel. error", format("%.2e", r.relativeError));
    row("launch", r.launch);
    row("device", r.device);
    ImGui::EndTable();
  }
}

/// One bar per run that has a time, TFLOP/s to scale, coloured by status.
void drawHistoryChart(const std::vector<GpuRunRecord> &runs) {
  double best = 0;
  for (const GpuRunRecord &r : runs)
    best = std::max(best, r.tflops);
  if (best <= 0)
    return;
  ImDrawList *draw = ImGui::GetWindowDrawList();
  ImVec2 origin = ImGui::GetCursorScreenPos();
  float width = std::max(100.0f, ImGui::GetContentRegionAvail().x);
  float row = ImGui::GetTextLineHeightWithSpacing();
  size_t shown = 0;
  for (const GpuRunRecord &r : runs) {
    if (r.tflops <= 0)
      continue;
    float y = origin.y + row * float(shown++);
    float length = float(r.tflops / best) * width * 0.55f;
    draw->AddRectFilled(ImVec2(origin.x, y + 2),
                        ImVec2(origin.x + length, y + row - 2),
                        statusColour(r));
    std::string text = format("%.0f TFLOP/s  ", r.tflops) + r.label;
    draw->AddText(ImVec2(origin.x + length + 4, y), palette::theme().brightText,
                  text.c_str());
  }
  ImGui::Dummy(ImVec2(width, row * float(shown)));
}

class RunPanel final : public Panel {
public:
  Pane pane() const override { return Pane::Run; }

  void draw(const AppState &state, CommandQueue &commands) override {
    const GpuStatus &gpu = state.gpu;
    bool available = gpu.availability == GpuStatus::Availability::Available;
    // The pane probes and runs through the CUDA driver; AMD bundles run
    // from the command line (klx-run's HIP path).
    bool amd = state.run && !isNvidia(state.run->target);
    if (amd)
      ImGui::TextWrapped("Running is off for %s: this pane runs NVIDIA "
                         "kernels. On a machine with ROCm, `klx export` "
                         "and `klx-run` launch the AMD code object through "
                         "HIP; the AMDGCN and its report are in the "
                         "Assembly pane.",
                         std::string(targetName(state.run->target)).c_str());
    else if (gpu.availability == GpuStatus::Availability::Probing)
      ImGui::TextColored(palette::toVec4(palette::theme().dimText),
                         "looking for a GPU...");
    else if (available)
      ImGui::Text("GPU: %s", gpu.device.c_str());
    else
      ImGui::TextWrapped("Running is off: %s", gpu.reason.c_str());

    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    ImGui::InputTextWithHint("##size", "2048x2048x1024", size, sizeof size);
    ImGui::SameLine();
    bool compiled = state.run && state.run->succeeded();
    bool canRun = available && compiled && !amd && !gpu.running;
    if (!canRun)
      ImGui::BeginDisabled();
    std::string noTimeline = state.run ? whyNoTimeline(*state.run) : "";
    bool traced = recordTimeline && noTimeline.empty();
    if (ImGui::Button(gpu.running ? "Running..." : "Run on GPU"))
      commands.push(cmd::RunOnGpu{size, traced});
    // Beside the button where its label fits, else under it (a narrow
    // pane at 1280x720 cut it to "record ti").
    const ImGuiStyle &style = ImGui::GetStyle();
    float box = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x +
                ImGui::CalcTextSize("record timeline").x;
    float after = ImGui::GetItemRectMax().x + style.ItemSpacing.x;
    if (after + box <=
        ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
      ImGui::SameLine();
    drawRecordTimeline(noTimeline);
    if (!canRun)
      ImGui::EndDisabled();
    if (available && !compiled) {
      ImGui::SameLine();
      ImGui::TextColored(palette::toVec4(palette::theme().dimText),
                         "(the kernel must compile first)");
    }

    const std::vector<GpuRunRecord> &runs = state.gpuRuns;
    if (runs.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, palette::theme().dimText);
      ImGui::TextWrapped("No runs yet. Each run exports the compiled kernel, "
                         "launches it with klx-run in a child process, "
                         "checks every element and times it against cuBLAS.");
      ImGui::PopStyleColor();
      return;
    }
    ImGui::Separator();
    drawLatest(runs.back());
    ImGui::Separator();
    ImGui::TextUnformatted("History");
    drawHistoryChart(runs);
    if (ImGui::BeginTable("history", 4,
                          ImGuiTableFlags_RowBg |
                              ImGuiTableFlags_BordersInnerV |
                              ImGuiTableFlags_SizingStretchProp)) {
      ImGui::TableSetupColumn("run");
      ImGui::TableSetupColumn("status");
      ImGui::TableSetupColumn("TFLOP/s");
      ImGui::TableSetupColumn("vs cuBLAS");
      ImGui::TableHeadersRow();
      for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(it->label.c_str());
        ImGui::TableNextColumn();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(statusColour(*it)),
                           "%s", it->status.c_str());
        if (!it->message.empty() && ImGui::IsItemHovered())
          ImGui::SetTooltip("%s", it->message.c_str());
        ImGui::TableNextColumn();
        if (it->tflops > 0)
          ImGui::Text("%.1f", it->tflops);
        ImGui::TableNextColumn();
        if (it->vsCublas > 0)
          ImGui::Text("%.2fx", it->vsCublas);
      }
      ImGui::EndTable();
    }
  }

private:
  char size[32] = "";
  bool recordTimeline = false;

  /// The "record timeline" box: off, and saying why, where the kernel
  /// cannot record one (`whyNot`); the choice is kept for the next kernel.
  void drawRecordTimeline(const std::string &whyNot) {
    bool off = false;
    if (!whyNot.empty())
      ImGui::BeginDisabled();
    ImGui::Checkbox("record timeline", whyNot.empty() ? &recordTimeline : &off);
    if (!whyNot.empty())
      ImGui::EndDisabled();
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      return;
    // Wrapped: on one line the reason ran past a 1280-pixel screen.
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::TextUnformatted(
        whyNot.empty()
            ? "Also run an instrumented build and draw what it "
              "measured under the simulated lanes of the Barrier "
              "timeline pane."
            : ("No timeline for this kernel: " + whyNot + ".").c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
};

} // namespace

std::unique_ptr<Panel> createRunPanel() { return std::make_unique<RunPanel>(); }

} // namespace klx::app
