// Hourly demand profiles (equations in models/workload/workload.hpp). The choices the header leaves
// open, pinned here and in docs/workload.md:
// - Hour h covers [h, h + 1) hours from the start; every profile is evaluated at the hour's
//   start. Growth: (1 + g)^(h / 8760), so hour 8760 carries exactly 1 + g.
// - Campaign k covers [24 (first_day + k every_days), 24 (first_day + k every_days +
//   duration_days)) hours; hour h is on when its start h lies inside. Example: first_day 1.5,
//   duration_days 2, every_days 7: hours 36..83 on, 84 off, 204..251 on.
// - Series are bucketed into hours (csv: floor(time_h); clock formats: whole clock hours
//   counted from the first row's clock hour) and each hour is the mean of its samples. A
//   series is a step function of its samples, so an hour with no samples (a gap in the
//   measurement) carries the last sample before it. Example: samples 30 and 40 in hour 1 and
//   the next one in hour 3 give hour 1 = 35, hour 2 = 40.
#include "models/workload/workload.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "models/input_limits.hpp"
#include "models/serving/token_demand.hpp"
#include "models/workload/trace_clock.hpp"

namespace tco {

namespace {

constexpr double kPi = 3.14159265358979323846;
// Campaign boundaries are compared with this slack so that a start written in days lands on
// the hour it names despite rounding (24 x 7.3 x 5 = 876 h, not 876.0000000000001 h).
constexpr double kBoundarySlackH = 1e-9;
// A series longer than this (114 years) is a typo in a time, not a measurement; refusing it
// keeps a bad row from allocating gigabytes of carried-forward hours.
constexpr long kMaxSeriesHours = 1'000'000;

// ---------------------------------------------------------------------------------------------
// Profiles

double steady_gpus(const SteadyProfile& p, long hour, const Calendar& calendar) {
  const double phase = 2.0 * kPi * (calendar.hour_of_day(hour) - p.peak_hour) / 24.0;
  const double shape = 1.0 + p.diurnal_amplitude * std::cos(phase);
  return p.gpus * shape * (calendar.is_weekend(hour) ? p.weekend_factor : 1.0);
}

bool campaign_active(const CampaignProfile& p, long hour) {
  const double offset_h = static_cast<double>(hour) - 24.0 * p.first_day;
  if (offset_h < -kBoundarySlackH) return false;
  const double period_h = 24.0 * p.every_days;
  const double k = std::floor((offset_h + kBoundarySlackH) / period_h);
  const double phase_h = offset_h - k * period_h;
  return phase_h < 24.0 * p.duration_days - kBoundarySlackH;
}

// ---------------------------------------------------------------------------------------------
// Series files

// How a format's columns become (time, GPUs).
struct SeriesLayout {
  std::string time_column;
  bool clock_time = false;  // "YYYY-MM-DD HH:MM:SS" (else hours from the series start)
  std::vector<std::string> value_columns;  // summed
  double gpus_per_unit = 1.0;              // GPUs per unit of the summed values
  // The largest value a row may hold: beyond it a figure is a unit slip (a token count an hour
  // may reach 1e13: 1,200 requests/s x 2,400 tokens x 3,600 s is 1e10).
  double max_value = 1e9;
  const char* max_value_text = "1e9";
};

SeriesLayout layout_of(const SeriesProfile& s) {
  if (s.format == "csv") return {"time_h", false, {"gpus"}, 1.0};
  if (s.format == "helios_vc") return {"time", true, {"running_gpu_num", "pending_gpu_num"}, 1.0};
  if (s.format == "philly_nodes") return {"time", true, {"active"}, s.gpus_per_node};
  // The hourly token demand of `tcosim demand import --format azure-llm` (models/serving/token_demand.hpp).
  if (s.format == "token_input") return {"time_h", false, {"input_tokens"}, 1.0, 1e13, "1e13"};
  if (s.format == "token_output") return {"time_h", false, {"output_tokens"}, 1.0, 1e13, "1e13"};
  throw std::invalid_argument("unknown series format \"" + s.format + "\"");
}

// Seconds since 00:00 of `origin`, from a strict "YYYY-MM-DD HH:MM:SS"; false when malformed.
// `cache_*` keeps the last date so that days_between runs once per day of data, not per row.
struct ClockParser {
  Date origin;
  bool has_origin = false;
  std::string cached_date_text;
  long cached_days = 0;

