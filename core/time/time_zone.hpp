// IANA time zones read from the TZif files of the system's zoneinfo (Debian package tzdata),
// since GCC 12's libstdc++ has no std::chrono::tzdb. Times are whole seconds since
// 1970-01-01T00:00:00Z (UTC) or, for "local" seconds, the same count on the zone's wall clock:
//   utc_s = local_s - utc_offset_s
// A wall time that happens twice (the hour after a fall-back change) is the first occurrence;
// one that never happens (inside a spring-forward gap) is read with the offset before the gap.
// Past the file's last transition (2037 in Debian's "fat" files) the last offset holds.
// Example: America/New_York, local 2024-03-10 01:30:00 (EST, -05:00) is 06:30:00Z, and
// local 03:30:00 the same day (EDT, -04:00) is 07:30:00Z: one hour later, not two.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tco {

class TimeZone {
 public:
  // "UTC" (built in), or an IANA name such as "America/New_York" read from `zoneinfo_dir`.
  // Throws InputError(where, ...) naming the zone when it is unknown or its file is malformed.
  static TimeZone load(const std::string& name, const std::string& where,
                       const std::string& zoneinfo_dir = "/usr/share/zoneinfo");

  const std::string& name() const { return name_; }
  std::int64_t utc_offset_s(std::int64_t utc_s) const;
  std::int64_t utc_from_local(std::int64_t local_s) const;

 private:
  std::string name_;
  std::vector<std::int64_t> transitions_utc_s_;  // ascending
  std::vector<std::int64_t> offset_after_s_;     // the offset from transition i on
  std::int64_t offset_before_s_ = 0;             // before the first transition
};

// Seconds since 1970-01-01 00:00:00 of a civil date and time (no zone).
std::int64_t civil_seconds(int year, int month, int day, long seconds_of_day);

// Parses "YYYY-MM-DDTHH:MM:SS" (or a space for the T) into civil seconds; false when malformed.
bool parse_civil_time(std::string_view text, std::int64_t& civil_s);

// "2024-03-10T01:30:00-05:00": the wall time at `utc_s` with the given offset, ISO 8601.
std::string format_time_with_offset(std::int64_t utc_s, std::int64_t offset_s);

// Parses what format_time_with_offset writes (or a "Z" for +00:00) back to UTC seconds.
bool parse_time_with_offset(std::string_view text, std::int64_t& utc_s);

}  // namespace tco
