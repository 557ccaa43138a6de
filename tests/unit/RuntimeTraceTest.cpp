//===- RuntimeTraceTest.cpp - Measured timelines read back ----------------===//
//
// What klx-run does with an instrumented kernel's buffer: decoding it,
// writing Chrome trace JSON, and the critical path and chain.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Runtime/CriticalPath.h"
#include "klx/Runtime/HostMath.h"
#include "klx/Runtime/Json.h"
#include "klx/Runtime/Runner.h"
#include "klx/Runtime/Trace.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>

using namespace klx::rt;

namespace {

/// An event word as the kernel writes it: clock64's low 32 bits, stage,
/// kind.
int64_t eventWord(int64_t clock, TraceKind kind, int stage, int pipeline = 0) {
  return int64_t(uint64_t(clock) << 32) | int64_t(pipeline) << 24 |
         int64_t(stage) << 8 | int64_t(kind);
}

/// A CTA's header (BundleFormat.h): stamps at start and end, SM, id + 1.
std::vector<int64_t> ctaHeader(int64_t startNs, int64_t startClock,
                               int64_t endNs, int64_t endClock, int sm,
                               int cta) {
  return {startNs, startClock, endNs, endClock, sm, cta + 1};
}

/// Each link of a chain as its warp and what it was, in order.
std::vector<std::pair<int, ChainPart>>
partsOf(const std::vector<ChainLink> &chain) {
  std::vector<std::pair<int, ChainPart>> parts;
  for (const ChainLink &link : chain)
    parts.push_back({link.warp, link.part});
  return parts;
}

} // namespace

