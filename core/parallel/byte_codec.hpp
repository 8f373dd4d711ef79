// Values as the bytes a gather moves between ranks (core/parallel/process_group.hpp), and back
// bit for bit: trivially copyable values as their bytes, vectors as a count and then their
// elements. A reader that runs past the end throws std::runtime_error naming `what`.
// Example: put_vector(b, std::vector<double>{1.5}) appends 8 + 8 bytes; get_vector reads them.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tco {

template <class T>
void put_value(std::string& bytes, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  bytes.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

template <class T>
void get_value(std::string_view bytes, std::size_t& offset, T& value, const char* what) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T))
    throw std::runtime_error(std::string("gathered bytes end early: ") + what);
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  offset += sizeof(T);
}

template <class T>
void put_vector(std::string& bytes, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  put_value(bytes, static_cast<std::uint64_t>(values.size()));
  if (!values.empty()) bytes.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

template <class T>
std::vector<T> get_vector(std::string_view bytes, std::size_t& offset, const char* what) {
  std::uint64_t n = 0;
  get_value(bytes, offset, n, what);
  if (n > (bytes.size() - offset) / sizeof(T)) throw std::runtime_error(std::string("gathered bytes end early: ") + what);
  std::vector<T> values(static_cast<std::size_t>(n));
  if (n > 0) std::memcpy(values.data(), bytes.data() + offset, static_cast<std::size_t>(n) * sizeof(T));
  offset += static_cast<std::size_t>(n) * sizeof(T);
  return values;
}

}  // namespace tco
