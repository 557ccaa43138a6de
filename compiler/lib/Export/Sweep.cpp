//===- Sweep.cpp - Every combination of a kernel's -D values --------------===//
//
// The plan (axes and their combinations), names for variants and their
// folders, and what a finished run says of its variant, as a table, CSV
// and the JSON that klx-run --sweep reads.
//
//===----------------------------------------------------------------------===//

#include "klx/Export/Sweep.h"

#include "klx/Analysis/Protocol/BarrierSim.h"
#include "klx/Analysis/Protocol/TimelineFormat.h"
#include "klx/Runtime/SweepFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <set>

using namespace klx;
namespace sweepfile = klx::rt::sweepfile;

llvm::Expected<std::vector<SweepAxis>>
klx::sweepAxes(llvm::ArrayRef<std::pair<std::string, std::string>> defines) {
  std::vector<SweepAxis> axes;
  size_t combinations = 1;
  for (const auto &define : defines) {
    const std::string &name = define.first, &list = define.second;
    if (llvm::any_of(axes, [&](const SweepAxis &a) { return a.name == name; }))
      return llvm::createStringError(
          "-D " + name + " is given twice; list its values once: -D " + name +
          "=V1,V2,...");
    SweepAxis axis{name, {}};
    for (llvm::StringRef value : llvm::split(llvm::StringRef(list), ',')) {
      value = value.trim();
      if (value.empty())
        return llvm::createStringError("-D " + name + "=" + list +
                                       ": an empty value in the list");
      if (llvm::is_contained(axis.values, value))
        return llvm::createStringError("-D " + name + "=" + list + ": '" +
                                       value.str() + "' is listed twice");
      axis.values.push_back(value.str());
    }
    combinations *= axis.values.size();
    if (combinations > kMaxSweepVariants)
      return llvm::createStringError(
          llvm::formatv("the -D lists make more than {0} variants; sweep "
                        "fewer values at a time",
                        kMaxSweepVariants)
              .str());
    axes.push_back(std::move(axis));
  }
  return axes;
}

std::vector<Defines> klx::sweepCombinations(llvm::ArrayRef<SweepAxis> axes) {
  std::vector<Defines> result(1);
  for (const SweepAxis &axis : axes) {
    std::vector<Defines> next;
    next.reserve(result.size() * axis.values.size());
    for (const Defines &prefix : result)
      for (const std::string &value : axis.values) {
        next.push_back(prefix);
        next.back().emplace_back(axis.name, value);
      }
    result = std::move(next);
  }
  return result;
}

/// The values of the axes that vary, as NAME + join + VALUE pairs.
static std::vector<std::string> varyingParts(const Defines &defines,
                                             llvm::ArrayRef<SweepAxis> axes,
                                             llvm::StringRef join) {
  std::vector<std::string> parts;
  for (const auto &define : defines) {
    auto axis = llvm::find_if(
        axes, [&](const SweepAxis &a) { return a.name == define.first; });
    if (axis != axes.end() && axis->values.size() > 1)
      parts.push_back(define.first + join.str() + define.second);
  }
  return parts;
}

/// `name` with every character a folder name should not have as '-'.
static std::string folderSafe(std::string name) {
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '-' && c != '_' && c != '.')
      c = '-';
  return name;
}

std::string klx::sweepVariantName(const Defines &defines,
                                  llvm::ArrayRef<SweepAxis> axes) {
  std::vector<std::string> parts = varyingParts(defines, axes, "=");
  return parts.empty() ? "as given" : llvm::join(parts, " ");
}

std::string klx::sweepFolderName(const Defines &defines,
                                 llvm::ArrayRef<SweepAxis> axes) {
  std::string name = llvm::join(varyingParts(defines, axes, "-"), "_");
  return folderSafe(name.empty() ? "as-given" : name);
}

