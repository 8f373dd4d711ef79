// read_json_file's parse for a file whose bytes were read already (models/catalog/catalog_source.hpp
// reads a catalog folder once, then parses and compares exactly those bytes).
#pragma once

#include <optional>
#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// `text`: read_input_file(path, limits.max_file_bytes), nothing when the file could not be
// opened. The same errors as read_json_file(path, limits).
Json parse_json_file_bytes(const std::string& path, const std::optional<std::string>& text,
                           const JsonLimits& limits = {});

}  // namespace tco
