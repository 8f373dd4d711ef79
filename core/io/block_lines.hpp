// A text file read line by line in large blocks (1 MiB reads, lines found with memchr), so that
// a reader of millions of rows pays no per-line allocation or stream call. A line is handed out
// as a view without its '\n' and a trailing '\r'; it stays valid until the next call. A last
// line without a line break is a line; the buffer grows only for a line longer than it.
// Example: the bytes "a,b\r\n\nc" give the lines "a,b", "" and "c".
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace tco {

class BlockLineReader {
 public:
  // is_open() tells whether the file could be opened.
  explicit BlockLineReader(const std::string& path);
  ~BlockLineReader();
  BlockLineReader(const BlockLineReader&) = delete;
  BlockLineReader& operator=(const BlockLineReader&) = delete;

  bool is_open() const { return file_ != nullptr; }
  // The next line; false at the end of the file or on a read error (read_failed()).
  bool next(std::string_view& line);
  bool read_failed() const { return failed_; }

 private:
  // Moves the unread tail to the front and reads more after it; false when nothing was added.
  bool refill();

  std::FILE* file_ = nullptr;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unread byte
  std::size_t end_ = 0;    // one past the last byte read
  bool at_end_ = false;
  bool failed_ = false;
};

}  // namespace tco
