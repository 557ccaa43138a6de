//===- MeasuredTraceTest.cpp - Recorded traces read for the window --------===//
//
// What the Measured pane and the Barrier timeline read from a trace file:
// klx-run's own (runtime/lib/Trace.cpp writes it: its events, critical
// path and chain), Proton's, and files with numbers no recording has.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "core/AppController.h"
#include "klx/Runtime/CriticalPath.h"
#include "klx/Runtime/Trace.h"
#include "views/MeasuredTimeline.h"

#include "llvm/Support/FileSystem.h"

#include <cmath>
#include <map>

using namespace klx;
using namespace klx::app;

TEST_CASE("Barrier timeline: a klx-run trace read back in cycles",
          "[app][gpu-run]") {
  using klx::rt::TraceKind;
  // 1 cycle = 1 ns here; the pane turns microseconds back into cycles at
  // the clock rate the trace states (1980000 kHz).
  klx::rt::DecodedTrace trace;
  trace.ctas = {{0, 5, 0, 800, true, 1.0}, {1, 6, 0, 800, true, 1.0}};
  klx::rt::WarpTrace consumer;
  consumer.cta = 0;
  consumer.warp = 0;
  consumer.role = "consumer";
  consumer.events = {{1000, 0, TraceKind::WaitFullBegin, 2},
                     {1600, 600 / 1.98, TraceKind::WaitFullEnd, 2},
                     {1700, 700 / 1.98, TraceKind::MmaIssue, 2}};
  klx::rt::WarpTrace other = consumer;
  other.cta = 1; // only the first CTA is drawn
  trace.warps = {consumer, other};
  std::string json =
      klx::rt::chromeTraceJson(trace, 1980000, "gemm", "", "H100 (132 SMs)");
  std::string error;
  std::optional<MeasuredTimeline> t = readMeasuredTimeline(json, error);
  INFO(error);
  REQUIRE(t);
  CHECK(t->clockKHz == 1980000);
  CHECK(t->kernel == "gemm");
  CHECK(t->recordedFromKlx("gemm"));
  CHECK_FALSE(t->recordedFromKlx("matmul"));
  REQUIRE(t->lanes.size() == 1);
  CHECK(t->lanes[0].name == "warp 0 (consumer)");
  REQUIRE(t->lanes[0].events.size() == 2);
  CHECK(t->lanes[0].events[0].name == "wait full[2]");
  CHECK(t->lanes[0].events[0].start == Approx(0).margin(1e-6));
  CHECK(t->lanes[0].events[0].end == Approx(600));
  CHECK(t->lanes[0].events[1].name == "mma[2]");
  CHECK(t->lanes[0].events[1].start == Approx(700));
  CHECK(t->endTime == Approx(700));
  // The SMs process: a lane per SM, a box per CTA (800 ns = 1584 cycles).
  CHECK(t->device == "H100 (132 SMs)");
  REQUIRE(t->sms.size() == 2);
  CHECK(t->sms[0].name == "SM 5");
  REQUIRE(t->sms[0].events.size() == 1);
  CHECK(t->sms[0].events[0].name == "CTA 0");
  CHECK(t->sms[0].events[0].end == Approx(1584));
  CHECK(t->sms[1].name == "SM 6");
  CHECK(t->ctaCount() == 2);
  CHECK(t->smsEndTime == Approx(1584));
  // The line above the SMs' lanes: 2 CTAs on 2 of 132 SMs, one each.
  SmSummary summary = summarizeSms(*t);
  CHECK(summary.ctas == 2);
  CHECK(summary.busySms == 2);
  CHECK(summary.deviceSms == 132);
  CHECK(summary.mostPerSm == 1);
  CHECK(summary.lastDone == Approx(1584));
  MeasuredTimeline unnamed;
  unnamed.device = "a GPU that does not say";
  CHECK(summarizeSms(unnamed).deviceSms == 0);
  CHECK(summarizeSms(unnamed).ctas == 0);
  // Every CTA's warps, compactly, for the Measured pane's picked CTA.
  REQUIRE(t->ctas.size() == 2);
  CHECK(t->ctas[0].sm == 5);
  CHECK(t->ctas[1].cta == 1);
  CHECK(t->ctas[1].sm == 6);
  REQUIRE(t->ctas[1].warps.size() == 1);
  CHECK(t->ctas[1].warps[0].name == "warp 0 (consumer)");
  REQUIRE(t->ctas[1].warps[0].events.size() == 2);
  CHECK(t->eventNames[t->ctas[1].warps[0].events[0].name] == "wait full[2]");
  CHECK(t->ctas[1].warps[0].events[0].end == Approx(600));
  CHECK(t->findCta(1) == &t->ctas[1]);
  CHECK(t->findCta(7) == nullptr);
  CHECK(t->ctas[1].warps[0].warp == 0);
  CHECK(t->chain.empty()); // written without a critical path

  // With klx-run's critical path: its lines and its chain, in cycles.
  klx::rt::CriticalPath path = klx::rt::analyzeCriticalPath(trace);
  REQUIRE(path.chain.size() >= 2);
  json = klx::rt::chromeTraceJson(trace, 1980000, "gemm", "", "H100", &path);
  t = readMeasuredTimeline(json, error);
  REQUIRE(t);
  CHECK(t->chainCta == path.end.cta);
  REQUIRE(t->chain.size() == path.chain.size());
  CHECK(t->chain.back().part == "epilogue");
  CHECK(t->chain.back().end == Approx(path.chain.back().endNs * 1.98));
  CHECK(t->chain.front().warp == path.chain.front().warp);
  REQUIRE_FALSE(t->criticalPath.empty());
  CHECK(t->criticalPath[0].rfind("the kernel ended with CTA", 0) == 0);

  CHECK_FALSE(readMeasuredTimeline("{\"traceEvents\": [", error));
  CHECK(error.rfind("the trace is not JSON: ", 0) == 0);
  CHECK_FALSE(readMeasuredTimeline("{}", error));
  CHECK(error == "the trace has no traceEvents");
  CHECK_FALSE(readMeasuredTimeline(R"({"traceEvents": []})", error));
  CHECK(error == "the trace does not say its clock rate");
}

