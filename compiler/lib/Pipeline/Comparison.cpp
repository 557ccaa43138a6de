//===- Comparison.cpp - Two variants of a kernel, side by side ------------===//
//
// Each run is read into named facts in a fixed order (status, launch,
// resources, instruction counts, roles, timeline, steps); rows pair the
// facts of A and B by name, A's order first, so a fact only one variant
// has (a role the other lacks) still gets its row.
//
//===----------------------------------------------------------------------===//

#include "klx/Pipeline/Comparison.h"

#include "klx/Analysis/Protocol/BarrierSim.h"
#include "klx/Analysis/Protocol/TimelineFormat.h"
#include "klx/Analysis/RoleTree/RoleTreeFormat.h"
#include "klx/Support/LineDiff.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>
#include <set>

using namespace klx;

std::optional<VariantSpec> klx::parseVariantSpec(llvm::StringRef text,
                                                 std::string &error) {
  VariantSpec spec;
  spec.text = text.trim().str();
  if (spec.text.empty()) {
    error = "an empty variant: give NAME=VALUE[,NAME=VALUE] or a file";
    return std::nullopt;
  }
  llvm::StringRef trimmed(spec.text);
  bool looksLikeDefines = trimmed.contains('=') && !trimmed.contains('/') &&
                          !trimmed.ends_with(".mlir");
  if (!looksLikeDefines) {
    spec.file = spec.text;
    return spec;
  }
  // NAME=VALUE pairs, between commas or spaces.
  llvm::SmallVector<llvm::StringRef> parts;
  for (llvm::StringRef rest = trimmed; !rest.empty();) {
    auto [part, tail] = rest.split(',');
    for (llvm::StringRef word : llvm::split(part, ' '))
      if (!word.trim().empty())
        parts.push_back(word.trim());
    rest = tail;
  }
  for (llvm::StringRef part : parts) {
    auto [name, value] = part.split('=');
    if (name.empty() || !part.contains('=')) {
      error = "'" + part.str() + "' in variant '" + spec.text +
              "' is not NAME=VALUE";
      return std::nullopt;
    }
    spec.defines.emplace_back(name.str(), value.str());
  }
  return spec;
}

std::string klx::definesText(const Defines &defines) {
  std::vector<std::string> parts;
  for (const auto &[name, value] : defines)
    parts.push_back(name + "=" + value);
  return llvm::join(parts, ", ");
}

Defines klx::applyVariant(const Defines &base, const VariantSpec &variant) {
  Defines result = base;
  for (const auto &define : variant.defines) {
    auto it = llvm::find_if(
        result, [&](const auto &d) { return d.first == define.first; });
    if (it != result.end())
      it->second = define.second;
    else
      result.push_back(define);
  }
  return result;
}

unsigned Comparison::differing() const {
  return unsigned(llvm::count_if(
      rows, [](const ComparisonRow &row) { return row.differs(); }));
}

