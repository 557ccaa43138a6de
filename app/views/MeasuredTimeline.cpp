//===- MeasuredTimeline.cpp - A measured timeline, read back --------------===//
//
// Read with nlohmann's parser and a callback that takes each of
// traceEvents' objects as it completes and drops it from the document, so
// a trace of millions of events never becomes a document of millions of
// objects: only the compact lanes are kept.
//
//===----------------------------------------------------------------------===//

#include "MeasuredTimeline.h"

#include "klx/Runtime/BundleFormat.h"
#include "klx/Runtime/JsonNesting.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <unordered_map>

using namespace klx::app;
using Json = nlohmann::json;

namespace {

/// How far from the trace's start klx reads a time: past it (11.6 days)
/// no recording's times are, and in cycles they would outrun a float.
constexpr double kFarthestUs = 1e12;
bool withinReach(double us) { return std::fabs(us) <= kFarthestUs; }

/// `v` as an integer; `fallback` where it is none, or a float past
/// int64's range (converting that would be undefined).
int64_t asInteger(const Json &v, int64_t fallback) {
  if (v.is_number_integer())
    return v.get<int64_t>();
  if (v.is_number_float() && std::fabs(v.get<double>()) < 9e18)
    return int64_t(v.get<double>());
  return fallback;
}
/// The decimal number `text` starts with, or `fallback` when there is none
/// or it is past `limit` either way (atoi's overflow is undefined).
int64_t leadingInteger(const char *text, int64_t limit, int64_t fallback) {
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (end == text || errno == ERANGE || v > limit || v < -limit)
    return fallback;
  return v;
}

int64_t integer(const Json &e, const char *key, int64_t fallback) {
  auto it = e.find(key);
  return it != e.end() ? asInteger(*it, fallback) : fallback;
}
double number(const Json &e, const char *key) {
  auto it = e.find(key);
  return it != e.end() && it->is_number() ? it->get<double>() : 0;
}
std::string text(const Json &e, const char *key) {
  auto it = e.find(key);
  return it != e.end() && it->is_string() ? it->get<std::string>() : "";
}
std::string argsName(const Json &e) {
  auto it = e.find("args");
  return it != e.end() && it->is_object() ? text(*it, "name") : "";
}

/// The lanes that have events, each sorted by start; returns the last end.
double collectLanes(std::map<int64_t, MeasuredLane> &byId,
                    std::vector<MeasuredLane> &out) {
  double end = 0;
  for (auto &[id, lane] : byId) {
    if (lane.events.empty())
      continue;
    std::stable_sort(lane.events.begin(), lane.events.end(),
                     [](const MeasuredEvent &a, const MeasuredEvent &b) {
                       return a.start < b.start;
                     });
    for (const MeasuredEvent &e : lane.events) {
      lane.longest = std::max(lane.longest, e.end - e.start);
      end = std::max(end, e.end);
    }
    out.push_back(std::move(lane));
  }
  return end;
}

/// What the events say, in microseconds until the clock rate (in
/// otherData, after the events) turns them into cycles.
struct EventReader {
  std::map<int64_t, MeasuredLane> cta0, sms;
  /// The first event whose time is past kFarthestUs, said as "an event of
  /// warp 8 of CTA 0 at 1e+300 us"; empty while there is none.
  std::string tooFar;
  struct Cta {
    int sm = -1;
    std::map<int64_t, MeasuredCtaLane> warps;
    std::map<std::string, int64_t> protonLanes; // tid -> lane, in order seen
    double first = 0, last = -1;                // Proton: the CTA's span
  };
  std::map<int64_t, Cta> ctas;
  std::unordered_map<std::string, uint32_t> nameIndex;
  std::vector<std::string> names;

  bool proton = false;      // the events are Proton's (see consumeProton)
  std::string protonKernel; // from the first event's pid

  /// Whether `start` and `end` are times klx can draw; else notes the
  /// event in tooFar, `whose` ("warp 8 of CTA 0") said only then.
  bool drawable(double start, double end,
                llvm::function_ref<std::string()> whose) {
    if (withinReach(start) && withinReach(end))
      return true;
    if (tooFar.empty())
      tooFar = llvm::formatv("an event of {0} at {1} us", whose(),
                             llvm::format("%g", start))
                   .str();
    return false;
  }

