//===- Json.cpp - A small JSON reader and writer --------------------------===//

#include "klx/Runtime/Json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace klx::rt;

JsonValue JsonValue::boolean(bool b) {
  JsonValue v;
  v.kind_ = Kind::Bool;
  v.bool_ = b;
  return v;
}
JsonValue JsonValue::number(double d) {
  JsonValue v;
  v.kind_ = Kind::Number;
  v.number_ = d;
  return v;
}
JsonValue JsonValue::string(std::string s) {
  JsonValue v;
  v.kind_ = Kind::String;
  v.string_ = std::move(s);
  return v;
}
JsonValue JsonValue::array(std::vector<JsonValue> items) {
  JsonValue v;
  v.kind_ = Kind::Array;
  v.items_ = std::move(items);
  return v;
}
JsonValue JsonValue::object(std::map<std::string, JsonValue> members) {
  JsonValue v;
  v.kind_ = Kind::Object;
  v.members_ = std::move(members);
  return v;
}

const JsonValue *JsonValue::get(std::string_view key) const {
  if (kind_ != Kind::Object)
    return nullptr;
  auto it = members_.find(std::string(key));
  return it == members_.end() ? nullptr : &it->second;
}

const char *klx::rt::kindName(JsonValue::Kind kind) {
  switch (kind) {
  case JsonValue::Kind::Null:
    return "null";
  case JsonValue::Kind::Bool:
    return "a boolean";
  case JsonValue::Kind::Number:
    return "a number";
  case JsonValue::Kind::String:
    return "a string";
  case JsonValue::Kind::Array:
    return "an array";
  case JsonValue::Kind::Object:
    return "an object";
  }
  return "?";
}

namespace {

class Parser {
public:
  Parser(std::string_view text, JsonError &error)
      : text_(text), error_(error) {}

  std::optional<JsonValue> document() {
    std::optional<JsonValue> v = value(0);
    if (!v)
      return std::nullopt;
    skipSpace();
    if (pos_ != text_.size())
      return fail("unexpected text after the document");
    return v;
  }

private:
  std::optional<JsonValue> fail(const std::string &message) {
    if (error_.message.empty()) {
      error_.line = 1;
      error_.column = 1;
      for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
        if (text_[i] == '\n') {
          ++error_.line;
          error_.column = 1;
        } else {
          ++error_.column;
        }
      }
      error_.message = message;
    }
    return std::nullopt;
  }

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      return false;
    pos_ += word.size();
    return true;
  }

  std::optional<JsonValue> value(int depth) {
    if (depth > 64)
      return fail("nested deeper than 64 levels");
    skipSpace();
    if (pos_ >= text_.size())
      return fail("unexpected end of input");
    char c = text_[pos_];
    if (c == '{')
      return object(depth);
    if (c == '[')
      return array(depth);
    if (c == '"') {
      std::optional<std::string> s = string();
      if (!s)
        return std::nullopt;
      return JsonValue::string(std::move(*s));
    }
    if (literal("true"))
      return JsonValue::boolean(true);
    if (literal("false"))
      return JsonValue::boolean(false);
    if (literal("null"))
      return JsonValue();
    if (c == '-' || (c >= '0' && c <= '9'))
      return number();
    return fail(std::string("unexpected character '") + c + "'");
  }

  std::optional<JsonValue> number() {
    size_t start = pos_;
    if (text_[pos_] == '-')
      ++pos_;
    auto digits = [&] {
      size_t from = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9')
        ++pos_;
      return pos_ > from;
    };
    if (!digits())
      return fail("a number needs digits");
    if (pos_ < text_.size() && text_[pos_] == '.' && (++pos_, !digits()))
      return fail("a number needs digits after '.'");
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      if (!digits())
        return fail("a number needs digits in its exponent");
    }
    std::string copy(text_.substr(start, pos_ - start));
    double d = std::strtod(copy.c_str(), nullptr);
    if (!std::isfinite(d))
      return fail("number out of range");
    return JsonValue::number(d);
  }

  static void appendUtf8(std::string &out, unsigned code) {
    if (code < 0x80) {
      out += char(code);
    } else if (code < 0x800) {
      out += char(0xC0 | (code >> 6));
      out += char(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += char(0xE0 | (code >> 12));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    } else {
      out += char(0xF0 | (code >> 18));
      out += char(0x80 | ((code >> 12) & 0x3F));
      out += char(0x80 | ((code >> 6) & 0x3F));
      out += char(0x80 | (code & 0x3F));
    }
  }

  std::optional<unsigned> hex4() {
    if (pos_ + 4 > text_.size())
      return std::nullopt;
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= h - '0';
      else if (h >= 'a' && h <= 'f')
        code |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        code |= h - 'A' + 10;
      else
        return std::nullopt;
    }
    return code;
  }

  std::optional<std::string> string() {
    ++pos_; // opening quote
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) {
        fail("unterminated string");
        return std::nullopt;
      }
      char c = text_[pos_++];
      if (c == '"')
        return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --pos_;
        fail("control character in a string");
        return std::nullopt;
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) {
        fail("unterminated string");
        return std::nullopt;
      }
      char e = text_[pos_++];
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        std::optional<unsigned> code = hex4();
        if (!code) {
          fail("\\u needs four hex digits");
          return std::nullopt;
        }
        if (*code >= 0xD800 && *code < 0xDC00 && literal("\\u")) {
          std::optional<unsigned> low = hex4();
          if (!low || *low < 0xDC00 || *low >= 0xE000) {
            fail("unpaired surrogate in \\u escape");
            return std::nullopt;
          }
          *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
        }
        appendUtf8(out, *code);
        break;
      }
      default:
        --pos_;
        fail(std::string("unknown escape '\\") + e + "'");
        return std::nullopt;
      }
    }
  }

  std::optional<JsonValue> array(int depth) {
    ++pos_;
    std::vector<JsonValue> items;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return JsonValue::array(std::move(items));
    }
    while (true) {
      std::optional<JsonValue> item = value(depth + 1);
      if (!item)
        return std::nullopt;
      items.push_back(std::move(*item));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return JsonValue::array(std::move(items));
      }
      return fail("expected ',' or ']' in an array");
    }
  }

  std::optional<JsonValue> object(int depth) {
    ++pos_;
    std::map<std::string, JsonValue> members;
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return JsonValue::object(std::move(members));
    }
    while (true) {
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"')
        return fail("expected a quoted key in an object");
      std::optional<std::string> key = string();
      if (!key)
        return std::nullopt;
      skipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':')
        return fail("expected ':' after a key");
      ++pos_;
      std::optional<JsonValue> member = value(depth + 1);
      if (!member)
        return std::nullopt;
      if (members.count(*key))
        return fail("duplicate key \"" + *key + "\"");
      members.emplace(std::move(*key), std::move(*member));
      skipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return JsonValue::object(std::move(members));
      }
      return fail("expected ',' or '}' in an object");
    }
  }

  std::string_view text_;
  JsonError &error_;
  size_t pos_ = 0;
};

} // namespace

