// Writes one file atomically: to a temporary file beside it, then renamed over it, so a
// reader (or a crash) never sees half a report. A command that writes several files stages
// them in one OutputSet instead (core/io/output_set.hpp), which this is the one-file case of.
#pragma once

#include <string>

namespace tco {

// Throws InputError naming the path when it may not be written (a folder, a device, a missing
// folder; see OutputSet) or writing fails.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace tco
