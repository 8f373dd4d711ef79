// Typed errors. InputError: the user's input is wrong (exit 2); it names the file, the JSON
// pointer or line, what was expected and what was found. ModelError: the inputs are valid
// one by one but describe something that cannot exist (a node that fits no rack; exit 2).
#pragma once

#include <stdexcept>
#include <string>

namespace tco {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitInternal = 3;

class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& where, const std::string& message)
      : std::runtime_error(compose(file, where, message)), file_(file), where_(where), message_(message) {}

  const std::string& file() const { return file_; }
  // A JSON pointer ("/onprem/nodes"), or "line N, column C" for text inputs.
  const std::string& where() const { return where_; }
  // The message without the file and the pointer.
  const std::string& message() const { return message_; }

 private:
  static std::string compose(const std::string& file, const std::string& where,
                             const std::string& message) {
    std::string out = file.empty() ? std::string("<input>") : file;
    if (!where.empty()) out += ": " + where;
    return out + ": " + message;
  }
  std::string file_;
  std::string where_;
  std::string message_;
};

class ModelError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tco
