//===- SyntaxTokens.h - Colour classes for IR and assembly ------*- C++ -*-===//
//
// A per-line tokenizer, enough to colour MLIR, LLVM IR, PTX, SASS and
// AMDGCN the way a reader expects. It never fails: what it does not know
// is plain text.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_APP_VIEWS_SYNTAXTOKENS_H
#define KLX_APP_VIEWS_SYNTAXTOKENS_H

#include "klx/Support/Stages.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace klx::app {

enum class Language { MLIR, LLVM, PTX, SASS, AMDGCN, Plain };

Language languageFor(EmitKind kind);

enum class TokenKind : uint8_t {
  Text,
  Comment,
  Keyword,   // an op or instruction name
  Value,     // %x, registers
  Symbol,    // @f
  Type,      // !t, i32, f16, memref, .u64
  Attribute, // #a, directives
  Number,
  String,
  Label, // ^bb0, $L__BB0_2:
};

struct Token {
  uint32_t begin;
  uint32_t length;
  TokenKind kind;
};

void tokenizeLine(llvm::StringRef line, Language language,
                  llvm::SmallVectorImpl<Token> &tokens);

} // namespace klx::app

#endif // KLX_APP_VIEWS_SYNTAXTOKENS_H
