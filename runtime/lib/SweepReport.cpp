//===- SweepReport.cpp - What klx-run --sweep prints ----------------------===//
//
// The ranking of a sweep as a markdown table per size (for a terminal or
// a pull request), as JSON (for the GUI and scripts) and as CSV (for a
// spreadsheet, one column per -D axis so that it can pivot on them).
//
//===----------------------------------------------------------------------===//

#include "klx/Runtime/Json.h"
#include "klx/Runtime/Sweep.h"
#include "klx/Runtime/SweepFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace klx::rt;

namespace {

std::string format(const char *fmt, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, fmt, value);
  return buffer;
}

std::string errorText(std::optional<double> e) {
  if (!e)
    return "-";
  if (std::isinf(*e))
    return "inf";
  return *e == 0 ? "0" : format("%.2e", *e);
}

std::string ratioText(const SweepRow &row) {
  if (row.ratio <= 0)
    return "-";
  std::string text = format("%.2fx", row.ratio);
  // A spread needs several processes; with one, min = max = median.
  if (row.passed > 1)
    text += format(" [%.2f", row.ratioMin) + format(", %.2f]", row.ratioMax);
  return text;
}

std::string gpuList(const std::vector<int> &gpus) {
  std::string out;
  for (int gpu : gpus)
    out += (out.empty() ? "" : ",") + std::to_string(gpu);
  return out;
}

/// One line, no more than `limit` characters, with no '|' to split a
/// markdown cell.
std::string cell(std::string_view text, size_t limit = 160) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r')
      break;
    out += c == '|' ? '/' : c;
  }
  if (out.size() > limit)
    out = out.substr(0, limit - 3) + "...";
  return out;
}

std::string sizeLabel(const SweepTable &table) {
  return table.size.empty() ? "each bundle's own size" : table.size;
}

std::string note(const SweepVariant &variant, const SweepTable &table,
                 const SweepRow &row) {
  if (row.status == "not_compiled")
    return "not compiled: " + cell(row.message);
  if (row.status == "no_bundle")
    return "not run: " + cell(row.message);
  std::vector<std::string> parts;
  if (!row.message.empty())
    parts.push_back(cell(row.message));
  if (!variant.bundleNote.empty())
    parts.push_back(cell(variant.bundleNote));
  if (variant.registers >= 0)
    parts.push_back(std::to_string(variant.registers) + " regs");
  if (variant.spillBytes > 0)
    parts.push_back(std::to_string(variant.spillBytes) + " B spilled");
  if (table.size.empty() && !row.runSize.empty())
    parts.push_back("at " + row.runSize);
  if (!row.gpus.empty())
    parts.push_back((row.gpus.size() > 1 ? "GPUs " : "GPU ") +
                    gpuList(row.gpus));
  std::string out;
  for (const std::string &part : parts)
    out += (out.empty() ? "" : "; ") + part;
  return out;
}

std::string textRow(const SweepPlan &plan, const SweepTable &table,
                    const SweepRow &row) {
  const SweepVariant &variant = plan.variants[row.variant];
  bool ran = row.status != "not_compiled" && row.status != "no_bundle";
  std::string ok =
      ran ? std::to_string(row.passed) + "/" + std::to_string(row.processes)
          : "-";
  auto tflops = [](double t) { return t > 0 ? format("%.1f", t) : "-"; };
  std::string errors = ran ? errorText(row.cpuRelativeError) + " / " +
                                 errorText(row.cublasRelativeError)
                           : "-";
  return "| " + (row.rank ? std::to_string(row.rank) : "-") + " | " +
         cell(variant.name) + " | " + ok + " | " + tflops(row.tflops) + " | " +
         tflops(row.cublasTflops) + " | " + ratioText(row) + " | " + errors +
         " | " + note(variant, table, row) + " |\n";
}

std::string bestLine(const SweepPlan &plan, const SweepSummary &s) {
  std::string out;
  for (const SweepTable &table : s.tables) {
    std::string best = "none passed";
    // Ranked tables lead with it; a ladder's rungs keep their order.
    auto first = std::find_if(table.rows.begin(), table.rows.end(),
                              [](const SweepRow &r) { return r.rank == 1; });
    if (first != table.rows.end()) {
      const SweepRow &row = *first;
      best = plan.variants[row.variant].name + " (" +
             format("%.1f TFLOP/s", row.tflops) +
             (row.ratio > 0 ? format(", %.2fx cuBLAS", row.ratio) : "") + ")";
    }
    out += (out.empty() ? "" : "; ") +
           (table.size.empty() ? "" : table.size + ": ") + best;
  }
  return "best: " + out + "\n";
}

/// `value`, or null when it is absent (0 stands for "none").
Json positiveOrNull(double value) {
  return value > 0 ? Json(value) : Json(nullptr);
}

/// A relative error: null when absent or infinite.
Json errorOrNull(std::optional<double> value) {
  return value ? finiteOrNull(*value) : Json(nullptr);
}

