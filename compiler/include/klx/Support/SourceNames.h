//===- SourceNames.h - The names an input gives its values ------*- C++ -*-===//
//
// MLIR forgets the SSA names of the text it parses; people reading an
// analysis of their kernel do not. This looks an op up in the input text
// by its location and gives back the name its result was written with
// (`full` for `%full = nvgpu.mbarrier.create ...`), so that barriers are
// called what the kernel calls them.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_SUPPORT_SOURCENAMES_H
#define KLX_SUPPORT_SOURCENAMES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class Operation;
} // namespace mlir

namespace klx {

class SourceNames {
public:
  /// `text` is the input as parsed under the buffer name `fileName`.
  SourceNames(llvm::StringRef text, llvm::StringRef fileName);

  /// The name of `op`'s first result in the text, without the `%`; empty
  /// when the op was not written there (a pass made it) or has no named
  /// result.
  std::string resultName(mlir::Operation *op) const;

private:
  std::string fileName;
  llvm::SmallVector<llvm::StringRef> lines;
};

} // namespace klx

#endif // KLX_SUPPORT_SOURCENAMES_H