  bool seconds_since_origin(std::string_view text, long& seconds) {
    std::string_view date_text;
    long seconds_of_day = 0;
    if (!parse_clock_of_day(text, date_text, seconds_of_day)) return false;
    if (date_text != cached_date_text) {
      Date date;
      if (!parse_date(std::string(date_text), date)) return false;
      if (!has_origin) {
        origin = date;
        has_origin = true;
      }
      cached_date_text = std::string(date_text);
      cached_days = days_between(origin, date);
    }
    seconds = cached_days * 86400L + seconds_of_day;
    return true;
  }
};

// Folds samples into hourly means; an hour without samples carries the last sample.
class HourlyAverager {
 public:
  void add(long hour, double gpus) {
    if (hour != current_hour_) {
      flush();
      while (static_cast<long>(hours_.size()) < hour) hours_.push_back(last_gpus_);
      current_hour_ = hour;
    }
    sum_ += gpus;
    ++count_;
    last_gpus_ = gpus;
  }

  std::vector<double> finish() {
    flush();
    return std::move(hours_);
  }

 private:
  void flush() {
    if (count_ > 0) hours_.push_back(sum_ / static_cast<double>(count_));
    sum_ = 0.0;
    count_ = 0;
  }

  std::vector<double> hours_;
  long current_hour_ = -1;
  double sum_ = 0.0;
  long count_ = 0;
  double last_gpus_ = 0.0;
};

class SeriesReader {
 public:
  SeriesReader(std::string path, SeriesLayout layout)
      : csv_(std::move(path), "cannot open the series file"), layout_(std::move(layout)) {}

  std::vector<double> read() {
    read_header();
    HourlyAverager averager;
    long blank_line = 0;  // first blank line seen; only trailing blank lines are allowed
    bool any_row = false;
    while (csv_.next_line()) {
      if (csv_.line().empty()) {
        if (blank_line == 0) blank_line = csv_.line_number();
        continue;
      }
      if (blank_line != 0)
        throw InputError(csv_.path(), fmt::format("line {}", blank_line), "blank line inside the data");
      const auto [hour, gpus] = read_row(csv_.line_number());
      averager.add(hour, gpus);
      any_row = true;
    }
    if (!any_row) throw InputError(csv_.path(), fmt::format("line {}", header_line_ + 1), "no data rows after the header");
    return averager.finish();
  }

 private:
  void read_header() {
    csv_.read_header();
    // A "# start:" line (models/workload/trace_start.hpp) may come before the header.
    if (csv_.line().substr(0, kTraceStartPrefix.size()) == kTraceStartPrefix) {
      require_trace_start_line(csv_.path(), csv_.line());
      if (!csv_.next_line()) throw InputError(csv_.path(), "line 2", "expected a header line after the start line");
    }
    const std::vector<std::string_view>& names = csv_.fields();
    header_line_ = csv_.line_number();
    field_count_ = names.size();
    auto find = [&](const std::string& name) {
      for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return i;
      std::string found;
      for (auto n : names) found += (found.empty() ? "" : ", ") + std::string(n);
      throw InputError(csv_.path(), fmt::format("line {}", csv_.line_number()),
                       fmt::format("missing column \"{}\" (format needs {}; found: {})", name,
                                   required_columns_text(), found));
    };
    time_index_ = find(layout_.time_column);
    value_indices_.clear();
    for (const auto& name : layout_.value_columns) value_indices_.push_back(find(name));
  }

  std::string required_columns_text() const {
    std::string out = layout_.time_column;
    for (const auto& v : layout_.value_columns) out += ", " + v;
    return out;
  }