llvm::Expected<std::vector<SweepRung>>
klx::sweepLadder(const Defines &base, llvm::ArrayRef<std::string> texts) {
  if (texts.size() > kMaxSweepVariants)
    return llvm::createStringError(
        llvm::formatv("a ladder of more than {0} rungs", kMaxSweepVariants)
            .str());
  std::vector<SweepRung> rungs;
  Defines current = base;
  for (const std::string &text : texts) {
    llvm::StringRef rest = llvm::StringRef(text).trim();
    std::string name;
    // "NAME: A=1,B=2": a name before a colon that comes before any '='.
    size_t colon = rest.find(':');
    if (colon != llvm::StringRef::npos && colon < rest.find('=')) {
      name = rest.take_front(colon).trim().str();
      rest = rest.drop_front(colon + 1).trim();
    }
    VariantSpec spec;
    if (!rest.empty()) {
      std::string error;
      std::optional<VariantSpec> parsed = parseVariantSpec(rest, error);
      if (!parsed || !parsed->file.empty())
        return llvm::createStringError(
            "--ladder=" + text + ": " +
            (error.empty() ? "expected NAME=VALUE[,NAME=VALUE...]" : error));
      spec = std::move(*parsed);
    }
    current = applyVariant(current, spec);
    if (name.empty())
      name = spec.defines.empty() ? "as given" : definesText(spec.defines);
    rungs.push_back({name, current});
  }
  return rungs;
}

/// Folders that came out alike ("a b" and "a-b" both give "a-b") get
/// "-2", "-3", ...: two variants never write into one folder.
static void makeFoldersUnique(std::vector<PlannedVariant> &planned) {
  std::set<std::string> taken;
  for (PlannedVariant &variant : planned) {
    std::string folder = variant.folder;
    for (int n = 2; taken.count(folder); ++n)
      folder = variant.folder + "-" + std::to_string(n);
    variant.folder = folder;
    taken.insert(folder);
  }
}

std::vector<PlannedVariant> klx::plannedVariants(const SweepPlan &plan) {
  std::vector<PlannedVariant> planned;
  if (!plan.isLadder()) {
    for (Defines &defines : sweepCombinations(plan.axes))
      planned.push_back({sweepVariantName(defines, plan.axes),
                         sweepFolderName(defines, plan.axes),
                         std::move(defines)});
  } else {
    for (size_t i = 0; i < plan.ladder.size(); ++i) {
      const SweepRung &rung = plan.ladder[i];
      planned.push_back(
          {rung.name,
           folderSafe(llvm::formatv("{0:2}-{1}", i + 1, rung.name).str()),
           rung.defines});
    }
  }
  makeFoldersUnique(planned);
  return planned;
}

/// ptxas's report, or the AMDGPU metadata, of the run's (first) kernel.
static void readResources(const PipelineRun &run, SweepVariant &variant) {
  for (const DeviceArtifacts &a : run.artifacts) {
    if (a.ptxas && !a.ptxas->functions.empty()) {
      variant.resources = a.ptxas->functions.front();
      for (const KernelLaunch &launch : run.launches)
        if (const PtxasFunctionReport *f = a.ptxas->find(launch.entry))
          variant.resources = *f;
      return;
    }
    if (a.amdgcnMetadata && !a.amdgcnMetadata->kernels.empty()) {
      variant.amdResources = a.amdgcnMetadata->kernels.front();
      for (const KernelLaunch &launch : run.launches)
        if (const AmdgcnKernelInfo *k = a.amdgcnMetadata->find(launch.entry))
          variant.amdResources = *k;
      return;
    }
  }
}

static void summarizeRoles(const PipelineRun &run, SweepVariant &variant) {
  int step = run.rolesStep();
  if (step < 0 || run.snapshots[step].facts.roles.empty())
    return;
  const RoleTree &tree = run.snapshots[step].facts.roles.front();
  std::vector<std::string> names;
  for (const Role &role : tree.roles)
    names.push_back(role.name);
  variant.roles = llvm::join(names, ", ");
  variant.roleErrors =
      unsigned(llvm::count_if(tree.checks, [](const RoleCheck &c) {
        return c.severity == Severity::Error;
      }));
}

void klx::summarizeSweepTimeline(const PipelineRun &run,
                                 SweepVariant &variant) {
  int step = run.timelineStep();
  if (step < 0 || run.snapshots[step].facts.protocols.empty())
    return;
  const sim::ProtocolModel &model = run.snapshots[step].facts.protocols.front();
  sim::Timeline t = sim::simulate(model);
  variant.deadlocks = !t.verdict.completes;
  variant.timeline = sim::verdictSummary(t);
  variant.timelineBound = model.bound;
  variant.timelineTiles = model.tiles;
  variant.timelineKSteps = model.kSteps;
  variant.cyclesPer1kOutputs =
      sim::workRates(model, t).per1kOutputs.value_or(0);
}

