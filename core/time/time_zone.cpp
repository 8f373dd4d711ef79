#include "core/time/time_zone.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"

namespace tco {

namespace {

// A TZif file (RFC 8536), big-endian; version 2+ files repeat the data with 64-bit times after
// the version 1 block, and that is the block read here.
class TzifBytes {
 public:
  explicit TzifBytes(std::string bytes) : bytes_(std::move(bytes)) {}
  bool has(std::size_t n) const { return at_ + n <= bytes_.size(); }
  std::int64_t take(int width) {
    std::uint64_t v = 0;
    for (int i = 0; i < width; ++i) v = (v << 8) | static_cast<unsigned char>(bytes_[at_ + i]);
    at_ += width;
    if (width == 4) return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));  // signed 32-bit
    return static_cast<std::int64_t>(v);
  }
  void skip(std::size_t n) { at_ += n; }
  std::string_view peek(std::size_t n) const { return std::string_view(bytes_).substr(at_, n); }

 private:
  std::string bytes_;
  std::size_t at_ = 0;
};

struct TzifCounts {
  std::int64_t isut, isstd, leap, time, type, chars;
};

bool read_counts(TzifBytes& b, TzifCounts& c, char& version) {
  if (!b.has(44) || b.peek(4) != "TZif") return false;
  b.skip(4);
  version = b.peek(1)[0];
  b.skip(16);
  c = {b.take(4), b.take(4), b.take(4), b.take(4), b.take(4), b.take(4)};
  return c.type >= 1 && c.time >= 0 && c.chars >= 0 && c.leap >= 0 && c.isut >= 0 && c.isstd >= 0;
}

std::size_t block_bytes(const TzifCounts& c, int time_width) {
  return static_cast<std::size_t>(c.time * time_width + c.time + c.type * 6 + c.chars +
                                  c.leap * (time_width + 4) + c.isstd + c.isut);
}

// Days since 1970-01-01 to a civil date (H. Hinnant's days_from_civil), and back.
void civil_from_days(std::int64_t z, int& y, int& m, int& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const std::int64_t doe = z - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  y = static_cast<int>(yoe + era * 400 + (m <= 2));
}

}  // namespace

TimeZone TimeZone::load(const std::string& name, const std::string& where, const std::string& zoneinfo_dir) {
  TimeZone zone;
  zone.name_ = name;
  if (name == "UTC") return zone;
  const bool safe_name = !name.empty() && name.front() != '/' && name.find("..") == std::string::npos &&
                         name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/_+-") ==
                             std::string::npos;
  std::ifstream in(zoneinfo_dir + "/" + name, std::ios::binary);
  if (!safe_name || !in)
    throw InputError("", where,
                     fmt::format("expected an IANA time zone name such as UTC or America/New_York (a file under {}), "
                                 "found \"{}\"",
                                 zoneinfo_dir, name));
  TzifBytes b(std::string(std::istreambuf_iterator<char>(in), {}));
  const auto malformed = [&] {
    return InputError(zoneinfo_dir + "/" + name, where, "expected a TZif time zone file (RFC 8536)");
  };
  TzifCounts c{};
  char version = 0;
  if (!read_counts(b, c, version)) throw malformed();
  int width = 4;
  if (version >= '2') {
    if (!b.has(block_bytes(c, 4))) throw malformed();
    b.skip(block_bytes(c, 4));
    if (!read_counts(b, c, version)) throw malformed();
    width = 8;
  }
  if (!b.has(block_bytes(c, width))) throw malformed();
  std::vector<std::int64_t> times, offsets;
  std::vector<std::size_t> type_of;
  for (std::int64_t i = 0; i < c.time; ++i) times.push_back(b.take(width));
  for (std::int64_t i = 0; i < c.time; ++i) type_of.push_back(static_cast<std::size_t>(b.take(1)));
  for (std::int64_t i = 0; i < c.type; ++i) {
    offsets.push_back(b.take(4));
    b.skip(2);
  }
  if (!std::is_sorted(times.begin(), times.end())) throw malformed();
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (type_of[i] >= offsets.size()) throw malformed();
    zone.transitions_utc_s_.push_back(times[i]);
    zone.offset_after_s_.push_back(offsets[type_of[i]]);
  }
  zone.offset_before_s_ = offsets[0];
  return zone;
}