  uint32_t nameOf(const std::string &name) {
    auto [it, added] = nameIndex.try_emplace(name, uint32_t(names.size()));
    if (added)
      names.push_back(name);
    return it->second;
  }

  /// Proton's intra-kernel traces: "X" events whose pid is "KERNEL CoreN
  /// CTAM" (N the SM) and tid "warp U (line L)", times in microseconds of
  /// a clock Proton takes to run at 1 GHz, no SMs process: the SMs' lanes
  /// are made from each CTA's first and last event.
  void consumeProton(const Json &e, const std::string &pid) {
    size_t core = pid.rfind(" Core"), block = pid.rfind(" CTA");
    if (core == std::string::npos || block == std::string::npos ||
        block < core || text(e, "ph") != "X")
      return;
    proton = true;
    if (protonKernel.empty())
      protonKernel = pid.substr(0, core);
    int64_t id = leadingInteger(pid.c_str() + block + 4, int64_t(1) << 40, -1);
    int sm = int(leadingInteger(pid.c_str() + core + 5, 1 << 20, -1));
    if (id < 0 || sm < 0)
      return;
    Cta &cta = ctas[id];
    cta.sm = sm;
    std::string tid = text(e, "tid");
    auto [lane, added] =
        cta.protonLanes.try_emplace(tid, int64_t(cta.protonLanes.size()));
    MeasuredCtaLane &warp = cta.warps[lane->second];
    if (added)
      warp.name = tid;
    double start = number(e, "ts"), end = start + number(e, "dur");
    if (!drawable(start, end,
                  [&] { return tid + " of CTA " + std::to_string(id); }))
      return;
    warp.events.push_back({float(start), float(end), nameOf(text(e, "name"))});
    cta.first = cta.last < 0 ? start : std::min(cta.first, start);
    cta.last = std::max(cta.last, end);
    if (id == 0)
      cta0[lane->second].events.push_back({start, end, text(e, "name")});
    if (id == 0 && added)
      cta0[lane->second].name = tid;
  }

  void consume(const Json &e) {
    if (!e.is_object())
      return;
    if (auto pid = e.find("pid"); pid != e.end() && pid->is_string())
      return consumeProton(e, pid->get<std::string>());
    int64_t pid = integer(e, "pid", -1), tid = integer(e, "tid", -1);
    std::string ph = text(e, "ph"), name = text(e, "name");
    if (pid < 0)
      return;
    bool sm = pid == klx::rt::kTraceSmsPid;
    if (ph == "M") {
      if (name == "thread_name" && sm)
        sms[tid].name = argsName(e);
      else if (name == "thread_name") {
        ctas[pid].warps[tid].name = argsName(e);
        if (pid == 0)
          cta0[tid].name = argsName(e);
      } else if (name == "process_name" && !sm) {
        // "CTA 5 (SM 12)"
        std::string label = argsName(e);
        size_t at = label.find("(SM ");
        if (at != std::string::npos)
          ctas[pid].sm =
              int(leadingInteger(label.c_str() + at + 4, 1 << 20, -1));
      }
      return;
    }
    if (ph != "X" && ph != "i")
      return;
    double start = number(e, "ts"), end = start + number(e, "dur");
    if (!drawable(start, end, [&] {
          return sm ? "SM " + std::to_string(tid)
                    : "warp " + std::to_string(tid) + " of CTA " +
                          std::to_string(pid);
        }))
      return;
    if (sm) {
      sms[tid].events.push_back({start, end, name});
      return;
    }
    ctas[pid].warps[tid].events.push_back(
        {float(start), float(end), nameOf(name)});
    if (pid == 0)
      cta0[tid].events.push_back({start, end, name});
  }