TEST_CASE("trace: decoding a buffer and writing Chrome trace JSON",
          "[runtime]") {
  // 2 CTA slots of 2 warps, room for 3 events each. CTA 4 on SM 7 ran
  // 1000 cycles in 2000 ns (2 ns a cycle); its warp 0 waited 50 cycles on
  // full[1], then issued its MMA; warp 1 recorded 5 events (2 past the
  // buffer: its count word says 5), one of an unknown kind. CTA 9 on SM 3
  // started 500 ns later, its clock near 2^32 (the low 32 bits wrap), and
  // has no end stamp (the device's 1 GHz clock is used). globaltimer
  // counts nanoseconds since 1970: at that size a double holds only
  // multiples of 256 ns, so the times must be made relative first.
  const int64_t epoch = int64_t(1764250000123456789);
  TraceLayout layout{2, 2, 3};
  CHECK(layout.ctaWords() == kTraceHeaderWords + 2 * 4);
  std::vector<int64_t> buffer;
  auto append = [&](std::vector<int64_t> words) {
    buffer.insert(buffer.end(), words.begin(), words.end());
  };
  append(ctaHeader(epoch + 10000, 5000, epoch + 12000, 6000, 7, 4));
  append({0, eventWord(5050, TraceKind::WaitFullBegin, 1),
          eventWord(5100, TraceKind::WaitFullEnd, 1),
          eventWord(5160, TraceKind::MmaIssue, 1)});
  append({5, eventWord(5200, TraceKind::CopyIssue, 2),
          int64_t(uint64_t(5210) << 32 | 99),
          eventWord(5220, TraceKind::ReleaseEmpty, 0)});
  int64_t late = (int64_t(1) << 32) - 10;
  append(ctaHeader(epoch + 10500, late, 0, 0, 3, 9));
  append({0, eventWord(late + 20, TraceKind::WaitEmptyBegin, 0), 0, 0});
  append({0, 0, 0, 0}); // warp 1 recorded nothing
  REQUIRE(buffer.size() == size_t(layout.words()));

  DecodedTrace trace =
      decodeTrace(buffer, layout, {"consumer", "producer"}, 1e6);
  CHECK(trace.unknown == 1);
  CHECK(trace.mostRecorded == 5);
  CHECK(trace.dropped() == 2);
  REQUIRE(trace.ctas.size() == 2);
  CHECK(trace.ctas[0].cta == 4);
  CHECK(trace.ctas[0].sm == 7);
  CHECK(trace.ctas[0].startNs == 0);
  CHECK(trace.ctas[0].endNs == 2000);
  CHECK(trace.ctas[0].nsPerCycle == 2);
  CHECK(trace.ctas[1].cta == 9);
  CHECK_FALSE(trace.ctas[1].ended);
  CHECK(trace.ctas[1].startNs == 500);
  CHECK(trace.ctas[1].nsPerCycle == 1);
  const std::vector<WarpTrace> &warps = trace.warps;
  REQUIRE(warps.size() == 3);
  CHECK(warps[0].role == "consumer");
  CHECK(warps[0].sm == 7);
  REQUIRE(warps[0].events.size() == 3);
  CHECK(warps[0].events[0].kind == TraceKind::WaitFullBegin);
  CHECK(warps[0].events[0].stage == 1);
  CHECK(warps[0].events[0].ns == 100); // 50 cycles at 2 ns
  CHECK(warps[1].dropped == 2);
  CHECK(warps[1].events.size() == 2);
  // Past the 32-bit wrap, widened against the CTA's start.
  REQUIRE(warps[2].events.size() == 1);
  CHECK(warps[2].cta == 9);
  CHECK(warps[2].events[0].clock == late + 20);
  CHECK(warps[2].events[0].ns == 520);

  TraceSummary summary = summarizeTrace(warps);
  CHECK(summary.events == 6);
  CHECK(summary.dropped == 2);
  // How long each role waited: the critical path's rows, summed.
  std::vector<std::pair<std::string, double>> waiting =
      analyzeCriticalPath(trace).waitingByRole;
  REQUIRE(waiting.size() == 2);
  CHECK(waiting[0].first == "consumer");
  CHECK(waiting[0].second == Approx(50.0 / 110.0));
  std::string json = chromeTraceJson(trace, 1e6, "gemm", "a note");
  JsonError error;
  std::optional<Json> parsed = parseJson(json, error);
  INFO(error.message);
  REQUIRE(parsed);
  const Json *wait = nullptr;
  size_t instants = 0;
  for (const Json &e : (*parsed)["traceEvents"]) {
    if (e["ph"] == "X" && e["name"] == "wait full[1]")
      wait = &e;
    instants += e["ph"] == "i";
  }
  REQUIRE(wait);
  CHECK((*wait)["name"] == "wait full[1]");
  CHECK((*wait)["ts"].get<double>() == Approx(0.1)); // microseconds
  CHECK((*wait)["dur"].get<double>() == Approx(0.1));
  CHECK(json.find("\"CTA 4 (SM 7)\"") != std::string::npos);
  CHECK(json.find("\"SM 3\"") != std::string::npos);
  CHECK(instants == 3); // mma[1], copy[2], arrive empty[0]
  CHECK(json.find("\"warp 1 (producer)\"") != std::string::npos);
}