SweepVariant klx::summarizeSweepVariant(const PipelineRun &run,
                                        const PlannedVariant &planned) {
  SweepVariant variant;
  variant.name = planned.name;
  variant.defines = planned.defines;
  variant.compiled = run.succeeded();
  for (const Diag &diag : run.allDiagnostics()) {
    if (diag.severity != Severity::Error)
      continue;
    Diag shown = diag;
    if (shown.loc.file.empty())
      shown.loc.file = run.fileName;
    llvm::raw_string_ostream os(variant.error);
    printDiag(os, shown);
    variant.error =
        llvm::StringRef(variant.error).trim().split('\n').first.str();
    break;
  }
  if (!variant.compiled && variant.error.empty())
    variant.error =
        run.status == RunStatus::Stopped ? "stopped" : "did not compile";
  readResources(run, variant);
  if (!run.launches.empty())
    variant.dynamicSharedBytes = run.launches.front().dynamicSharedBytes;
  summarizeRoles(run, variant);
  summarizeSweepTimeline(run, variant);
  return variant;
}

namespace {
/// The resource columns of a variant as printed: NVIDIA's from ptxas -v,
/// AMD's from the code object's metadata, "-" where neither said.
struct ResourceCells {
  std::string registers = "-", shared = "-", stack = "-", spillStores = "-",
              spillLoads = "-";
};
} // namespace

static ResourceCells resourceCells(const SweepVariant &v) {
  ResourceCells cells;
  if (const std::optional<PtxasFunctionReport> &r = v.resources) {
    cells.registers = std::to_string(r->registers);
    cells.shared = std::to_string(r->sharedBytes + v.dynamicSharedBytes);
    cells.stack = std::to_string(r->stackFrameBytes);
    cells.spillStores = std::to_string(r->spillStoreBytes);
    cells.spillLoads = std::to_string(r->spillLoadBytes);
  } else if (const std::optional<AmdgcnKernelInfo> &k = v.amdResources) {
    cells.registers =
        llvm::formatv("v{0} a{1} s{2}", k->vgprs, k->agprs, k->sgprs).str();
    cells.shared = std::to_string(k->ldsBytes);
    cells.stack = std::to_string(k->scratchBytes);
  }
  return cells;
}

/// A table cell: '|' would end it early.
static std::string tableCell(llvm::StringRef text) {
  std::string cell;
  for (char c : text) {
    if (c == '|')
      cell += '\\';
    cell += c == '\n' ? ' ' : c;
  }
  return cell;
}

void klx::printSweepTable(llvm::raw_ostream &os,
                          llvm::ArrayRef<SweepVariant> variants) {
  os << "| variant | compiles | registers | shared bytes | stack | spills "
        "st/ld | roles | simulated protocol |\n"
        "|---|---|---|---|---|---|---|---|\n";
  for (const SweepVariant &v : variants) {
    std::string roles = v.roles.empty() ? "-" : v.roles;
    if (v.roleErrors)
      roles += llvm::formatv(" ({0} check{1} failed)", v.roleErrors,
                             v.roleErrors == 1 ? "" : "s");
    ResourceCells cells = resourceCells(v);
    std::string spills = cells.spillStores == "-"
                             ? "-"
                             : cells.spillStores + "/" + cells.spillLoads;
    os << "| " << tableCell(v.name) << " | "
       << (v.compiled ? "yes" : "no: " + tableCell(v.error)) << " | "
       << cells.registers << " | " << cells.shared << " | " << cells.stack
       << " | " << spills << " | " << roles << " | "
       << (v.timeline.empty() ? "-" : v.timeline);
    if (v.cyclesPer1kOutputs > 0)
      os << llvm::formatv(" ({0:F1} per 1k outputs)", v.cyclesPer1kOutputs);
    os << " |\n";
  }
  std::set<std::string> bounds;
  for (const SweepVariant &v : variants)
    if (!v.timelineBound.empty())
      bounds.insert(v.timelineBound);
  if (bounds.size() == 1)
    os << "simulated over " << *bounds.begin() << ", every variant\n";
}

