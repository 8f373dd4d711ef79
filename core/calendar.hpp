// The model calendar (SPEC §2 and §12.16). Hours count from 00:00 of the scenario's start;
// a month is 730 h and a year 8760 h; the model year has 365 days (no Feb 29):
//   day_of_year(t)  = ((doy(start) - 1 + floor(t / 24)) mod 365) + 1
//   hour_of_day(t)  = floor(t) mod 24
//   weekday(t)      = (weekday(start) + floor(t / 24)) mod 7, Monday = 0, weekend = {5, 6}
// Example: start 2026-07-19 (doy 200, a Sunday): t = 30 h is day 201, 06:00, a Monday.
#pragma once

#include <string>

#include "core/hd.hpp"

namespace tco {

inline constexpr int kHoursPerMonth = 730;
inline constexpr int kHoursPerYear = 8760;
inline constexpr int kDaysPerModelYear = 365;

struct Date {
  int year = 2026;
  int month = 1;  // 1..12
  int day = 1;    // 1..31
};

// Parses "YYYY-MM-DD" strictly; returns false for anything else, including impossible
// dates such as 2026-02-30.
bool parse_date(const std::string& text, Date& out);
std::string format_date(const Date& date);
// Calendar day of year, 1..366 (leap years counted as the real calendar does).
int day_of_year(const Date& date);
// Monday = 0 ... Sunday = 6.
int weekday(const Date& date);
// Days from `a` to `b` (b - a), by the real calendar.
long days_between(const Date& a, const Date& b);
// The real calendar's date `days` days after `date` (before it when negative): the inverse of
// days_between. Example: 2026-11-01 + 60 days = 2026-12-31.
Date add_days(const Date& date, long days);
// The calendar date of model hour `hour` (>= 0) of a scenario that starts at 00:00 of `start`: a
// calendar day is 24 model hours, as for dated price schedules (docs/model.md §4).
// Example: start 2026-11-01, hour 1,460 (month 2) = day 60 = 2026-12-31.
Date date_at_hour(const Date& start, long hour);

struct Calendar {
  int start_day_of_year = 1;  // 1..366
  int start_weekday = 0;      // Monday = 0

  static Calendar from_start(const Date& start) { return {day_of_year(start), weekday(start)}; }

  TCO_HD int hour_of_day(long hour) const { return static_cast<int>(hour % 24); }
  TCO_HD int day_of_year_at(long hour) const {
    return static_cast<int>((start_day_of_year - 1 + hour / 24) % kDaysPerModelYear) + 1;
  }
  TCO_HD int weekday_at(long hour) const { return static_cast<int>((start_weekday + hour / 24) % 7); }
  TCO_HD bool is_weekend(long hour) const { return weekday_at(hour) >= 5; }
};

TCO_HD int month_of_hour(long hour) { return static_cast<int>(hour / kHoursPerMonth); }

}  // namespace tco
