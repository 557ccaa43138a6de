//===- CompareCommand.cpp - klx compile FILE --compare A [B] --------------===//
//
// Compiles two variants of a kernel through the whole pipeline and prints
// the comparison (Comparison.h): with two variants, FILE with each; with
// one, FILE as given against FILE with the variant. A variant is -D
// values ("stages=2,consumers=1") on top of the command's own, or another
// file.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"

#include "klx/Pipeline/Comparison.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace klx;
using namespace klx::cli;

namespace {

struct Side {
  std::string label;
  std::string fileName;
  std::string source;
  CompileOptions options;
};

/// The base input with the variant applied; nullopt after a message.
std::optional<Side> sideFor(const LoadedInput &base,
                            const std::optional<VariantSpec> &variant) {
  Side side;
  side.fileName = base.fileName;
  side.source = base.source;
  side.options = base.options;
  side.label = "as given";
  if (!variant)
    return side;
  side.label = variant->text;
  if (!variant->file.empty()) {
    llvm::Expected<std::string> text =
        readSourceFile(variant->file, StreamInput::Read);
    if (!text) {
      llvm::errs() << variant->file << ": error: cannot read the file: "
                   << llvm::toString(text.takeError()) << "\n";
      return std::nullopt;
    }
    side.fileName = variant->file;
    side.source = std::move(*text);
    return side;
  }
  side.options.defines = applyVariant(base.options.defines, *variant);
  return side;
}

} // namespace

int cli::runCompareCommand(const Arguments &args) {
  static const llvm::StringRef ownFlags[] = {"compare", "json", "pass", "tiles",
                                             "k-steps"};
  // FILE, then one or two variants (also accepted as --compare=VARIANT).
  Arguments fileOnly = args;
  std::vector<std::string> variantTexts;
  if (std::optional<std::string> inFlag = args.get("compare");
      inFlag && !inFlag->empty())
    variantTexts.push_back(*inFlag);
  if (!fileOnly.positional.empty())
    variantTexts.insert(variantTexts.end(), fileOnly.positional.begin() + 1,
                        fileOnly.positional.end());
  if (fileOnly.positional.size() > 1)
    fileOnly.positional.resize(1);
  if (variantTexts.empty() || variantTexts.size() > 2) {
    llvm::errs() << "klx compile --compare: expected FILE and one or two "
                    "variants (NAME=VALUE[,NAME=VALUE] or a file), got "
                 << variantTexts.size() << "\n";
    return kExitUsageError;
  }
  InputOrExit input = loadInput(fileOnly, ownFlags, llvm::errs());
  if (!input)
    return input.exitCode;
  // A bound given is both runs' (equal work by construction).
  if (!readModelSize(args, "compile --compare", input->options.modelSize,
                     llvm::errs()))
    return kExitUsageError;
  std::vector<std::optional<VariantSpec>> specs;
  if (variantTexts.size() == 1)
    specs.push_back(std::nullopt);
  for (const std::string &text : variantTexts) {
    std::string error;
    std::optional<VariantSpec> spec = parseVariantSpec(text, error);
    if (!spec) {
      llvm::errs() << "klx compile --compare: " << error << "\n";
      return kExitUsageError;
    }
    specs.push_back(std::move(spec));
  }
  std::vector<PipelineRun> runs;
  std::vector<std::string> labels;
  for (const std::optional<VariantSpec> &spec : specs) {
    std::optional<Side> side = sideFor(*input, spec);
    if (!side)
      return kExitUsageError;
    runs.push_back(runPipeline(side->source, side->fileName, side->options));
    labels.push_back(side->label);
    printDiagnostics(runs.back(), llvm::errs());
  }
  // Equal work: each timeline over the larger bound of the two (unless
  // --k-steps / --tiles already gave both the same one); only a run over
  // another bound compiles again.
  if (std::optional<ModelSize> common = commonModelSize(runs[0], runs[1]))
    for (size_t i = 0; i < runs.size(); ++i) {
      std::optional<ModelSize> own = timelineBound(runs[i]);
      if (own && own->tiles == common->tiles && own->kSteps == common->kSteps)
        continue;
      std::optional<Side> side = sideFor(*input, specs[i]);
      side->options.modelSize = *common;
      runs[i] = runPipeline(side->source, side->fileName, side->options);
    }
  std::string step = args.get("pass").value_or("");
  for (const PipelineRun &run : runs)
    if (!step.empty() &&
        !namedStep(run, step, "compile --compare", llvm::errs()))
      return kExitUsageError;
  Comparison comparison =
      compareRuns(runs[0], runs[1], labels[0], labels[1], step);
  if (args.has("json")) {
    llvm::json::OStream json(llvm::outs(), 2);
    json.object([&] {
      json.attribute("file", input->fileName);
      json.attributeArray("variants", [&] {
        for (size_t i = 0; i < runs.size(); ++i)
          json.object([&] {
            json.attribute("label", labels[i]);
            json.attribute("file", runs[i].fileName);
            json.attribute("status", runs[i].succeeded() ? "success"
                                     : runs[i].status == RunStatus::InputError
                                         ? "input-error"
                                         : "environment-error");
          });
      });
      json.attributeBegin("comparison");
      writeComparisonJson(json, comparison);
      json.attributeEnd();
    });
    llvm::outs() << "\n";
  } else {
    llvm::outs() << "comparing " << input->fileName << "\n";
    printComparison(llvm::outs(), comparison);
  }
  for (const PipelineRun &run : runs)
    if (!run.succeeded())
      return exitCodeFor(run);
  return kExitSuccess;
}
