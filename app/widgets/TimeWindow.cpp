//===- TimeWindow.cpp - The visible stretch of a time axis ----------------===//

#include "widgets/TimeWindow.h"

#include <imgui.h>

#include <algorithm>

using namespace klx::app;

void TimeWindow::zoomAround(double at, double factor, double length) {
  // The bounds cross for a run under ~18 cycles (or none): the widest.
  double narrowest = 20.0 / span();
  factor = std::clamp(factor, narrowest,
                      std::max({1.0, narrowest, length * 1.1 / span()}));
  start = at - (at - start) * factor;
  end = at + (end - at) * factor;
}

void TimeWindow::wheelDragAndFit(bool hovered, float x0, float x1,
                                 double length) {
  ImGuiIO &io = ImGui::GetIO();
  if (hovered && io.MouseWheel != 0 && io.MousePos.x > x0)
    zoomAround(timeAt(io.MousePos.x, x0, x1), io.MouseWheel > 0 ? 0.8 : 1.25,
               length);
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left))
    panBy(-io.MouseDelta.x / (x1 - x0) * span());
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left))
    fit(length);
}
