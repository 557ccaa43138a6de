//===- RoleView.cpp - Which role tree the window shows, and its lines -----===//

#include "RoleView.h"

#include <algorithm>

using namespace klx;
using namespace klx::app;

RoleSource klx::app::roleSourceFor(const PipelineRun &run, int selected) {
  int count = int(run.snapshots.size());
  selected = std::clamp(selected, 0, std::max(0, count - 1));
  if (selected < count && !run.snapshots[selected].roles.empty())
    return {selected, RoleSource::Selected};
  for (int i = selected - 1; i >= 0; --i)
    if (!run.snapshots[i].roles.empty())
      return {i, RoleSource::Earlier};
  for (int i = selected + 1; i < count; ++i)
    if (!run.snapshots[i].roles.empty())
      return {i, RoleSource::Later};
  return {-1, RoleSource::Selected};
}

static const Role *findRole(const Snapshot &snapshot, llvm::StringRef name) {
  for (const RoleTree &tree : snapshot.roles)
    for (const Role &role : tree.roles)
      if (role.name == name)
        return &role;
  return nullptr;
}

static std::vector<unsigned> sortedUnique(std::vector<unsigned> lines) {
  lines.erase(std::remove(lines.begin(), lines.end(), 0u), lines.end());
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

std::vector<unsigned> klx::app::roleIRLines(const Snapshot &snapshot,
                                            llvm::StringRef name) {
  const Role *role = findRole(snapshot, name);
  if (!role)
    return {};
  std::vector<unsigned> lines{role->irLine};
  for (const RoleOpRef &op : role->ops)
    lines.push_back(op.irLine);
  return sortedUnique(std::move(lines));
}

std::vector<unsigned> klx::app::roleSourceLines(const PipelineRun &run,
                                                int selected,
                                                llvm::StringRef name) {
  RoleSource source = roleSourceFor(run, selected);
  if (source.step < 0)
    return {};
  const Role *role = findRole(run.snapshots[source.step], name);
  if (!role)
    return {};
  std::vector<unsigned> lines;
  for (const RoleOpRef &op : role->ops)
    lines.push_back(op.source.line);
  return sortedUnique(std::move(lines));
}

int klx::app::roleIndex(const Snapshot &snapshot, llvm::StringRef name) {
  for (const RoleTree &tree : snapshot.roles)
    for (size_t i = 0; i < tree.roles.size(); ++i)
      if (tree.roles[i].name == name)
        return int(i);
  return -1;
}
