#include "core/calendar.hpp"

#include <cstdio>
#include <fmt/format.h>

namespace tco {

static bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in_month(int y, int m) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

bool parse_date(const std::string& text, Date& out) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (text[i] < '0' || text[i] > '9') return false;
  Date d{std::stoi(text.substr(0, 4)), std::stoi(text.substr(5, 2)), std::stoi(text.substr(8, 2))};
  if (d.year < 1900 || d.month < 1 || d.month > 12 || d.day < 1 || d.day > days_in_month(d.year, d.month))
    return false;
  out = d;
  return true;
}

std::string format_date(const Date& d) { return fmt::format("{:04}-{:02}-{:02}", d.year, d.month, d.day); }

int day_of_year(const Date& d) {
  int doy = d.day;
  for (int m = 1; m < d.month; ++m) doy += days_in_month(d.year, m);
  return doy;
}

// Days since 1970-01-01 (civil-from-days inverse, Howard Hinnant's algorithm).
static long days_from_civil(int y, int m, int d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const long yoe = y - era * 400;
  const long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int weekday(const Date& d) {
  // 1970-01-01 was a Thursday (Monday = 0 -> Thursday = 3).
  const long days = days_from_civil(d.year, d.month, d.day);
  return static_cast<int>(((days % 7) + 7 + 3) % 7);
}

long days_between(const Date& a, const Date& b) {
  return days_from_civil(b.year, b.month, b.day) - days_from_civil(a.year, a.month, a.day);
}

// The date of a day count since 1970-01-01 (Howard Hinnant's civil_from_days).
static Date civil_from_days(long z) {
  z += 719468;
  const long era = (z >= 0 ? z : z - 146096) / 146097;
  const long doe = z - era * 146097;
  const long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  return Date{static_cast<int>(yoe + era * 400 + (month <= 2 ? 1 : 0)), month, day};
}

Date add_days(const Date& date, long days) {
  return civil_from_days(days_from_civil(date.year, date.month, date.day) + days);
}

Date date_at_hour(const Date& start, long hour) { return add_days(start, hour / 24); }

}  // namespace tco