TEST_CASE("trace: the critical path of a measured kernel", "[runtime]") {
  // Three CTAs; CTA 2 on SM 9 ends last, at 10 us, when the median CTA had
  // ended at 7 us. Its consumer waited 1 us on full and issued MMAs from 2
  // to 8 us; its producer waited 0.5 us on empty.
  DecodedTrace trace;
  trace.ctas = {{0, 1, 0, 6000, true, 1},
                {1, 4, 0, 7000, true, 1},
                {2, 9, 500, 10000, true, 1}};
  WarpTrace consumer;
  consumer.cta = 2;
  consumer.role = "consumer";
  consumer.events = {{0, 1000, TraceKind::WaitFullBegin, 0},
                     {0, 2000, TraceKind::WaitFullEnd, 0},
                     {0, 2000, TraceKind::MmaIssue, 0},
                     {0, 8000, TraceKind::MmaIssue, 1},
                     {0, 9000, TraceKind::ReleaseEmpty, 1}};
  WarpTrace producer;
  producer.cta = 2;
  producer.warp = 8;
  producer.role = "producer";
  producer.events = {{0, 600, TraceKind::WaitEmptyBegin, 0},
                     {0, 1100, TraceKind::WaitEmptyEnd, 0},
                     {0, 1600, TraceKind::CopyIssue, 0}};
  trace.warps = {consumer, producer};

  CriticalPath path = analyzeCriticalPath(trace);
  REQUIRE(path.known());
  CHECK(path.end.cta == 2);
  CHECK(path.end.sm == 9);
  CHECK(path.end.medianEndNs == 7000);
  CHECK(path.end.tailNs() == 3000);
  CHECK(path.end.beforeMmaNs() == 1500);
  CHECK(path.end.mainLoopNs() == 6000);
  CHECK(path.end.afterMmaNs() == 2000);
  REQUIRE(path.waits.size() == 2);
  CHECK(path.waits[0].role == "consumer"); // the longest first
  CHECK(path.waits[0].barrier == "full");
  CHECK(path.waits[0].share == Approx(1000.0 / 8000.0));
  CHECK(path.waits[1].role == "producer");
  CHECK(path.waits[1].barrier == "empty");
  CHECK(path.waits[1].share == Approx(0.5));
  std::string text = formatCriticalPath(path);
  CHECK(text.find("the kernel ended with CTA 2 on SM 9 at 10.00 us; half "
                  "the CTAs had ended by 7.00 us (tail 3.00 us)") !=
        std::string::npos);
  CHECK(text.find("1.50 us before its first MMA") != std::string::npos);
  CHECK(text.find("consumer waits on full 12.5% of its time") !=
        std::string::npos);
  CHECK(formatCriticalPath(CriticalPath()).empty());

  // The chain, walked back from CTA 2's end: the consumer's epilogue and
  // work back to its wait on full[0], which the producer's copy at 1.6 us
  // ended; the producer back to its wait on empty[0], which no release in
  // the trace ended; its start.
  REQUIRE(path.chain.size() == 6);
  auto link = [&](size_t i) { return path.chain[i]; };
  CHECK(link(0).part == ChainPart::Setup);
  CHECK(link(0).startNs == 500);
  CHECK(link(1).part == ChainPart::Unrecorded);
  CHECK(link(1).warp == 8);
  CHECK(link(2).part == ChainPart::Work);
  CHECK(link(2).role == "producer");
  CHECK(link(3).part == ChainPart::Load);
  CHECK(link(3).startNs == 1600);
  CHECK(link(3).endNs == 2000);
  CHECK(link(4).part == ChainPart::Work);
  CHECK(link(4).role == "consumer");
  CHECK(link(4).ns() == 7000);
  CHECK(link(5).part == ChainPart::Epilogue);
  CHECK(link(5).endNs == 10000);
  for (size_t i = 1; i < path.chain.size(); ++i)
    CHECK(link(i).startNs == link(i - 1).endNs); // no gaps
  CHECK(text.find("what set CTA 2's end: consumer working 7.00 us (74%), "
                  "after the last event (the epilogue) 1.00 us (11%)") !=
        std::string::npos);
  CHECK(text.find("(1 waits that blocked, 1.00 us each)") != std::string::npos);
}