TEST_CASE("Measured timeline: a chain through a cluster's other CTA",
          "[app][gpu-run]") {
  // CTA 0 ended the kernel; its stage was full when CTA 1's share landed.
  klx::rt::DecodedTrace trace;
  trace.ctas = {{0, 3, 0, 3000, true, 1}, {1, 7, 100, 2900, true, 1}};
  trace.cluster = {2, 1};
  trace.gridX = 2;
  using klx::rt::TraceKind;
  using klx::test::warpTrace;
  trace.warps = {
      warpTrace(0, 0, 3, "consumer",
                {{0, 1000, TraceKind::WaitFullBegin, 0},
                 {0, 2000, TraceKind::WaitFullEnd, 0}}),
      warpTrace(0, 8, 3, "producer", {{0, 1200, TraceKind::CopyIssue, 0}}),
      warpTrace(1, 8, 7, "producer", {{0, 1700, TraceKind::CopyIssue, 0}})};
  klx::rt::CriticalPath path = klx::rt::analyzeCriticalPath(trace);
  std::string json =
      klx::rt::chromeTraceJson(trace, 1980000, "gemm", "", "H100", &path);
  std::string error;
  std::optional<MeasuredTimeline> t = readMeasuredTimeline(json, error);
  REQUIRE(t);
  CHECK(t->chainCta == 0);
  REQUIRE(t->chain.size() == 3); // CTA 1's start-up and load, CTA 0's end
  CHECK(t->chain[1].cta == 1);
  CHECK(t->chain[1].warp == 8);
  CHECK(t->chain[1].part == "load");
  CHECK(t->chain[2].cta == 0);
  CHECK(t->chainPassesThrough(1));
  CHECK_FALSE(t->chainPassesThrough(2));
  CHECK(t->chainCtaNames() == "CTAs 0 and 1");

  // Written before links said their CTA: each is on the chain's CTA.
  t = readMeasuredTimeline(
      R"({"traceEvents": [], "otherData": {"clock": "clock64 cycles at 1980000 kHz",
          "critical_chain": {"cta": 4, "links": [[8, 0.5, 1.0, "load"]]}}})",
      error);
  REQUIRE(t);
  REQUIRE(t->chain.size() == 1);
  CHECK(t->chain[0].cta == 4);
  CHECK_FALSE(t->chain[0].lateRelease);
  CHECK(t->chainCtaNames() == "CTA 4");

  // A sixth element: the link starts at a release stamped late.
  t = readMeasuredTimeline(
      R"({"traceEvents": [], "otherData": {"clock": "clock64 cycles at 1980000 kHz",
          "critical_chain": {"cta": 4, "links": [[0, 0.5, 1.0, "release", 4, true]]}}})",
      error);
  REQUIRE(t);
  REQUIRE(t->chain.size() == 1);
  CHECK(t->chain[0].part == "release");
  CHECK(t->chain[0].lateRelease);

  // klx-run on the H100, clusters of 2 at 2048^3 (trimmed to CTAs 2 and
  // 3): CTA 2 ended the kernel; a stage it waited for was filled last by
  // CTA 3's producer.
  t = readMeasuredTimeline(
      klx::test::readSource("tests/fixtures/trace/h100-cluster-m2-2048.json"),
      error);
  REQUIRE(t);
  CHECK(t->chainCta == 2);
  CHECK(t->chainCtaNames() == "CTAs 2 and 3");
  REQUIRE(t->findCta(3));
  CHECK(t->chainPassesThrough(3));
  REQUIRE(t->criticalPath.size() > 2);
  CHECK(t->criticalPath[2].find("on CTA 3 of its cluster") !=
        std::string::npos);
}

