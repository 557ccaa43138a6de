//===- SweepJournal.h - What a sweep finished, one line per run -*- C++ -*-===//
//
// klx-run --sweep appends each finished child to DIR/runs.jsonl as it
// ends (its job, its GPU and how it ended, with everything it printed), so
// that a sweep stopped half way (Ctrl+C, a lost machine) loses nothing it
// finished: `--resume` reads the file back and runs only the rest. The
// lines are read back through readSweepChild, as the child's output was
// the first time.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_SWEEPJOURNAL_H
#define KLX_RUNTIME_SWEEPJOURNAL_H

#include "klx/Runtime/Sweep.h"

#include <string>
#include <string_view>
#include <vector>

namespace klx::rt {

/// DIR/runs.jsonl.
std::string sweepJournalPath(const std::string &dir);

/// One finished child as a line of JSON (with its newline): the variant
/// by name, the size as the plan names it, the process number, the GPU
/// and the ChildExit.
std::string sweepJournalLine(const SweepPlan &plan, const SweepJob &job,
                             int gpu, const ChildExit &child);

/// The runs a journal holds that belong to `plan` (a variant it has, at a
/// size it runs, a process number below `procs`), read as their children
/// were; of two lines for one job (a run a GPU that left gave back, run
/// again on another) the later counts. Lines that do not
/// parse (the last one of a killed sweep may be cut short) or name
/// another plan's variant or size are skipped and counted in `skipped`.
std::vector<SweepProcess> readSweepJournal(const SweepPlan &plan,
                                           std::string_view text, int procs,
                                           int &skipped);

/// `jobs` without those `done` already holds.
std::vector<SweepJob> jobsLeft(const std::vector<SweepJob> &jobs,
                               const std::vector<SweepProcess> &done);

/// Ctrl+C: workers start no new child once asked (a signal handler may
/// ask: it stores an atomic); children running finish and are recorded.
void requestSweepStop();
bool sweepStopRequested();
void clearSweepStop();

} // namespace klx::rt

#endif // KLX_RUNTIME_SWEEPJOURNAL_H