TEST_CASE("trace: the critical chain follows turns, releases and loads",
          "[runtime]") {
  // Ping-pong: consumer 1 (warp 4) waits for its turn until 3 us, passed
  // by consumer 0 (warp 0) at 2.9 us; consumer 0 had waited on full[1]
  // until 2 us, filled by the producer's copy at 1.5 us, issued once
  // consumer 1's release of stage 1 at 1 us let the producer on.
  DecodedTrace trace;
  trace.ctas = {{0, 3, 0, 5000, true, 1}};
  WarpTrace c0, c1, producer;
  c0.warp = 0;
  c0.role = "consumer";
  c0.events = {{0, 1200, TraceKind::WaitFullBegin, 1},
               {0, 2000, TraceKind::WaitFullEnd, 1},
               {0, 2000, TraceKind::MmaIssue, 1},
               {0, 2900, TraceKind::PassTurn, 0}};
  c1.warp = 4;
  c1.role = "consumer";
  c1.events = {{0, 900, TraceKind::ReleaseEmpty, 1},
               {0, 1000, TraceKind::WaitTurnBegin, 0},
               {0, 3000, TraceKind::WaitTurnEnd, 0},
               {0, 3000, TraceKind::MmaIssue, 0},
               {0, 4000, TraceKind::ReleaseEmpty, 0}};
  producer.warp = 8;
  producer.role = "producer";
  producer.events = {{0, 300, TraceKind::WaitEmptyBegin, 1},
                     {0, 1100, TraceKind::WaitEmptyEnd, 1},
                     {0, 1500, TraceKind::CopyIssue, 1}};
  trace.warps = {c0, c1, producer};
  std::vector<ChainLink> chain = traceCriticalChain(trace, 0);
  std::vector<std::pair<int, ChainPart>> expected = {
      {4, ChainPart::Setup}, {4, ChainPart::Release}, {8, ChainPart::Work},
      {8, ChainPart::Load},  {0, ChainPart::Work},    {0, ChainPart::Turn},
      {4, ChainPart::Work},  {4, ChainPart::Epilogue}};
  CHECK(partsOf(chain) == expected);
  REQUIRE(chain.size() == expected.size());
  CHECK(chain[1].startNs == 900); // the release ...
  CHECK(chain[1].endNs == 1100);  // ... to the producer's wait's end
  CHECK(chain[5].startNs == 2900);
  CHECK(chain[5].endNs == 3000);
  CHECK(traceCriticalChain(trace, 7).empty()); // no such CTA
}

TEST_CASE("trace: a release stamped late", "[runtime]") {
  // A release with kTraceStampedLate carries the clock of its warp's next
  // event and happened after the event before it (the CTA's start for a
  // first event). 1 ns a cycle.
  TraceLayout layout{1, 1, 4};
  std::vector<int64_t> buffer = ctaHeader(1000, 0, 2000, 1000, 2, 0);
  int64_t late = kTraceStampedLate;
  buffer.insert(buffer.end(),
                {0, eventWord(40, TraceKind::ReleaseEmpty, 0) | late,
                 eventWord(40, TraceKind::MmaIssue, 1),
                 eventWord(90, TraceKind::ReleaseEmpty, 1) | late,
                 eventWord(90, TraceKind::MmaIssue, 2)});
  DecodedTrace decoded = decodeTrace(buffer, layout, {"consumer"}, 1e6);
  CHECK(decoded.unknown == 0);
  REQUIRE(decoded.warps.size() == 1);
  const std::vector<TraceEvent> &events = decoded.warps[0].events;
  REQUIRE(events.size() == 4);
  CHECK(events[0].late);
  CHECK(events[0].earliestNs == 0);
  CHECK(events[2].kind == TraceKind::ReleaseEmpty);
  CHECK(events[2].stage == 1);
  CHECK(events[2].late);
  CHECK(events[2].ns == 90);
  CHECK(events[2].earliestNs == 40);
  CHECK(events[2].earliest() == 40);
  CHECK_FALSE(events[3].late);
  CHECK(events[3].earliest() == 90);
  std::string json = chromeTraceJson(decoded, 1e6, "gemm", "");
  CHECK(json.find("\"arrive empty[1], stamped at the next event\"") !=
        std::string::npos);
  CHECK(json.find("\"after_us\":0.04") != std::string::npos);
}

