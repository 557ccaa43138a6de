//===- MeasuredTimeline.h - A measured timeline, read back ------*- C++ -*-===//
//
// klx-run --trace writes Chrome trace JSON; the Barrier timeline pane
// reads it back to draw the first CTA's measured lanes under the simulated
// ones, on the same axis of cycles, and the Measured pane draws its "SMs"
// process: which CTA each SM ran, and when.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_MEASUREDTIMELINE_H
#define KLX_APP_VIEWS_MEASUREDTIMELINE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klx::app {

struct MeasuredEvent {
  double start = 0, end = 0; // cycles from the CTA's first event
  std::string name;          // "wait full[2]", "mma[1]", ...
  bool isWait() const { return end > start; }
};

struct MeasuredLane {
  std::string name;                  // "warp 8 (producer)"
  std::vector<MeasuredEvent> events; // by start
  double longest = 0;
};

/// Every traced CTA's warps, compactly (a whole kernel's trace holds
/// millions of events): times in cycles, names by index into the
/// timeline's eventNames.
struct MeasuredCtaEvent {
  float start = 0, end = 0;
  uint32_t name = 0;
};
struct MeasuredCtaLane {
  std::string name;                     // "warp 8 (producer)"
  int64_t warp = -1;                    // its warp (tid) in the trace
  std::vector<MeasuredCtaEvent> events; // by start
  float longest = 0;
};
struct MeasuredCta {
  int64_t cta = 0;
  int sm = -1;
  std::vector<MeasuredCtaLane> warps; // that recorded, by warp
};

struct MeasuredTimeline {
  std::string device;
  std::string label;  // which run it came from
  std::string source; // what wrote it, when not klx-run
  std::string kernel; // the kernel it recorded ("gemm")
  /// The bundle's source file and -D values (klx-run's otherData; empty
  /// in traces written before it said them).
  std::string kernelFile;
  std::vector<std::pair<std::string, std::string>> defines;
  bool knowsBuild = false;  // whether kernelFile and defines were said
  std::string sourceDigest; // of the compiled text; "" where not said
  double clockKHz = 0;
  std::vector<MeasuredLane> lanes; // the first traced CTA's warps
  double endTime = 0;
  /// One lane per SM that ran a traced CTA ("SM 12"), by SM; its events
  /// are the CTAs ("CTA 5"), in cycles since the first CTA started.
  std::vector<MeasuredLane> sms;
  double smsEndTime = 0;
  /// What klx-run found set the kernel's time ("the kernel ended with CTA
  /// 17 on SM 40 at ..."), from the trace's otherData.
  std::vector<std::string> criticalPath;
  std::vector<MeasuredCta> ctas; // every traced CTA's warps, by block id
  /// The chain klx-run found set the kernel's end, walked back from CTA
  /// `chainCta`'s (otherData's critical_chain): stretches on warps of it
  /// and, in a cluster, of the other CTAs a load or release came from;
  /// `part` is "work", "load", "release", "turn", "unrecorded", "setup"
  /// or "epilogue".
  struct ChainLink {
    int64_t cta = 0;
    int64_t warp = 0;
    float start = 0, end = 0;
    std::string part;
    /// A boundary of it is a release stamped late (at its warp's next
    /// event): the release may have come sooner.
    bool lateRelease = false;
  };
  int64_t chainCta = -1;
  std::vector<ChainLink> chain;
  /// Whether a link of the chain is on a warp of `cta`.
  bool chainPassesThrough(int64_t cta) const;
  /// "CTA 4", or "CTAs 4 and 5" where the chain went into another CTA of
  /// the cluster; the chain's own CTA first.
  std::string chainCtaNames() const;
  std::vector<std::string> eventNames;
  size_t ctaCount() const;
  /// Where the first traced CTA's lanes end, in cycles.
  double lanesEnd() const;
  /// Whether klx-run recorded it from kernel `modelKernel` of the file
  /// named `file` (its last component compared) built with `defines`:
  /// only then do klx's model of that kernel and the trace describe the
  /// same code (a Proton trace is of a Triton kernel klx never compiled;
  /// ping-pong and two producers are both @gemm), and, where both say
  /// their text's digest (`digest`), from the same text: an edit since
  /// the recording keeps the file's name and defines. A trace that does
  /// not say its file and defines is matched by the kernel's name alone.
  bool recordedFromKlx(
      const std::string &modelKernel, const std::string &file = "",
      const std::vector<std::pair<std::string, std::string>> &defines = {},
      const std::string &digest = "") const;
  /// Whether the trace and `digest` (either may be unknown: "") do not
  /// say one text was compiled.
  bool sameText(const std::string &digest) const {
    return sourceDigest.empty() || digest.empty() || sourceDigest == digest;
  }
  /// Why the trace is not what recordedFromKlx asks ("the trace was
  /// recorded from another text of gemm_ws_persistent.mlir (edited
  /// since)"), or "" when it is.
  std::string notRecordedFrom(
      const std::string &modelKernel, const std::string &file,
      const std::vector<std::pair<std::string, std::string>> &defines,
      const std::string &digest) const;
  /// "gemm_pingpong.mlir -D stages=3", or "" when the trace does not say.
  std::string buildName() const;
  const MeasuredCta *findCta(int64_t cta) const;
};

/// What the SMs' lanes show in a line: CTAs, SMs busy, the most CTAs one
/// SM ran (the waves), the device's SMs (from its line, "... 132 SMs ...";
/// 0 when it does not say), and when the first and the last SM finished
/// (cycles from the first CTA's start: the tail is their difference).
struct SmSummary {
  size_t ctas = 0, busySms = 0, mostPerSm = 0;
  int deviceSms = 0;
  double firstDone = 0, lastDone = 0;
};
SmSummary summarizeSms(const MeasuredTimeline &t);

/// "measured on NVIDIA H200 ... (trace gemm.json)", or without a device
/// (a trace that does not say one) "measured (trace gemm.json)".
std::string measuredOn(const MeasuredTimeline &t);

/// The label of the recording's lane `lane` beside the simulated ones:
/// "warp 8 (producer)" reads "GPU producer"; where two warps share a role,
/// each says which it is ("GPU consumer w0", "GPU consumer w4").
std::string measuredLaneLabel(const MeasuredTimeline &t, size_t lane);

/// Reads a klx-run trace (its events one at a time: a whole kernel's JSON
/// runs to hundreds of MB); nullopt with `error` when the text is not one.
std::optional<MeasuredTimeline> readMeasuredTimeline(std::string_view json,
                                                     std::string &error);

} // namespace klx::app

#endif // KLX_APP_VIEWS_MEASUREDTIMELINE_H
