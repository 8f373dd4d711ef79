// Containers of trivially copyable values for the replay (event heap, slot lists, node lists,
// the FIFO queue), whose growth is out of line. std::vector's push_back brings its reallocation
// path with it wherever it is inlined, and the replay's flattened event loop inlines everything
// it calls: those paths had become about a sixth of the loop's code, though they run a few
// times a path (a container here reaches its largest size early and keeps its memory). Only
// what the replay uses.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include "engine/des/kernel/cold.hpp"

namespace tco::des {

template <class T>
class TrivialVector {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  TrivialVector() = default;
  TrivialVector(const TrivialVector& other) { assign_from(other); }
  TrivialVector(TrivialVector&& other) noexcept { swap(other); }
  TrivialVector& operator=(const TrivialVector& other) {
    if (this != &other) assign_from(other);
    return *this;
  }
  TrivialVector& operator=(TrivialVector&& other) noexcept {
    swap(other);
    return *this;
  }
  ~TrivialVector() { std::free(data_); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

  void clear() { size_ = 0; }
  void pop_back() { --size_; }
  void truncate(std::size_t size) { size_ = size; }  // size <= size()
  void push_back(T value) {  // by value: `value` may be one of our elements, moved by a growth
    if (size_ == capacity_) [[unlikely]]
      grow(size_ + 1);
    data_[size_++] = value;
  }
  // One more element, left as it was (the caller fills it).
  T& push_uninitialized() {
    if (size_ == capacity_) [[unlikely]]
      grow(size_ + 1);
    return data_[size_++];
  }

 private:
  TCO_COLD void grow(std::size_t at_least) {
    std::size_t capacity = capacity_ < 8 ? 8 : 2 * capacity_;
    if (capacity < at_least) capacity = at_least;
    T* data = static_cast<T*>(std::malloc(capacity * sizeof(T)));
    if (!data) throw std::bad_alloc();
    if (size_ > 0) std::memcpy(static_cast<void*>(data), data_, size_ * sizeof(T));
    std::free(data_);
    data_ = data;
    capacity_ = capacity;
  }
  void assign_from(const TrivialVector& other) {
    size_ = 0;
    if (other.size_ > capacity_) grow(other.size_);
    if (other.size_ > 0) std::memcpy(static_cast<void*>(data_), other.data_, other.size_ * sizeof(T));
    size_ = other.size_;
  }
  void swap(TrivialVector& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

// First in, first out: pop_front moves a head index over the vector. The dead front is dropped
// when the queue empties, or moved out once it is at least half the vector (and kCompactAt
// long), so the memory stays in proportion to the queue however long it never empties.
template <class T>
class TrivialFifo {
 public:
  bool empty() const { return head_ == items_.size(); }
  const T& front() const { return items_[head_]; }
  void push_back(T value) { items_.push_back(value); }
  void pop_front() {
    if (++head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAt && 2 * head_ >= items_.size()) [[unlikely]] {
      compact();
    }
  }
  const T* begin() const { return items_.data() + head_; }
  const T* end() const { return items_.data() + items_.size(); }
  // Rare (a refresh's cutover puts its jobs ahead of the queue): into the dead front when there
  // is one, else everything moves up by one.
  TCO_COLD void push_front(T value) {
    if (head_ > 0) {
      items_[--head_] = value;
      return;
    }
    items_.push_back(value);
    std::memmove(static_cast<void*>(items_.data() + 1), items_.data(), (items_.size() - 1) * sizeof(T));
    items_[0] = value;
  }

 private:
  static constexpr std::size_t kCompactAt = 1024;
  TCO_COLD void compact() {
    const std::size_t live = items_.size() - head_;
    std::memmove(static_cast<void*>(items_.data()), items_.data() + head_, live * sizeof(T));
    items_.truncate(live);
    head_ = 0;
  }
  TrivialVector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace tco::des
