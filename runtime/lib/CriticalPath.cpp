//===- CriticalPath.cpp - What set a measured kernel's time ---------------===//

#include "klx/Runtime/CriticalPath.h"

#include <algorithm>
#include <cstdio>
#include <map>

using namespace klx::rt;

namespace {

/// Sums each (role, barrier)'s waits and each role's recorded time.
std::vector<WaitRow> rankWaits(const std::vector<WarpTrace> &warps) {
  std::map<std::pair<std::string, std::string>, WaitRow> rows;
  std::map<std::string, double> recorded;
  for (const WarpTrace &w : warps) {
    if (w.events.empty())
      continue;
    std::string role = w.role.empty() ? "warp" : w.role;
    recorded[role] += w.events.back().ns - w.events.front().ns;
    const TraceEvent *open = nullptr;
    for (const TraceEvent &e : w.events) {
      if (isWaitBegin(e.kind)) {
        open = &e;
      } else if (open && e.kind == waitEndOf(open->kind)) {
        WaitRow &row = rows[{role, waitBarrier(open->kind)}];
        row.role = role;
        row.barrier = waitBarrier(open->kind);
        row.ns += e.ns - open->ns;
        ++row.waits;
        open = nullptr;
      }
    }
  }
  std::vector<WaitRow> out;
  for (auto &[key, row] : rows) {
    double total = recorded[row.role];
    row.share = total > 0 ? row.ns / total : 0;
    out.push_back(row);
  }
  std::stable_sort(
      out.begin(), out.end(),
      [](const WaitRow &a, const WaitRow &b) { return a.ns > b.ns; });
  return out;
}

/// Each role's rows of `waits` summed, for every role that recorded.
std::vector<std::pair<std::string, double>>
waitingByRole(const std::vector<WarpTrace> &warps,
              const std::vector<WaitRow> &waits) {
  std::map<std::string, double> byRole;
  for (const WarpTrace &w : warps)
    if (!w.events.empty())
      byRole[w.role.empty() ? "warp" : w.role];
  for (const WaitRow &row : waits)
    byRole[row.role] += row.share;
  return {byRole.begin(), byRole.end()};
}

/// The last CTA to end, its MMAs' span and the median end.
KernelEnd kernelEnd(const DecodedTrace &trace) {
  KernelEnd end;
  if (trace.ctas.empty())
    return end;
  std::vector<double> ends;
  const CtaTrace *last = &trace.ctas.front();
  for (const CtaTrace &cta : trace.ctas) {
    ends.push_back(cta.endNs);
    if (cta.endNs > last->endNs)
      last = &cta;
  }
  std::nth_element(ends.begin(), ends.begin() + long(ends.size() / 2),
                   ends.end());
  end.medianEndNs = ends[ends.size() / 2];
  end.cta = last->cta;
  end.sm = last->sm;
  end.startNs = last->startNs;
  end.endNs = last->endNs;
  end.firstMmaNs = end.lastMmaNs = -1;
  for (const WarpTrace &w : trace.warps) {
    if (w.cta != last->cta)
      continue;
    for (const TraceEvent &e : w.events) {
      if (e.kind != TraceKind::MmaIssue)
        continue;
      if (end.firstMmaNs < 0 || e.ns < end.firstMmaNs)
        end.firstMmaNs = e.ns;
      end.lastMmaNs = std::max(end.lastMmaNs, e.ns);
    }
  }
  return end;
}

std::string format(const char *fmt, double a, double b = 0, double c = 0) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, fmt, a, b, c);
  return buffer;
}

/// "critical path: what set CTA 2's end: consumer working 6.00 us (63%),
/// ...", the four longest parts and the rest summed.
std::string formatChain(const CriticalPath &path) {
  std::vector<ChainShare> shares = summarizeChain(path.chain);
  if (shares.empty())
    return "";
  double total = 0;
  for (const ChainShare &s : shares)
    total += s.ns;
  std::string out =
      "critical path: what set CTA " + std::to_string(path.end.cta) + "'s end:";
  double rest = total;
  for (size_t i = 0; i < shares.size() && i < 4; ++i) {
    out += (i ? ", " : " ") + shares[i].what +
           format(" %.2f us (%.0f%%)", shares[i].ns / 1e3,
                  100 * shares[i].ns / total);
    rest -= shares[i].ns;
  }
  if (shares.size() > 4)
    out += format(", the rest %.2f us", rest / 1e3);
  out += format(" (%.0f links", double(path.chain.size()));
  // The time the walk spent on another CTA of the cluster (it went there
  // with a load or release, and on along that CTA's warps).
  std::map<int, double> elsewhere;
  for (const ChainLink &link : path.chain)
    if (link.cta != path.end.cta)
      elsewhere[link.cta] += link.ns();
  for (const auto &[cta, ns] : elsewhere)
    out +=
        format("; %.2f us on CTA %.0f of its cluster", ns / 1e3, double(cta));
  // Links bounded by a release stamped at its warp's next event (Trace.h):
  // the release may have come sooner than the chain places it.
  double late = double(
      std::count_if(path.chain.begin(), path.chain.end(),
                    [](const ChainLink &link) { return link.lateRelease; }));
  if (late > 0)
    out += format("; %.0f of them at a release stamped at its warp's next "
                  "event, which may have come sooner",
                  late);
  return out + ")";
}

