#include "core/io/json_reader.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "core/io/input_snapshot.hpp"
#include "core/io/json_file_bytes.hpp"
#include "core/io/integer_fields.hpp"
#include "core/io/utf8_text.hpp"

#include "core/error.hpp"

namespace tco {

std::string describe_json(const Json& value) {
  // A value quoted in a message may hold bytes that are not UTF-8 (a field of a CSV an importer
  // made into JSON): a string's are escaped as \xNN (core/io/utf8_text.hpp), a container's
  // replaced by U+FFFD; dump() would throw on them instead (an internal error, exit 3).
  std::string text = value.is_string() && first_invalid_utf8(value.get_ref<const std::string&>()) != std::string::npos
                         ? "\"" + escaped_text(value.get_ref<const std::string&>()) + "\""
                         : value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "boolean " + text;
    case Json::value_t::string: return "string " + text;
    case Json::value_t::array: return "array " + text;
    case Json::value_t::object: return "object " + text;
    default: return "number " + text;
  }
}

std::string pointer_join(const std::string& pointer, std::string_view key) {
  std::string out = pointer + "/";
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

JsonObjectReader::JsonObjectReader(const Json& object, std::string file, std::string pointer)
    : object_(object), file_(std::move(file)), pointer_(std::move(pointer)) {
  if (!object_.is_object()) {
    throw InputError(file_, pointer_.empty() ? "/" : pointer_,
                     "expected an object, found " + describe_json(object_));
  }
}

bool JsonObjectReader::has(std::string_view key) const {
  return object_.contains(std::string(key));
}

void JsonObjectReader::fail(std::string_view key, const std::string& expected,
                            const Json* found) const {
  throw InputError(file_, pointer_of(key),
                   "expected " + expected + ", found " +
                       (found ? describe_json(*found) : std::string("nothing (the field is required)")));
}

const Json& JsonObjectReader::require(std::string_view key) {
  auto it = object_.find(std::string(key));
  read_.insert(std::string(key));
  if (it == object_.end()) fail(key, "a value", nullptr);
  return *it;
}

const Json& JsonObjectReader::value(std::string_view key) { return require(key); }

void JsonObjectReader::allow(std::string_view key) { read_.insert(std::string(key)); }

static std::string bounds_text(Bounds b) {
  const bool has_min = std::isfinite(b.min);
  const bool has_max = std::isfinite(b.max);
  if (has_min && has_max) return fmt::format("a number in {}{}, {}]", b.min_exclusive ? "(" : "[", b.min, b.max);
  if (has_min) return fmt::format("a number {} {}", b.min_exclusive ? ">" : ">=", b.min);
  if (has_max) return fmt::format("a number <= {}", b.max);
  return "a finite number";
}

double JsonObjectReader::checked_number(std::string_view key, const Json& value,
                                        Bounds bounds) const {
  return checked_number_at(pointer_of(key), value, bounds);
}

double JsonObjectReader::checked_number_at(const std::string& pointer, const Json& value, Bounds bounds) const {
  const double x = value.is_number() ? value.get<double>() : std::numeric_limits<double>::quiet_NaN();
  const bool below = bounds.min_exclusive ? !(x > bounds.min) : !(x >= bounds.min);
  if (!std::isfinite(x) || below || !(x <= bounds.max))
    throw InputError(file_, pointer, "expected " + bounds_text(bounds) + ", found " + describe_json(value));
  return x;
}

double JsonObjectReader::number(std::string_view key, Bounds bounds) {
  return checked_number(key, require(key), bounds);
}

double JsonObjectReader::number_or(std::string_view key, double fallback, Bounds bounds) {
  return optional_number(key, bounds).value_or(fallback);
}

std::optional<double> JsonObjectReader::optional_number(std::string_view key, Bounds bounds) {
  read_.insert(std::string(key));
  auto it = object_.find(std::string(key));
  if (it == object_.end() || it->is_null()) return std::nullopt;
  return checked_number(key, *it, bounds);
}

namespace {
thread_local IntegerFieldRecorder* active_integer_recorder = nullptr;
}  // namespace

IntegerFieldRecorder::IntegerFieldRecorder(std::string file)
    : file_(std::move(file)), outer_(active_integer_recorder) {
  active_integer_recorder = this;
}

IntegerFieldRecorder::~IntegerFieldRecorder() {
  active_integer_recorder = outer_;
  if (outer_ && outer_->file_ == file_) outer_->pointers_.insert(pointers_.begin(), pointers_.end());
}

const std::set<std::string>* IntegerFieldRecorder::current() {
  return active_integer_recorder ? &active_integer_recorder->pointers_ : nullptr;
}

void IntegerFieldRecorder::note(const std::string& file, const std::string& pointer) {
  if (active_integer_recorder && active_integer_recorder->file_ == file)
    active_integer_recorder->pointers_.insert(pointer);
}

std::int64_t JsonObjectReader::integer(std::string_view key, std::int64_t min, std::int64_t max) {
  IntegerFieldRecorder::note(file_, pointer_of(key));
  const Json& v = require(key);
  const std::string expected = fmt::format("an integer in [{}, {}]", min, max);
  if (!v.is_number_integer() && !(v.is_number_float() && std::nearbyint(v.get<double>()) == v.get<double>()))
    fail(key, expected, &v);
  const double as_double = v.get<double>();
  if (as_double < static_cast<double>(min) || as_double > static_cast<double>(max))
    fail(key, expected, &v);
  return v.is_number_integer() ? v.get<std::int64_t>() : static_cast<std::int64_t>(as_double);
}

std::int64_t JsonObjectReader::integer_or(std::string_view key, std::int64_t fallback,
                                          std::int64_t min, std::int64_t max) {
  if (!has(key)) {
    read_.insert(std::string(key));
    return fallback;
  }
  return integer(key, min, max);
}

std::string JsonObjectReader::string(std::string_view key) {
  const Json& v = require(key);
  if (!v.is_string()) fail(key, "a string", &v);
  return v.get<std::string>();
}

std::string JsonObjectReader::string_or(std::string_view key, std::string fallback) {
  if (!has(key)) {
    read_.insert(std::string(key));
    return fallback;
  }
  return string(key);
}

static std::string choices_text(const std::vector<std::string>& choices) {
  std::string out = "one of";
  for (std::size_t i = 0; i < choices.size(); ++i) out += (i ? ", \"" : " \"") + choices[i] + "\"";
  return out;
}

std::string JsonObjectReader::choice(std::string_view key, const std::vector<std::string>& choices) {
  const Json& v = require(key);
  if (v.is_string()) {
    for (const auto& c : choices)
      if (c == v.get<std::string>()) return c;
  }
  fail(key, choices_text(choices), &v);
}

std::string JsonObjectReader::choice_or(std::string_view key, const std::vector<std::string>& choices,
                                        std::string fallback) {
  if (!has(key)) {
    read_.insert(std::string(key));
    return fallback;
  }
  return choice(key, choices);
}

bool JsonObjectReader::boolean(std::string_view key) {
  const Json& v = require(key);
  if (!v.is_boolean()) fail(key, "true or false", &v);
  return v.get<bool>();
}

bool JsonObjectReader::boolean_or(std::string_view key, bool fallback) {
  if (!has(key)) {
    read_.insert(std::string(key));
    return fallback;
  }
  return boolean(key);
}

std::vector<double> JsonObjectReader::numbers(std::string_view key, Bounds bounds,
                                              std::optional<std::size_t> size) {
  const Json& v = require(key);
  const std::string expected =
      size ? fmt::format("an array of {} numbers", *size) : std::string("an array of numbers");
  if (!v.is_array() || (size && v.size() != *size) || v.empty()) fail(key, expected, &v);
  std::vector<double> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(checked_number_at(pointer_join(pointer_of(key), std::to_string(i)), v[i], bounds));
  return out;
}

JsonObjectReader JsonObjectReader::object(std::string_view key) {
  const Json& v = require(key);
  if (!v.is_object()) fail(key, "an object", &v);
  return JsonObjectReader(v, file_, pointer_of(key));
}

void JsonObjectReader::finish() const {
  for (const auto& [key, value] : object_.items()) {
    if (read_.find(key) == read_.end()) {
      std::string known;
      for (const auto& k : read_) known += (known.empty() ? "" : ", ") + k;
      throw InputError(file_, pointer_of(key),
                       "unknown key \"" + key + "\" (known keys here: " + known + ")");
    }
  }
}

namespace {

// "line L, column C" of the character at 1-based byte offset `byte`.
std::string text_position(const std::string& text, std::size_t byte) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
    if (text[i] == '\n') { ++line; column = 1; } else { ++column; }
  }
  return fmt::format("line {}, column {}", line, column);
}

