//===- SyntaxTokens.cpp - Colour classes for IR and assembly --------------===//

#include "SyntaxTokens.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace klx::app;

Language klx::app::languageFor(EmitKind kind) {
  switch (kind) {
  case EmitKind::MLIR:
    return Language::MLIR;
  case EmitKind::LLVM:
    return Language::LLVM;
  case EmitKind::PTX:
    return Language::PTX;
  case EmitKind::SASS:
    return Language::SASS;
  case EmitKind::AMDGCN:
    return Language::AMDGCN;
  case EmitKind::Cubin:
    return Language::Plain;
  }
  return Language::Plain;
}

namespace {

bool isIdentChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
}

bool isBuiltinType(llvm::StringRef word) {
  static const llvm::StringSet<> types = {
      "index", "memref", "vector",   "tensor", "f16", "bf16",
      "f32",   "f64",    "f8E4M3FN", "f8E5M2", "ptr", "void",
      "float", "half",   "double",   "label",  "none"};
  if (types.contains(word))
    return true;
  // i1, i8, i32, i64, ui32, si8
  llvm::StringRef digits = word;
  if (!digits.consume_front("i") && !digits.consume_front("ui") &&
      !digits.consume_front("si"))
    return false;
  return !digits.empty() && llvm::all_of(digits, llvm::isDigit);
}

TokenKind classifyWord(llvm::StringRef word, Language language,
                       bool firstWord) {
  if (llvm::isDigit(word.front()) ||
      (word.front() == '-' && word.size() > 1 && llvm::isDigit(word[1])))
    return TokenKind::Number;
  switch (language) {
  case Language::MLIR:
    if (isBuiltinType(word))
      return TokenKind::Type;
    if (word.contains('.'))
      return TokenKind::Keyword; // dialect.op
    return TokenKind::Text;
  case Language::LLVM:
    if (isBuiltinType(word))
      return TokenKind::Type;
    if (firstWord || word == "call" || word == "define" || word == "declare")
      return TokenKind::Keyword;
    return TokenKind::Text;
  case Language::PTX:
    if (word.front() == '.')
      return TokenKind::Attribute;
    return firstWord ? TokenKind::Keyword : TokenKind::Text;
  case Language::SASS:
  case Language::AMDGCN:
    if (firstWord)
      return TokenKind::Keyword;
    // v0, s[4:5], R12, UR4, P0
    if (word.size() >= 2 &&
        (word.front() == 'v' || word.front() == 's' || word.front() == 'R' ||
         word.front() == 'P' || word.starts_with("UR")) &&
        (llvm::isDigit(word[1]) || word[1] == '[' ||
         (word.size() > 2 && llvm::isDigit(word[2]))))
      return TokenKind::Value;
    return TokenKind::Text;
  case Language::Plain:
    return TokenKind::Text;
  }
  return TokenKind::Text;
}

} // namespace

void klx::app::tokenizeLine(llvm::StringRef line, Language language,
                            llvm::SmallVectorImpl<Token> &tokens) {
  tokens.clear();
  if (language == Language::Plain) {
    tokens.push_back({0, uint32_t(line.size()), TokenKind::Text});
    return;
  }
  llvm::StringRef commentStart =
      language == Language::LLVM || language == Language::AMDGCN ? ";" : "//";
  bool sawWord = false;
  size_t i = 0;
  auto push = [&](size_t begin, size_t end, TokenKind kind) {
    if (end > begin)
      tokens.push_back({uint32_t(begin), uint32_t(end - begin), kind});
  };
  while (i < line.size()) {
    char c = line[i];
    if (line.substr(i).starts_with(commentStart) ||
        (language == Language::SASS && line.substr(i).starts_with("/*"))) {
      size_t end = line.size();
      if (language == Language::SASS && line.substr(i).starts_with("/*")) {
        size_t close = line.find("*/", i + 2);
        end = close == llvm::StringRef::npos ? line.size() : close + 2;
      }
      push(i, end, TokenKind::Comment);
      i = end;
      continue;
    }
    if (c == '"') {
      size_t j = i + 1;
      while (j < line.size() && line[j] != '"')
        j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, line.size());
      push(i, j, TokenKind::String);
      i = j;
      continue;
    }
    if (!isIdentChar(c) && c != '%' && c != '@' && c != '!' && c != '#' &&
        c != '^') {
      size_t j = i + 1;
      while (j < line.size() && !isIdentChar(line[j]) && line[j] != '%' &&
             line[j] != '@' && line[j] != '!' && line[j] != '#' &&
             line[j] != '^' && line[j] != '"' &&
             !line.substr(j).starts_with(commentStart))
        ++j;
      push(i, j, TokenKind::Text);
      i = j;
      continue;
    }
    size_t j = i + 1;
    while (j < line.size() && (isIdentChar(line[j]) || line[j] == ':' ||
                               (c == '!' && line[j] == '<')))
      ++j;
    // Labels end in ':' ("^bb1:", "$L__BB0_2:"); other words lose it.
    llvm::StringRef word = line.slice(i, j);
    bool isLabel = word.ends_with(":") && word.size() > 1;
    if (!isLabel)
      while (word.ends_with(":")) {
        word = word.drop_back();
        --j;
      }
    TokenKind kind;
    if (isLabel || c == '^')
      kind = TokenKind::Label;
    else if (c == '%')
      kind = TokenKind::Value;
    else if (c == '@')
      kind = TokenKind::Symbol;
    else if (c == '!')
      kind = TokenKind::Type;
    else if (c == '#')
      kind = TokenKind::Attribute;
    else
      kind = classifyWord(word, language, !sawWord);
    if (c != '%' && kind != TokenKind::Number && kind != TokenKind::Label)
      sawWord = true;
    push(i, j, kind);
    i = j;
  }
}