std::int64_t TimeZone::utc_offset_s(std::int64_t utc_s) const {
  const auto after = std::upper_bound(transitions_utc_s_.begin(), transitions_utc_s_.end(), utc_s);
  if (after == transitions_utc_s_.begin()) return offset_before_s_;
  return offset_after_s_[static_cast<std::size_t>(after - transitions_utc_s_.begin() - 1)];
}

std::int64_t TimeZone::utc_from_local(std::int64_t local_s) const {
  // Zone changes are days apart, so the offsets a day before and after are the only candidates.
  constexpr std::int64_t kDay = 86400;
  const std::int64_t before = utc_offset_s(local_s - kDay);
  const std::int64_t after = utc_offset_s(local_s + kDay);
  if (utc_offset_s(local_s - before) == before) return local_s - before;  // also the first of two
  if (utc_offset_s(local_s - after) == after) return local_s - after;
  return local_s - before;  // in a gap
}

std::int64_t civil_seconds(int year, int month, int day, long seconds_of_day) {
  return days_between(Date{1970, 1, 1}, Date{year, month, day}) * 86400 + seconds_of_day;
}

bool parse_civil_time(std::string_view text, std::int64_t& civil_s) {
  if (text.size() != 19 || (text[10] != 'T' && text[10] != ' ')) return false;
  Date date;
  if (!parse_date(std::string(text.substr(0, 10)), date)) return false;
  int clock[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const std::string_view two = text.substr(11 + 3 * i, 2);
    if (!std::isdigit(static_cast<unsigned char>(two[0])) || !std::isdigit(static_cast<unsigned char>(two[1])))
      return false;
    if (i < 2 && text[13 + 3 * i] != ':') return false;
    clock[i] = (two[0] - '0') * 10 + (two[1] - '0');
  }
  if (clock[0] > 23 || clock[1] > 59 || clock[2] > 59) return false;
  civil_s = civil_seconds(date.year, date.month, date.day, clock[0] * 3600L + clock[1] * 60L + clock[2]);
  return true;
}

std::string format_time_with_offset(std::int64_t utc_s, std::int64_t offset_s) {
  const std::int64_t local_s = utc_s + offset_s;
  std::int64_t days = local_s / 86400;
  std::int64_t second = local_s % 86400;
  if (second < 0) second += 86400, --days;
  int y = 0, m = 0, d = 0;
  civil_from_days(days, y, m, d);
  const std::int64_t magnitude = offset_s < 0 ? -offset_s : offset_s;
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{}{:02}:{:02}", y, m, d, second / 3600, second / 60 % 60,
                     second % 60, offset_s < 0 ? '-' : '+', magnitude / 3600, magnitude / 60 % 60);
}

bool parse_time_with_offset(std::string_view text, std::int64_t& utc_s) {
  std::int64_t civil_s = 0;
  if (text.size() < 20 || !parse_civil_time(text.substr(0, 19), civil_s)) return false;
  const std::string_view zone = text.substr(19);
  if (zone == "Z") return utc_s = civil_s, true;
  const auto digit = [&](std::size_t i) { return std::isdigit(static_cast<unsigned char>(zone[i])) != 0; };
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' || !digit(1) || !digit(2) ||
      !digit(4) || !digit(5))
    return false;  // two digits each: "+-5:00" and "+ 5:00" are not offsets
  const int hours = (zone[1] - '0') * 10 + (zone[2] - '0');
  const int minutes = (zone[4] - '0') * 10 + (zone[5] - '0');
  if (hours > 23 || minutes > 59) return false;
  const std::int64_t offset_s = (zone[0] == '-' ? -1 : 1) * (hours * 3600L + minutes * 60L);
  utc_s = civil_s - offset_s;
  return true;
}

}  // namespace tco