  std::pair<long, double> read_row(long line_number) {
    const std::vector<std::string_view>& fields = csv_.fields();
    if (fields.size() != field_count_)
      throw InputError(csv_.path(), fmt::format("line {}", line_number),
                       fmt::format("expected {} fields as in the header, found {}", field_count_,
                                   fields.size()));
    double gpus = 0.0;
    for (std::size_t k = 0; k < value_indices_.size(); ++k)
      gpus += non_negative_number(value_indices_[k], layout_.value_columns[k], line_number, layout_.max_value,
                                  layout_.max_value_text);
    gpus *= layout_.gpus_per_unit;
    const long hour = layout_.clock_time ? clock_hour(line_number) : relative_hour(line_number);
    if (hour >= kMaxSeriesHours)
      throw InputError(csv_.path(), csv_position(line_number, time_index_ + 1),
                       fmt::format("expected a time within {} hours of the series start, found \"{}\"",
                                   kMaxSeriesHours, field(time_index_)));
    return {hour, gpus};
  }

  std::string_view field(std::size_t index) const { return csv_.fields()[index]; }

  double number(std::size_t index, const std::string& name, long line_number) const {
    const std::string_view text = field(index);
    double x = 0.0;
    if (!parse_finite_double(text, x))
      throw InputError(csv_.path(), csv_position(line_number, index + 1),
                       fmt::format("expected a number ({}), found \"{}\"", name, text));
    return x;
  }

  // A time or a demand: at most 1e9 (hours, GPUs or nodes; a layout's max_value for its values);
  // beyond it a figure is a unit slip.
  double non_negative_number(std::size_t index, const std::string& name, long line_number, double max_value = 1e9,
                             const char* max_text = "1e9") const {
    const double x = number(index, name, line_number);
    if (x < 0.0 || x > max_value)
      throw InputError(csv_.path(), csv_position(line_number, index + 1),
                       fmt::format("expected a number >= 0 and <= {} ({}), found \"{}\"", max_text, name, field(index)));
    return x;
  }

  void check_forward(double now, long line_number) {
    if (has_previous_ && now < previous_time_)
      throw InputError(csv_.path(), csv_position(line_number, time_index_ + 1),
                       fmt::format("time goes backwards: \"{}\" comes after \"{}\" (line {})",
                                   field(time_index_), previous_time_text_, previous_line_));
    has_previous_ = true;
    previous_time_ = now;
    previous_time_text_ = std::string(field(time_index_));
    previous_line_ = line_number;
  }

  // csv: hour floor(time_h); the series starts at time_h = 0, so the first sample must lie in
  // hour 0 (an hour before the first sample has no value to carry).
  long relative_hour(long line_number) {
    const double time_h = non_negative_number(time_index_, layout_.time_column, line_number);
    if (!has_previous_ && time_h >= 1.0)
      throw InputError(csv_.path(), csv_position(line_number, time_index_ + 1),
                       fmt::format("expected the first sample in hour 0 (time_h < 1), found \"{}\"",
                                   field(time_index_)));
    check_forward(time_h, line_number);
    // Clamped before the cast (a huge double does not fit a long); read_row rejects it.
    return static_cast<long>(std::floor(std::min(time_h, static_cast<double>(kMaxSeriesHours))));
  }

  // Clock formats: whole clock hours counted from the first row's clock hour.
  long clock_hour(long line_number) {
    long seconds = 0;
    if (!clock_.seconds_since_origin(field(time_index_), seconds))
      throw InputError(csv_.path(), csv_position(line_number, time_index_ + 1),
                       fmt::format("expected a time YYYY-MM-DD HH:MM:SS ({}), found \"{}\"",
                                   layout_.time_column, field(time_index_)));
    if (!has_previous_) first_hour_seconds_ = seconds - seconds % 3600;
    check_forward(static_cast<double>(seconds), line_number);
    return (seconds - first_hour_seconds_) / 3600;
  }

