//===- TimeWindow.h - The visible stretch of a time axis --------*- C++ -*-===//
//
// What the Barrier timeline and the Measured pane show of their time axis
// (cycles): one mapping from time to x across [x0, x1] and back, for
// drawing, hovering, picking and arrows, and how it zooms and pans.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_WIDGETS_TIMEWINDOW_H
#define KLX_APP_WIDGETS_TIMEWINDOW_H

namespace klx::app {

struct TimeWindow {
  double start = 0, end = 1; // cycles

  double span() const { return end - start > 1e-9 ? end - start : 1e-9; }
  float xOf(double t, float x0, float x1) const {
    return float(x0 + (t - start) / span() * (x1 - x0));
  }
  double timeAt(float x, float x0, float x1) const {
    return start + double(x - x0) / (x1 - x0) * span();
  }
  /// Zooms by `factor` keeping `at` in place, from 20 cycles across to
  /// `length` (the whole run) and a tenth more.
  void zoomAround(double at, double factor, double length);
  void panBy(double cycles) {
    start += cycles;
    end += cycles;
  }
  /// The whole run and a little room after it.
  void fit(double length) {
    start = 0;
    end = length * 1.02 > 1 ? length * 1.02 : 1;
  }
  /// The wheel over [x0, x1] zooms around the pointer, dragging the item
  /// just drawn pans, a double click on it fits.
  void wheelDragAndFit(bool hovered, float x0, float x1, double length);
};

} // namespace klx::app

#endif // KLX_APP_WIDGETS_TIMEWINDOW_H
