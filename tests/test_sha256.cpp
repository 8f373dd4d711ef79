#include <doctest/doctest.h>

#include <string>

#include "core/io/sha256.hpp"

using namespace tco;

TEST_CASE("sha256: FIPS 180-2 test vectors") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // The two-block message of FIPS 180-2 appendix B.2 (56 bytes: padding spills into a 2nd block).
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a' (appendix B.3).
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: incremental updates equal one update") {
  Sha256 pieces;
  pieces.update("ab");
  pieces.update("");
  pieces.update("c");
  CHECK(pieces.hex_digest() == sha256_hex("abc"));
  // Splits around the 64-byte block boundary.
  const std::string text(130, 'x');
  Sha256 split;
  split.update(std::string_view(text).substr(0, 63));
  split.update(std::string_view(text).substr(63, 2));
  split.update(std::string_view(text).substr(65));
  CHECK(split.hex_digest() == sha256_hex(text));
}