  /// Into cycles, sorted, into `t`.
  void finish(MeasuredTimeline &t, double cyclesPerUs) {
    for (auto &[id, cta] : ctas)
      if (proton && cta.last >= 0) {
        MeasuredLane &sm = sms[cta.sm];
        sm.name = "SM " + std::to_string(cta.sm);
        sm.events.push_back({cta.first, cta.last, "CTA " + std::to_string(id)});
      }
    for (auto *lanes : {&cta0, &sms})
      for (auto &[id, lane] : *lanes)
        for (MeasuredEvent &e : lane.events) {
          e.start *= cyclesPerUs;
          e.end *= cyclesPerUs;
        }
    t.endTime = collectLanes(cta0, t.lanes);
    t.smsEndTime = collectLanes(sms, t.sms);
    for (auto &[id, built] : ctas) {
      MeasuredCta cta;
      cta.cta = id;
      cta.sm = built.sm;
      for (auto &[warp, lane] : built.warps) {
        if (lane.events.empty())
          continue;
        lane.warp = warp;
        for (MeasuredCtaEvent &e : lane.events) {
          e.start = float(e.start * cyclesPerUs);
          e.end = float(e.end * cyclesPerUs);
          lane.longest = std::max(lane.longest, e.end - e.start);
        }
        std::stable_sort(
            lane.events.begin(), lane.events.end(),
            [](const MeasuredCtaEvent &a, const MeasuredCtaEvent &b) {
              return a.start < b.start;
            });
        cta.warps.push_back(std::move(lane));
      }
      if (!cta.warps.empty())
        t.ctas.push_back(std::move(cta));
    }
    t.eventNames = std::move(names);
  }
};

/// otherData: the device, klx-run's critical path, and the clock rate
/// ("clock64 cycles at 1980000 kHz, ...") the microseconds were computed
/// at, to turn them back into cycles.
void readOtherData(const Json &other, MeasuredTimeline &t) {
  if (!other.is_object())
    return;
  t.device = text(other, "device");
  t.kernel = text(other, "kernel");
  if (auto source = other.find("source"); source != other.end()) {
    t.knowsBuild = true;
    t.kernelFile = text(other, "source");
    if (auto defines = other.find("defines");
        defines != other.end() && defines->is_object())
      for (const auto &[name, value] : defines->items())
        if (value.is_string())
          t.defines.emplace_back(name, value.get<std::string>());
    t.sourceDigest = text(other, "source_digest");
  }
  auto lines = other.find("critical_path");
  if (lines != other.end() && lines->is_array())
    for (const Json &line : *lines)
      if (line.is_string()) {
        std::string s = line.get<std::string>();
        const std::string prefix = "critical path: ";
        t.criticalPath.push_back(
            s.rfind(prefix, 0) == 0 ? s.substr(prefix.size()) : s);
      }
  if (auto chain = other.find("critical_chain");
      chain != other.end() && chain->is_object()) {
    t.chainCta = integer(*chain, "cta", -1);
    auto links = chain->find("links");
    if (links != chain->end() && links->is_array())
      // [warp, start, end, part], the warp's CTA fifth where klx-run
      // wrote it (before, every link was on the chain's CTA), and sixth
      // whether a boundary of it is a release stamped late.
      for (const Json &l : *links)
        if (l.is_array() && l.size() >= 4 && l.size() <= 6 &&
            l[1].is_number() && l[2].is_number() && l[3].is_string() &&
            withinReach(l[1].get<double>()) && withinReach(l[2].get<double>()))
          t.chain.push_back(
              {l.size() >= 5 ? asInteger(l[4], -1) : t.chainCta,
               asInteger(l[0], -1), float(l[1].get<double>()),
               float(l[2].get<double>()), l[3].get<std::string>(),
               l.size() == 6 && l[5].is_boolean() && l[5].get<bool>()});
  }
  std::string clock = text(other, "clock");
  size_t at = clock.find(" at ");
  if (at != std::string::npos)
    t.clockKHz = std::strtod(clock.c_str() + at + 4, nullptr);
}

} // namespace