// The checking pass. Frames hold the open arrays and objects; a value's pointer is its frame's
// pointer joined with the current key or array index.
class CheckingSax : public nlohmann::json_sax<Json> {
 public:
  explicit CheckingSax(const JsonLimits& limits) : limits_(limits) {}

  std::optional<std::size_t> error_byte;  // set for a syntax error (a position in the text)
  std::string error_where;                // set for a limit or a duplicate key (a pointer)
  std::string error_message;

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool string(string_t& value) override { return short_enough(value, next_pointer()) && scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& name) override {
    Frame& f = frames_.back();
    f.key = name;
    if (!short_enough(name, pointer_join(f.pointer, name))) return false;
    const std::size_t member = f.members++;
    auto [first, inserted] = f.keys.emplace(name, member);
    if (inserted) return true;
    const std::string pointer = pointer_join(f.pointer, name);
    return fail(pointer, fmt::format("duplicate key \"{}\": {} is member {} of {} and again member {} (JSON "
                                     "keeps only one of them; remove the other)",
                                     name, pointer, first->second + 1, f.pointer.empty() ? "/" : f.pointer,
                                     member + 1));
  }

  bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception& e) override {
    error_byte = at;
    error_message = std::string("invalid JSON: ") + e.what();
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::string pointer;
    std::string key;
    std::size_t index = 0;    // arrays: the next element
    std::size_t members = 0;  // objects: keys seen
    std::map<std::string, std::size_t, std::less<>> keys;
  };

  std::string next_pointer() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    return f.object ? pointer_join(f.pointer, f.key) : pointer_join(f.pointer, std::to_string(f.index));
  }

  bool scalar() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }

  bool open(bool object) {
    std::string pointer = next_pointer();
    if (frames_.size() >= limits_.max_depth)
      return fail(pointer.empty() ? "/" : pointer,
                  fmt::format("arrays and objects nested deeper than {} levels (the limit of a JSON input)",
                              limits_.max_depth));
    scalar();
    frames_.push_back(Frame{object, std::move(pointer), {}, 0, 0, {}});
    return true;
  }

  bool close() {
    frames_.pop_back();
    return true;
  }

  bool short_enough(const std::string& text, const std::string& pointer) {
    if (text.size() <= limits_.max_string_bytes) return true;
    return fail(pointer.empty() ? "/" : pointer,
                fmt::format("a string of {} bytes, above the limit of {} bytes", text.size(),
                            limits_.max_string_bytes));
  }

  bool fail(std::string where, std::string message) {
    error_where = std::move(where);
    error_message = std::move(message);
    return false;
  }

  const JsonLimits& limits_;
  std::vector<Frame> frames_;
};

}  // namespace

