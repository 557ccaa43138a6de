//===- SourceNames.cpp - The names an input gives its values --------------===//

#include "klx/Support/SourceNames.h"

#include "klx/Support/Diagnostics.h"

#include "mlir/IR/Operation.h"

#include <cctype>

using namespace klx;

SourceNames::SourceNames(llvm::StringRef text, llvm::StringRef fileName)
    : fileName(fileName.str()) {
  text.split(lines, '\n');
}

std::string SourceNames::resultName(mlir::Operation *op) const {
  if (!op || op->getNumResults() == 0)
    return "";
  SourceLoc loc = toSourceLoc(op->getLoc());
  if (loc.file != fileName || loc.line == 0 || loc.line > lines.size() ||
      loc.col == 0)
    return "";
  // `%name = op...` (`%name:2 = ...`, `%a, %b = ...`): the op's name
  // starts at col, the first result's name is the first after the indent.
  llvm::StringRef before = lines[loc.line - 1].take_front(loc.col - 1).rtrim();
  if (!before.consume_back("="))
    return "";
  before = before.rtrim();
  size_t percent = before.find('%');
  if (percent == llvm::StringRef::npos)
    return "";
  llvm::StringRef name = before.drop_front(percent + 1);
  name = name.take_until([](char c) { return c == ':' || c == ','; });
  if (name.empty() || !llvm::all_of(name, [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               c == '.' || c == '$' || c == '-';
      }))
    return "";
  return name.str();
}
