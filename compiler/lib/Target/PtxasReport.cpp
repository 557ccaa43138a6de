//===- PtxasReport.cpp - What `ptxas -v` says about each kernel -----------===//

#include "klx/Target/PtxasReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

#include <optional>

using namespace klx;

const PtxasFunctionReport *PtxasReport::find(llvm::StringRef name) const {
  for (const PtxasFunctionReport &function : functions)
    if (function.name == name)
      return &function;
  return nullptr;
}

bool PtxasReport::hasWarning(llvm::StringRef code) const {
  return llvm::any_of(messages, [&](const PtxasMessage &message) {
    return !message.isError && message.code == code;
  });
}

// "16384 bytes stack frame" -> 16384 when `what` is "bytes stack frame".
static bool readQuantity(llvm::StringRef item, llvm::StringRef what,
                         unsigned &out) {
  item = item.trim();
  if (!item.ends_with(what))
    return false;
  llvm::StringRef number = item.drop_back(what.size()).trim();
  // "used 1 barriers": the count follows a leading word.
  number =
      number.rsplit(' ').second.empty() ? number : number.rsplit(' ').second;
  return !number.getAsInteger(10, out);
}

static void readFunctionProperties(llvm::StringRef line,
                                   PtxasFunctionReport &function) {
  llvm::SmallVector<llvm::StringRef> items;
  line.split(items, ',');
  for (llvm::StringRef item : items) {
    unsigned value = 0;
    if (readQuantity(item, "bytes stack frame", value))
      function.stackFrameBytes = value;
    else if (readQuantity(item, "bytes spill stores", value))
      function.spillStoreBytes = value;
    else if (readQuantity(item, "bytes spill loads", value))
      function.spillLoadBytes = value;
  }
}

static void readUsage(llvm::StringRef line, PtxasFunctionReport &function) {
  llvm::SmallVector<llvm::StringRef> items;
  line.split(items, ',');
  for (llvm::StringRef item : items) {
    unsigned value = 0;
    if (readQuantity(item, "registers", value))
      function.registers = value;
    else if (readQuantity(item, "barriers", value))
      function.barriers = value;
    else if (readQuantity(item, "bytes smem", value))
      function.sharedBytes = value;
    else if (readQuantity(item, "bytes cmem[0]", value))
      function.constantBytes = value;
  }
}

PtxasReport klx::parsePtxasReport(llvm::StringRef text) {
  PtxasReport report;
  static const llvm::Regex compiling(
      "Compiling entry function '([^']+)' for '([^']+)'");
  static const llvm::Regex properties("Function properties for ([^ ]+)");
  static const llvm::Regex code("(C[0-9]{4})");
  static const llvm::Regex message(
      "^ptxas[^:]*(warning|error|fatal)[ \t]*:[ \t]*(.*)$");
  // ptxas 13 prints performance advice such as C7508 ("setmaxnreg
  // ignored") as info lines that carry a code; they are warnings to us.
  static const llvm::Regex codedInfo(
      "^ptxas[ \t]+info[ \t]*:[ \t]*([(]C[0-9]{4}[)].*)$");

  // Indices, not pointers: the vector grows while parsing.
  std::optional<size_t> current, propertiesOf;
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  for (llvm::StringRef rawLine : lines) {
    llvm::StringRef line = rawLine.trim();
    llvm::SmallVector<llvm::StringRef, 3> groups;
    if (compiling.match(line, &groups)) {
      report.functions.push_back({});
      report.functions.back().name = groups[1].str();
      report.functions.back().arch = groups[2].str();
      current = report.functions.size() - 1;
      propertiesOf.reset();
      continue;
    }
    if (properties.match(line, &groups)) {
      // Properties also appear for non-entry functions; attach them to the
      // entry with that name or to a new record.
      propertiesOf.reset();
      for (size_t i = 0; i < report.functions.size(); ++i)
        if (report.functions[i].name == groups[1])
          propertiesOf = i;
      if (!propertiesOf) {
        report.functions.push_back({});
        report.functions.back().name = groups[1].str();
        propertiesOf = current = report.functions.size() - 1;
      }
      continue;
    }
    if (propertiesOf && line.contains("bytes stack frame")) {
      readFunctionProperties(line, report.functions[*propertiesOf]);
      continue;
    }
    if (current && line.contains("Used ") && line.contains(" registers")) {
      readUsage(line.substr(line.find("Used ")), report.functions[*current]);
      continue;
    }
    if (line.ends_with("bytes gmem")) {
      unsigned value = 0;
      llvm::StringRef number = line.rsplit(':').second.trim();
      if (!number.split(' ').first.getAsInteger(10, value))
        report.globalBytes = value;
      continue;
    }
    if (codedInfo.match(line, &groups)) {
      PtxasMessage entry;
      entry.text = groups[1].trim().str();
      llvm::SmallVector<llvm::StringRef, 2> codeGroups;
      if (code.match(entry.text, &codeGroups))
        entry.code = codeGroups[1].str();
      report.messages.push_back(std::move(entry));
      continue;
    }
    if (message.match(line, &groups)) {
      PtxasMessage entry;
      entry.isError = groups[1] != "warning";
      entry.text = groups[2].trim().str();
      // Keep the position part ("x.ptx, line 5") for errors in PTX input.
      llvm::StringRef prefix = line.substr(0, line.find(groups[1]));
      if (prefix.contains(", line "))
        entry.text = (prefix.drop_front(strlen("ptxas")).trim().rtrim(';') +
                      ": " + entry.text)
                         .str();
      llvm::SmallVector<llvm::StringRef, 2> codeGroups;
      if (code.match(entry.text, &codeGroups))
        entry.code = codeGroups[1].str();
      report.messages.push_back(std::move(entry));
    }
  }
  return report;
}
