// Strict reading of JSON objects (STYLE habit 4): every field is asked for by name, with its
// type and range; a key nobody asked for is an error at finish(); every error names the file,
// the JSON pointer, what was expected and what was found.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tco {

using Json = nlohmann::json;

// Accepted range of a number; the defaults accept any finite value.
struct Bounds {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;

  static Bounds non_negative() { return {0.0}; }
  static Bounds positive() { return {0.0, std::numeric_limits<double>::infinity(), true}; }
  static Bounds fraction() { return {0.0, 1.0}; }
  static Bounds at_least(double lo) { return {lo}; }
  static Bounds between(double lo, double hi) { return {lo, hi}; }
};

// A short description of a JSON value for error messages: "string \"abc\"", "number 3".
std::string describe_json(const Json& value);

// Joins a JSON pointer and a key, escaping '~' and '/' as RFC 6901 asks.
std::string pointer_join(const std::string& pointer, std::string_view key);

class JsonObjectReader {
 public:
  // Throws InputError when `object` is not a JSON object.
  JsonObjectReader(const Json& object, std::string file, std::string pointer);

  const std::string& file() const { return file_; }
  const std::string& pointer() const { return pointer_; }
  std::string pointer_of(std::string_view key) const { return pointer_join(pointer_, key); }

  bool has(std::string_view key) const;

  double number(std::string_view key, Bounds bounds = {});
  double number_or(std::string_view key, double fallback, Bounds bounds = {});
  std::optional<double> optional_number(std::string_view key, Bounds bounds = {});
  std::int64_t integer(std::string_view key, std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                       std::int64_t max = std::numeric_limits<std::int64_t>::max());
  std::int64_t integer_or(std::string_view key, std::int64_t fallback,
                          std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                          std::int64_t max = std::numeric_limits<std::int64_t>::max());
  std::string string(std::string_view key);
  std::string string_or(std::string_view key, std::string fallback);
  // A string that must be one of `choices`.
  std::string choice(std::string_view key, const std::vector<std::string>& choices);
  std::string choice_or(std::string_view key, const std::vector<std::string>& choices,
                        std::string fallback);
  bool boolean(std::string_view key);
  bool boolean_or(std::string_view key, bool fallback);
  // A list of numbers, each within bounds; `size` (when given) is the exact length required.
  std::vector<double> numbers(std::string_view key, Bounds bounds = {},
                              std::optional<std::size_t> size = std::nullopt);

  JsonObjectReader object(std::string_view key);
  // The raw value of a key (marks it as read). Throws when missing.
  const Json& value(std::string_view key);
  // Marks a key as known without reading it (e.g. "$schema").
  void allow(std::string_view key);

  // Throws InputError naming the first key that no accessor asked for.
  void finish() const;

  [[noreturn]] void fail(std::string_view key, const std::string& expected,
                         const Json* found) const;

 private:
  const Json& require(std::string_view key);
  double checked_number(std::string_view key, const Json& value, Bounds bounds) const;
  double checked_number_at(const std::string& pointer, const Json& value, Bounds bounds) const;

  const Json& object_;
  std::string file_;
  std::string pointer_;
  std::set<std::string, std::less<>> read_;
};

// The bounds every JSON input is read within (docs/scenario.md "Limits of a JSON input"). The
// largest shipped input is a report of a few MB nested 8 deep; a Philly job log is ~200 MB.
struct JsonLimits {
  std::size_t max_file_bytes = std::size_t{256} << 20;
  std::size_t max_depth = 64;                        // nested arrays and objects
  std::size_t max_string_bytes = std::size_t{1} << 20;  // a key or a string value
};

// Parses JSON text in two passes: a SAX pass (nlohmann's parser is iterative) that checks the
// syntax, the depth, the string lengths and duplicate keys, then the DOM parse. Every problem is
// an InputError naming `file` and a line and column or a JSON pointer.
Json parse_json_text(const std::string& text, const std::string& file, const JsonLimits& limits = {});

// Reads a file (at most limits.max_file_bytes) and parses it with parse_json_text.
Json read_json_file(const std::string& path, const JsonLimits& limits = {});

// Rejects NaN/inf anywhere in a JSON value (they can only come from code, not from files,
// but values built by overrides or importers pass through here too).
void require_finite_numbers(const Json& value, const std::string& file, const std::string& pointer);

}  // namespace tco
