//===- MeasuredTimeline.cpp - A measured timeline, read back --------------===//

#include "MeasuredTimeline.h"

#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>

using namespace klx::app;

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
  for (const llvm::json::Value &value : *events) {
    const llvm::json::Object *e = value.getAsObject();
    if (!e || e->getInteger("pid").value_or(-1) != 0)
      continue;
    int64_t tid = e->getInteger("tid").value_or(-1);
    llvm::StringRef ph = e->getString("ph").value_or("");
    llvm::StringRef name = e->getString("name").value_or("");
    if (ph == "M" && name == "thread_name") {
      if (const llvm::json::Object *args = e->getObject("args"))
        lanes[tid].name = args->getString("name").value_or("").str();
      continue;
    }
    if (ph != "X" && ph != "i")
      continue;
    MeasuredEvent event;
    event.name = name.str();
    event.start = e->getNumber("ts").value_or(0) * cyclesPerUs;
    event.end = event.start + e->getNumber("dur").value_or(0) * cyclesPerUs;
    lanes[tid].events.push_back(std::move(event));
  }
  for (auto &[tid, lane] : lanes) {
    if (lane.events.empty())
      continue;
    std::stable_sort(lane.events.begin(), lane.events.end(),
                     [](const MeasuredEvent &a, const MeasuredEvent &b) {
                       return a.start < b.start;
                     });
    for (const MeasuredEvent &e : lane.events) {
      lane.longest = std::max(lane.longest, e.end - e.start);
      timeline.endTime = std::max(timeline.endTime, e.end);
    }
    timeline.lanes.push_back(std::move(lane));
  }
  return timeline;
}
