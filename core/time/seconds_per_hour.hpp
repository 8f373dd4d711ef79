// Seconds in an hour, for readers and importers that turn clock seconds into model hours.
#pragma once

namespace tco {

inline constexpr double kSecondsPerHour = 3600.0;

}  // namespace tco