TEST_CASE("Measured pane: a trace typed or dropped opens as one",
          "[app][gpu-run]") {
  auto opensTrace = [](const char *path) {
    return std::holds_alternative<cmd::OpenTrace>(openCommandFor(path));
  };
  CHECK(opensTrace("/tmp/pingpong-2048.json"));
  CHECK(opensTrace("matmul.chrome_trace")); // what Proton writes
  CHECK_FALSE(opensTrace("samples/nvidia/saxpy.mlir"));
  CHECK_FALSE(opensTrace("kernel.json.mlir"));
  CHECK_FALSE(opensTrace("json"));
  Command kernel = openCommandFor("k.mlir");
  REQUIRE(std::holds_alternative<cmd::OpenFile>(kernel));
  CHECK(std::get<cmd::OpenFile>(kernel).path == "k.mlir");
}

TEST_CASE("Measured pane: numbers no recording has are refused, not drawn",
          "[app][gpu-run]") {
  auto trace = [](const std::string &events, const std::string &clock) {
    return R"({"traceEvents": [)" + events +
           R"(], "otherData": {"clock": "clock64 cycles at )" + clock +
           R"( kHz"}})";
  };
  std::string mma = R"({"pid": 0, "tid": 8, "ph": "X", "name": "mma[0]", )";
  struct Case {
    const char *what;
    std::string json;
    const char *error; // empty: read, and every time finite
  };
  std::vector<Case> cases = {
      {"a start past what a float holds in cycles",
       trace(mma + R"("ts": 1e300, "dur": 1})", "1980000"),
       "the trace's times run past what klx can draw: an event of warp 8 of "
       "CTA 0 at 1e+300 us"},
      {"a length past it", trace(mma + R"("ts": 1, "dur": 1e300})", "1980000"),
       "the trace's times run past what klx can draw: an event of warp 8 of "
       "CTA 0 at 1 us"},
      {"a clock no GPU has", trace(mma + R"("ts": 1, "dur": 1})", "1e300"),
       "the trace's clock rate, 1e+300 kHz, is not a GPU's"},
      {"a clock that is not a number",
       trace(mma + R"("ts": 1, "dur": 1})", "nan"),
       "the trace's clock rate, nan kHz, is not a GPU's"},
      {"Proton's SM and CTA numbers past 64 bits",
       R"json({"traceEvents": [{"pid": "k Core99999999999999999999 CTA1",
         "tid": "warp 0 (line 0)", "ph": "X", "ts": 0, "dur": 1,
         "name": "load"}, {"pid": "k Core1 CTA99999999999999999999",
         "tid": "warp 0 (line 0)", "ph": "X", "ts": 0, "dur": 1,
         "name": "load"}]})json",
       ""},
      {"a process id past 64 bits",
       trace(R"({"pid": 1e300, "tid": 8, "ph": "X", "ts": 1, "dur": 1})",
             "1980000"),
       ""},
      {"a chain link past 64 bits and floats",
       R"({"traceEvents": [], "otherData": {"clock": "clock64 cycles at 1980000 kHz",
         "critical_chain": {"cta": 1e300, "links": [[1e300, 1e300, 1, "x"],
         [-1e300, 1, 2, "y"]]}}})",
       ""},
  };
  for (const Case &c : cases) {
    INFO(c.what);
    std::string error;
    std::optional<MeasuredTimeline> t = readMeasuredTimeline(c.json, error);
    if (*c.error) {
      CHECK_FALSE(t);
      CHECK(error == c.error);
      continue;
    }
    INFO(error);
    REQUIRE(t);
    for (const MeasuredCta &cta : t->ctas)
      for (const MeasuredCtaLane &lane : cta.warps)
        for (const MeasuredCtaEvent &e : lane.events)
          CHECK((std::isfinite(e.start) && std::isfinite(e.end)));
    for (const MeasuredTimeline::ChainLink &link : t->chain)
      CHECK((std::isfinite(link.start) && std::isfinite(link.end)));
    // No integer for a float past 64 bits: no process, no warp, no CTA.
    CHECK(t->ctas.empty());
    if (!t->chain.empty()) {
      CHECK(t->chainCta == -1);
      REQUIRE(t->chain.size() == 1); // the link at 1e300 us is left out
      CHECK(t->chain[0].warp == -1);
      CHECK(t->chain[0].part == "y");
    }
  }
}