std::optional<MeasuredTimeline>
klx::app::readMeasuredTimeline(std::string_view text, std::string &error) {
  EventReader reader;
  std::string topKey;
  bool sawEvents = false;
  auto callback = [&](int depth, Json::parse_event_t event, Json &parsed) {
    if (event == Json::parse_event_t::key && depth == 1)
      topKey = parsed.get<std::string>();
    bool inEvents = topKey == "traceEvents";
    if (inEvents && depth == 1 && event == Json::parse_event_t::array_start)
      sawEvents = true;
    // Each event, once complete: read, then dropped from the document.
    if (inEvents && depth == 2 && event == Json::parse_event_t::object_end) {
      reader.consume(parsed);
      return false;
    }
    return true;
  };
  if (std::optional<klx::rt::NestingError> deep =
          klx::rt::findExcessJsonNesting(text)) {
    error = "the trace is not one klx reads: line " +
            std::to_string(deep->line) + ", column " +
            std::to_string(deep->column) + ": " + deep->message;
    return std::nullopt;
  }
  Json root;
  try {
    root = Json::parse(text, callback);
  } catch (const Json::exception &e) {
    error = std::string("the trace is not JSON: ") + e.what();
    return std::nullopt;
  }
  if (!root.is_object() || !sawEvents) {
    error = "the trace has no traceEvents";
    return std::nullopt;
  }
  MeasuredTimeline timeline;
  if (auto other = root.find("otherData"); other != root.end())
    readOtherData(*other, timeline);
  if (reader.proton && timeline.clockKHz <= 0) {
    timeline.clockKHz = 1e6;
    timeline.source = "Proton's intra-kernel trace (its times assume a 1 GHz "
                      "clock)";
    timeline.kernel = reader.protonKernel;
  }
  if (timeline.clockKHz <= 0) {
    error = "the trace does not say its clock rate";
    return std::nullopt;
  }
  // 1 kHz to 100 GHz: outside it, cycles are not a GPU's, and times
  // turned into them could outrun a float.
  if (!(timeline.clockKHz >= 1 && timeline.clockKHz <= 1e8)) { // NaN too
    error = llvm::formatv("the trace's clock rate, {0} kHz, is not a GPU's",
                          llvm::format("%g", timeline.clockKHz))
                .str();
    return std::nullopt;
  }
  if (!reader.tooFar.empty()) {
    error = "the trace's times run past what klx can draw: " + reader.tooFar;
    return std::nullopt;
  }
  reader.finish(timeline, timeline.clockKHz / 1e3);
  for (MeasuredTimeline::ChainLink &link : timeline.chain) {
    link.start *= float(timeline.clockKHz / 1e3);
    link.end *= float(timeline.clockKHz / 1e3);
  }
  return timeline;
}

bool MeasuredTimeline::chainPassesThrough(int64_t cta) const {
  return std::any_of(chain.begin(), chain.end(),
                     [&](const ChainLink &link) { return link.cta == cta; });
}

std::string MeasuredTimeline::chainCtaNames() const {
  std::vector<int64_t> ctas = {chainCta};
  for (const ChainLink &link : chain)
    if (std::find(ctas.begin(), ctas.end(), link.cta) == ctas.end())
      ctas.push_back(link.cta);
  if (ctas.size() == 1)
    return "CTA " + std::to_string(chainCta);
  std::string names = "CTAs";
  for (size_t i = 0; i < ctas.size(); ++i)
    names += std::string(i == 0                 ? " "
                         : i + 1 == ctas.size() ? " and "
                                                : ", ") +
             std::to_string(ctas[i]);
  return names;
}

double MeasuredTimeline::lanesEnd() const {
  double end = 0;
  for (const MeasuredLane &lane : lanes)
    for (const MeasuredEvent &e : lane.events)
      end = std::max(end, e.end);
  return end;
}

size_t MeasuredTimeline::ctaCount() const {
  size_t n = 0;
  for (const MeasuredLane &sm : sms)
    n += sm.events.size();
  return n;
}

