//===- RoleTreeFormat.cpp - The role tree as text and as JSON -------------===//

#include "klx/Analysis/RoleTree/RoleTreeFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace klx;

std::string klx::threadRanges(const std::vector<unsigned> &warps,
                              unsigned threadsPerBlock) {
  std::string text;
  for (size_t i = 0; i < warps.size();) {
    size_t j = i;
    while (j + 1 < warps.size() && warps[j + 1] == warps[j] + 1)
      ++j;
    unsigned first = warps[i] * kThreadsPerWarp;
    unsigned last =
        std::min(threadsPerBlock, (warps[j] + 1) * kThreadsPerWarp) - 1;
    text += llvm::formatv("{0}{1}-{2}", text.empty() ? "" : ", ", first, last);
    i = j + 1;
  }
  return text;
}

bool klx::isBookkeepingOp(llvm::StringRef name) {
  return name.starts_with("arith.") || name.starts_with("builtin.");
}

std::string klx::summarizeOps(const std::vector<RoleOpRef> &ops) {
  // Ordered by first appearance, so the summary reads like the code.
  std::vector<std::string> order;
  std::map<std::string, std::pair<unsigned, std::set<unsigned>>> byName;
  for (const RoleOpRef &op : ops) {
    if (isBookkeepingOp(op.name))
      continue;
    auto [it, inserted] = byName.try_emplace(op.name);
    if (inserted)
      order.push_back(op.name);
    ++it->second.first;
    if (op.source.isKnown())
      it->second.second.insert(op.source.line);
  }
  std::string text;
  for (const std::string &name : order) {
    auto &[count, lines] = byName[name];
    text += llvm::formatv("{0}{1} x{2}", text.empty() ? "" : ", ", name, count);
    if (lines.empty())
      continue;
    std::vector<std::string> shown;
    for (unsigned line : lines) {
      if (shown.size() == 4) {
        shown.push_back("...");
        break;
      }
      shown.push_back(std::to_string(line));
    }
    text += " (line" + std::string(lines.size() > 1 ? "s " : " ") +
            llvm::join(shown, " ") + ")";
  }
  return text;
}

static std::string describeLoc(const SourceLoc &loc) {
  if (!loc.isKnown())
    return "";
  return llvm::formatv("{0}:{1}:{2}", loc.file, loc.line, loc.col).str();
}

static std::string barrierSummary(const std::vector<BarrierUse> &uses) {
  std::vector<std::string> parts;
  for (const BarrierUse &use : uses) {
    std::string part =
        (barrierActionName(use.action) + " " + use.displayName()).str();
    if (use.acrossCluster)
      part += use.action == BarrierAction::CompleteTx
                  ? " (multicast to the cluster)"
                  : " (of a CTA of the cluster)";
    if (!llvm::is_contained(parts, part))
      parts.push_back(part);
  }
  return llvm::join(parts, ", ");
}

/// "warps 0-3 consumer; warp 8 producer (1 active), warps 9-11 producer
/// (idle)": the warps of a warpgroup, consecutive alike ones together.
static std::string describeWarps(const RoleTree &tree,
                                 const WarpgroupNode &group) {
  std::string text;
  const auto &warps = group.warps;
  for (size_t i = 0; i < warps.size();) {
    size_t j = i;
    auto same = [&](const WarpNode &a, const WarpNode &b) {
      return a.roles == b.roles && a.activeThreads == b.activeThreads;
    };
    while (j + 1 < warps.size() && same(warps[j + 1], warps[i]))
      ++j;
    std::vector<std::string> names;
    for (int r : warps[i].roles)
      names.push_back(tree.roles[r].name);
    std::string who = names.empty() ? "(no role)" : llvm::join(names, " + ");
    std::string range =
        i == j ? llvm::formatv("warp {0}", warps[i].index).str()
               : llvm::formatv("warps {0}-{1}", warps[i].index, warps[j].index)
                     .str();
    std::string activity;
    if (warps[i].activeThreads == 0)
      activity = " (idle)";
    else if (warps[i].activeThreads < kThreadsPerWarp)
      activity =
          llvm::formatv(" ({0} thread{1} active)", warps[i].activeThreads,
                        warps[i].activeThreads == 1 ? "" : "s");
    text += (text.empty() ? "" : "; ") + range + " " + who + activity;
    i = j + 1;
  }
  return text;
}

