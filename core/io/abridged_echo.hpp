// A report echoes its inputs so that it can be checked and replayed; a list of more than
// kMaxEchoedItems (a price schedule of a million daily points) is echoed by its size and digest
// instead, so that a report stays within a few times the size of an ordinary one (issue 43).
// The digest is SHA-256 of the list's compact JSON text (`jq -c .PATH FILE | sha256sum`, less
// the newline). Example: [1,2,3] over a limit of 2 -> {"abridged_array": {"items": 3, "bytes": 7,
// "digest_sha256": "a615eeae..."}}.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

namespace tco {

inline constexpr std::size_t kMaxEchoedItems = 1000;

// A copy of `value` with every array of more than `max_items` items replaced by its summary; the
// long arrays themselves are not copied.
nlohmann::json abridged_echo(const nlohmann::json& value, std::size_t max_items = kMaxEchoedItems);

}  // namespace tco
