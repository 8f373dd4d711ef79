// core/time/time_zone: IANA zones from the system's TZif files, across daylight-saving changes.
#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "core/time/time_zone.hpp"
#include "test_support.hpp"

namespace tco {

TEST_CASE("time zone: America/New_York across the 2024 spring-forward and fall-back changes") {
  const TimeZone ny = TimeZone::load("America/New_York", "--timezone");
  // 2024-03-10 02:00 EST the clocks jump to 03:00 EDT (07:00Z).
  const std::int64_t before = ny.utc_from_local(civil_seconds(2024, 3, 10, 1 * 3600 + 30 * 60));
  const std::int64_t after = ny.utc_from_local(civil_seconds(2024, 3, 10, 3 * 3600 + 30 * 60));
  CHECK(before == civil_seconds(2024, 3, 10, 6 * 3600 + 30 * 60));  // 01:30 - (-5 h) = 06:30Z
  CHECK(after == civil_seconds(2024, 3, 10, 7 * 3600 + 30 * 60));   // 03:30 - (-4 h) = 07:30Z
  CHECK(after - before == 3600);                                    // two wall hours, one real hour
  // 02:30 never happens that day: read with the offset before the gap, 07:30Z (= 03:30 EDT).
  CHECK(ny.utc_from_local(civil_seconds(2024, 3, 10, 2 * 3600 + 30 * 60)) == after);
  // 2024-11-03 01:30 happens twice (EDT, then EST): the first, 05:30Z.
  CHECK(ny.utc_from_local(civil_seconds(2024, 11, 3, 1 * 3600 + 30 * 60)) == civil_seconds(2024, 11, 3, 5 * 3600 + 30 * 60));
  CHECK(ny.utc_offset_s(civil_seconds(2024, 7, 1, 0)) == -4 * 3600);
  CHECK(ny.utc_offset_s(civil_seconds(2024, 1, 1, 0)) == -5 * 3600);
  CHECK(format_time_with_offset(after, ny.utc_offset_s(after)) == "2024-03-10T03:30:00-04:00");
  // Asia/Kolkata: +05:30, no daylight saving.
  const TimeZone kolkata = TimeZone::load("Asia/Kolkata", "--timezone");
  CHECK(kolkata.utc_offset_s(civil_seconds(2024, 3, 10, 0)) == 5 * 3600 + 30 * 60);
  CHECK(format_time_with_offset(civil_seconds(2024, 3, 10, 0), 19800) == "2024-03-10T05:30:00+05:30");
}

TEST_CASE("time zone: UTC is built in, an unknown or unsafe name is an InputError naming it") {
  const TimeZone utc = TimeZone::load("UTC", "--timezone", "/nonexistent");
  CHECK(utc.utc_from_local(1710039600) == 1710039600);
  CHECK_THROWS_WITH_AS(TimeZone::load("Mars/Base", "--timezone"), doctest::Contains("Mars/Base"), InputError);
  CHECK_THROWS_AS(TimeZone::load("../../etc/passwd", "--timezone"), InputError);
  // A file that is not TZif, and one cut short after its header.
  const auto dir = test::scratch_dir("time-zone-bad");
  std::filesystem::create_directories(dir / "Bad");
  std::ofstream(dir / "Bad" / "Text", std::ios::binary) << "not a time zone";
  CHECK_THROWS_WITH_AS(TimeZone::load("Bad/Text", "--timezone", dir.string()), doctest::Contains("TZif"), InputError);
  std::ifstream ny("/usr/share/zoneinfo/America/New_York", std::ios::binary);
  std::string head(60, '\0');
  ny.read(head.data(), 60);
  std::ofstream(dir / "Bad" / "Cut", std::ios::binary) << head;
  CHECK_THROWS_WITH_AS(TimeZone::load("Bad/Cut", "--timezone", dir.string()), doctest::Contains("TZif"), InputError);
}

TEST_CASE("time zone: ISO 8601 times with an offset parse back to the same UTC second") {
  std::int64_t utc_s = 0;
  REQUIRE(parse_time_with_offset("2024-03-09T22:00:00-05:00", utc_s));
  CHECK(utc_s == 1710039600);  // 2024-03-10T03:00:00Z: 19,792 days x 86,400 + 3 x 3,600
  REQUIRE(parse_time_with_offset("2024-03-10T03:00:00Z", utc_s));
  CHECK(utc_s == 1710039600);
  CHECK(!parse_time_with_offset("2024-03-10T03:00:00", utc_s));
  CHECK(!parse_time_with_offset("2024-03-10T03:00:00+5:00", utc_s));
  CHECK(!parse_time_with_offset("2024-02-30T03:00:00Z", utc_s));
}

}  // namespace tco