TEST_CASE("trace: the critical chain at a release stamped late", "[runtime]") {
  // The producer's wait on empty[1] ended at 500 ns, before the stamp of
  // the release that ended it (600: the consumer's next MMA). That release
  // came after the consumer's MMA at 200, before the wait's end: it is the
  // one, and not the round before's at 50, the latest stamped before 500.
  DecodedTrace trace;
  trace.ctas = {{0, 1, 0, 2000, true, 1}};
  WarpTrace consumer, producer;
  consumer.warp = 0;
  consumer.role = "consumer";
  TraceEvent release{0, 600, TraceKind::ReleaseEmpty, 1};
  release.late = true;
  release.earliestNs = 200;
  consumer.events = {{0, 50, TraceKind::ReleaseEmpty, 1},
                     {0, 100, TraceKind::WaitFullBegin, 1},
                     {0, 200, TraceKind::WaitFullEnd, 1},
                     {0, 200, TraceKind::MmaIssue, 1},
                     release,
                     {0, 600, TraceKind::MmaIssue, 2},
                     {0, 1000, TraceKind::WaitFullBegin, 1},
                     {0, 1400, TraceKind::WaitFullEnd, 1}};
  producer.warp = 8;
  producer.role = "producer";
  producer.events = {{0, 300, TraceKind::WaitEmptyBegin, 1},
                     {0, 500, TraceKind::WaitEmptyEnd, 1},
                     {0, 550, TraceKind::CopyIssue, 1}};
  trace.warps = {consumer, producer};

  // The release had happened by the wait's end: a stretch of no length,
  // and the consumer's work runs to 500. (Its own first wait's copy is
  // not in the trace.)
  std::vector<ChainLink> chain = traceCriticalChain(trace, 0);
  std::vector<std::pair<int, ChainPart>> expected = {
      {0, ChainPart::Setup},   {0, ChainPart::Work}, {0, ChainPart::Unrecorded},
      {0, ChainPart::Work},    {8, ChainPart::Work}, {8, ChainPart::Load},
      {0, ChainPart::Epilogue}};
  CHECK(partsOf(chain) == expected);
  REQUIRE(chain.size() == expected.size());
  CHECK(chain[3].startNs == 200);
  CHECK(chain[3].endNs == 500);
  CHECK(chain[3].lateRelease); // the release may have come before 500
  CHECK_FALSE(chain[2].lateRelease);

  // The wait ending at 700, after the stamp: the release's stretch runs
  // from the stamp, and says it starts late.
  trace.warps[1].events = {{0, 300, TraceKind::WaitEmptyBegin, 1},
                           {0, 700, TraceKind::WaitEmptyEnd, 1},
                           {0, 750, TraceKind::CopyIssue, 1}};
  chain = traceCriticalChain(trace, 0);
  expected = {{0, ChainPart::Setup},      {0, ChainPart::Work},
              {0, ChainPart::Unrecorded}, {0, ChainPart::Work},
              {0, ChainPart::Release},    {8, ChainPart::Work},
              {8, ChainPart::Load},       {0, ChainPart::Epilogue}};
  CHECK(partsOf(chain) == expected);
  REQUIRE(chain.size() == expected.size());
  CHECK(chain[4].startNs == 600);
  CHECK(chain[4].endNs == 700);
  CHECK(chain[4].lateRelease);
  CHECK_FALSE(chain[3].lateRelease);
  // The trace's otherData says so (a sixth element), and the report.
  CriticalPath path = analyzeCriticalPath(trace);
  CHECK(chromeTraceJson(trace, 1e6, "gemm", "", "", &path)
            .find("\"release\",0,true]") != std::string::npos);
  CHECK(formatCriticalPath(path).find(
            "8 links; 1 of them at a release stamped at its warp's next "
            "event, which may have come sooner)") != std::string::npos);

  // A release stamped late whose lower bound is the wait's end itself
  // (the consumer's MMA stamped at 500) came after the wait: the release
  // of the round before, at 100, ended it.
  trace.warps[0].events = {{0, 100, TraceKind::ReleaseEmpty, 1},
                           {0, 500, TraceKind::MmaIssue, 1}};
  TraceEvent after{0, 900, TraceKind::ReleaseEmpty, 1};
  after.late = true;
  after.earliestNs = 500;
  trace.warps[0].events.push_back(after);
  trace.warps[0].events.push_back({0, 900, TraceKind::MmaIssue, 2});
  trace.warps[1].events = {{0, 300, TraceKind::WaitEmptyBegin, 1},
                           {0, 500, TraceKind::WaitEmptyEnd, 1},
                           {0, 1000, TraceKind::CopyIssue, 1}};
  chain = traceCriticalChain(trace, 0);
  expected = {{0, ChainPart::Setup},
              {0, ChainPart::Release},
              {8, ChainPart::Work},
              {8, ChainPart::Epilogue}};
  CHECK(partsOf(chain) == expected);
  REQUIRE(chain.size() == expected.size());
  CHECK(chain[1].startNs == 100);
  CHECK_FALSE(chain[1].lateRelease);
  CHECK(formatCriticalPath(analyzeCriticalPath(trace))
            .find("of them at a release") == std::string::npos);
}

