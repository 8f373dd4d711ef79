// Writes a file atomically: to a temporary file beside it, then renamed over it, so a
// reader (or a crash) never sees half a report.
#pragma once

#include <string>

namespace tco {

// Throws InputError naming the path when the folder does not exist or is not writable.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace tco