TEST_CASE("Measured pane: a trace says which build of which kernel it is",
          "[app][gpu-run]") {
  // ping-pong and two producers are both @gemm: the bundle's file and -D
  // values tell them apart.
  klx::rt::DecodedTrace trace;
  trace.ctas = {{0, 5, 0, 800, true, 1.0}};
  klx::rt::WarpTrace warp;
  warp.role = "consumer";
  warp.events = {{1000, 0, klx::rt::TraceKind::MmaIssue, 0}};
  trace.warps = {warp};
  klx::rt::Manifest bundle;
  bundle.source = "samples/nvidia/gemm_pingpong.mlir";
  bundle.defines = {{"stages", "3"}, {"dtype", "bf16"}};
  std::string json = klx::rt::chromeTraceJson(trace, 1980000, "gemm", "", "",
                                              nullptr, &bundle);
  std::string error;
  std::optional<MeasuredTimeline> t = readMeasuredTimeline(json, error);
  REQUIRE(t);
  CHECK(t->knowsBuild);
  CHECK(t->buildName() == "gemm_pingpong.mlir -D dtype=bf16 -D stages=3");
  // Another directory, the defines in another order: the same build.
  CHECK(t->recordedFromKlx("gemm", "/home/me/klx/gemm_pingpong.mlir",
                           {{"stages", "3"}, {"dtype", "bf16"}}));
  CHECK_FALSE(t->recordedFromKlx("gemm", "gemm_two_producers.mlir",
                                 {{"stages", "3"}, {"dtype", "bf16"}}));
  CHECK_FALSE(t->recordedFromKlx("gemm", "gemm_pingpong.mlir",
                                 {{"stages", "4"}, {"dtype", "bf16"}}));
  CHECK_FALSE(t->recordedFromKlx("gemm", "gemm_pingpong.mlir", {}));

  // The text the bundle was compiled from, edited since: same file, same
  // defines, another digest. A trace or a model that does not say its
  // digest is matched without it.
  bundle.sourceDigest = "xxh3:00000000000000aa";
  t = readMeasuredTimeline(klx::rt::chromeTraceJson(trace, 1980000, "gemm", "",
                                                    "", nullptr, &bundle),
                           error);
  REQUIRE(t);
  CHECK(t->sourceDigest == "xxh3:00000000000000aa");
  const std::vector<std::pair<std::string, std::string>> same = {
      {"stages", "3"}, {"dtype", "bf16"}};
  CHECK(t->recordedFromKlx("gemm", "gemm_pingpong.mlir", same,
                           "xxh3:00000000000000aa"));
  CHECK(t->recordedFromKlx("gemm", "gemm_pingpong.mlir", same, ""));
  CHECK_FALSE(t->sameText("xxh3:00000000000000bb"));
  CHECK_FALSE(t->recordedFromKlx("gemm", "gemm_pingpong.mlir", same,
                                 "xxh3:00000000000000bb"));
  // What the panes say where they leave the model or the GPU's lanes out.
  CHECK(t->notRecordedFrom("gemm", "gemm_pingpong.mlir", same,
                           "xxh3:00000000000000aa") == "");
  CHECK(t->notRecordedFrom("gemm", "gemm_pingpong.mlir", same,
                           "xxh3:00000000000000bb") ==
        "the trace was recorded from another text of gemm_pingpong.mlir -D "
        "dtype=bf16 -D stages=3 (edited since)");
  CHECK(t->notRecordedFrom("gemm", "gemm_two_producers.mlir", {},
                           "xxh3:00000000000000cc") ==
        "the trace is of @gemm of gemm_pingpong.mlir -D dtype=bf16 -D "
        "stages=3; the kernel compiled now is @gemm of "
        "gemm_two_producers.mlir");
}

