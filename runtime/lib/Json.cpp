//===- Json.cpp - nlohmann's JSON with line:col errors --------------------===//

#include "klx/Runtime/Json.h"

#include <cmath>
#include <set>
#include <vector>

using namespace klx::rt;

JsonKind klx::rt::kindOf(const Json &value) {
  if (value.is_null())
    return JsonKind::Null;
  if (value.is_boolean())
    return JsonKind::Bool;
  if (value.is_number())
    return JsonKind::Number;
  if (value.is_string())
    return JsonKind::String;
  if (value.is_array())
    return JsonKind::Array;
  return JsonKind::Object;
}

const char *klx::rt::kindName(JsonKind kind) {
  switch (kind) {
  case JsonKind::Null:
    return "null";
  case JsonKind::Bool:
    return "a boolean";
  case JsonKind::Number:
    return "a number";
  case JsonKind::String:
    return "a string";
  case JsonKind::Array:
    return "an array";
  case JsonKind::Object:
    return "an object";
  }
  return "?";
}

const Json *klx::rt::member(const Json &object, std::string_view key) {
  if (!object.is_object())
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Json klx::rt::finiteOrNull(double value) {
  return std::isfinite(value) ? Json(value) : Json(nullptr);
}

namespace {

/// Thrown from the parser's callback: nlohmann keeps the last of two equal
/// keys, but a manifest that names `binary` twice is a mistake to report.
struct DuplicateKey {
  std::string message;
};

/// Watches the parser's events for a key seen before in the same object;
/// names the key by its path ("problem.M") in the message.
class DuplicateKeyCheck {
public:
  bool operator()(int, Json::parse_event_t event, Json &parsed) {
    using Event = Json::parse_event_t;
    switch (event) {
    case Event::object_start:
    case Event::array_start:
      open_.push_back({event == Event::object_start, pendingKey_, {}});
      pendingKey_.clear();
      break;
    case Event::object_end:
    case Event::array_end:
      if (!open_.empty())
        open_.pop_back();
      break;
    case Event::key: {
      std::string key = parsed.get<std::string>();
      if (!open_.empty() && !open_.back().keys.insert(key).second)
        throw DuplicateKey{"duplicate key \"" + path(key) + "\""};
      pendingKey_ = key;
      break;
    }
    case Event::value:
      pendingKey_.clear();
      break;
    }
    return true;
  }

private:
  struct Open {
    bool object;
    std::string key; // the member this container is, if any
    std::set<std::string> keys;
  };

  std::string path(const std::string &key) const {
    std::string out;
    for (const Open &open : open_)
      if (!open.key.empty())
        out += open.key + ".";
    return out + key;
  }

  std::vector<Open> open_;
  std::string pendingKey_;
};

/// Line and column (1-based) of the byte nlohmann stopped at.
void locate(std::string_view text, size_t byte, JsonError &error) {
  size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());
  error.line = 1;
  error.column = 1;
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++error.line;
      error.column = 1;
    } else {
      ++error.column;
    }
  }
}

/// nlohmann's "[json.exception.parse_error.101] parse error at line 2,
/// column 7: syntax error while ..." without the part we print ourselves
/// (the position, or the "[json.exception.NAME] " tag).
std::string reason(const std::string &what) {
  size_t column = what.find("column ");
  size_t colon = column == std::string::npos ? column : what.find(": ", column);
  if (colon != std::string::npos)
    return what.substr(colon + 2);
  size_t tag = what.rfind("] ", 64);
  return tag == std::string::npos ? what : what.substr(tag + 2);
}

} // namespace

std::optional<Json> klx::rt::parseJson(std::string_view text,
                                       JsonError &error) {
  error = JsonError();
  // Refused before nlohmann's parser builds a value it would destroy and
  // print recursively.
  if (std::optional<NestingError> deep = findExcessJsonNesting(text)) {
    error = {deep->line, deep->column, deep->message};
    return std::nullopt;
  }
  try {
    return Json::parse(text, DuplicateKeyCheck());
  } catch (const Json::parse_error &e) {
    locate(text, e.byte, error);
    error.message = reason(e.what());
  } catch (const DuplicateKey &e) {
    error.message = e.message;
  } catch (const Json::exception &e) {
    // A number past a double's range (out_of_range.406) and the like.
    error.message = reason(e.what());
  }
  return std::nullopt;
}

std::optional<Json> klx::rt::parseJsonObject(std::string_view text,
                                             std::string_view name,
                                             std::string &error) {
  JsonError jsonError;
  std::optional<Json> root = parseJson(text, jsonError);
  if (!root) {
    error = std::string(name) + ":";
    if (jsonError.line)
      error += std::to_string(jsonError.line) + ":" +
               std::to_string(jsonError.column) + ":";
    error += " " + jsonError.message;
    return std::nullopt;
  }
  if (!root->is_object()) {
    error = std::string(name) + ": the document must be an object";
    return std::nullopt;
  }
  return root;
}

std::string klx::rt::dumpJson(const Json &value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}