/// "critical path: CTA 6's 16 tiles, first MMA to the next tile's: median
/// 88.10 us, shortest 85.20 us (tile 3), longest 95.00 us (tile 0: loads
/// in flight 60%, ...)", or why there are no tiles.
std::string formatTiles(const CriticalPath &path) {
  const TileBreakdown &t = path.tiles;
  std::string cta = "CTA " + std::to_string(path.end.cta);
  if (t.tiles.empty())
    return t.unknown.empty() ? ""
                             : "critical path: " + cta +
                                   "'s tiles: unknown, because " + t.unknown;
  std::vector<const TileSpan *> byTime;
  for (const TileSpan &tile : t.tiles)
    byTime.push_back(&tile);
  std::sort(
      byTime.begin(), byTime.end(),
      [](const TileSpan *a, const TileSpan *b) { return a->ns() < b->ns(); });
  const TileSpan &longest = *byTime.back(), &shortest = *byTime.front();
  auto chainOf = [](const TileSpan &tile) {
    std::string parts;
    for (size_t i = 0; i < tile.chain.size() && i < 3; ++i)
      parts += (i ? ", " : "") + tile.chain[i].what +
               format(" %.0f%%", 100 * tile.chain[i].ns / tile.ns());
    return parts;
  };
  if (t.tiles.size() == 1)
    return "critical path: " + cta +
           format("'s one tile, first MMA to its end: %.2f us (",
                  longest.ns() / 1e3) +
           chainOf(longest) + ")";
  std::string out =
      "critical path: " + cta + "'s " + std::to_string(t.tiles.size()) +
      format(" tiles, first MMA to the next tile's: median %.2f us, "
             "shortest %.2f us",
             byTime[byTime.size() / 2]->ns() / 1e3, shortest.ns() / 1e3) +
      " (tile " + std::to_string(shortest.index) + ")" +
      format(", longest %.2f us", longest.ns() / 1e3) + " (tile " +
      std::to_string(longest.index) + ": " + chainOf(longest);
  return out + ")";
}

} // namespace

CriticalPath klx::rt::analyzeCriticalPath(const DecodedTrace &trace,
                                          int64_t kSteps) {
  CriticalPath path;
  path.waits = rankWaits(trace.warps);
  path.waitingByRole = waitingByRole(trace.warps, path.waits);
  path.end = kernelEnd(trace);
  if (path.known()) {
    path.chain = traceCriticalChain(trace, path.end.cta);
    path.tiles = splitByTile(trace, path.end.cta, kSteps, path.chain);
  }
  return path;
}

std::vector<std::string> klx::rt::criticalPathLines(const CriticalPath &path) {
  if (!path.known())
    return {};
  const KernelEnd &e = path.end;
  std::vector<std::string> lines;
  lines.push_back(
      "critical path: the kernel ended with CTA " + std::to_string(e.cta) +
      " on SM " + std::to_string(e.sm) +
      format(" at %.2f us; half the CTAs had ended by %.2f us (tail %.2f "
             "us)",
             e.endNs / 1e3, e.medianEndNs / 1e3, e.tailNs() / 1e3));
  if (e.firstMmaNs >= 0)
    lines.push_back(
        "critical path: CTA " + std::to_string(e.cta) +
        format(": %.2f us before its first MMA (its first loads), %.2f us "
               "from first to last MMA, %.2f us after its last (the "
               "epilogue)",
               e.beforeMmaNs() / 1e3, e.mainLoopNs() / 1e3,
               e.afterMmaNs() / 1e3));
  for (const std::string &line : {formatChain(path), formatTiles(path)})
    if (!line.empty())
      lines.push_back(line);
  for (const WaitRow &row : path.waits)
    lines.push_back(
        "critical path: " + row.role + " waits on " + row.barrier +
        format(" %.1f%% of its time (%.0f waits that blocked, %.2f us "
               "each)",
               100 * row.share, double(row.waits),
               row.waits ? row.ns / double(row.waits) / 1e3 : 0));
  return lines;
}

std::string klx::rt::formatCriticalPath(const CriticalPath &path) {
  std::string out;
  for (const std::string &line : criticalPathLines(path))
    out += line + "\n";
  return out;
}