TEST_CASE("Measured pane: a trace Proton's intra-kernel profiler wrote",
          "[app][gpu-run]") {
  // The shape Proton's chrome trace writer gives (pid "KERNEL CoreN CTAM",
  // tid "warp U (line L)", microseconds of a clock taken as 1 GHz, no
  // metadata events, keys in any order), written here by hand.
  std::string json = R"json({"displayTimeUnit":"ns","traceEvents":[
    {"args":{"Frequency (MHz)":1000.0},"cat":"add","dur":0.04,"name":"load",
     "ph":"X","pid":"add Core3 CTA5","tid":"warp 0 (line 0)","ts":0.0},
    {"cat":"add","dur":0.05,"name":"compute","ph":"X",
     "pid":"add Core3 CTA5","tid":"warp 0 (line 1)","ts":0.028},
    {"ts":0.5,"tid":"warp 0 (line 0)","pid":"add Core7 CTA6","ph":"X",
     "name":"load","dur":0.04,"cat":"add"}]})json";
  std::string error;
  std::optional<MeasuredTimeline> t = readMeasuredTimeline(json, error);
  INFO(error);
  REQUIRE(t);
  CHECK(t->clockKHz == 1e6);
  CHECK(t->source.find("Proton") != std::string::npos);
  CHECK(t->notRecordedFrom("add", "add.mlir", {}, "")
            .find(", not of a kernel klx compiled") != std::string::npos);
  REQUIRE(t->sms.size() == 2);
  CHECK(t->sms[0].name == "SM 3");
  REQUIRE(t->sms[0].events.size() == 1);
  CHECK(t->sms[0].events[0].name == "CTA 5");
  CHECK(t->sms[0].events[0].start == Approx(0));
  CHECK(t->sms[0].events[0].end == Approx(78)); // 0.078 us at 1 GHz
  CHECK(t->sms[1].name == "SM 7");
  CHECK(t->sms[1].events[0].start == Approx(500));
  REQUIRE(t->ctas.size() == 2);
  CHECK(t->ctas[0].cta == 5);
  CHECK(t->ctas[0].sm == 3);
  REQUIRE(t->ctas[0].warps.size() == 2);
  CHECK(t->ctas[0].warps[1].name == "warp 0 (line 1)");
  CHECK(t->eventNames[t->ctas[0].warps[1].events[0].name] == "compute");
  CHECK(t->ctaCount() == 2);
}

