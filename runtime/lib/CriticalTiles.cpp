//===- CriticalTiles.cpp - The chain, tile by tile ------------------------===//
//
// A persistent CTA multiplies several output tiles one after another. Each
// consumer warpgroup issues one MMA per k step, so its MMAs, taken K / tile_k
// at a time, are its tiles: a tile's main loop runs from its first MMA to
// its last. Two consumers that split one tile's rows run their k steps side
// by side, so their spans of one tile overlap; ping-pong consumers take
// turns, so theirs do not: spans that overlap by more than half are one
// tile. A tile's time runs from its first MMA to the next tile's (its
// epilogue and the next refill are its own); what the chain was made of
// then says which tile was slow, and why.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/CriticalPath.h"

#include <algorithm>

using namespace klx::rt;

namespace {

struct Span {
  double start = 0, end = 0;
};

/// Each consumer warp's MMAs in groups of `kSteps`; empty, with `why`, when
/// a warp's count is not a whole number of tiles.
std::vector<Span> mmaGroups(const std::vector<const WarpTrace *> &warps,
                            int64_t kSteps, std::string &why) {
  std::vector<Span> groups;
  for (const WarpTrace *w : warps) {
    std::vector<double> mmas;
    for (const TraceEvent &e : w->events)
      if (e.kind == TraceKind::MmaIssue)
        mmas.push_back(e.ns);
    if (mmas.empty())
      continue;
    if (int64_t(mmas.size()) % kSteps != 0) {
      why = "warp " + std::to_string(w->warp) + " recorded " +
            std::to_string(mmas.size()) + " MMAs, not a multiple of the " +
            std::to_string(kSteps) + " k steps of a tile";
      return {};
    }
    for (size_t i = 0; i < mmas.size(); i += size_t(kSteps))
      groups.push_back({mmas[i], mmas[i + size_t(kSteps) - 1]});
  }
  return groups;
}

/// Groups that overlap by more than half the shorter one are one tile.
std::vector<Span> mergeIntoTiles(std::vector<Span> groups) {
  std::sort(groups.begin(), groups.end(),
            [](const Span &a, const Span &b) { return a.start < b.start; });
  std::vector<Span> tiles;
  for (const Span &g : groups) {
    if (!tiles.empty()) {
      Span &last = tiles.back();
      double overlap = std::min(last.end, g.end) - g.start;
      double shorter = std::min(last.end - last.start, g.end - g.start);
      if (overlap > 0 && overlap >= shorter / 2) {
        last.end = std::max(last.end, g.end);
        continue;
      }
    }
    tiles.push_back(g);
  }
  return tiles;
}

/// The chain's links cut to [start, end].
std::vector<ChainLink> clip(const std::vector<ChainLink> &chain, double start,
                            double end) {
  std::vector<ChainLink> out;
  for (ChainLink link : chain) {
    link.startNs = std::max(link.startNs, start);
    link.endNs = std::min(link.endNs, end);
    if (link.endNs > link.startNs)
      out.push_back(link);
  }
  return out;
}

} // namespace

TileBreakdown klx::rt::splitByTile(const DecodedTrace &trace, int cta,
                                   int64_t kSteps,
                                   const std::vector<ChainLink> &chain) {
  TileBreakdown out;
  if (kSteps <= 0)
    return out;
  std::vector<const WarpTrace *> warps;
  for (const WarpTrace &w : trace.warps)
    if (w.cta == cta)
      warps.push_back(&w);
  std::vector<Span> groups = mmaGroups(warps, kSteps, out.unknown);
  if (groups.empty()) {
    if (out.unknown.empty())
      out.unknown = "CTA " + std::to_string(cta) + " recorded no MMA";
    return out;
  }
  std::vector<Span> tiles = mergeIntoTiles(std::move(groups));
  double ctaEnd = chain.empty() ? tiles.back().end : chain.back().endNs;
  for (size_t i = 0; i < tiles.size(); ++i) {
    TileSpan span;
    span.index = int(i);
    span.startNs = tiles[i].start;
    span.lastMmaNs = tiles[i].end;
    // Until the next tile's first MMA: its epilogue and the next refill
    // belong to it.
    span.endNs = i + 1 < tiles.size() ? tiles[i + 1].start
                                      : std::max(ctaEnd, tiles[i].end);
    span.chain = summarizeChain(clip(chain, span.startNs, span.endNs));
    out.tiles.push_back(std::move(span));
  }
  return out;
}