Json jsonRow(const SweepPlan &plan, const SweepRow &row) {
  const SweepVariant &variant = plan.variants[row.variant];
  Json defines = Json::object();
  for (const auto &[name, value] : variant.defines)
    defines[name] = value;
  Json j;
  j[sweepfile::kRank] = row.rank ? Json(row.rank) : Json(nullptr);
  j[sweepfile::kVariant] = variant.name;
  j[sweepfile::kBundle] = variant.bundle;
  j[sweepfile::kDefines] = defines;
  j[sweepfile::kStatus] = row.status;
  j[sweepfile::kProcesses] = row.processes;
  j[sweepfile::kPassed] = row.passed;
  j[sweepfile::kTflops] = positiveOrNull(row.tflops);
  j[sweepfile::kCublasTflops] = positiveOrNull(row.cublasTflops);
  j[sweepfile::kRatio] = positiveOrNull(row.ratio);
  j[sweepfile::kRatioMin] = positiveOrNull(row.ratioMin);
  j[sweepfile::kRatioMax] = positiveOrNull(row.ratioMax);
  j[sweepfile::kCpuRelativeError] = errorOrNull(row.cpuRelativeError);
  j[sweepfile::kCublasRelativeError] = errorOrNull(row.cublasRelativeError);
  j[sweepfile::kMessage] = row.message;
  j["gpus"] = row.gpus;
  j["run_size"] = row.runSize;
  j[sweepfile::kRegisters] = variant.registers;
  j["spill_bytes"] = variant.spillBytes;
  return j;
}

/// RFC 4180: quoted when it holds a comma, a quote or a line break.
std::string csvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos)
    return std::string(text);
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvNumber(double value) {
  return value > 0 ? format("%.6g", value) : "";
}

std::string csvError(std::optional<double> e) {
  if (!e)
    return "";
  return std::isinf(*e) ? "inf" : format("%.6g", *e);
}

std::string defineOf(const SweepVariant &variant, const std::string &axis) {
  for (const auto &[name, value] : variant.defines)
    if (name == axis)
      return value;
  return "";
}

} // namespace

std::string klx::rt::formatSweepText(const SweepPlan &plan,
                                     const SweepSummary &s) {
  std::string out = "# klx sweep";
  if (!plan.file.empty())
    out += " of " + plan.file;
  out += " on " +
         (s.device.empty() ? std::string("no GPU (nothing ran)") : s.device) +
         "\n";
  for (const SweepTable &table : s.tables) {
    out += "\n## " + sizeLabel(table) + "\n\n";
    out += "| rank | variant | ok | TFLOP/s | cuBLAS TFLOP/s | klx / cuBLAS "
           "| rel. err (CPU / cuBLAS) | note |\n";
    out += "|---:|---|---:|---:|---:|---|---|---|\n";
    for (const SweepRow &row : table.rows)
      out += textRow(plan, table, row);
  }
  out += "\n" + bestLine(plan, s);
  for (const std::string &note : s.notes)
    out += "note: " + note + "\n";
  return out;
}

std::string klx::rt::formatSweepJson(const SweepPlan &plan,
                                     const SweepSummary &s) {
  Json sizes = Json::array();
  for (const SweepTable &table : s.tables) {
    Json rows = Json::array();
    for (const SweepRow &row : table.rows)
      rows.push_back(jsonRow(plan, row));
    sizes.push_back({{sweepfile::kSize, table.size}, {sweepfile::kRows, rows}});
  }
  Json j;
  j[sweepfile::kResultVersionKey] = sweepfile::kResultVersion;
  j[sweepfile::kFile] = plan.file;
  j[sweepfile::kDevice] = s.device;
  if (!s.notes.empty())
    j[sweepfile::kNotes] = s.notes;
  j["exit_code"] = s.exitCode;
  j[sweepfile::kOrdered] = plan.ordered;
  j[sweepfile::kSizes] = sizes;
  return dumpJson(j) + "\n";
}

std::string klx::rt::formatSweepCsv(const SweepPlan &plan,
                                    const SweepSummary &s) {
  std::string out = "size,rank,variant";
  for (const std::string &axis : plan.axes)
    out += "," + csvField(axis);
  out += ",status,processes,passed,tflops,cublas_tflops,ratio,ratio_min,"
         "ratio_max,cpu_relative_error,cublas_relative_error,registers,"
         "spill_bytes,gpus,message\n";
  for (const SweepTable &table : s.tables) {
    for (const SweepRow &row : table.rows) {
      const SweepVariant &variant = plan.variants[row.variant];
      std::string line =
          csvField(table.size.empty() ? row.runSize : table.size) + "," +
          (row.rank ? std::to_string(row.rank) : "") + "," +
          csvField(variant.name);
      for (const std::string &axis : plan.axes)
        line += "," + csvField(defineOf(variant, axis));
      line +=
          "," + row.status + "," + std::to_string(row.processes) + "," +
          std::to_string(row.passed) + "," + csvNumber(row.tflops) + "," +
          csvNumber(row.cublasTflops) + "," + csvNumber(row.ratio) + "," +
          csvNumber(row.ratioMin) + "," + csvNumber(row.ratioMax) + "," +
          csvError(row.cpuRelativeError) + "," +
          csvError(row.cublasRelativeError) + "," +
          (variant.registers >= 0 ? std::to_string(variant.registers) : "") +
          "," +
          (variant.spillBytes >= 0 ? std::to_string(variant.spillBytes) : "") +
          "," + csvField(gpuList(row.gpus)) + "," + csvField(row.message);
      out += line + "\n";
    }
  }
  return out;
}

std::string klx::rt::formatSweepProgress(size_t done, size_t total,
                                         const SweepPlan &plan,
                                         const SweepProcess &p) {
  std::string size = plan.sizes.empty() ? p.size : plan.sizes.at(p.job.size);
  std::string out = "[" + std::to_string(done) + "/" + std::to_string(total) +
                    "] " + plan.variants.at(p.job.variant).name +
                    (size.empty() ? "" : " " + size) + " on GPU " +
                    std::to_string(p.gpu) +
                    (p.pci.empty() ? "" : " (" + p.pci + ")") + ": ";
  if (!p.passed())
    return out + p.status +
           (p.message.empty() ? "" : " (" + cell(p.message) + ")");
  out += format("%.1f TFLOP/s", p.tflops);
  if (p.ratio() > 0)
    out += format(", %.2fx cuBLAS", p.ratio());
  return out;
}
