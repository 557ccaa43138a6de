//===- SweepResults.cpp - A sweep as the Sweep pane draws it --------------===//

#include "SweepResults.h"

#include "klx/Runtime/SweepFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace klx;
using namespace klx::app;

double SweepSizeResult::largestTflops() const {
  double largest = cublasTflops;
  for (const SweepBar &bar : bars)
    largest = std::max(largest, bar.tflops);
  return largest;
}

namespace {

std::string text(const llvm::json::Object &o, llvm::StringRef key) {
  return o.getString(key).value_or("").str();
}

/// A number written as an integer or a real; `fallback` when absent.
double number(const llvm::json::Object &o, llvm::StringRef key,
              double fallback = 0) {
  return o.getNumber(key).value_or(fallback);
}

std::string cell(const llvm::json::Object &o, llvm::StringRef key) {
  if (std::optional<int64_t> value = o.getInteger(key))
    return std::to_string(*value);
  return "-";
}

SweepCompileRow compileRow(const llvm::json::Object &o) {
  SweepCompileRow row;
  row.name = text(o, "name");
  row.compiled = o.getBoolean("compiled").value_or(false);
  row.error = text(o, "error");
  if (o.get("registers")) {
    row.registers = cell(o, "registers");
    row.shared = cell(o, "shared_memory");
    row.spills =
        cell(o, "spill_store_bytes") + "/" + cell(o, "spill_load_bytes");
  } else if (o.get("vgprs")) {
    row.registers = "v" + cell(o, "vgprs") + " a" + cell(o, "agprs") + " s" +
                    cell(o, "sgprs");
    row.shared = cell(o, "lds");
  }
  row.roles = text(o, "roles");
  row.simulated = text(o, "simulated");
  return row;
}

SweepBar bar(const llvm::json::Object &o) {
  SweepBar b;
  b.variant = text(o, "variant");
  b.status = text(o, "status");
  b.rank = int(number(o, "rank"));
  b.processes = int(number(o, "processes"));
  b.passed = int(number(o, "passed"));
  b.tflops = number(o, "tflops");
  b.cublasTflops = number(o, "cublas_tflops");
  b.ratio = number(o, "ratio");
  b.ratioMin = number(o, "ratio_min");
  b.ratioMax = number(o, "ratio_max");
  b.relativeError = std::max(number(o, "cpu_relative_error", -1),
                             number(o, "cublas_relative_error", -1));
  b.message = text(o, "message");
  return b;
}

double median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// klx-run --sweep's result: one table of ranked rows per size.
llvm::Error readRuns(const llvm::json::Object &root, SweepResults &results) {
  const llvm::json::Array *sizes = root.getArray("sizes");
  if (!sizes)
    return llvm::createStringError("the sweep result has no 'sizes' array");
  results.device = text(root, "device");
  bool ordered = root.getBoolean(rt::sweepfile::kOrdered).value_or(false);
  for (const llvm::json::Value &value : *sizes) {
    const llvm::json::Object *size = value.getAsObject();
    const llvm::json::Array *rows = size ? size->getArray("rows") : nullptr;
    if (!rows)
      return llvm::createStringError(
          "a size of the sweep result has no 'rows' array");
    SweepSizeResult result;
    result.size = text(*size, "size");
    result.ordered = ordered;
    std::vector<double> blas;
    for (const llvm::json::Value &row : *rows)
      if (const llvm::json::Object *o = row.getAsObject()) {
        result.bars.push_back(bar(*o));
        if (result.bars.back().cublasTflops > 0)
          blas.push_back(result.bars.back().cublasTflops);
      }
    result.cublasTflops = median(blas);
    results.sizes.push_back(std::move(result));
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<SweepResults> klx::app::parseSweepResults(llvm::StringRef text) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return parsed.takeError();
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return llvm::createStringError("a sweep result is a JSON object");
  SweepResults results;
  if (root->get(rt::sweepfile::kResultVersionKey)) {
    if (llvm::Error error = readRuns(*root, results))
      return std::move(error);
    return results;
  }
  if (!root->get(rt::sweepfile::kVersionKey))
    return llvm::createStringError(
        "not a sweep: neither `klx sweep --json` (klx_sweep) nor `klx-run "
        "--sweep --json` (klx_sweep_result) wrote it");
  results.file = ::text(*root, "file");
  results.notRun = ::text(*root, "not_run");
  if (const llvm::json::Array *variants = root->getArray("variants"))
    for (const llvm::json::Value &value : *variants)
      if (const llvm::json::Object *o = value.getAsObject())
        results.variants.push_back(compileRow(*o));
  if (const llvm::json::Object *runs = root->getObject("runs"))
    if (llvm::Error error = readRuns(*runs, results))
      return std::move(error);
  return results;
}

SweepResults
klx::app::sweepResultsFromCompile(llvm::StringRef file,
                                  llvm::ArrayRef<SweepVariant> variants,
                                  llvm::StringRef notRun) {
  // The same cells `klx sweep --json` writes, read back: one place says
  // how a variant's resources print.
  llvm::json::Value doc = sweepJson(file, SweepPlan{}, variants);
  llvm::json::Object &root = *doc.getAsObject();
  root["not_run"] = notRun;
  std::string written;
  llvm::raw_string_ostream os(written);
  os << doc;
  llvm::Expected<SweepResults> results = parseSweepResults(written);
  if (!results) {
    llvm::consumeError(results.takeError());
    return SweepResults{};
  }
  return std::move(*results);
}

llvm::Expected<Defines> klx::app::parseSweepAxesText(llvm::StringRef text) {
  Defines defines;
  for (llvm::StringRef rest = text; !rest.empty();) {
    size_t end = rest.find_first_of(" ;\t");
    llvm::StringRef word = rest.substr(0, end).trim();
    rest = end == llvm::StringRef::npos ? "" : rest.substr(end + 1);
    if (word.empty())
      continue;
    auto [name, values] = word.split('=');
    if (name.empty() || !word.contains('=') || values.empty())
      return llvm::createStringError("'" + word.str() +
                                     "' is not NAME=V1,V2,... (for example "
                                     "tile_n=128,256 stages=3,4)");
    defines.emplace_back(name.str(), values.str());
  }
  if (defines.empty())
    return llvm::createStringError(
        "give the values to sweep: NAME=V1,V2,... (for example "
        "tile_n=128,256 stages=3,4)");
  return defines;
}
