//===- MeasuredTimeline.cpp - A measured timeline, read back --------------===//

#include "MeasuredTimeline.h"

#include "klx/Runtime/BundleFormat.h"

#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>

using namespace klx::app;

namespace {

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

} // namespace

std::optional<MeasuredTimeline>
klx::app::readMeasuredTimeline(const std::string &text, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    error = "the trace is not JSON: " + llvm::toString(parsed.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  const llvm::json::Array *events =
      root ? root->getArray("traceEvents") : nullptr;
  if (!events) {
    error = "the trace has no traceEvents";
    return std::nullopt;
  }
  MeasuredTimeline timeline;
  // "clock64 cycles at 1980000 kHz; ..." gives the rate the microseconds
  // were computed at, to turn them back into cycles.
  if (const llvm::json::Object *other = root->getObject("otherData")) {
    timeline.device = other->getString("device").value_or("").str();
    if (const llvm::json::Array *lines = other->getArray("critical_path"))
      for (const llvm::json::Value &line : *lines)
        if (std::optional<llvm::StringRef> text = line.getAsString())
          timeline.criticalPath.push_back(
              text->starts_with("critical path: ")
                  ? text->drop_front(llvm::StringRef("critical path: ").size())
                        .str()
                  : text->str());
  }
  if (const llvm::json::Object *other = root->getObject("otherData"))
    if (std::optional<llvm::StringRef> clock = other->getString("clock")) {
      llvm::StringRef rest = clock->split(" at ").second;
      rest.take_while([](char c) { return isdigit(c); })
          .getAsInteger(10, timeline.clockKHz);
    }
  if (timeline.clockKHz <= 0) {
    error = "the trace does not say its clock rate";
    return std::nullopt;
  }
  double cyclesPerUs = timeline.clockKHz / 1e3;
  std::map<int64_t, MeasuredLane> lanes; // CTA 0's, by warp
  std::map<int64_t, MeasuredLane> sms;   // the SMs process's, by SM
  for (const llvm::json::Value &value : *events) {
    const llvm::json::Object *e = value.getAsObject();
    int64_t pid = e ? e->getInteger("pid").value_or(-1) : -1;
    if (pid != 0 && pid != klx::rt::kTraceSmsPid)
      continue;
    std::map<int64_t, MeasuredLane> &into = pid == 0 ? lanes : sms;
    int64_t tid = e->getInteger("tid").value_or(-1);
    llvm::StringRef ph = e->getString("ph").value_or("");
    llvm::StringRef name = e->getString("name").value_or("");
    if (ph == "M" && name == "thread_name") {
      if (const llvm::json::Object *args = e->getObject("args"))
        into[tid].name = args->getString("name").value_or("").str();
      continue;
    }
    if (ph != "X" && ph != "i")
      continue;
    MeasuredEvent event;
    event.name = name.str();
    event.start = e->getNumber("ts").value_or(0) * cyclesPerUs;
    event.end = event.start + e->getNumber("dur").value_or(0) * cyclesPerUs;
    into[tid].events.push_back(std::move(event));
  }
  timeline.endTime = collectLanes(lanes, timeline.lanes);
  timeline.smsEndTime = collectLanes(sms, timeline.sms);
  return timeline;
}

size_t MeasuredTimeline::ctaCount() const {
  size_t n = 0;
  for (const MeasuredLane &sm : sms)
    n += sm.events.size();
  return n;
}