std::optional<JsonValue> klx::rt::parseJsonObject(std::string_view text,
                                                  std::string_view name,
                                                  std::string &error) {
  JsonError jsonError;
  std::optional<JsonValue> root = parseJson(text, jsonError);
  if (!root) {
    error = std::string(name) + ":" + std::to_string(jsonError.line) + ":" +
            std::to_string(jsonError.column) + ": " + jsonError.message;
    return std::nullopt;
  }
  if (!root->isObject()) {
    error = std::string(name) + ": the document must be an object";
    return std::nullopt;
  }
  return root;
}

std::optional<JsonValue> klx::rt::parseJson(std::string_view text,
                                            JsonError &error) {
  error = JsonError();
  return Parser(text, error).document();
}

std::string klx::rt::quoteJson(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
        out += buffer;
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back())
      out_ += ",";
    first_.back() = false;
  }
}
void JsonWriter::beginObject() {
  separate();
  out_ += "{";
  first_.push_back(true);
}
void JsonWriter::endObject() {
  first_.pop_back();
  out_ += "}";
}
void JsonWriter::beginArray() {
  separate();
  out_ += "[";
  first_.push_back(true);
}
void JsonWriter::endArray() {
  first_.pop_back();
  out_ += "]";
}
void JsonWriter::key(std::string_view name) {
  separate();
  out_ += quoteJson(name) + ":";
  afterKey_ = true;
}
void JsonWriter::value(std::string_view s) {
  separate();
  out_ += quoteJson(s);
}
void JsonWriter::value(double d) {
  separate();
  if (!std::isfinite(d)) {
    out_ += "null";
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", d);
  out_ += buffer;
}
void JsonWriter::value(int64_t i) {
  separate();
  out_ += std::to_string(i);
}
void JsonWriter::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
}
void JsonWriter::null() {
  separate();
  out_ += "null";
}
