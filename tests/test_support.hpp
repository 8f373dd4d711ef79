// Helpers shared by the tests: where the repo and ../shared/data are, and how to skip a
// test that needs the shared data when a user's clone does not have it.
#pragma once

#include <filesystem>
#include <string>

#include <doctest/doctest.h>

namespace tco::test {

// Defined in test_paths.cpp, the one file compiled with the checkout's paths (the other test
// files then compile the same in every checkout, and ccache shares them between clones).
std::string source_path(const std::string& relative);
std::string shared_data_path(const std::string& relative);
bool shared_data_available();

// Whether this build runs under AddressSanitizer (clang's and GCC's spellings): a few whole-scenario
// checks that take minutes there are left to the Release pass.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderSanitizers = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderSanitizers = true;
#else
inline constexpr bool kUnderSanitizers = false;
#endif
#else
inline constexpr bool kUnderSanitizers = false;
#endif

// The tolerance of a hand-computed figure that should agree to the last bits.
inline constexpr double kEps = 1e-12;

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Writes text to path byte for byte; returns the path.
std::string write_text(const std::filesystem::path& path, const std::string& text);

// A fresh empty folder for a test's output files, named after the checkout so that two
// checkouts' suites running at once never share one.
std::filesystem::path scratch_dir(const std::string& name);

}  // namespace tco::test

// Skips the rest of a test (with a message) when ../shared/data is absent.
#define TCO_REQUIRE_SHARED_DATA()                                                        \
  do {                                                                                   \
    if (!tco::test::shared_data_available()) {                                           \
      MESSAGE("skipped: ../shared/data is absent (it ships beside the project's checkout" \
              " only; a user's clone does not have it)");                                \
      return;                                                                            \
    }                                                                                    \
  } while (0)
