// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits. Used for the pricing
// catalog's digest in reports: two runs priced from the same catalog bytes carry the same
// digest. Example: sha256_hex("abc") =
// "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tco {

std::string sha256_hex(std::string_view bytes);
// Of a file's bytes, read in blocks; InputError naming the path when it cannot be read.
std::string sha256_file_hex(const std::string& path);

// Incremental form, for hashing several pieces without concatenating them.
class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  // Finishes the hash; the object must not be updated afterwards.
  std::string hex_digest();

 private:
  void compress(const unsigned char* block);

  unsigned int state_[8];
  unsigned char buffer_[64];
  std::size_t buffered_ = 0;
  unsigned long long total_bytes_ = 0;
};

}  // namespace tco