namespace {

/// Facts of one run, in the order they were added.
class Facts {
public:
  void add(llvm::StringRef group, const std::string &name, std::string value) {
    std::string key = group.str() + "\x1f" + name;
    if (index.count(key))
      return;
    index[key] = order.size();
    order.push_back({group.str(), name, std::move(value)});
  }
  const std::string *find(const std::string &group,
                          const std::string &name) const {
    auto it = index.find(group + "\x1f" + name);
    return it == index.end() ? nullptr : &order[it->second].value;
  }
  struct Fact {
    std::string group, name, value;
  };
  std::vector<Fact> order;

private:
  std::map<std::string, size_t> index;
};

std::string of(const std::string &what, llvm::StringRef kernel) {
  return what + " (@" + kernel.str() + ")";
}

void addStatus(Facts &facts, const PipelineRun &run) {
  unsigned errors = 0;
  for (const Diag &d : run.allDiagnostics())
    errors += d.severity == Severity::Error;
  std::string status = run.succeeded()                       ? "compiles"
                       : run.status == RunStatus::InputError ? "input error"
                       : run.status == RunStatus::Stopped ? "stopped"
                                                          : "environment error";
  if (errors)
    status += llvm::formatv(" ({0} error{1})", errors, errors == 1 ? "" : "s");
  facts.add("status", "compile", status);
}

void addLaunches(Facts &facts, const PipelineRun &run) {
  for (const KernelLaunch &l : run.launches) {
    facts.add("launch", of("block", l.entry),
              llvm::formatv("{0}x{1}x{2}", l.block[0], l.block[1], l.block[2]));
    facts.add("launch", of("grid", l.entry), l.grid);
    facts.add("launch", of("dynamic shared memory", l.entry),
              std::to_string(l.dynamicSharedBytes) + " bytes");
  }
}

void addResources(Facts &facts, const PipelineRun &run) {
  for (const DeviceArtifacts &a : run.artifacts) {
    if (a.ptxas)
      for (const PtxasFunctionReport &f : a.ptxas->functions) {
        facts.add("resources", of("registers", f.name),
                  std::to_string(f.registers));
        facts.add("resources", of("shared memory", f.name),
                  std::to_string(f.sharedBytes) + " bytes");
        facts.add("resources", of("stack frame", f.name),
                  std::to_string(f.stackFrameBytes) + " bytes");
        facts.add("resources", of("spill stores / loads", f.name),
                  llvm::formatv("{0} / {1} bytes", f.spillStoreBytes,
                                f.spillLoadBytes));
        facts.add("resources", of("barriers", f.name),
                  std::to_string(f.barriers));
      }
    if (a.amdgcnMetadata)
      for (const AmdgcnKernelInfo &k : a.amdgcnMetadata->kernels) {
        facts.add("resources", of("VGPRs / AGPRs / SGPRs", k.name),
                  llvm::formatv("{0} / {1} / {2}", k.vgprs, k.agprs, k.sgprs));
        facts.add("resources", of("scratch", k.name),
                  std::to_string(k.scratchBytes) + " bytes");
        facts.add("resources", of("LDS", k.name),
                  std::to_string(k.ldsBytes) + " bytes");
        facts.add("resources", of("occupancy", k.name),
                  std::to_string(k.occupancy) + " waves/SIMD");
      }
  }
}

void addCounts(Facts &facts, const PipelineRun &run) {
  // Summed over modules, per kind of assembly.
  std::map<EmitKind, std::map<std::string, unsigned>> sums;
  std::map<EmitKind, std::vector<std::string>> names;
  for (const DeviceArtifacts &a : run.artifacts)
    for (const auto &[kind, counts] : a.counts) {
      auto &sum = sums[kind];
      if (!sum.count("total"))
        names[kind].push_back("total");
      sum["total"] += counts.total;
      for (const InstructionClassCount &c : counts.classes) {
        if (!sum.count(c.name))
          names[kind].push_back(c.name);
        sum[c.name] += c.count;
      }
    }
  for (const auto &[kind, list] : names)
    for (const std::string &name : list)
      facts.add(emitKindName(kind), name, std::to_string(sums[kind][name]));
}

void addRoles(Facts &facts, const PipelineRun &run) {
  int step = run.rolesStep();
  if (step < 0)
    return;
  for (const RoleTree &tree : run.snapshots[step].facts.roles) {
    std::vector<std::string> roleNames;
    for (const Role &role : tree.roles)
      roleNames.push_back(role.name);
    facts.add("roles", of("roles", tree.kernel), llvm::join(roleNames, ", "));
    for (const Role &role : tree.roles) {
      std::string text = "threads " + threadRanges(role.warps, tree.threads) +
                         ", " + std::to_string(role.activeThreads) + " active";
      if (role.regs)
        text += std::string(role.regsIncrease ? ", setmaxnreg.inc "
                                              : ", setmaxnreg.dec ") +
                std::to_string(*role.regs);
      facts.add("roles", of("role " + role.name, tree.kernel), text);
    }
    if (tree.registerTotal)
      facts.add(
          "roles", of("register file", tree.kernel),
          llvm::formatv("{0} of {1}", tree.registerTotal, kRegistersPerSM));
    unsigned errors = llvm::count_if(tree.checks, [](const RoleCheck &c) {
      return c.severity == Severity::Error;
    });
    facts.add("roles", of("checks", tree.kernel),
              errors ? std::to_string(errors) + " failed" : "pass");
  }
}

void addTimeline(Facts &facts, const PipelineRun &run) {
  int step = run.timelineStep();
  if (step < 0)
    return;
  for (const sim::ProtocolModel &model : run.snapshots[step].facts.protocols) {
    sim::Timeline t = sim::simulate(model);
    facts.add("timeline", of("bound", model.kernel), model.bound);
    facts.add("timeline", of("verdict", model.kernel), sim::verdictSummary(t));
    sim::WorkRates rates = sim::workRates(model, t);
    if (rates.perTile)
      facts.add("timeline", of("cycles per tile", model.kernel),
                std::to_string(int64_t(*rates.perTile)));
    if (rates.perKStep)
      facts.add("timeline", of("cycles per k step", model.kernel),
                std::to_string(int64_t(*rates.perKStep)));
    // Tiles of two sizes are different work: per output element they
    // compare.
    if (rates.per1kOutputs)
      facts.add("timeline", of("cycles per 1k outputs", model.kernel),
                llvm::formatv("{0:F1}", *rates.per1kOutputs).str());
    for (size_t r = 0; r < t.roleNames.size() && r < t.waitingShare.size(); ++r)
      facts.add("timeline", of("waits, " + t.roleNames[r], model.kernel),
                llvm::formatv("{0:F0}%", 100 * t.waitingShare[r]).str());
  }
}

void addSteps(Facts &facts, const PipelineRun &run) {
  int step = run.stepsStep();
  if (step < 0)
    return;
  for (const KernelSteps &kernel : run.snapshots[step].facts.steps) {
    std::vector<std::string> shapes;
    for (const Step &s : kernel.steps)
      shapes.push_back(s.shape());
    facts.add("steps", of("steps", kernel.kernel),
              llvm::formatv("{0}: {1}", kernel.steps.size(),
                            llvm::join(shapes, " | ")));
    facts.add("steps", of("crossings in registers", kernel.kernel),
              std::to_string(kernel.crossings.size()));
  }
}

Facts factsOf(const PipelineRun &run) {
  Facts facts;
  addStatus(facts, run);
  addLaunches(facts, run);
  addResources(facts, run);
  addCounts(facts, run);
  addRoles(facts, run);
  addTimeline(facts, run);
  addSteps(facts, run);
  return facts;
}

/// The kernels a run names anywhere in its facts.
std::set<std::string> kernelNames(const PipelineRun &run) {
  std::set<std::string> names;
  for (const KernelLaunch &l : run.launches)
    names.insert(l.entry);
  for (const DeviceArtifacts &a : run.artifacts) {
    if (a.ptxas)
      for (const PtxasFunctionReport &f : a.ptxas->functions)
        names.insert(f.name);
    if (a.amdgcnMetadata)
      for (const AmdgcnKernelInfo &k : a.amdgcnMetadata->kernels)
        names.insert(k.name);
  }
  if (int step = run.stepsStep(); step >= 0)
    for (const KernelSteps &k : run.snapshots[step].facts.steps)
      names.insert(k.kernel);
  return names;
}

/// Two files with one kernel each, named differently: their facts pair
/// up under one name, "(@a | @b)".
void renameKernel(Facts &facts, const std::string &from,
                  const std::string &to) {
  Facts renamed;
  for (Facts::Fact &fact : facts.order) {
    std::string name = fact.name;
    size_t at = name.find("(@" + from + ")");
    if (at != std::string::npos)
      name.replace(at, from.size() + 3, to);
    renamed.add(fact.group, name, fact.value);
  }
  facts = std::move(renamed);
}

} // namespace

