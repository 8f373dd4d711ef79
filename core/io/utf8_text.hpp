// Text bytes as they reach a report, a terminal or a CSV: well-formed UTF-8 (RFC 3629: no
// overlong forms, no surrogates, nothing above U+10FFFF) and no control characters. Input text
// that is data (a trace's class) is refused at the first byte that is neither; text only echoed
// (a file name, a value quoted in a message) is escaped: each such byte becomes \xNN.
// Example: escaped_text("a\xffb\n") = "a\\xFFb\\x0A"; with LineBreaks::keep the '\n' stays.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace tco {

// The offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t first_invalid_utf8(std::string_view text);

// The offset of the first byte that is not well-formed UTF-8 or is a control character
// (U+0000..U+001F, U+007F), or npos: the check of a text field of an input.
std::size_t first_unprintable_byte(std::string_view text);

// Whether '\n' and '\t' of a message pass as they are (a message of several lines) or are
// escaped like the other control bytes (a file name, a field).
enum class LineBreaks { escape, keep };

// `text` with each byte that first_unprintable_byte would stop at written as \xNN (upper-case
// hex); unchanged when there is none, and unchanged when escaped again.
std::string escaped_text(std::string_view text, LineBreaks line_breaks = LineBreaks::escape);

// A scenario's and a catalog's text (a plan's name, an id, a description) is data that reaches
// reports, CSV cells and terminals: a control character in any string or key of `document` is an
// InputError at the pointer of the first (from `pointer`). The schema says the same of every
// string (schema/sync_schema_limits.py, $defs/text).
// Example: {"plans": [{"name": "buy\r2"}]} -> /plans/0/name: expected text without control
// characters, found "buy\x0D2" (byte 4 is \x0D).
void require_printable_text(const nlohmann::json& document, const std::string& file, const std::string& pointer);

}  // namespace tco
