//===- SweepRotation.h - Which GPU runs what, and when one leaves -*- C++
//-*-===//
//
// The sweep's GPUs take jobs in order. A GPU leaves the rotation only when
// its probe (klx-run --device on it) fails: at the start, and again once
// several different variants have failed on it in a row (a GPU that
// fails everything is broken; a variant that faults, such as two
// producers on one barrier, fails on every GPU and is that variant's
// failure: the probe then passes and the GPU stays). The runs of that
// streak go back to the GPUs still in the rotation, ahead of new ones; with
// none left, they stand. Pure bookkeeping, without processes: the caller
// runs the children and the probes, and holds a lock around every call.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_SWEEPROTATION_H
#define KLX_RUNTIME_SWEEPROTATION_H

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace klx::rt {

class SweepRotation {
public:
  /// `variantOf[i]`: job i's variant. `streak`: how many different
  /// variants failing in a row on one GPU call for a probe.
  SweepRotation(std::vector<size_t> variantOf, std::vector<int> gpus,
                size_t streak = 3);

  /// The next job for `gpu`: a run another GPU gave back, else the next
  /// in order; nullopt when nothing is left for it or it has left.
  std::optional<size_t> take(int gpu);

  enum class After { Done, Probe };
  /// Job `job` ended on `gpu`; `failed` unless it passed. Probe: the GPU's
  /// streak of different failing variants is long enough to ask whether
  /// the GPU is at fault (probed() says).
  After finish(int gpu, size_t job, bool failed);

  /// The probe's answer for `gpu`: fine (the streak was the variants'), or
  /// not, and the GPU leaves saying `why`; the streak's runs are given back
  /// when another GPU remains. Returns the jobs given back.
  std::vector<size_t> probed(int gpu, bool fine, const std::string &why);

  /// "GPU 1 left the sweep: ..." for each GPU that left.
  const std::vector<std::string> &notes() const { return leftNotes; }
  bool active(int gpu) const;

private:
  struct GpuState {
    bool active = true;
    std::vector<size_t> failedRun; // jobs failed since its last pass
  };
  std::vector<size_t> variantOf;
  size_t streakLength;
  size_t next = 0;
  std::deque<size_t> givenBack;
  std::map<int, GpuState> gpus;
  std::vector<std::string> leftNotes;
};

} // namespace klx::rt

#endif // KLX_RUNTIME_SWEEPROTATION_H