static llvm::json::Object variantJson(const SweepVariant &v) {
  llvm::json::Object defines;
  for (const auto &[name, value] : v.defines)
    defines[name] = value;
  llvm::json::Object o{{sweepfile::kName, v.name},
                       {sweepfile::kBundle, v.folder},
                       {sweepfile::kDefines, std::move(defines)},
                       {sweepfile::kCompiled, v.compiled},
                       {"compile_seconds", v.compileSeconds}};
  if (!v.error.empty())
    o[sweepfile::kError] = v.error;
  if (!v.bundleNote.empty())
    o[sweepfile::kBundleNote] = v.bundleNote;
  if (v.resources) {
    o[sweepfile::kRegisters] = int64_t(v.resources->registers);
    o[sweepfile::kSharedMemory] =
        int64_t(v.resources->sharedBytes + v.dynamicSharedBytes);
    o["stack_frame"] = int64_t(v.resources->stackFrameBytes);
    o[sweepfile::kSpillStoreBytes] = int64_t(v.resources->spillStoreBytes);
    o[sweepfile::kSpillLoadBytes] = int64_t(v.resources->spillLoadBytes);
  } else if (v.amdResources) {
    o[sweepfile::kVgprs] = int64_t(v.amdResources->vgprs);
    o[sweepfile::kAgprs] = int64_t(v.amdResources->agprs);
    o[sweepfile::kSgprs] = int64_t(v.amdResources->sgprs);
    o[sweepfile::kLds] = int64_t(v.amdResources->ldsBytes);
    o["scratch"] = int64_t(v.amdResources->scratchBytes);
    o["occupancy"] = int64_t(v.amdResources->occupancy);
  }
  if (!v.roles.empty()) {
    o[sweepfile::kRoles] = v.roles;
    o["role_check_errors"] = int64_t(v.roleErrors);
  }
  if (!v.timeline.empty()) {
    o[sweepfile::kSimulated] = v.timeline;
    if (!v.timelineBound.empty())
      o[sweepfile::kSimulatedOver] = v.timelineBound;
    o["deadlocks"] = v.deadlocks;
  }
  return o;
}

/// A ladder's axes: each parameter whose value is not the same in every
/// rung (set by some rungs only, or to different values), with the values
/// its rungs give it, in order.
static std::vector<SweepAxis> ladderAxes(const SweepPlan &plan) {
  std::vector<SweepAxis> axes;
  std::map<std::string, size_t> rungsSetting;
  for (const SweepRung &rung : plan.ladder)
    for (const auto &define : rung.defines) {
      auto axis = llvm::find_if(
          axes, [&](const SweepAxis &a) { return a.name == define.first; });
      if (axis == axes.end())
        axis = axes.insert(axes.end(), SweepAxis{define.first, {}});
      if (!llvm::is_contained(axis->values, define.second))
        axis->values.push_back(define.second);
      ++rungsSetting[define.first];
    }
  llvm::erase_if(axes, [&](const SweepAxis &a) {
    return a.values.size() < 2 && rungsSetting[a.name] == plan.ladder.size();
  });
  return axes;
}

llvm::json::Value klx::sweepJson(llvm::StringRef file, const SweepPlan &plan,
                                 llvm::ArrayRef<SweepVariant> variants) {
  llvm::json::Array axesJson, variantsJson;
  for (const SweepAxis &axis : plan.isLadder() ? ladderAxes(plan) : plan.axes)
    axesJson.push_back(llvm::json::Object{
        {sweepfile::kAxisName, axis.name},
        {sweepfile::kAxisValues, llvm::json::Array(axis.values)}});
  for (const SweepVariant &v : variants)
    variantsJson.push_back(variantJson(v));
  return llvm::json::Object{{sweepfile::kVersionKey, sweepfile::kVersion},
                            {sweepfile::kFile, file},
                            {sweepfile::kAxes, std::move(axesJson)},
                            {sweepfile::kSizes, llvm::json::Array(plan.sizes)},
                            {sweepfile::kOrdered, plan.isLadder()},
                            {sweepfile::kVariants, std::move(variantsJson)}};
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
static std::string csvField(llvm::StringRef text) {
  if (!text.contains(',') && !text.contains('"') && !text.contains('\n'))
    return text.str();
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

void klx::writeSweepCsv(llvm::raw_ostream &os,
                        llvm::ArrayRef<SweepVariant> variants) {
  os << "variant,compiled,error,registers,shared_memory,stack,"
        "spill_store_bytes,spill_load_bytes,roles,role_check_errors,"
        "simulated\n";
  for (const SweepVariant &v : variants) {
    ResourceCells cells = resourceCells(v);
    os << csvField(v.name) << "," << (v.compiled ? "yes" : "no") << ","
       << csvField(v.error) << "," << cells.registers << "," << cells.shared
       << "," << cells.stack << "," << cells.spillStores << ","
       << cells.spillLoads << "," << csvField(v.roles) << "," << v.roleErrors
       << "," << csvField(v.timeline) << "\n";
  }
}
