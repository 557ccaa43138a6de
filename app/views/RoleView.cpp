//===- RoleView.cpp - Which role tree the window shows, and its lines -----===//

#include "RoleView.h"

#include <algorithm>

using namespace klx;
using namespace klx::app;

RoleSource klx::app::roleSourceFor(const PipelineRun &run, int selected) {
  int count = int(run.snapshots.size());
  selected = std::clamp(selected, 0, std::max(0, count - 1));
  if (selected < count && !run.snapshots[selected].facts.roles.empty())
    return {selected, RoleSource::Selected};
  for (int i = selected - 1; i >= 0; --i)
    if (!run.snapshots[i].facts.roles.empty())
      return {i, RoleSource::Earlier};
  for (int i = selected + 1; i < count; ++i)
    if (!run.snapshots[i].facts.roles.empty())
      return {i, RoleSource::Later};
  return {-1, RoleSource::Selected};
}

static const Role *findRole(const Snapshot &snapshot, llvm::StringRef name) {
  for (const RoleTree &tree : snapshot.facts.roles)
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

namespace {

/// The place of a role among its siblings as its name says it: a final
/// digit (consumer1), or a letter after '_' (producer_b); 0 otherwise.
int ordinalOf(llvm::StringRef name, llvm::StringRef family) {
  llvm::StringRef rest = name.drop_front(family.size());
  rest.consume_front("_");
  if (rest.size() == 1 && rest[0] >= '0' && rest[0] <= '9')
    return rest[0] - '0';
  if (rest.size() == 1 && rest[0] >= 'a' && rest[0] <= 'z')
    return rest[0] - 'a';
  return 0;
}

} // namespace

int klx::app::roleColourSlot(llvm::StringRef name) {
  if (name.empty())
    return -1;
  static const int producers[] = {0, 5, 4};
  static const int consumers[] = {1, 2, 3};
  if (name.starts_with("producer"))
    return producers[ordinalOf(name, "producer") % 3];
  if (name.starts_with("consumer"))
    return consumers[ordinalOf(name, "consumer") % 3];
  // Roles named after threads or warps ("thread 0", "threads 1-127", as
  // the nvgpu reader names them): by their first number, so neighbours
  // differ.
  size_t digit = name.find_first_of("0123456789");
  if (digit != llvm::StringRef::npos) {
    unsigned number = 0;
    name.drop_front(digit).consumeInteger(10, number);
    return int(number % 6);
  }
  uint32_t hash = 2166136261u; // FNV-1a: the same slot on every machine
  for (char c : name)
    hash = (hash ^ uint8_t(c)) * 16777619u;
  return int(hash % 6);
}

std::string klx::app::firstRoleError(const PipelineRun &run) {
  for (const Snapshot &snapshot : run.snapshots)
    for (const RoleTree &tree : snapshot.facts.roles)
      for (const RoleCheck &check : tree.checks)
        if (check.severity == Severity::Error)
          return check.message;
  return "";
}