void klx::printRoleTree(llvm::raw_ostream &os, const RoleTree &tree) {
  os << "kernel @" << tree.kernel << " (" << tree.form << "): " << tree.threads
     << " threads, " << tree.warpgroups.size() << " warpgroup"
     << (tree.warpgroups.size() == 1 ? "" : "s");
  if (tree.registersAtEntry)
    os << ", " << tree.registersAtEntry << " registers per thread at entry";
  else
    os << ", no register cap at entry";
  if (tree.clusterCtas > 1)
    os << ", clusters of " << tree.clusterCtas << " CTAs";
  os << "\n";
  for (const WarpgroupNode &group : tree.warpgroups)
    os << llvm::formatv("  warpgroup {0}  {1,3} regs  {2}\n", group.index,
                        group.regs ? std::to_string(group.regs) : "?",
                        describeWarps(tree, group));
  if (tree.registerTotal)
    os << llvm::formatv("  registers: {0} of {1} per SM\n", tree.registerTotal,
                        kRegistersPerSM);
  for (const Role &role : tree.roles) {
    os << "role " << role.name;
    if (!role.kind.empty() && role.kind != role.name)
      os << " [" << role.kind << "]";
    if (role.parent >= 0)
      os << " (inside " << tree.roles[role.parent].name << ")";
    os << ": threads " << threadRanges(role.warps, tree.threads) << ", "
       << role.activeThreads << " active";
    if (role.regs)
      os << ", setmaxnreg." << (role.regsIncrease ? "inc " : "dec ")
         << *role.regs;
    if (std::string loc = describeLoc(role.source); !loc.empty())
      os << "  at " << loc;
    os << "\n";
    if (std::string ops = summarizeOps(role.ops); !ops.empty())
      os << "  ops: " << ops << "\n";
    if (!role.barriers.empty())
      os << "  barriers: " << barrierSummary(role.barriers) << "\n";
  }
  if (!tree.sharedBarriers.empty())
    os << "outside the roles, barriers: " << barrierSummary(tree.sharedBarriers)
       << "\n";
  if (tree.checks.empty()) {
    os << "checks: registers, setmaxnreg placement and barriers are fine\n";
    return;
  }
  for (const RoleCheck &check : tree.checks) {
    std::string loc = describeLoc(check.source);
    os << (loc.empty() ? tree.kernel : loc) << ": "
       << severityName(check.severity) << ": " << check.message << "\n";
  }
}

static void writeLoc(llvm::json::OStream &json, const SourceLoc &loc) {
  if (!loc.isKnown())
    return;
  json.attribute("file", loc.file);
  json.attribute("line", int64_t(loc.line));
  json.attribute("col", int64_t(loc.col));
}

void klx::writeRoleTreeJson(llvm::json::OStream &json, const RoleTree &tree) {
  json.object([&] {
    json.attribute("kernel", tree.kernel);
    json.attribute("form", tree.form);
    json.attribute("threads", int64_t(tree.threads));
    json.attribute("registers_at_entry", int64_t(tree.registersAtEntry));
    json.attribute("cluster_ctas", int64_t(tree.clusterCtas));
    json.attribute("register_total", int64_t(tree.registerTotal));
    json.attribute("register_file", int64_t(kRegistersPerSM));
    json.attributeArray("warpgroups", [&] {
      for (const WarpgroupNode &group : tree.warpgroups)
        json.object([&] {
          json.attribute("index", int64_t(group.index));
          json.attribute("regs", int64_t(group.regs));
          json.attributeArray("warps", [&] {
            for (const WarpNode &warp : group.warps)
              json.object([&] {
                json.attribute("index", int64_t(warp.index));
                json.attribute("active_threads", int64_t(warp.activeThreads));
                json.attributeArray("roles", [&] {
                  for (int r : warp.roles)
                    json.value(tree.roles[r].name);
                });
              });
          });
        });
    });
    json.attributeArray("roles", [&] {
      for (const Role &role : tree.roles)
        json.object([&] {
          json.attribute("name", role.name);
          json.attribute("kind", role.kind);
          json.attribute("parent",
                         role.parent >= 0
                             ? llvm::json::Value(tree.roles[role.parent].name)
                             : llvm::json::Value(nullptr));
          json.attribute("threads", threadRanges(role.warps, tree.threads));
          json.attribute("thread_count", int64_t(role.threads));
          json.attribute("active_threads", int64_t(role.activeThreads));
          json.attribute("regs", role.regs ? llvm::json::Value(*role.regs)
                                           : llvm::json::Value(nullptr));
          if (role.regs)
            json.attribute("setmaxnreg", role.regsIncrease ? "inc" : "dec");
          writeLoc(json, role.source);
          json.attributeArray("ops", [&] {
            for (const RoleOpRef &op : role.ops)
              json.object([&] {
                json.attribute("op", op.name);
                writeLoc(json, op.source);
                json.attribute("ir_line", int64_t(op.irLine));
                json.attribute("threads", int64_t(op.threads));
              });
          });
          json.attributeArray("barriers", [&] {
            for (const BarrierUse &use : role.barriers)
              json.object([&] {
                json.attribute("barrier", use.barrier);
                if (use.slot)
                  json.attribute("slot", *use.slot);
                json.attribute("action", barrierActionName(use.action));
                if (use.acrossCluster)
                  json.attribute("across_cluster", true);
                writeLoc(json, use.source);
              });
          });
        });
    });
    json.attributeArray("checks", [&] {
      for (const RoleCheck &check : tree.checks)
        json.object([&] {
          json.attribute("severity", severityName(check.severity));
          json.attribute("message", check.message);
          writeLoc(json, check.source);
        });
    });
  });
}
