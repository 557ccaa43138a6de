//===- SweepRotation.cpp - Which GPU runs what, and when one leaves -------===//

#include "klx/Runtime/SweepRotation.h"

#include <algorithm>

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
    state.variantsInRun = 0;
    return After::Done;
  }
  size_t variant = variantOf.at(job);
  bool seen = std::any_of(state.failedRun.begin(), state.failedRun.end(),
                          [&](size_t j) { return variantOf[j] == variant; });
  state.failedRun.push_back(job);
  state.variantsInRun += seen ? 0 : 1;
  return state.variantsInRun >= streakLength ? After::Probe : After::Done;
}

std::vector<size_t> SweepRotation::probed(int gpu, bool fine,
                                          const std::string &why) {
  GpuState &state = gpus[gpu];
  std::vector<size_t> run = std::move(state.failedRun);
  state.failedRun.clear();
  state.variantsInRun = 0;
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