Json parse_json_text(const std::string& text, const std::string& file, const JsonLimits& limits) {
  CheckingSax sax(limits);
  if (!Json::sax_parse(text, &sax)) {
    if (sax.error_byte) throw InputError(file, text_position(text, *sax.error_byte), sax.error_message);
    throw InputError(file, sax.error_where, sax.error_message);
  }
  try {
    return Json::parse(text);
  } catch (const Json::exception& e) {
    throw InputError(file, "", std::string("invalid JSON: ") + e.what());  // the checking pass let it through
  }
}

Json read_json_file(const std::string& path, const JsonLimits& limits) {
  return parse_json_file_bytes(path, read_input_file(path, limits.max_file_bytes), limits);
}

Json parse_json_file_bytes(const std::string& path, const std::optional<std::string>& text, const JsonLimits& limits) {
  if (!text) throw InputError(path, "", "cannot open the file");
  if (text->size() > limits.max_file_bytes)
    throw InputError(path, "", fmt::format("the file is larger than {} bytes, the limit of a JSON input",
                                           limits.max_file_bytes));
  return parse_json_text(*text, path, limits);
}

void require_finite_numbers(const Json& value, const std::string& file, const std::string& pointer) {
  if (value.is_number_float() && !std::isfinite(value.get<double>()))
    throw InputError(file, pointer, "expected a finite number, found " + value.dump());
  if (value.is_object()) {
    for (const auto& [k, v] : value.items()) require_finite_numbers(v, file, pointer_join(pointer, k));
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      require_finite_numbers(value[i], file, pointer_join(pointer, std::to_string(i)));
  }
}

}  // namespace tco