namespace {
std::string lastComponent(const std::string &path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// "FILE -D A=1 -D B=2", as a command line says a build.
std::string
withDefines(std::string out,
            const std::vector<std::pair<std::string, std::string>> &defines) {
  for (const auto &[name, value] : defines)
    out += " -D " + name + "=" + value;
  return out;
}
} // namespace

bool MeasuredTimeline::recordedFromKlx(
    const std::string &modelKernel, const std::string &file,
    const std::vector<std::pair<std::string, std::string>> &definesNow,
    const std::string &digest) const {
  if (!source.empty() || kernel.empty() || kernel != modelKernel ||
      !sameText(digest))
    return false;
  if (!knowsBuild)
    return true;
  auto sorted = [](std::vector<std::pair<std::string, std::string>> d) {
    std::sort(d.begin(), d.end());
    return d;
  };
  return lastComponent(kernelFile) == lastComponent(file) &&
         sorted(defines) == sorted(definesNow);
}

std::string MeasuredTimeline::notRecordedFrom(
    const std::string &modelKernel, const std::string &file,
    const std::vector<std::pair<std::string, std::string>> &definesNow,
    const std::string &digest) const {
  if (!source.empty())
    return "the trace is " + source + ", of " +
           (kernel.empty() ? "a kernel" : "@" + kernel) +
           ", not of a kernel klx compiled";
  // Another kernel, file or -D values first: two files' texts differ too,
  // and "edited since" is for the same build's text alone.
  if (!recordedFromKlx(modelKernel, file, definesNow)) {
    std::string now =
        withDefines("@" + modelKernel + " of " + file, definesNow);
    std::string recorded = "@" + (kernel.empty() ? "?" : kernel);
    if (!buildName().empty())
      recorded += " of " + buildName();
    return "the trace is of " + recorded + "; the kernel compiled now is " +
           now;
  }
  if (!sameText(digest))
    return "the trace was recorded from another text of " + buildName() +
           " (edited since)";
  return "";
}

std::string MeasuredTimeline::buildName() const {
  if (!knowsBuild)
    return "";
  return withDefines(lastComponent(kernelFile), defines);
}

const MeasuredCta *MeasuredTimeline::findCta(int64_t cta) const {
  auto it = std::lower_bound(
      ctas.begin(), ctas.end(), cta,
      [](const MeasuredCta &c, int64_t id) { return c.cta < id; });
  return it != ctas.end() && it->cta == cta ? &*it : nullptr;
}

namespace {
/// The SM count the device line states ("... (sm_90, 132 SMs, ...)"), or 0.
int smCountOf(const std::string &device) {
  size_t at = device.find(" SMs");
  if (at == std::string::npos || at == 0)
    return 0;
  size_t begin = device.find_last_not_of("0123456789", at - 1);
  return std::atoi(device.c_str() +
                   (begin == std::string::npos ? 0 : begin + 1));
}
} // namespace

klx::app::SmSummary klx::app::summarizeSms(const MeasuredTimeline &t) {
  SmSummary s;
  s.ctas = t.ctaCount();
  s.busySms = t.sms.size();
  s.deviceSms = smCountOf(t.device);
  bool first = true;
  for (const MeasuredLane &sm : t.sms) {
    s.mostPerSm = std::max(s.mostPerSm, sm.events.size());
    double done = 0;
    for (const MeasuredEvent &cta : sm.events)
      done = std::max(done, cta.end);
    s.firstDone = first ? done : std::min(s.firstDone, done);
    s.lastDone = std::max(s.lastDone, done);
    first = false;
  }
  return s;
}

namespace {
/// "warp 8 (producer)" -> "producer"; a name without a role as it is.
std::string laneRole(const std::string &name) {
  size_t open = name.find('('), close = name.rfind(')');
  return open != std::string::npos && close > open
             ? name.substr(open + 1, close - open - 1)
             : name;
}
} // namespace

std::string klx::app::measuredLaneLabel(const MeasuredTimeline &t,
                                        size_t lane) {
  const std::string &name = t.lanes[lane].name;
  std::string role = laneRole(name);
  size_t sharing = 0;
  for (const MeasuredLane &other : t.lanes)
    sharing += laneRole(other.name) == role;
  std::string label = "GPU " + role;
  long long warp = -1;
  if (sharing > 1 && std::sscanf(name.c_str(), "warp %lld", &warp) == 1)
    label += " w" + std::to_string(warp);
  return label;
}

std::string klx::app::measuredOn(const MeasuredTimeline &t) {
  std::string text = "measured";
  if (!t.device.empty())
    text += " on " + t.device;
  if (!t.label.empty())
    text += " (" + t.label + ")";
  return text;
}
