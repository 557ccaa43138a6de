//===- SweepRotation.cpp - Which GPU runs what, and when one leaves -------===//

#include "klx/Runtime/SweepRotation.h"

#include <algorithm>
#include <set>

using namespace klx::rt;

SweepRotation::SweepRotation(std::vector<size_t> variantOf,
                             std::vector<int> gpuList, size_t streak)
    : variantOf(std::move(variantOf)),
      streakLength(std::max<size_t>(streak, 1)) {
  for (int gpu : gpuList)
    gpus[gpu];
}

bool SweepRotation::active(int gpu) const {
  auto it = gpus.find(gpu);
  return it != gpus.end() && it->second.active;
}

std::optional<size_t> SweepRotation::take(int gpu) {
  if (!active(gpu))
    return std::nullopt;
  if (!givenBack.empty()) {
    size_t job = givenBack.front();
    givenBack.pop_front();
    return job;
  }
  if (next < variantOf.size())
    return next++;
  return std::nullopt;
}

SweepRotation::After SweepRotation::finish(int gpu, size_t job, bool failed) {
  GpuState &state = gpus[gpu];
  if (!failed) {
    state.failedRun.clear();
    return After::Done;
  }
  state.failedRun.push_back(job);
  std::set<size_t> variants;
  for (size_t j : state.failedRun)
    variants.insert(variantOf.at(j));
  return variants.size() >= streakLength ? After::Probe : After::Done;
}

std::vector<size_t> SweepRotation::probed(int gpu, bool fine,
                                          const std::string &why) {
  GpuState &state = gpus[gpu];
  std::vector<size_t> run = std::move(state.failedRun);
  state.failedRun.clear();
  if (fine || !state.active)
    return {};
  state.active = false;
  leftNotes.push_back("GPU " + std::to_string(gpu) + " left the sweep: " + why);
  bool others = std::any_of(gpus.begin(), gpus.end(),
                            [](const auto &g) { return g.second.active; });
  if (!others)
    return {}; // nowhere to run them again: they stand
  givenBack.insert(givenBack.end(), run.begin(), run.end());
  return run;
}