std::string klx::defaultComparisonStep(const PipelineRun &a,
                                       const PipelineRun &b) {
  // Where a schedule shows: the tile program lowered, else the body as
  // written (the steps' step), else the last MLIR both have.
  for (llvm::StringRef name : {"klx-to-nvgpu", "klx-to-amdgpu"})
    if (a.findStep(name) >= 0 && b.findStep(name) >= 0)
      return name.str();
  if (int steps = a.stepsStep(); steps >= 0) {
    std::string name = a.snapshots[steps].displayName();
    if (b.findStep(name) >= 0)
      return name;
  }
  for (auto it = a.snapshots.rbegin(); it != a.snapshots.rend(); ++it)
    if (it->kind == EmitKind::MLIR && b.findStep(it->displayName()) >= 0)
      return it->displayName();
  return a.snapshots.empty() ? std::string() : a.snapshots.front().name;
}

std::optional<ModelSize> klx::timelineBound(const PipelineRun &run) {
  int step = run.timelineStep();
  if (step < 0)
    return std::nullopt;
  ModelSize size{0, 0};
  for (const sim::ProtocolModel &model : run.snapshots[step].facts.protocols) {
    size.tiles = std::max(size.tiles, model.tiles);
    size.kSteps = std::max(size.kSteps, model.kSteps);
  }
  return size;
}

std::optional<ModelSize> klx::commonModelSize(const PipelineRun &a,
                                              const PipelineRun &b) {
  std::optional<ModelSize> sizeA = timelineBound(a), sizeB = timelineBound(b);
  if (!sizeA || !sizeB ||
      (sizeA->tiles == sizeB->tiles && sizeA->kSteps == sizeB->kSteps))
    return std::nullopt;
  ModelSize common{std::max(sizeA->tiles, sizeB->tiles),
                   std::max(sizeA->kSteps, sizeB->kSteps)};
  // A model without tiles (its own loop bounds) keeps the default.
  if (common.tiles == 0)
    common.tiles = ModelSize().tiles;
  return common;
}