TEST_CASE("trace: two pipelines' events", "[runtime]") {
  // The pipeline is the byte above the stage; the Chrome name says it.
  TraceLayout layout{1, 1, 2};
  std::vector<int64_t> buffer = ctaHeader(1000, 0, 2000, 1000, 2, 0);
  buffer.insert(buffer.end(), {0, eventWord(10, TraceKind::CopyIssue, 3, 1),
                               eventWord(20, TraceKind::CopyIssue, 3)});
  DecodedTrace decoded = decodeTrace(buffer, layout, {"producer"}, 1e6);
  REQUIRE(decoded.warps.size() == 1);
  REQUIRE(decoded.warps[0].events.size() == 2);
  CHECK(decoded.warps[0].events[0].stage == 3);
  CHECK(decoded.warps[0].events[0].pipeline == 1);
  CHECK(decoded.warps[0].events[1].pipeline == 0);
  std::string json = chromeTraceJson(decoded, 1e6, "gemm", "");
  CHECK(json.find("\"copy[3] of pipeline 1\"") != std::string::npos);
  CHECK(json.find("\"copy[3]\"") != std::string::npos);

  // Two producers: the consumer's wait on stage 0 of pipeline 1 was ended
  // by warp 9's copy, though warp 8 copied into its own stage 0 later.
  // Warp 9 had waited on empty[0] of pipeline 1 from 300 to 700 ns; the
  // consumer's first thread released that stage at 200 (the barrier
  // completes with its warpgroup's last arrive, which is not recorded: the
  // release is the latest event in the trace that can have ended it).
  DecodedTrace trace;
  trace.ctas = {{0, 1, 0, 3000, true, 1}};
  WarpTrace consumer, a, b;
  consumer.warp = 0;
  consumer.role = "consumer";
  consumer.events = {{0, 200, TraceKind::ReleaseEmpty, 0, 1},
                     {0, 1000, TraceKind::WaitFullBegin, 0, 1},
                     {0, 2000, TraceKind::WaitFullEnd, 0, 1},
                     {0, 2000, TraceKind::MmaIssue, 0}};
  a.warp = 8;
  a.role = "producer_a";
  a.events = {{0, 1800, TraceKind::CopyIssue, 0, 0}};
  b.warp = 9;
  b.role = "producer_b";
  b.events = {{0, 300, TraceKind::WaitEmptyBegin, 0, 1},
              {0, 700, TraceKind::WaitEmptyEnd, 0, 1},
              {0, 1500, TraceKind::CopyIssue, 0, 1}};
  trace.warps = {consumer, a, b};
  std::vector<ChainLink> chain = traceCriticalChain(trace, 0);
  std::vector<std::pair<int, ChainPart>> expected = {{0, ChainPart::Setup},
                                                     {0, ChainPart::Release},
                                                     {9, ChainPart::Work},
                                                     {9, ChainPart::Load},
                                                     {0, ChainPart::Epilogue}};
  CHECK(partsOf(chain) == expected);
}

