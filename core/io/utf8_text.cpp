#include "core/io/utf8_text.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/json_reader.hpp"

namespace tco {

namespace {

// The length of the well-formed UTF-8 sequence starting at text[at], or 0 when there is none.
std::size_t sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte (RFC 3629 table)
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong form
    if (lead == 0xED) high = 0x9F;  // no surrogate
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // no overlong form
    if (lead == 0xF4) high = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (at + length > text.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
  return length;
}

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7F; }

}  // namespace

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = sequence_length(text, at);
    if (n == 0) return at;
    at += n;
  }
  return std::string_view::npos;
}

std::size_t first_unprintable_byte(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = sequence_length(text, at);
    if (n == 0 || (n == 1 && is_control(static_cast<unsigned char>(text[at])))) return at;
    at += n;
  }
  return std::string_view::npos;
}

std::string escaped_text(std::string_view text, LineBreaks line_breaks) {
  if (first_unprintable_byte(text) == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = sequence_length(text, at);
    const auto c = static_cast<unsigned char>(text[at]);
    const bool kept_break = line_breaks == LineBreaks::keep && (c == '\n' || c == '\t');
    if (n == 0 || (n == 1 && is_control(c) && !kept_break)) {
      fmt::format_to(std::back_inserter(out), "\\x{:02X}", c);
      ++at;
      continue;
    }
    out.append(text.substr(at, n));
    at += n;
  }
  return out;
}

static void require_printable_string(const std::string& text, const std::string& file, const std::string& pointer,
                                     const char* what) {
  const std::size_t bad = first_unprintable_byte(text);
  if (bad == std::string::npos) return;
  throw InputError(file, pointer,
                   fmt::format("expected {} without control characters, found \"{}\" (byte {} is \\x{:02X})", what,
                               escaped_text(text.size() > 60 ? text.substr(0, 57) + "..." : text), bad + 1,
                               static_cast<unsigned char>(text[bad])));
}

void require_printable_text(const Json& value, const std::string& file, const std::string& pointer) {
  if (value.is_string()) {
    require_printable_string(value.get_ref<const std::string&>(), file, pointer, "text");
  } else if (value.is_object()) {
    for (const auto& [k, v] : value.items()) {
      const std::string here = pointer_join(pointer, k);
      require_printable_string(k, file, here, "a key");
      require_printable_text(v, file, here);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      require_printable_text(value[i], file, pointer_join(pointer, std::to_string(i)));
  }
}

}  // namespace tco
