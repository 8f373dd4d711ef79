#include "core/io/block_lines.hpp"

#include <cstring>

namespace tco {

namespace {
constexpr std::size_t kBlockBytes = 1u << 20;
}

BlockLineReader::BlockLineReader(const std::string& path) : file_(std::fopen(path.c_str(), "rb")) {
  if (file_ != nullptr) {
    std::setvbuf(file_, nullptr, _IONBF, 0);  // the blocks are our buffer
    buffer_.resize(kBlockBytes);
  }
}

BlockLineReader::~BlockLineReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool BlockLineReader::refill() {
  if (at_end_ || file_ == nullptr) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(2 * buffer_.size());  // a line longer than the buffer
  const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
  end_ += got;
  if (got == 0) {
    at_end_ = true;
    failed_ = std::ferror(file_) != 0;
  }
  return got > 0;
}

bool BlockLineReader::next(std::string_view& line) {
  std::size_t scanned = begin_;  // bytes before this hold no '\n'
  while (true) {
    const void* found = std::memchr(buffer_.data() + scanned, '\n', end_ - scanned);
    if (found != nullptr) {
      const std::size_t newline = static_cast<std::size_t>(static_cast<const char*>(found) - buffer_.data());
      std::size_t length = newline - begin_;
      if (length > 0 && buffer_[newline - 1] == '\r') --length;
      line = std::string_view(buffer_.data() + begin_, length);
      begin_ = newline + 1;
      return true;
    }
    const std::size_t unread_before = end_ - begin_;
    if (!refill()) break;
    scanned = begin_ + unread_before;
  }
  if (failed_ || begin_ == end_) return false;
  std::size_t length = end_ - begin_;  // the last line, without a line break
  if (buffer_[end_ - 1] == '\r') --length;
  line = std::string_view(buffer_.data() + begin_, length);
  begin_ = end_;
  return true;
}

}  // namespace tco
