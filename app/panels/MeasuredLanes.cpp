//===- MeasuredLanes.cpp - What the Measured pane's lanes are made of -----===//

#include "MeasuredLanes.h"

#include "widgets/Palette.h"
#include "widgets/TextInView.h"

#include <algorithm>
#include <cstdlib>

using namespace klx;
using namespace klx::app;

const GpuRunRecord *klx::app::newestUnreadTrace(const AppState &state) {
  for (auto it = state.gpuRuns.rbegin(); it != state.gpuRuns.rend(); ++it)
    if (it->measured || it->importedTrace)
      return it->measured ? nullptr : &*it;
  return nullptr;
}

const GpuRunRecord *klx::app::latestTraced(const AppState &state) {
  for (auto it = state.gpuRuns.rbegin(); it != state.gpuRuns.rend(); ++it)
    if (it->measured)
      return &*it;
  return nullptr;
}

const MeasuredEvent *klx::app::ctaBox(const MeasuredTimeline &t, int64_t cta,
                                      size_t *lane) {
  for (size_t r = 0; r < t.sms.size(); ++r)
    for (const MeasuredEvent &box : t.sms[r].events)
      if (ctaOf(box) == cta) {
        if (lane)
          *lane = r;
        return &box;
      }
  return nullptr;
}

int64_t klx::app::lastToEnd(const MeasuredTimeline &t) {
  const MeasuredEvent *last = nullptr;
  for (const MeasuredLane &sm : t.sms)
    for (const MeasuredEvent &e : sm.events)
      if (!last || e.end > last->end)
        last = &e;
  return last ? ctaOf(*last) : -1;
}
int64_t klx::app::ctaOf(const MeasuredEvent &box) { // "CTA 5"
  return box.name.size() > 4 ? std::atoll(box.name.c_str() + 4) : -1;
}

ImU32 klx::app::warpEventColour(const MeasuredTimeline &t, uint32_t name,
                                bool span) {
  const std::string &text = t.eventNames[name];
  if (span && text.rfind("wait", 0) != 0)
    return palette::stage(int(name));
  if (span) {
    size_t open = text.find('[');
    return palette::stage(
        open == std::string::npos ? 0 : std::atoi(text.c_str() + open + 1));
  }
  if (text.rfind("mma", 0) == 0)
    return palette::theme().mmaTick;
  if (text.rfind("copy", 0) == 0)
    return palette::theme().copyTick;
  if (text.rfind("arrive", 0) == 0)
    return palette::theme().arriveTick;
  return palette::theme().brightText;
}

void klx::app::drawScopeLegend(const MeasuredTimeline &t,
                               const MeasuredCta &cta) {
  std::vector<uint32_t> names;
  for (const MeasuredCtaLane &warp : cta.warps)
    for (const MeasuredCtaEvent &e : warp.events)
      if (e.end > e.start &&
          std::find(names.begin(), names.end(), e.name) == names.end())
        names.push_back(e.name);
  if (names.empty())
    return;
  ImGui::TextDisabled("scopes:");
  for (size_t i = 0; i < names.size() && i < 12; ++i) {
    ImGui::SameLine();
    ImVec2 at = ImGui::GetCursorScreenPos();
    float side = ImGui::GetFontSize() * 0.8f;
    ImGui::GetWindowDrawList()->AddRectFilled(
        ImVec2(at.x, at.y + 2), ImVec2(at.x + side, at.y + 2 + side),
        klx::app::warpEventColour(t, names[i], true));
    ImGui::Dummy(ImVec2(side, side));
    ImGui::SameLine();
    ImGui::TextUnformatted(t.eventNames[names[i]].c_str());
  }
}

std::vector<LaneEvent> klx::app::warpEvents(const MeasuredTimeline &t,
                                            const MeasuredCta &cta) {
  std::vector<LaneEvent> events;
  for (size_t r = 0; r < cta.warps.size(); ++r)
    for (const MeasuredCtaEvent &e : cta.warps[r].events)
      events.push_back({e.start, e.end, uint32_t(r),
                        warpEventColour(t, e.name, e.end > e.start)});
  return events;
}

std::vector<LaneEvent> klx::app::laneEvents(const MeasuredTimeline &t) {
  std::vector<LaneEvent> events;
  for (size_t r = 0; r < t.sms.size(); ++r)
    for (size_t i = 0; i < t.sms[r].events.size(); ++i)
      events.push_back({t.sms[r].events[i].start, t.sms[r].events[i].end,
                        uint32_t(r), palette::stage(int(i))});
  return events;
}

void klx::app::drawSmOrderLegend(size_t mostPerSm) {
  if (mostPerSm < 2)
    return;
  ImGui::TextDisabled("box colour: the CTA's turn on its SM");
  float side = ImGui::GetFontSize() * 0.8f;
  std::vector<LineInView> turns;
  for (size_t i = 0; i < mostPerSm && i < 8; ++i) {
    ImGui::SameLine();
    ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddRectFilled(
        ImVec2(at.x, at.y + 2), ImVec2(at.x + side, at.y + 2 + side),
        palette::stage(int(i)));
    ImGui::Dummy(ImVec2(side, side));
    ImGui::SameLine();
    std::string turn =
        std::to_string(i + 1) + (i + 1 == 8 && mostPerSm > 8 ? "+" : "");
    ImGui::TextDisabled("%s", turn.c_str());
    turns.push_back({unsigned(i + 1), turn});
  }
  addTextInView("legend", std::move(turns));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Each SM's CTAs in the order it ran them: the first "
                      "wave, the second, ... (colours repeat past %zu)",
                      std::min<size_t>(mostPerSm, 8));
}
