//===- SourceNestingTest.cpp - Deep input refused at its place ------------===//
//
// The lexical scans that run before MLIR's and the JSON parsers descend
// into a text: each kind of bracket counted on its own, up to the limit
// and one past it; what MLIR's and JSON's lexical rules say is not a
// bracket (comments, strings, arrows, comparisons) is not counted.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "klx/Pipeline/Compiler.h"
#include "klx/Runtime/Json.h"
#include "klx/Support/SourceNesting.h"

using namespace klx;

namespace {
std::string repeat(const std::string &text, unsigned times) {
  std::string out;
  for (unsigned i = 0; i < times; ++i)
    out += text;
  return out;
}
} // namespace

TEST_CASE("Each kind of bracket may nest up to the limit and no further",
          "[nesting]") {
  for (auto [open, close] :
       {std::pair{'{', '}'}, {'[', ']'}, {'(', ')'}, {'<', '>'}}) {
    INFO("bracket " << open);
    std::string atLimit = "x" + std::string(5, open) + std::string(5, close);
    CHECK_FALSE(findExcessNesting(atLimit, 5));
    std::string past = "x\n  " + std::string(6, open) + std::string(6, close);
    std::optional<ExcessNesting> excess = findExcessNesting(past, 5);
    REQUIRE(excess);
    CHECK(excess->line == 2);
    CHECK(excess->col == 8); // the sixth bracket
    CHECK(excess->bracket == open);
  }
  // Kinds are counted apart: 5 of each, interleaved, stay within 5.
  CHECK_FALSE(findExcessNesting(repeat("{[(<", 5) + repeat(">)]}", 5), 5));
  // Closed brackets open nothing: 1000 siblings are one level.
  CHECK_FALSE(findExcessNesting(repeat("{}", 1000), 1));
}

TEST_CASE("Comments, strings, arrows and comparisons hold no brackets",
          "[nesting]") {
  CHECK_FALSE(findExcessNesting("// {{{{{{\n{}", 1));
  CHECK_FALSE(findExcessNesting("{s = \"[[[[ \\\" ((((\"}", 1));
  // A string ends at its line's end: the next line is read again.
  std::optional<ExcessNesting> unclosed = findExcessNesting("x = \"(((\n((", 1);
  REQUIRE(unclosed);
  CHECK(unclosed->line == 2);
  CHECK(unclosed->col == 2);
  // `->` closes nothing and `>=`, `<=` are comparisons: the angle depth
  // stays at one through an affine map and an integer set.
  CHECK_FALSE(
      findExcessNesting("#m = affine_map<(d0, d1) -> (d0 + d1)>\n"
                        "#s = affine_set<(d0) : (d0 - 1 >= 0, 4 - d0 >= 0)>\n"
                        "func.func @f() -> (i32) attributes {a = #m, s = #s}",
                        1));
  // More closers than openers do not wrap the count around.
  CHECK_FALSE(findExcessNesting("}}}]]]))){", 1));
}

TEST_CASE("A source nested past the limit fails its parse step at the place",
          "[nesting]") {
  std::string source = "gpu.module @m {\n" +
                       repeat("scf.if %c {\n", kMaxSourceNesting) +
                       repeat("}\n", kMaxSourceNesting) + "}\n";
  PipelineRun run = runPipeline(source, "deep.mlir", CompileOptions());
  CHECK(run.status == RunStatus::InputError);
  REQUIRE(run.snapshots.size() == 1);
  const Snapshot &parse = run.snapshots[0];
  CHECK(parse.name == "parse");
  CHECK(parse.failed);
  REQUIRE(parse.diagnostics.size() == 1);
  const Diag &error = parse.diagnostics[0];
  CHECK(error.loc.file == "deep.mlir");
  CHECK(error.loc.line == kMaxSourceNesting + 1); // the 1000th if
  CHECK(error.loc.col == 11);
  CHECK(llvm::StringRef(error.message)
            .starts_with("regions ({) nest deeper than 1000 levels here"));
}

TEST_CASE("JSON nested past its limit is refused at its line and column",
          "[nesting]") {
  using rt::findExcessJsonNesting;
  using rt::kMaxJsonNesting;
  std::string atLimit =
      repeat("[", kMaxJsonNesting) + repeat("]", kMaxJsonNesting);
  CHECK_FALSE(findExcessJsonNesting(atLimit));
  std::string past = "{\"a\":\n" + repeat("[", kMaxJsonNesting) + "]";
  std::optional<rt::NestingError> excess = findExcessJsonNesting(past);
  REQUIRE(excess);
  CHECK(excess->line == 2);
  CHECK(excess->column == kMaxJsonNesting);
  // Arrays and objects count together; brackets in strings do not.
  CHECK(findExcessJsonNesting("{\"a\": [{\"b\": []}]}", 3));
  CHECK_FALSE(findExcessJsonNesting("{\"a\": \"[[[{{{\\\"[[[\"}", 1));
  // parseJson says it as a syntax error is said, with the place.
  rt::JsonError error;
  CHECK_FALSE(rt::parseJson(past, error));
  CHECK(error.line == 2);
  CHECK(error.column == kMaxJsonNesting);
  CHECK(error.message.find("nest deeper than 64 levels") != std::string::npos);
}
