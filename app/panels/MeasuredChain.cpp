//===- MeasuredChain.cpp - The critical chain over a CTA's warps ----------===//

#include "panels/MeasuredChain.h"

#include "widgets/Palette.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace klx::app {
namespace {

struct PartLook {
  const char *part, *word, *words;
  ImU32 (*colour)();
};

/// Each kind of link: klx-run's key, a word for the legend, what it means,
/// its colour (a load in the copies' colour).
const PartLook kParts[] = {
    {"work", "working", "a warp working (its issue, MMAs and their waits)",
     [] { return palette::theme().brightText; }},
    {"load", "load", "a load in flight (copy issued, the stage not yet full)",
     [] { return palette::theme().copyTick; }},
    {"release", "release", "a released stage reaching the producer",
     [] { return palette::theme().goodText; }},
    {"turn", "turn", "the turn passed to the other consumer",
     [] { return palette::theme().mmaTick; }},
    {"unrecorded", "outside",
     "waiting on a signal from outside the trace (an untraced CTA's)",
     [] { return palette::theme().deadlockLine; }},
    {"setup", "start-up", "before the CTA's first event",
     [] { return palette::theme().dimText; }},
    {"epilogue", "epilogue", "after the CTA's last event (the epilogue)",
     [] { return palette::theme().dimText; }},
};

const PartLook &lookOf(const std::string &part) {
  for (const PartLook &look : kParts)
    if (part == look.part)
      return look;
  return kParts[0];
}

using Link = MeasuredTimeline::ChainLink;

/// The first link that ends at or after `at` (links are in time order and
/// follow one another).
std::vector<Link>::const_iterator firstEndingAfter(const std::vector<Link> &c,
                                                   double at) {
  return std::lower_bound(
      c.begin(), c.end(), at,
      [](const Link &link, double value) { return link.end < value; });
}

} // namespace

void drawCriticalChain(ImDrawList *draw, const MeasuredTimeline &t,
                       const MeasuredCta &cta, const WarpLanesGeometry &g) {
  if (!t.chainPassesThrough(cta.cta))
    return;
  std::unordered_map<int64_t, size_t> rowOf;
  for (size_t r = 0; r < cta.warps.size(); ++r)
    rowOf[cta.warps[r].warp] = r;
  float thick = std::max(2.0f, std::round(g.laneH * 0.15f));
  auto barY = [&](size_t row) {
    return g.y0 + g.laneH * float(row + 1) - thick - 1;
  };
  // Links thinner than a pixel fold into the last one drawn on their row.
  std::unordered_map<size_t, float> drawnTo;
  const Link *previous = nullptr;
  for (auto it = firstEndingAfter(t.chain, g.window.start);
       it != t.chain.end() && it->start <= g.window.end; ++it) {
    // A link on another CTA of the cluster (a load or release from
    // there) is drawn under that CTA's warps; no line joins the two.
    auto row = rowOf.find(it->warp);
    if (it->cta != cta.cta || row == rowOf.end()) {
      previous = &*it;
      continue;
    }
    float a = std::max(g.x0, g.window.xOf(it->start, g.x0, g.x1));
    float b = std::min(g.x1, g.window.xOf(it->end, g.x0, g.x1));
    float y = barY(row->second);
    if (previous && previous->cta == cta.cta && previous->warp != it->warp) {
      auto from = rowOf.find(previous->warp);
      if (from != rowOf.end())
        draw->AddLine(ImVec2(a, barY(from->second) + thick / 2),
                      ImVec2(a, y + thick / 2), palette::theme().brightText);
    }
    previous = &*it;
    auto [last, fresh] = drawnTo.try_emplace(row->second, -1.0f);
    if (!fresh && b <= last->second + 1 && b - a < 1)
      continue;
    draw->AddRectFilled(ImVec2(a, y), ImVec2(std::max(b, a + 1), y + thick),
                        lookOf(it->part).colour());
    last->second = b;
  }
}

void drawCriticalChainLegend(const MeasuredTimeline &t, int64_t cta) {
  if (t.chain.empty())
    return;
  // One short line (the lanes need the height); what each colour means
  // on hover.
  ImGui::TextDisabled("critical chain:");
  bool hovered = ImGui::IsItemHovered();
  float size = ImGui::GetFontSize() * 0.7f;
  for (const PartLook &look : kParts) {
    if (std::none_of(t.chain.begin(), t.chain.end(), [&](const auto &l) {
          return l.cta == cta && l.part == look.part;
        }))
      continue;
    ImGui::SameLine();
    float need = size + ImGui::CalcTextSize(look.word).x +
                 ImGui::GetStyle().ItemSpacing.x * 2;
    if (ImGui::GetContentRegionAvail().x < need) {
      ImGui::NewLine(); // the rest are in the tooltip
      break;
    }
    ImVec2 at = ImGui::GetCursorScreenPos();
    float lift = (ImGui::GetTextLineHeight() - size) / 2;
    ImGui::GetWindowDrawList()->AddRectFilled(
        ImVec2(at.x, at.y + lift), ImVec2(at.x + size, at.y + lift + size),
        look.colour());
    ImGui::Dummy(ImVec2(size, ImGui::GetTextLineHeight()));
    hovered |= ImGui::IsItemHovered();
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextDisabled("%s", look.word);
    hovered |= ImGui::IsItemHovered();
  }
  if (!hovered)
    return;
  std::string tip =
      "Underlined on the warps of " + t.chainCtaNames() +
      ": what set the kernel's end, walked back from CTA " +
      std::to_string(t.chainCta) +
      "'s\n(klx-run: where a warp had waited, the event that ended the "
      "wait, and on along that warp;\nin a cluster, the latest of its "
      "CTAs' copies or releases of the stage).";
  for (const PartLook &look : kParts)
    tip += std::string("\n") + look.word + ": " + look.words;
  ImGui::SetTooltip("%s", tip.c_str());
}

std::string criticalChainAt(const MeasuredTimeline &t, int64_t cta,
                            int64_t warp, double at) {
  for (auto it = firstEndingAfter(t.chain, at);
       it != t.chain.end() && it->start <= at; ++it)
    if (it->cta == cta && it->warp == warp)
      return std::string("on the critical chain: ") + lookOf(it->part).words +
             (it->lateRelease ? "\n(bounded by a release stamped at its "
                                "warp's next event: it may have come sooner)"
                              : "");
  return "";
}

} // namespace klx::app
