//===- SourceCorrelation.cpp - Which source line each line came from ------===//

#include "SourceCorrelation.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"

using namespace klx;
using namespace klx::app;

namespace {

// ".loc 1 37 12" -> 37 (PTX and AMDGCN spell it alike).
bool readLocDirective(llvm::StringRef line, uint32_t &out) {
  line = line.trim();
  if (!line.consume_front(".loc"))
    return false;
  llvm::SmallVector<llvm::StringRef, 4> fields;
  line.trim().split(fields, ' ', -1, /*KeepEmpty=*/false);
  if (fields.size() < 2)
    return false;
  uint32_t value;
  if (fields[1].trim().getAsInteger(10, value))
    return false;
  out = value;
  return true;
}

// nvdisasm --print-line-info: '//## File "/x/k.mlir", line 37'.
bool readSassLineInfo(llvm::StringRef line, uint32_t &out) {
  size_t at = line.find("//## File");
  if (at == llvm::StringRef::npos)
    return false;
  size_t lineWord = line.find(", line ", at);
  if (lineWord == llvm::StringRef::npos)
    return false;
  llvm::StringRef number = line.substr(lineWord + strlen(", line "));
  number = number.take_while(llvm::isDigit);
  return !number.getAsInteger(10, out);
}

bool isInstructionLine(llvm::StringRef line, Language language) {
  line = line.trim();
  if (line.empty() || line.starts_with("//") || line.starts_with(";") ||
      line.ends_with(":"))
    return false;
  if (language == Language::SASS)
    return line.starts_with("/*");
  return line.front() != '.' && line.front() != '{' && line.front() != '}';
}

std::vector<uint32_t> llvmSourceLines(llvm::ArrayRef<llvm::StringRef> lines) {
  // "!16 = !DILocation(line: 37, column: 12, scope: !6)"
  llvm::DenseMap<unsigned, uint32_t> locations;
  for (llvm::StringRef line : lines) {
    if (!line.starts_with("!") || !line.contains("!DILocation("))
      continue;
    unsigned id;
    if (line.drop_front(1).split(' ').first.getAsInteger(10, id))
      continue;
    size_t at = line.find("line: ");
    if (at == llvm::StringRef::npos)
      continue;
    uint32_t sourceLine;
    if (!line.substr(at + 6)
             .take_while(llvm::isDigit)
             .getAsInteger(10, sourceLine))
      locations[id] = sourceLine;
  }
  std::vector<uint32_t> result(lines.size(), 0);
  for (size_t i = 0; i < lines.size(); ++i) {
    size_t at = lines[i].rfind("!dbg !");
    if (at == llvm::StringRef::npos)
      continue;
    unsigned id;
    if (!lines[i].substr(at + 6).take_while(llvm::isDigit).getAsInteger(10, id))
      result[i] = locations.lookup(id);
  }
  return result;
}

} // namespace

std::vector<uint32_t> klx::app::sourceLinesOfText(llvm::StringRef text,
                                                  Language language) {
  llvm::SmallVector<llvm::StringRef> lines;
  text.split(lines, '\n');
  if (language == Language::LLVM)
    return llvmSourceLines(lines);
  std::vector<uint32_t> result(lines.size(), 0);
  if (language != Language::PTX && language != Language::AMDGCN &&
      language != Language::SASS)
    return result;
  uint32_t current = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    uint32_t value;
    if (language == Language::SASS ? readSassLineInfo(lines[i], value)
                                   : readLocDirective(lines[i], value)) {
      current = value;
      continue;
    }
    // A function ends the reach of the last .loc.
    if (lines[i].contains(".entry") || lines[i].contains("-- End function"))
      current = 0;
    if (isInstructionLine(lines[i], language))
      result[i] = current;
  }
  return result;
}

std::vector<uint32_t> klx::app::sourceLinesOf(const Snapshot &snapshot) {
  if (snapshot.kind != EmitKind::MLIR)
    return sourceLinesOfText(snapshot.text, languageFor(snapshot.kind));
  size_t lineCount =
      1 + std::count(snapshot.text.begin(), snapshot.text.end(), '\n');
  std::vector<uint32_t> result(lineCount, 0);
  for (const LineOrigin &origin : snapshot.origins)
    if (origin.line >= 1 && origin.line <= lineCount)
      result[origin.line - 1] = origin.source.line;
  return result;
}
