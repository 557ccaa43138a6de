//===- SweepPlan.cpp - sweep.json, the jobs, and their summaries ----------===//
//
// The pure half of `klx-run --sweep`: what to run (the plan and the job
// order) and what the children said (their --json, per-variant summaries
// and the ranking). Nothing here starts a process or touches a driver.
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/Json.h"
#include "klx/Runtime/Manifest.h"
#include "klx/Runtime/RunFormat.h"
#include "klx/Runtime/Runner.h"
#include "klx/Runtime/Sweep.h"
#include "klx/Runtime/SweepFormat.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace klx::rt;
using Kind = JsonKind;
namespace rf = klx::rt::runfile;

namespace {

/// The member `name` of `object` if it has `kind`; sets `error` (once)
/// when it is mistyped, or missing and `required`.
const Json *typedMember(const Json &object, const std::string &path,
                        const char *name, Kind kind, bool required,
                        std::string &error) {
  if (!error.empty())
    return nullptr;
  const Json *v = member(object, name);
  if (!v) {
    if (required)
      error = "sweep.json: " + path + name + " is missing";
    return nullptr;
  }
  if (kindOf(*v) != kind) {
    error = "sweep.json: " + path + name + " must be " + kindName(kind) +
            ", not " + kindName(kindOf(*v));
    return nullptr;
  }
  return v;
}

std::optional<SweepVariant> readVariant(const Json &v, const std::string &path,
                                        std::string &error) {
  if (!v.is_object()) {
    error = "sweep.json: " + path + " must be an object, not " +
            kindName(kindOf(v));
    return std::nullopt;
  }
  std::string at = path + ".";
  SweepVariant variant;
  if (const Json *name =
          typedMember(v, at, sweepfile::kName, Kind::String, true, error))
    variant.name = name->get<std::string>();
  if (const Json *c =
          typedMember(v, at, sweepfile::kCompiled, Kind::Bool, true, error))
    variant.compiled = c->get<bool>();
  if (const Json *b = typedMember(v, at, sweepfile::kBundle, Kind::String,
                                  variant.compiled, error))
    variant.bundle = b->get<std::string>();
  if (const Json *e =
          typedMember(v, at, sweepfile::kError, Kind::String, false, error))
    variant.error = e->get<std::string>();
  if (const Json *n = typedMember(v, at, sweepfile::kBundleNote, Kind::String,
                                  false, error))
    variant.bundleNote = n->get<std::string>();
  if (const Json *d =
          typedMember(v, at, sweepfile::kDefines, Kind::Object, false, error)) {
    for (const auto &[name, value] : d->items()) {
      if (!value.is_string()) {
        error = "sweep.json: " + at + "defines." + name + " must be " +
                kindName(Kind::String) + ", not " + kindName(kindOf(value));
        break;
      }
      variant.defines.emplace_back(name, value.get<std::string>());
    }
  }
  if (const Json *r =
          typedMember(v, at, sweepfile::kRegisters, Kind::Number, false, error))
    variant.registers = r->get<int64_t>();
  if (const Json *s = typedMember(v, at, sweepfile::kSpillStoreBytes,
                                  Kind::Number, false, error))
    variant.spillBytes = s->get<int64_t>();
  if (!error.empty())
    return std::nullopt;
  // An empty bundle is a variant that compiled but could not be bundled
  // (no cubin): not run, with its bundle_note.
  if (variant.runnable() && variant.bundle.front() == '/')
    error = "sweep.json: " + at +
            "bundle must be relative to the sweep's "
            "folder, not " +
            variant.bundle;
  if (!error.empty())
    return std::nullopt;
  return variant;
}

bool readSizes(const Json &root, SweepPlan &plan, std::string &error) {
  const Json *sizes =
      typedMember(root, "", sweepfile::kSizes, Kind::Array, false, error);
  if (!sizes)
    return error.empty();
  for (size_t i = 0; i < sizes->size(); ++i) {
    const Json &size = (*sizes)[i];
    std::string at = "sizes[" + std::to_string(i) + "]";
    if (!size.is_string()) {
      error = "sweep.json: " + at + " must be a string, not " +
              kindName(kindOf(size));
      return false;
    }
    if (!parseProblemSize(size.get<std::string>())) {
      error = "sweep.json: " + at + " \"" + size.get<std::string>() +
              "\" is not MxNxK (a gemm) or N (a gather)";
      return false;
    }
    plan.sizes.push_back(size.get<std::string>());
  }
  return true;
}

/// The -D names: sweep.json's axes, or else every define any variant has.
bool readAxes(const Json &root, SweepPlan &plan, std::string &error) {
  if (const Json *axes =
          typedMember(root, "", sweepfile::kAxes, Kind::Array, false, error)) {
    for (size_t i = 0; i < axes->size(); ++i) {
      std::string at = "axes[" + std::to_string(i) + "].";
      const Json &axis = (*axes)[i];
      if (const Json *name = typedMember(axis, at, sweepfile::kAxisName,
                                         Kind::String, true, error))
        plan.axes.push_back(name->get<std::string>());
      if (!error.empty())
        return false;
    }
    return true;
  }
  std::set<std::string> names;
  for (const SweepVariant &v : plan.variants)
    for (const auto &define : v.defines)
      names.insert(define.first);
  plan.axes.assign(names.begin(), names.end());
  return error.empty();
}

double median(std::vector<double> values) {
  return summarize(std::move(values)).median;
}

/// Higher is worse: a hang, then what klx-run exits 1 for, then 2.
int severity(std::string_view status) {
  switch (sweepExitCode(status)) {
  case 3:
    return 3;
  case 1:
    return 2;
  case 2:
    return 1;
  }
  return 0;
}

int exitCodeOfSeverity(int worst) {
  static const int codes[] = {0, 2, 1, 3};
  return codes[worst];
}

SweepRow summarizeRow(size_t variant,
                      const std::vector<const SweepProcess *> &processes) {
  SweepRow row;
  row.variant = variant;
  row.processes = int(processes.size());
  std::vector<double> tflops, blas, ratios;
  std::set<int> gpus;
  int worst = 0;
  auto worse = [](std::optional<double> &into, std::optional<double> e) {
    if (e && (!into || *e > *into))
      into = e;
  };
  for (const SweepProcess *p : processes) {
    gpus.insert(p->gpu);
    if (row.runSize.empty())
      row.runSize = p->size;
    worse(row.cpuRelativeError, p->cpuRelativeError);
    worse(row.cublasRelativeError, p->cublasRelativeError);
    if (p->passed()) {
      ++row.passed;
      if (p->tflops > 0)
        tflops.push_back(p->tflops);
      if (p->cublasTflops > 0)
        blas.push_back(p->cublasTflops);
      if (p->ratio() > 0)
        ratios.push_back(p->ratio());
      continue;
    }
    if (severity(p->status) > worst) {
      worst = severity(p->status);
      row.status = p->status;
    }
    std::string failure = p->status + ": " + p->message;
    if (row.message.find(failure) == std::string::npos)
      row.message += (row.message.empty() ? "" : "; ") + failure;
  }
  if (processes.empty()) {
    row.status = "not_run";
    row.message = "not run";
  } else if (row.passed == row.processes) {
    row.status = rf::kPassed;
  }
  row.gpus.assign(gpus.begin(), gpus.end());
  row.tflops = median(tflops);
  row.cublasTflops = median(blas);
  Timing spread = summarize(ratios);
  row.ratio = spread.median;
  row.ratioMin = spread.min;
  row.ratioMax = spread.max;
  return row;
}

/// Passing rows by TFLOP/s, then failed ones (most processes passed
/// first), then the variants with nothing to run; ties keep the plan's
/// order.
void rankRows(std::vector<SweepRow> &rows, bool ordered) {
  auto group = [](const SweepRow &r) {
    if (r.status == rf::kPassed)
      return 0;
    return r.status == "not_compiled" || r.status == "no_bundle" ? 2 : 1;
  };
  auto faster = [&](const SweepRow &a, const SweepRow &b) {
    if (group(a) != group(b))
      return group(a) < group(b);
    if (group(a) == 1 && a.passed != b.passed)
      return a.passed > b.passed;
    if (a.tflops != b.tflops)
      return a.tflops > b.tflops;
    return a.variant < b.variant;
  };
  // A ladder keeps its rungs in order and ranks them where they stand.
  std::vector<SweepRow *> byRank;
  for (SweepRow &row : rows)
    byRank.push_back(&row);
  std::sort(
      byRank.begin(), byRank.end(),
      [&](const SweepRow *a, const SweepRow *b) { return faster(*a, *b); });
  for (size_t i = 0; i < byRank.size() && group(*byRank[i]) == 0; ++i)
    byRank[i]->rank = int(i + 1);
  if (!ordered)
    std::sort(rows.begin(), rows.end(), faster);
}

} // namespace

