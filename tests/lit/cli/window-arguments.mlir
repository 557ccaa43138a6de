// The window's command line is read before any window opens: a wrong
// option is refused with what it expects, exit 2, on a machine without a
// display too.
// REQUIRES: window
// RUN: not klx %s --show=Rnu 2>&1 | FileCheck %s --check-prefix=SHOW
// RUN: not klx %s --layout=wide 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not klx %s --zoom=20% 2>&1 | FileCheck %s --check-prefix=ZOOM
// RUN: not klx %s --frames=0 2>&1 | FileCheck %s --check-prefix=FRAMES
// RUN: not klx %s --measured-cta=-1 2>&1 | FileCheck %s --check-prefix=CTA
// RUN: not klx %s --colour=red 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not klx %s %s 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not klx %s --target=sm_42 2>&1 | FileCheck %s --check-prefix=TARGET

// SHOW: klx: --show: no pane is called 'Rnu'; the panes are Samples, Passes, Source, Warp roles, Steps, IR, Assembly, Lesson, Run, Sweep, Barrier timeline, Measured, Compare
// LAYOUT: klx: --layout expects explore, diff or teach
// ZOOM: klx: --zoom expects a percentage from 50 to 300
// FRAMES: klx: --frames expects a positive number
// CTA: klx: --measured-cta expects a CTA's block id (0 or more)
// UNKNOWN: klx: unknown option '--colour=red' (see `klx help`)
// TWO: klx: more than one FILE
// TARGET: klx: unknown target 'sm_42'

func.func @empty() {
  return
}