TEST_CASE("trace: the chain tile by tile", "[runtime]") {
  // Two k steps a tile. Consumers that split a tile's rows (warps 0 and 4)
  // multiply side by side: two tiles. Ping-pong consumers take turns: three.
  auto mmas = [](int warp, std::vector<double> at) {
    WarpTrace w;
    w.warp = warp;
    w.role = "consumer";
    for (double ns : at)
      w.events.push_back({0, ns, TraceKind::MmaIssue, 0});
    return w;
  };
  DecodedTrace shared;
  shared.ctas = {{0, 1, 0, 3000, true, 1}};
  shared.warps = {mmas(0, {100, 200, 1000, 1100}),
                  mmas(4, {110, 210, 1010, 1110})};
  std::vector<ChainLink> chain = {
      {0, 0, "consumer", 0, 500, ChainPart::Load, 0},
      {0, 0, "consumer", 500, 3000, ChainPart::Work, 0}};
  TileBreakdown tiles = splitByTile(shared, 0, 2, chain);
  REQUIRE(tiles.tiles.size() == 2);
  CHECK(tiles.tiles[0].startNs == 100);
  CHECK(tiles.tiles[0].lastMmaNs == 210);
  CHECK(tiles.tiles[0].endNs == 1000); // the next tile's first MMA
  CHECK(tiles.tiles[1].endNs == 3000); // the chain's (the CTA's) end
  REQUIRE(tiles.tiles[0].chain.size() == 2);
  CHECK(tiles.tiles[0].chain[0].what == "consumer working");
  CHECK(tiles.tiles[0].chain[0].ns == 500);
  CHECK(tiles.tiles[0].chain[1].what == "loads in flight");
  CHECK(tiles.tiles[0].chain[1].ns == 400);

  DecodedTrace pingpong = shared;
  pingpong.warps = {mmas(0, {100, 200, 2000, 2100}), mmas(4, {1000, 1100})};
  tiles = splitByTile(pingpong, 0, 2, chain);
  REQUIRE(tiles.tiles.size() == 3);
  CHECK(tiles.tiles[1].startNs == 1000);
  CHECK(tiles.tiles[1].endNs == 2000);

  tiles = splitByTile(pingpong, 0, 3, chain);
  CHECK(tiles.tiles.empty());
  CHECK(tiles.unknown ==
        "warp 0 recorded 4 MMAs, not a multiple of the 3 k steps of a tile");
  CHECK(splitByTile(pingpong, 0, 0, chain).tiles.empty()); // k unknown

  // klx-run's line: the tiles' median, shortest and longest.
  DecodedTrace ended = shared;
  CriticalPath path = analyzeCriticalPath(ended, 2);
  REQUIRE(path.tiles.tiles.size() == 2);
  std::string text = formatCriticalPath(path);
  CHECK(text.find("CTA 0's 2 tiles, first MMA to the next tile's: median") !=
        std::string::npos);
  CHECK(text.find("longest 2.00 us (tile 1") != std::string::npos);
  // Four k steps: the two consumers' MMAs are one tile.
  text = formatCriticalPath(analyzeCriticalPath(ended, 4));
  CHECK(text.find("CTA 0's one tile, first MMA to its end: 2.90 us (") !=
        std::string::npos);
}