std::optional<SweepPlan> klx::rt::parseSweepPlan(std::string_view text,
                                                 std::string &error) {
  error.clear();
  std::optional<Json> root = parseJsonObject(text, "sweep.json", error);
  if (!root)
    return std::nullopt;
  const Json *version =
      typedMember(*root, "", sweepfile::kVersionKey, Kind::Number, true, error);
  if (!version) {
    if (!member(*root, sweepfile::kVersionKey))
      error += " (is this a sweep.json written by klx sweep?)";
    return std::nullopt;
  }
  if (version->get<double>() != sweepfile::kVersion) {
    error = "sweep.json: klx_sweep " + std::to_string(version->get<int64_t>()) +
            " is not a format this klx-run reads (" +
            std::to_string(sweepfile::kVersion) + ")";
    return std::nullopt;
  }
  SweepPlan plan;
  if (const Json *file =
          typedMember(*root, "", sweepfile::kFile, Kind::String, false, error))
    plan.file = file->get<std::string>();
  const Json *variants = member(*root, sweepfile::kVariants);
  if (error.empty() && (!variants || !variants->is_array()))
    error = "sweep.json: no 'variants' array";
  if (!error.empty() || !readSizes(*root, plan, error))
    return std::nullopt;
  for (size_t i = 0; i < variants->size(); ++i) {
    std::optional<SweepVariant> variant = readVariant(
        (*variants)[i], "variants[" + std::to_string(i) + "]", error);
    if (!variant)
      return std::nullopt;
    plan.variants.push_back(std::move(*variant));
  }
  if (const Json *ordered =
          typedMember(*root, "", sweepfile::kOrdered, Kind::Bool, false, error))
    plan.ordered = ordered->get<bool>();
  if (!error.empty() || !readAxes(*root, plan, error))
    return std::nullopt;
  return plan;
}

