#include <doctest/doctest.h>

#include "core/calendar.hpp"

using namespace tco;

TEST_CASE("calendar: dates parse strictly") {
  Date d;
  CHECK(parse_date("2026-07-19", d));
  CHECK(d.year == 2026);
  CHECK(d.month == 7);
  CHECK(d.day == 19);
  CHECK_FALSE(parse_date("2026-02-30", d));
  CHECK_FALSE(parse_date("2026-7-19", d));
  CHECK_FALSE(parse_date("yesterday", d));
  CHECK(parse_date("2024-02-29", d));
  CHECK_FALSE(parse_date("2026-02-29", d));
}

TEST_CASE("calendar: day of year, weekday and hours (SPEC 12.16)") {
  Date d;
  REQUIRE(parse_date("2026-07-19", d));
  // Jan 31 + Feb 28 + Mar 31 + Apr 30 + May 31 + Jun 30 = 181 days, + 19 = 200.
  CHECK(day_of_year(d) == 200);
  // 2026-07-19 is a Sunday (Monday = 0 -> 6).
  CHECK(weekday(d) == 6);
  const Calendar cal = Calendar::from_start(d);
  // t = 30 h: one day on (floor(30/24) = 1) -> day 201, 30 mod 24 = 6 -> 06:00, a Monday.
  CHECK(cal.day_of_year_at(30) == 201);
  CHECK(cal.hour_of_day(30) == 6);
  CHECK(cal.weekday_at(30) == 0);
  CHECK(cal.is_weekend(5));
  CHECK_FALSE(cal.is_weekend(30));
  // The model year has 365 days: day 365 is followed by day 1.
  Date dec31;
  REQUIRE(parse_date("2026-12-31", dec31));
  const Calendar end = Calendar::from_start(dec31);
  CHECK(end.day_of_year_at(0) == 365);
  CHECK(end.day_of_year_at(24) == 1);
  CHECK(month_of_hour(729) == 0);
  CHECK(month_of_hour(730) == 1);
}