TEST_CASE("trace: the chain across a cluster's CTAs", "[runtime]") {
  // Two CTAs in a cluster of 2 along x; CTA 0 ends the kernel. Its stage
  // 0 was full only when CTA 1's share landed: CTA 1's producer issued it
  // at 1700, after CTA 0's at 1200. CTA 1's producer had waited for that
  // stage to be empty until 1600, and CTA 1's consumer released it at
  // 1500, after CTA 0's consumer at 500.
  DecodedTrace trace;
  trace.ctas = {{0, 3, 0, 3000, true, 1}, {1, 7, 100, 2900, true, 1}};
  using klx::test::warpTrace;
  trace.warps = {
      warpTrace(0, 0, 0, "consumer",
                {{0, 500, TraceKind::ReleaseEmpty, 0},
                 {0, 1000, TraceKind::WaitFullBegin, 0},
                 {0, 2000, TraceKind::WaitFullEnd, 0},
                 {0, 2000, TraceKind::MmaIssue, 0}}),
      warpTrace(0, 8, 0, "producer", {{0, 1200, TraceKind::CopyIssue, 0}}),
      warpTrace(1, 0, 0, "consumer",
                {{0, 400, TraceKind::MmaIssue, 0},
                 {0, 1500, TraceKind::ReleaseEmpty, 0}}),
      warpTrace(1, 8, 0, "producer",
                {{0, 600, TraceKind::WaitEmptyBegin, 0},
                 {0, 1600, TraceKind::WaitEmptyEnd, 0},
                 {0, 1700, TraceKind::CopyIssue, 0}})};
  auto parts = [](const std::vector<ChainLink> &chain) {
    std::vector<std::tuple<int, int, ChainPart>> out;
    for (const ChainLink &link : chain)
      out.push_back({link.cta, link.warp, link.part});
    return out;
  };

  // Without clusters each CTA is on its own: CTA 0's copy filled it.
  std::vector<std::tuple<int, int, ChainPart>> alone = {
      {0, 8, ChainPart::Setup},
      {0, 8, ChainPart::Load},
      {0, 0, ChainPart::Epilogue}};
  CHECK(parts(traceCriticalChain(trace, 0)) == alone);

  trace.cluster = {2, 1};
  trace.gridX = 2;
  CHECK(trace.clusterOf(0) == trace.clusterOf(1));
  std::vector<ChainLink> chain = traceCriticalChain(trace, 0);
  std::vector<std::tuple<int, int, ChainPart>> clustered = {
      {1, 0, ChainPart::Setup},   {1, 0, ChainPart::Work},
      {1, 0, ChainPart::Release}, {1, 8, ChainPart::Work},
      {1, 8, ChainPart::Load},    {0, 0, ChainPart::Epilogue}};
  CHECK(parts(chain) == clustered);
  REQUIRE(chain.size() == clustered.size());
  CHECK(chain[0].startNs == 100); // CTA 1's own start
  CHECK(chain[2].startNs == 1500);
  CHECK(chain[2].endNs == 1600);
  CHECK(chain[4].startNs == 1700);
  CHECK(chain[4].endNs == 2000);

  // What klx-run prints and writes: the time spent on the other CTA, and
  // each link's CTA.
  CriticalPath path = analyzeCriticalPath(trace);
  CHECK(path.end.cta == 0);
  CHECK(formatCriticalPath(path).find(
            "(6 links; 1.90 us on CTA 1 of its cluster)") != std::string::npos);
  std::string json = chromeTraceJson(trace, 1e6, "gemm", "", "", &path);
  CHECK(json.find("[8,1.7,2.0,\"load\",1]") != std::string::npos);

  // Clusters of 2 along x in a grid 4 wide and 2 high: blocks 0 and 1
  // share one, 2 and 3 the next; the second row (4..7) has its own.
  trace.gridX = 4;
  CHECK(trace.clusterOf(1) == 0);
  CHECK(trace.clusterOf(2) == 1);
  CHECK(trace.clusterOf(5) == 2);
  CHECK(trace.clusterOf(7) == 3);
  trace.cluster = {1, 2};
  CHECK(trace.clusterOf(4) == trace.clusterOf(0));
  CHECK(trace.clusterOf(5) != trace.clusterOf(0));
}
