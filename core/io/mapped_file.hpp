// A file mapped read-only into memory, shared by every thread that reads it: the OS pages it
// in and out, so a file larger than memory can be read. The mapping keeps the file's contents
// as they were when it was opened, even when another process renames a new file over its path.
// An empty file maps to no bytes (data() is null, size() 0).
#pragma once

#include <cstddef>
#include <string>

namespace tco {

class MappedFile {
 public:
  // is_open() is false when the file cannot be opened, is not a regular file, or cannot be mapped.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  bool is_open() const { return open_; }
  const unsigned char* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
  bool open_ = false;
};

}  // namespace tco
