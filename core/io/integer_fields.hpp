// Which fields of a JSON input are integers, as its strict reader read them.
#pragma once

#include <set>
#include <string>

namespace tco {

// Collects, while it lives, the JSON pointers of `file` that JsonObjectReader reads as integers
// (one recorder per thread; a nested one on the same file hands its pointers to the outer when it
// ends). A sweep's grid and the uncertain inputs ask it whether a field written `1` is a count
// (its values stay whole) or a real number written without a decimal point (it takes fractions:
// issue 43, item 7): the scenario format decides, not the literal.
class IntegerFieldRecorder {
 public:
  explicit IntegerFieldRecorder(std::string file);
  ~IntegerFieldRecorder();
  IntegerFieldRecorder(const IntegerFieldRecorder&) = delete;
  IntegerFieldRecorder& operator=(const IntegerFieldRecorder&) = delete;

  const std::set<std::string>& pointers() const { return pointers_; }
  // Records `pointer` of `file` with the thread's recorder, if any, when it watches `file`.
  static void note(const std::string& file, const std::string& pointer);
  // The integer pointers the thread's recorder holds so far; null without one.
  static const std::set<std::string>* current();

 private:
  std::string file_;
  std::set<std::string> pointers_;
  IntegerFieldRecorder* outer_;
};

}  // namespace tco