Comparison klx::compareRuns(const PipelineRun &a, const PipelineRun &b,
                            llvm::StringRef labelA, llvm::StringRef labelB,
                            llvm::StringRef step) {
  Comparison c;
  c.labelA = labelA.str();
  c.labelB = labelB.str();
  c.step = step.empty() ? defaultComparisonStep(a, b) : step.str();
  c.stepA = a.findStep(c.step);
  c.stepB = b.findStep(c.step);
  if (c.stepA >= 0 && c.stepB >= 0) {
    LineIndex left(a.snapshots[c.stepA].text);
    LineIndex right(b.snapshots[c.stepB].text);
    // ptxas's report says how long it took: not a difference.
    DiffOptions options;
    options.ignoreTimings = true;
    LineDiff diff = diffLines(left, right, 2000, options);
    c.irLinesA = unsigned(left.size());
    c.irLinesB = unsigned(right.size());
    c.irAdded = diff.added;
    c.irRemoved = diff.removed;
    c.irTruncated = diff.truncated;
  }
  Facts fa = factsOf(a), fb = factsOf(b);
  std::set<std::string> ka = kernelNames(a), kb = kernelNames(b);
  if (ka.size() == 1 && kb.size() == 1 && ka != kb) {
    std::string both = "(@" + *ka.begin() + " | @" + *kb.begin() + ")";
    renameKernel(fa, *ka.begin(), both);
    renameKernel(fb, *kb.begin(), both);
  }
  auto row = [&](const Facts::Fact &fact, bool fromA) {
    const std::string *other = (fromA ? fb : fa).find(fact.group, fact.name);
    ComparisonRow r{fact.group, fact.name, fact.value,
                    other ? *other : std::string("-")};
    if (!fromA)
      std::swap(r.a, r.b);
    c.rows.push_back(std::move(r));
  };
  for (const Facts::Fact &fact : fa.order)
    row(fact, true);
  for (const Facts::Fact &fact : fb.order)
    if (!fa.find(fact.group, fact.name))
      row(fact, false);
  // Keep each group together: A's order, B's extra rows after A's of the
  // same group.
  std::stable_sort(c.rows.begin(), c.rows.end(),
                   [&](const ComparisonRow &x, const ComparisonRow &y) {
                     static const char *const groups[] = {
                         "status", "launch", "resources", "ptx",      "sass",
                         "amdgcn", "llvm",   "roles",     "timeline", "steps"};
                     auto rank = [](const std::string &g) {
                       return llvm::find(groups, g) - std::begin(groups);
                     };
                     return rank(x.group) < rank(y.group);
                   });
  return c;
}

void klx::printComparison(llvm::raw_ostream &os, const Comparison &c) {
  size_t nameWidth = 24, aWidth = std::max<size_t>(c.labelA.size(), 12);
  for (const ComparisonRow &r : c.rows) {
    nameWidth = std::max(nameWidth, r.group.size() + 1 + r.name.size());
    aWidth = std::max(aWidth, r.a.size());
  }
  aWidth = std::min<size_t>(aWidth, 48);
  auto line = [&](llvm::StringRef name, llvm::StringRef a, llvm::StringRef b,
                  bool mark) {
    os << (mark ? "* " : "  ") << llvm::left_justify(name, nameWidth) << "  "
       << llvm::left_justify(a, aWidth) << "  " << b << "\n";
  };
  line("", "A: " + c.labelA, "B: " + c.labelB, false);
  for (const ComparisonRow &r : c.rows)
    line(r.group + " " + r.name, r.a, r.b, r.differs());
  if (c.stepA >= 0 && c.stepB >= 0)
    os << llvm::formatv("  IR after {0}: {1} lines (A), {2} lines (B); B "
                        "adds {3} and removes {4}{5}\n",
                        c.step, c.irLinesA, c.irLinesB, c.irAdded, c.irRemoved,
                        c.irTruncated ? " (diff cut short)" : "");
  else
    os << "  IR: step '" << c.step << "' is not in both runs\n";
  os << c.differing() << " of " << c.rows.size() << " rows differ (marked *)\n";
}

void klx::writeComparisonJson(llvm::json::OStream &json, const Comparison &c) {
  json.object([&] {
    json.attribute("a", c.labelA);
    json.attribute("b", c.labelB);
    json.attributeObject("ir", [&] {
      json.attribute("step", c.step);
      json.attribute("in_both", c.stepA >= 0 && c.stepB >= 0);
      json.attribute("lines_a", c.irLinesA);
      json.attribute("lines_b", c.irLinesB);
      json.attribute("added", c.irAdded);
      json.attribute("removed", c.irRemoved);
      json.attribute("truncated", c.irTruncated);
    });
    json.attributeArray("rows", [&] {
      for (const ComparisonRow &r : c.rows)
        json.object([&] {
          json.attribute("group", r.group);
          json.attribute("name", r.name);
          json.attribute("a", r.a);
          json.attribute("b", r.b);
          json.attribute("differs", r.differs());
        });
    });
    json.attribute("differing", c.differing());
  });
}
