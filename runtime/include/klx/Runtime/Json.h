//===- Json.h - JSON for the runner: nlohmann's, with positions -*- C++ -*-===//
//
// klx-run builds on machines without LLVM, so it cannot use llvm::json; it
// uses nlohmann's JSON (Debian's nlohmann-json3-dev, header only). This adds
// what klx-run's messages need: syntax errors as LINE:COL, a duplicate key
// refused (named by its path; nlohmann's parser does not say where) rather
// than silently overwritten, no exception escaping, and the kind of a value
// in words ("must be a number, not a string").
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_JSON_H
#define KLX_RUNTIME_JSON_H

#include "klx/Runtime/JsonNesting.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace klx::rt {

/// Objects keep their members in the order they were written, so the JSON
/// klx-run prints reads top-down like its text report.
using Json = nlohmann::ordered_json;

enum class JsonKind { Null, Bool, Number, String, Array, Object };
JsonKind kindOf(const Json &value);
/// "a number", "an object", ...: for "must be X, not Y".
const char *kindName(JsonKind kind);

/// The member `key` of an object, or null when absent or not an object.
const Json *member(const Json &object, std::string_view key);

struct JsonError {
  unsigned line = 0, column = 0; // 1-based
  std::string message;
};

/// Parses a whole document; trailing text other than whitespace, a key
/// given twice in one object and nesting past kMaxJsonNesting are errors.
std::optional<Json> parseJson(std::string_view text, JsonError &error);

/// A file that must hold one JSON object (manifest.json, sweep.json): the
/// object, or nullopt with `error` set to "NAME:LINE:COL: ..." or "NAME:
/// the document must be an object".
std::optional<Json> parseJsonObject(std::string_view text,
                                    std::string_view name, std::string &error);

/// A number for JSON output: NaN and infinities become null (JSON has none).
Json finiteOrNull(double value);

/// Compact JSON text. Bytes that are not UTF-8 (a child's stderr, a path)
/// become U+FFFD instead of throwing.
std::string dumpJson(const Json &value);

} // namespace klx::rt

#endif // KLX_RUNTIME_JSON_H
