//===- SweepResults.cpp - A sweep as the Sweep pane draws it --------------===//

#include "SweepResults.h"

#include "klx/Runtime/JsonNesting.h"
#include "klx/Runtime/SweepFormat.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace klx;
using namespace klx::app;
namespace key = klx::rt::sweepfile;

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
  row.name = text(o, key::kName);
  row.compiled = o.getBoolean(key::kCompiled).value_or(false);
  row.error = text(o, key::kError);
  if (o.get(key::kRegisters)) {
    row.registers = cell(o, key::kRegisters);
    row.shared = cell(o, key::kSharedMemory);
    row.spills =
        cell(o, key::kSpillStoreBytes) + "/" + cell(o, key::kSpillLoadBytes);
  } else if (o.get(key::kVgprs)) {
    row.registers = "v" + cell(o, key::kVgprs) + " a" + cell(o, key::kAgprs) +
                    " s" + cell(o, key::kSgprs);
    row.shared = cell(o, key::kLds);
  }
  row.roles = text(o, key::kRoles);
  row.simulated = text(o, key::kSimulated);
  return row;
}

SweepBar bar(const llvm::json::Object &o) {
  SweepBar b;
  b.variant = text(o, key::kVariant);
  b.status = text(o, key::kStatus);
  b.rank = int(number(o, key::kRank));
  b.processes = int(number(o, key::kProcesses));
  b.passed = int(number(o, key::kPassed));
  b.tflops = number(o, key::kTflops);
  b.cublasTflops = number(o, key::kCublasTflops);
  b.ratio = number(o, key::kRatio);
  b.ratioMin = number(o, key::kRatioMin);
  b.ratioMax = number(o, key::kRatioMax);
  b.relativeError = std::max(number(o, key::kCpuRelativeError, -1),
                             number(o, key::kCublasRelativeError, -1));
  b.message = text(o, key::kMessage);
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
  const llvm::json::Array *sizes = root.getArray(key::kSizes);
  if (!sizes)
    return llvm::createStringError("the sweep result has no 'sizes' array");
  results.device = text(root, key::kDevice);
  bool ordered = root.getBoolean(key::kOrdered).value_or(false);
  for (const llvm::json::Value &value : *sizes) {
    const llvm::json::Object *size = value.getAsObject();
    const llvm::json::Array *rows = size ? size->getArray(key::kRows) : nullptr;
    if (!rows)
      return llvm::createStringError(
          "a size of the sweep result has no 'rows' array");
    SweepSizeResult result;
    result.size = text(*size, key::kSize);
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
  // LLVM's JSON parser descends recursively (JsonNesting.h).
  if (std::optional<klx::rt::NestingError> deep =
          klx::rt::findExcessJsonNesting(
              std::string_view(text.data(), text.size())))
    return llvm::createStringError(llvm::formatv("[{0}:{1}]: {2}", deep->line,
                                                 deep->column, deep->message));
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed)
    return parsed.takeError();
  const llvm::json::Object *root = parsed->getAsObject();
  if (!root)
    return llvm::createStringError("a sweep result is a JSON object");
  SweepResults results;
  if (root->get(key::kResultVersionKey)) {
    if (llvm::Error error = readRuns(*root, results))
      return std::move(error);
    return results;
  }
  if (!root->get(key::kVersionKey))
    return llvm::createStringError(
        "not a sweep: neither `klx sweep --json` (klx_sweep) nor `klx-run "
        "--sweep --json` (klx_sweep_result) wrote it");
  results.file = ::text(*root, key::kFile);
  results.notRun = ::text(*root, key::kNotRun);
  if (const llvm::json::Array *variants = root->getArray(key::kVariants))
    for (const llvm::json::Value &value : *variants)
      if (const llvm::json::Object *o = value.getAsObject())
        results.variants.push_back(compileRow(*o));
  if (const llvm::json::Object *runs = root->getObject(key::kRuns))
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
  root[key::kNotRun] = notRun;
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