std::vector<SweepJob> klx::rt::planSweepJobs(const SweepPlan &plan, int procs) {
  std::vector<size_t> runnable;
  for (size_t v = 0; v < plan.variants.size(); ++v)
    if (plan.variants[v].runnable())
      runnable.push_back(v);
  std::vector<SweepJob> jobs;
  size_t sizes = std::max<size_t>(plan.sizes.size(), 1);
  for (int p = 0; p < std::max(procs, 1); ++p)
    for (size_t s = 0; s < sizes; ++s)
      for (size_t i = 0; i < runnable.size(); ++i)
        jobs.push_back(
            SweepJob{runnable[(i + size_t(p)) % runnable.size()], s, p});
  return jobs;
}

double SweepProcess::ratio() const {
  return alternatingTflops > 0 && cublasTflops > 0
             ? alternatingTflops / cublasTflops
             : 0;
}

int klx::rt::sweepExitCode(std::string_view status) {
  if (status == rf::kPassed)
    return 0;
  if (status == rf::kHang)
    return 3;
  if (status == rf::kNoDevice || status == rf::kDriverError)
    return 2;
  return 1;
}

SweepProcess klx::rt::readSweepChild(const SweepJob &job, int gpu,
                                     const ChildExit &child) {
  SweepProcess p;
  p.job = job;
  p.gpu = gpu;
  p.status = "error";
  if (!child.startError.empty()) {
    p.message = "cannot start " + child.startError;
    return p;
  }
  if (child.timedOut) {
    // klx-run bounds every launch itself; only a stuck runner gets here.
    p.status = rf::kHang;
    p.message = "killed after " + std::to_string(int64_t(child.seconds)) +
                " s without a result";
    return p;
  }
  JsonError jsonError;
  std::optional<Json> root = parseJson(child.out, jsonError);
  const Json *status = root ? member(*root, rf::kStatus) : nullptr;
  if (!status || !status->is_string()) {
    p.message = child.signal ? "killed by " + signalName(child.signal)
                             : "exited with " + std::to_string(child.exitCode);
    std::string why = firstLine(child.err);
    p.message += why.empty() ? " and printed no result" : ": " + why;
    return p;
  }
  auto text = [&](const char *key) {
    const Json *v = member(*root, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
  };
  auto number = [&](const char *key) {
    const Json *v = member(*root, key);
    return v && v->is_number() ? v->get<double>() : 0.0;
  };
  auto relativeError = [&](const char *check) -> std::optional<double> {
    const Json *c = member(*root, check);
    const Json *e = c ? member(*c, rf::kRelativeError) : nullptr;
    if (!e)
      return std::nullopt;
    // The writer turns a non-finite error into null.
    return e->is_number() ? e->get<double>() : INFINITY;
  };
  p.status = status->get<std::string>();
  p.message = text(rf::kMessage);
  p.device = text(rf::kDevice);
  p.pci = text(rf::kPci);
  p.size = text(rf::kSize);
  p.tflops = number(rf::kTflops);
  p.cublasTflops = number(rf::kCublasTflops);
  p.alternatingTflops = number(rf::kAlternatingTflops);
  p.cpuRelativeError = relativeError(rf::kCpuCheck);
  p.cublasRelativeError = relativeError(rf::kCublasCheck);
  return p;
}

void klx::rt::checkChildGpu(SweepProcess &p, const std::string &expectedPci) {
  if (p.pci.empty() || expectedPci.empty() || p.pci == expectedPci)
    return;
  p.status = "error";
  p.message = "ran on the GPU at PCI " + p.pci + ", was given GPU " +
              std::to_string(p.gpu) + " at " + expectedPci;
}

SweepSummary
klx::rt::summarizeSweep(const SweepPlan &plan,
                        const std::vector<SweepProcess> &processes) {
  SweepSummary summary;
  size_t sizes = std::max<size_t>(plan.sizes.size(), 1);
  // [size][variant] -> its processes
  std::vector<std::vector<std::vector<const SweepProcess *>>> cells(
      sizes,
      std::vector<std::vector<const SweepProcess *>>(plan.variants.size()));
  int worst = 0;
  std::vector<std::string> devices;
  for (const SweepProcess &p : processes) {
    if (p.job.size >= sizes || p.job.variant >= plan.variants.size())
      continue;
    cells[p.job.size][p.job.variant].push_back(&p);
    worst = std::max(worst, severity(p.status));
    // Two GPUs of one name are told apart by where they sit.
    std::string device = p.pci.empty() ? p.device : p.device + " at " + p.pci;
    if (!p.device.empty() &&
        std::find(devices.begin(), devices.end(), device) == devices.end())
      devices.push_back(device);
  }
  for (const std::string &device : devices)
    summary.device += (summary.device.empty() ? "" : " + ") + device;
  for (size_t s = 0; s < sizes; ++s) {
    SweepTable table;
    table.size = plan.sizes.empty() ? "" : plan.sizes[s];
    for (size_t v = 0; v < plan.variants.size(); ++v) {
      const SweepVariant &variant = plan.variants[v];
      if (variant.runnable()) {
        table.rows.push_back(summarizeRow(v, cells[s][v]));
        continue;
      }
      SweepRow row;
      row.variant = v;
      row.status = variant.compiled ? "no_bundle" : "not_compiled";
      row.message = variant.compiled ? variant.bundleNote : variant.error;
      if (row.message.empty())
        row.message = variant.compiled ? "compiled, but no bundle written"
                                       : "did not compile";
      table.rows.push_back(std::move(row));
    }
    rankRows(table.rows, plan.ordered);
    summary.tables.push_back(std::move(table));
  }
  summary.exitCode = exitCodeOfSeverity(worst);
  return summary;
}

std::optional<std::vector<int>>
klx::rt::parseGpuList(std::string_view spec, int count, std::string &error) {
  std::vector<int> gpus;
  if (count <= 0) {
    error = "no CUDA device";
    return std::nullopt;
  }
  if (spec == "all") {
    for (int i = 0; i < count; ++i)
      gpus.push_back(i);
    return gpus;
  }
  std::string flag = "--gpus=" + std::string(spec);
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = std::min(spec.find(',', start), spec.size());
    std::string_view item = spec.substr(start, end - start);
    bool digits = !item.empty() && item.size() < 6 &&
                  item.find_first_not_of("0123456789") == std::string::npos;
    int ordinal = digits ? std::stoi(std::string(item)) : -1;
    if (!digits) {
      error = flag + ": \"" + std::string(item) +
              "\" is not a device ordinal (all, or a list like 0,1)";
      return std::nullopt;
    }
    if (ordinal >= count) {
      error = flag + ": there is no GPU " + std::to_string(ordinal) +
              "; the driver sees " + std::to_string(count) + " (0 to " +
              std::to_string(count - 1) + ")";
      return std::nullopt;
    }
    // Two workers on one GPU would time their kernels against each other.
    if (std::find(gpus.begin(), gpus.end(), ordinal) != gpus.end()) {
      error = flag + ": GPU " + std::to_string(ordinal) + " is named twice";
      return std::nullopt;
    }
    gpus.push_back(ordinal);
    start = end + 1;
  }
  return gpus;
}

std::string klx::rt::childVisibleDevices(const char *parentValue, int ordinal) {
  std::string_view list = parentValue ? parentValue : "";
  size_t start = 0;
  for (int i = 0; !list.empty() && start <= list.size(); ++i) {
    size_t end = std::min(list.find(',', start), list.size());
    if (i == ordinal)
      return std::string(list.substr(start, end - start));
    start = end + 1;
  }
  return std::to_string(ordinal);
}