TEST_CASE("Measured pane: a real Proton trace from the H100",
          "[app][gpu-run]") {
  // Triton 3.6.0's Proton, backend="instrumentation", data="trace", on an
  // H100 (bench/gpu/proton-trace.py: a 1024^3 f16 matmul, 128 x 128 x 64
  // blocks, scopes "load", "mma" and "store"), trimmed to its first three
  // CTAs: 16 k steps, so 16 loads, 16 MMAs and a store per warp.
  std::string json = klx::test::readSource(
      "tests/fixtures/trace/h100-proton-matmul.chrome_trace");
  std::string error;
  std::optional<MeasuredTimeline> t = readMeasuredTimeline(json, error);
  INFO(error);
  REQUIRE(t);
  CHECK(t->kernel == "matmul");
  CHECK(t->source.find("Proton") != std::string::npos);
  CHECK(t->clockKHz == 1e6);
  REQUIRE(t->sms.size() == 3);
  CHECK(t->sms[0].name == "SM 0");
  CHECK(t->sms[2].name == "SM 4");
  REQUIRE(t->ctas.size() == 3);
  CHECK(t->ctas[0].cta == 8);
  CHECK(t->ctas[0].sm == 0);
  CHECK(t->ctas[2].cta == 20);
  for (const MeasuredCta &cta : t->ctas) {
    REQUIRE(cta.warps.size() == 4);
    CHECK(cta.warps[3].name == "warp 3 (line 0)");
    std::map<std::string, int> kinds;
    for (const MeasuredCtaEvent &e : cta.warps[0].events)
      ++kinds[t->eventNames[e.name]];
    CHECK(kinds["load"] == 16);
    CHECK(kinds["mma"] == 16);
    CHECK(kinds["store"] == 1);
  }
  // CTA 8's box: its first event at 0.032 us to its last's end, 13.112.
  REQUIRE(t->sms[0].events.size() == 1);
  CHECK(t->sms[0].events[0].name == "CTA 8");
  CHECK(t->sms[0].events[0].end - t->sms[0].events[0].start ==
        Approx(13112 - 32).epsilon(1e-6));
  // Not a kernel klx compiled: no model to put beside it, even one named
  // alike.
  CHECK_FALSE(t->recordedFromKlx("matmul"));
  CHECK(t->criticalPath.empty());
}

TEST_CASE("Measured pane: every trace the repository ships opens with SMs",
          "[app][gpu-run]") {
  // The traces docs/ and the fixtures ship are read as the Measured pane
  // reads them: each draws SMs (the pane shows nothing without) and every
  // traced CTA's box on them, so a change of format cannot leave a stale
  // file behind. The docs' traces record every CTA of the launch.
  namespace fs = llvm::sys::fs;
  std::vector<std::pair<std::string, std::string>> traces; // path, text
  for (const char *folder : {"docs", "tests/fixtures"}) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(klx::test::sourcePath(folder), ec),
         end;
         it != end && !ec; it.increment(ec)) {
      llvm::StringRef path = it->path();
      if (!path.ends_with(".json") && !path.ends_with(".chrome_trace"))
        continue;
      auto text = llvm::MemoryBuffer::getFile(path);
      REQUIRE(text);
      std::string body = (*text)->getBuffer().str();
      if (body.find("\"traceEvents\"") != std::string::npos)
        traces.emplace_back(path.str(), std::move(body));
    }
  }
  // docs/traces' two and the fixtures' three, at least.
  REQUIRE(traces.size() >= 5);
  for (const auto &[path, text] : traces) {
    INFO(path);
    std::string error;
    std::optional<MeasuredTimeline> t = readMeasuredTimeline(text, error);
    INFO(error);
    REQUIRE(t);
    CHECK_FALSE(t->sms.empty());
    CHECK_FALSE(t->ctas.empty());
    CHECK(t->ctaCount() >= t->ctas.size());
    if (path.find("/docs/") != std::string::npos) {
      CHECK(t->ctaCount() == t->ctas.size());
      CHECK_FALSE(t->device.empty());
      CHECK_FALSE(t->criticalPath.empty());
    }
  }
}

TEST_CASE("Barrier timeline: the recording's lanes say which warp each is",
          "[app][gpu-run]") {
  // The sample's first CTA: two consumer warpgroups and a producer. Two
  // lanes both called "GPU consumer" left a class guessing which is which.
  std::string error;
  std::optional<MeasuredTimeline> t = readMeasuredTimeline(
      klx::test::readSource("docs/traces/gemm_ws_persistent-2048.json"), error);
  INFO(error);
  REQUIRE(t);
  REQUIRE(t->lanes.size() == 3);
  CHECK(measuredLaneLabel(*t, 0) == "GPU consumer w0");
  CHECK(measuredLaneLabel(*t, 1) == "GPU consumer w4");
  CHECK(measuredLaneLabel(*t, 2) == "GPU producer");
}

TEST_CASE("Measured pane: where a recording was made, said without blanks",
          "[app][gpu-run]") {
  MeasuredTimeline t;
  t.label = "trace gemm.json";
  CHECK(measuredOn(t) == "measured (trace gemm.json)");
  t.device = "NVIDIA H200";
  CHECK(measuredOn(t) == "measured on NVIDIA H200 (trace gemm.json)");
}