  CsvLineReader csv_;
  SeriesLayout layout_;
  std::size_t field_count_ = 0;
  long header_line_ = 1;
  std::size_t time_index_ = 0;
  std::vector<std::size_t> value_indices_;
  ClockParser clock_;
  long first_hour_seconds_ = 0;
  bool has_previous_ = false;
  double previous_time_ = 0.0;
  std::string previous_time_text_;
  long previous_line_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Parsing

SteadyProfile parse_steady(JsonObjectReader& r) {
  SteadyProfile p;
  p.gpus = r.number("gpus", limits::kGpus);
  p.diurnal_amplitude = r.number_or("diurnal_amplitude", p.diurnal_amplitude, Bounds::fraction());
  p.peak_hour = static_cast<int>(r.integer_or("peak_hour", p.peak_hour, 0, 23));
  p.weekend_factor = r.number_or("weekend_factor", p.weekend_factor, limits::kWeekendFactor);
  return p;
}

CampaignProfile parse_campaigns(JsonObjectReader& r) {
  CampaignProfile p;
  p.gpus = r.number("gpus", limits::kGpus);
  p.every_days = r.number_or("every_days", p.every_days, limits::kPositiveDays);
  p.duration_days = r.number_or("duration_days", p.duration_days, limits::kPositiveDays);
  if (p.duration_days > p.every_days) {
    const Json found = p.duration_days;
    r.fail("duration_days", fmt::format("a number <= every_days ({})", p.every_days), &found);
  }
  p.first_day = r.number_or("first_day", p.first_day, limits::kDays);
  return p;
}

SeriesProfile parse_series(JsonObjectReader& r, const std::string& scenario_dir) {
  SeriesProfile p;
  p.file = r.string("file");
  if (p.file.empty()) {
    const Json found = p.file;
    r.fail("file", "a path to a series file", &found);
  }
  p.format = r.choice_or("format", {"csv", "helios_vc", "philly_nodes"}, p.format);
  // Only node counts need a GPUs-per-node factor; elsewhere the key would be silently unused.
  if (p.format == "philly_nodes") {
    p.gpus_per_node = r.number_or("gpus_per_node", p.gpus_per_node, limits::kGpusPerNode);
  } else if (r.has("gpus_per_node")) {
    throw InputError(r.file(), r.pointer_of("gpus_per_node"),
                     fmt::format("gpus_per_node applies only to format \"philly_nodes\", found it "
                                 "with format \"{}\"", p.format));
  }
  p.scale = r.number_or("scale", p.scale, limits::kDemandScale);
  p.repeat = r.boolean_or("repeat", p.repeat);

  const std::filesystem::path path(p.file);
  p.resolved_path = (path.is_relative() && !scenario_dir.empty())
                        ? (std::filesystem::path(scenario_dir) / path).lexically_normal().string()
                        : p.file;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(p.resolved_path, ec))
    throw InputError(r.file(), r.pointer_of("file"),
                     fmt::format("series file not found: \"{}\" (resolved to \"{}\")", p.file,
                                 p.resolved_path));
  if (p.format == "csv") p.start = read_trace_start(p.resolved_path);
  return p;
}

DemandProfile parse_profile(JsonObjectReader& r, const std::string& scenario_dir) {
  const std::string type = r.choice("type", {"steady", "campaigns", "series"});
  DemandProfile profile;
  if (type == "steady") profile = parse_steady(r);
  else if (type == "campaigns") profile = parse_campaigns(r);
  else profile = parse_series(r, scenario_dir);
  r.finish();
  return profile;
}

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace

WorkloadSpec parse_workload(JsonObjectReader& r, const std::string& scenario_dir) {
  WorkloadSpec spec;
  spec.file = r.file();
  spec.pointer = r.pointer();
  r.allow("tokens");
  r.allow("requests");
  if (!r.has("tokens") || r.has("profiles")) {
    const Json& profiles = r.value("profiles");
    if (!profiles.is_array() || profiles.empty())
      r.fail("profiles", "a non-empty array of profile objects", &profiles);
    const std::string profiles_pointer = r.pointer_of("profiles");
    for (std::size_t i = 0; i < profiles.size(); ++i) {
      JsonObjectReader p(profiles[i], r.file(), pointer_join(profiles_pointer, std::to_string(i)));
      spec.profiles.push_back(parse_profile(p, scenario_dir));
    }
  }
  // A growth of -100 % or less per year has no (1 + g)^t.
  spec.growth_per_year = r.number_or("growth_per_year", spec.growth_per_year,
                                     limits::kGrowthPerYear);
  if (r.has("deferrable")) {
    JsonObjectReader d = r.object("deferrable");
    spec.deferrable = DeferrableDemand{d.number("share", Bounds::fraction()), d.number("max_delay_h", limits::kHoldHours)};
    d.finish();
  }
  r.finish();
  return spec;
}

std::vector<double> read_hourly_series(const SeriesProfile& series) {
  const std::string& path = series.resolved_path.empty() ? series.file : series.resolved_path;
  std::vector<double> hours = SeriesReader(path, layout_of(series)).read();
  if (series.scale != 1.0)
    for (double& gpus : hours) gpus *= series.scale;
  return hours;
}

std::vector<double> demand_gpus_by_hour(const WorkloadSpec& spec, long hours, const Calendar& calendar) {
  if (hours < 0) throw std::invalid_argument("demand_gpus_by_hour: negative number of hours");
  std::vector<double> demand(static_cast<std::size_t>(hours), 0.0);
  for (const DemandProfile& profile : spec.profiles) {
    std::visit(Overloaded{
                   [&](const SteadyProfile& p) {
                     for (long h = 0; h < hours; ++h) demand[h] += steady_gpus(p, h, calendar);
                   },
                   [&](const CampaignProfile& p) {
                     for (long h = 0; h < hours; ++h)
                       if (campaign_active(p, h)) demand[h] += p.gpus;
                   },
                   [&](const SeriesProfile& p) {
                     const std::vector<double> series = read_hourly_series(p);
                     const long length = static_cast<long>(series.size());
                     const long offset_h =
                         p.start ? std::lround(trace_clock_offset_h(*p.start, calendar.start_weekday)) : 0;
                     for (long h = 0; h < hours; ++h) {
                       const long row = h - offset_h;
                       if (!p.repeat && (row < 0 || row >= length)) continue;
                       demand[h] += series[((row % length) + length) % length];
                     }
                   },
               },
               profile);
  }
  if (spec.growth_per_year != 0.0) {
    for (long h = 0; h < hours; ++h)
      demand[h] *= std::pow(1.0 + spec.growth_per_year, static_cast<double>(h) / kHoursPerYear);
  }
  if (spec.tokens) {
    const std::vector<double> token_gpus = token_demand_gpus_by_hour(*spec.tokens, hours, calendar);
    for (long h = 0; h < hours; ++h) demand[h] += token_gpus[h];
  }
  for (long h = 0; h < hours; ++h) {
    if (!(demand[h] <= kMaxDemandGpus))
      throw InputError(spec.file, spec.pointer,
                       fmt::format("the demand reaches {:.4g} GPUs in hour {} (profiles x scale x growth); more than "
                                   "{:.0f} million GPUs is no fleet: check the units",
                                   demand[h], h, kMaxDemandGpus / 1e6));
  }
  return demand;
}

// Each profile is echoed field by field (alike in shape only).
Json to_json(const WorkloadSpec& spec) {
  Json profiles = Json::array();
  for (const DemandProfile& profile : spec.profiles) {
    profiles.push_back(std::visit(
        Overloaded{
            [](const SteadyProfile& p) {
              return Json{{"type", "steady"},
                          {"gpus", p.gpus},
                          {"diurnal_amplitude", p.diurnal_amplitude},
                          {"peak_hour", p.peak_hour},
                          {"weekend_factor", p.weekend_factor}};
            },
            [](const CampaignProfile& p) {
              return Json{{"type", "campaigns"},
                          {"gpus", p.gpus},
                          {"every_days", p.every_days},
                          {"duration_days", p.duration_days},
                          {"first_day", p.first_day}};
            },
            [](const SeriesProfile& p) {
              Json j{{"type", "series"},         {"file", p.file},   {"resolved_path", p.resolved_path},
                     {"format", p.format},       {"scale", p.scale}, {"repeat", p.repeat}};
              if (p.format == "philly_nodes") j["gpus_per_node"] = p.gpus_per_node;
              if (p.start) j["start"] = p.start->local_time + " " + p.start->time_zone;
              return j;
            },
        },
        profile));
  }
  Json out{{"profiles", profiles}, {"growth_per_year", spec.growth_per_year}};
  if (spec.deferrable)
    out["deferrable"] = {{"share", spec.deferrable->share}, {"max_delay_h", spec.deferrable->max_delay_h}};
  return out;
}

}  // namespace tco
