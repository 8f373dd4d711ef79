// The comma-separated text inputs (job traces, demand series, public cluster traces) read one
// line at a time (in large blocks: core/io/block_lines.hpp). None of the supported formats quotes its fields, so a line splits at every
// comma; a trailing '\r' is dropped, and a UTF-8 byte order mark before the header.
// Positions are 1-based: csv_position(3, 2) = "line 3, column 2", the `where` of an InputError.
// Example: the line "0,8,,train\r" gives the fields "0", "8", "", "train".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/io/block_lines.hpp"

namespace tco {

// "line N, column C".
std::string csv_position(long line, std::size_t column);

// Splits at every comma (n commas give n + 1 fields); the views point into `line`.
void split_csv_fields(std::string_view line, std::vector<std::string_view>& out);

// A whole field as a finite double (no sign '+', no spaces); false when it is anything else.
bool parse_finite_double(std::string_view text, double& out);

// The clock of a strict "YYYY-MM-DD HH:MM:SS" in seconds since 00:00 of its day, with the date
// part left for the caller to parse; false when the layout or the clock is malformed.
bool parse_clock_of_day(std::string_view text, std::string_view& date_text, long& seconds_of_day);

class CsvLineReader {
 public:
  // Throws InputError(path, "", cannot_open) when the file cannot be opened.
  CsvLineReader(std::string path, const std::string& cannot_open);

  // Reads line 1 as a header (InputError "line 1: the file is empty (expected a header line)"
  // when there is none), drops a byte order mark and splits it.
  void read_header();
  // Reads and splits the next line, blank or not; false at the end of the file.
  bool next_line();
  // The same without the split (fields() keeps the previous line's): for a reader that scans the
  // line itself.
  bool next_unsplit_line();

  const std::string& path() const { return path_; }
  // Without '\r' (and the header without the mark); valid until the next line is read.
  std::string_view line() const { return line_; }
  long line_number() const { return line_number_; }  // of line(); 0 before the first
  const std::vector<std::string_view>& fields() const { return fields_; }
  // True when reading stopped on an I/O error rather than at the end of the file.
  bool read_failed() const { return in_.read_failed(); }

 private:
  std::string path_;
  BlockLineReader in_;
  std::string_view line_;
  long line_number_ = 0;
  std::vector<std::string_view> fields_;
};

}  // namespace tco
