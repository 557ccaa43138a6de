//===- Json.h - A small JSON reader and writer for the runner ---*- C++ -*-===//
//
// klx-run builds on machines without LLVM, so it cannot use llvm::json.
// This reads manifest.json (objects, arrays, strings, numbers, booleans,
// null) and reports the line and column of the first error.
//
//===----------------------------------------------------------------------===//

#ifndef KLX_RUNTIME_JSON_H
#define KLX_RUNTIME_JSON_H

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace klx::rt {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  JsonValue() = default;
  static JsonValue boolean(bool b);
  static JsonValue number(double d);
  static JsonValue string(std::string s);
  static JsonValue array(std::vector<JsonValue> items);
  static JsonValue object(std::map<std::string, JsonValue> members);

  Kind kind() const { return kind_; }
  bool isNumber() const { return kind_ == Kind::Number; }
  bool isString() const { return kind_ == Kind::String; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isObject() const { return kind_ == Kind::Object; }
  bool asBool() const { return bool_; }
  double asNumber() const { return number_; }
  const std::string &asString() const { return string_; }
  const std::vector<JsonValue> &items() const { return items_; }
  const std::map<std::string, JsonValue> &members() const { return members_; }
  /// The member `key` of an object, or null when absent or not an object.
  const JsonValue *get(std::string_view key) const;

private:
  Kind kind_ = Kind::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<JsonValue> items_;
  std::map<std::string, JsonValue> members_;
};

const char *kindName(JsonValue::Kind kind);

struct JsonError {
  unsigned line = 0, column = 0; // 1-based
  std::string message;
};

/// Parses a whole document; trailing text other than whitespace is an
/// error. Nesting deeper than 64 levels is refused.
std::optional<JsonValue> parseJson(std::string_view text, JsonError &error);

/// A file that must hold one JSON object (manifest.json, sweep.json): the
/// object, or nullopt with `error` set to "NAME:LINE:COL: ..." or "NAME:
/// the document must be an object".
std::optional<JsonValue> parseJsonObject(std::string_view text,
                                         std::string_view name,
                                         std::string &error);

/// Writes JSON by hand, with commas placed for the caller.
class JsonWriter {
public:
  explicit JsonWriter(std::string &out) : out_(out) {}
  void beginObject();
  void endObject();
  void beginArray();
  void endArray();
  void key(std::string_view name);
  void value(std::string_view s);
  void value(const char *s) { value(std::string_view(s)); }
  void value(double d);
  void value(int64_t i);
  void value(bool b);
  void null();

private:
  void separate();
  std::string &out_;
  std::vector<bool> first_; // per open container: nothing written yet
  bool afterKey_ = false;
};

std::string quoteJson(std::string_view s);

} // namespace klx::rt

#endif // KLX_RUNTIME_JSON_H
