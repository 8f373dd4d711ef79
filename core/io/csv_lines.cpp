#include "core/io/csv_lines.hpp"

#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tco {

std::string csv_position(long line, std::size_t column) { return fmt::format("line {}, column {}", line, column); }

void split_csv_fields(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  // A byte loop: fields are a few characters, shorter than a memchr call pays for.
  const char* data = line.data();
  std::size_t begin = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (data[i] != ',') continue;
    out.emplace_back(data + begin, i - begin);
    begin = i + 1;
  }
  out.emplace_back(data + begin, line.size() - begin);
}

bool parse_finite_double(std::string_view text, double& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && ptr == text.data() + text.size() && std::isfinite(out);
}

bool parse_clock_of_day(std::string_view text, std::string_view& date_text, long& seconds_of_day) {
  if (text.size() != 19 || text[10] != ' ' || text[13] != ':' || text[16] != ':') return false;
  int clock[3];
  for (int i = 0; i < 3; ++i) {
    const char* first = text.data() + 11 + 3 * i;
    if (std::from_chars(first, first + 2, clock[i]).ptr != first + 2) return false;
  }
  if (clock[0] > 23 || clock[1] > 59 || clock[2] > 59) return false;
  date_text = text.substr(0, 10);
  seconds_of_day = clock[0] * 3600L + clock[1] * 60L + clock[2];
  return true;
}

CsvLineReader::CsvLineReader(std::string path, const std::string& cannot_open)
    : path_(std::move(path)), in_(path_) {
  if (!in_.is_open()) throw InputError(path_, "", cannot_open);
}

void CsvLineReader::read_header() {
  if (!next_line()) throw InputError(path_, "line 1", "the file is empty (expected a header line)");
  if (line_.substr(0, 3) == "\xEF\xBB\xBF") {
    line_.remove_prefix(3);
    split_csv_fields(line_, fields_);
  }
}

bool CsvLineReader::next_line() {
  if (!next_unsplit_line()) return false;
  split_csv_fields(line_, fields_);
  return true;
}

bool CsvLineReader::next_unsplit_line() {
  if (!in_.next(line_)) return false;
  ++line_number_;
  return true;
}

}  // namespace tco
