#include "models/importers/serving/azure_llm_trace.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/time/seconds_per_hour.hpp"
#include "core/error.hpp"
#include "core/io/csv_lines.hpp"

namespace tco {

namespace {

constexpr double kSecondsPerDay = 86400.0;
// A request of more tokens than this is a wrong column, not a prompt.
constexpr double kMaxTokensPerRequest = 1e8;
// A trace spanning more hours than this is a wrong date (the job trace reader's limit alike).
constexpr double kMaxAzureTraceHours = 100'000.0;

// "2023-11-16 18:15:46.6805900" -> seconds from `origin`'s midnight; false when malformed.
bool seconds_of(std::string_view text, const Date* origin, Date& date, double& seconds) {
  std::string_view whole = text;
  double fraction = 0.0;
  if (const std::size_t dot = text.find('.'); dot != std::string_view::npos) {
    whole = text.substr(0, dot);
    const std::string_view digits = text.substr(dot + 1);
    if (digits.empty() || digits.size() > 9) return false;
    double scale = 0.1;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      fraction += (c - '0') * scale;
      scale /= 10.0;
    }
  }
  std::string_view date_text;
  long clock_s = 0;
  if (!parse_clock_of_day(whole, date_text, clock_s) || !parse_date(std::string(date_text), date)) return false;
  const long days = origin ? days_between(*origin, date) : 0;
  seconds = static_cast<double>(days) * kSecondsPerDay + static_cast<double>(clock_s) + fraction;
  return true;
}

}  // namespace

namespace {

// Calls row(seconds after the first request, input tokens, output tokens, line, TIMESTAMP text) for
// every request of the trace, in order, after checking it; returns the number of requests.
template <class Row>
long for_each_request(const std::string& path, Row&& row) {
  CsvLineReader in(path, "cannot open the Azure LLM trace");
  in.read_header();
  const std::vector<std::string> expected = {"TIMESTAMP", "ContextTokens", "GeneratedTokens"};
  if (in.fields().size() != expected.size())
    throw InputError(path, "line 1", "expected the header TIMESTAMP,ContextTokens,GeneratedTokens");
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (in.fields()[i] != expected[i])
      throw InputError(path, csv_position(1, i + 1),
                       fmt::format("expected the column {}, found \"{}\"", expected[i], in.fields()[i]));
  long rows = 0;
  Date origin;
  double t0 = 0.0, last = 0.0;
  while (in.next_line()) {
    if (in.line().empty()) continue;
    const long line = in.line_number();
    const auto& f = in.fields();
    if (f.size() != 3)
      throw InputError(path, csv_position(line, std::min<std::size_t>(f.size(), 3) + (f.size() < 3 ? 1 : 0)),
                       fmt::format("expected 3 fields (TIMESTAMP,ContextTokens,GeneratedTokens), found {}", f.size()));
    Date date;
    double t = 0.0;
    if (!seconds_of(f[0], rows == 0 ? nullptr : &origin, date, t))
      throw InputError(path, csv_position(line, 1),
                       fmt::format("expected a time YYYY-MM-DD HH:MM:SS[.fffffff], found \"{}\"", f[0]));
    if (rows == 0) {
      origin = date;
      t0 = t;
    } else if (t < last) {
      throw InputError(path, csv_position(line, 1),
                       fmt::format("expected rows in time order: {} is before the row above", f[0]));
    }
    double counts[2];
    for (int k = 0; k < 2; ++k) {
      if (!parse_finite_double(f[k + 1], counts[k]) || counts[k] < 0 || counts[k] != std::floor(counts[k]) ||
          counts[k] > kMaxTokensPerRequest)
        throw InputError(path, csv_position(line, k + 2),
                         fmt::format("expected a whole number of tokens from 0 to {:.0e}, found \"{}\"",
                                     kMaxTokensPerRequest, f[k + 1]));
    }
    const double hours_after = std::floor((t - t0) / kSecondsPerHour);
    if (hours_after >= kMaxAzureTraceHours)
      throw InputError(path, csv_position(line, 1),
                       fmt::format("expected a trace of at most {:.0f} hours, found {} {:.0f} hours after the first "
                                   "request",
                                   kMaxAzureTraceHours, f[0], hours_after));
    row(t - t0, counts[0], counts[1], std::string_view(f[0]));
    last = t;
    ++rows;
  }
  if (in.read_failed()) throw InputError(path, "", "the trace could not be read to its end");
  if (rows == 0) throw InputError(path, "line 2", "expected at least one request, found none");
  return rows;
}

}  // namespace

HourlyTokens import_azure_llm_trace(const std::string& path) {
  HourlyTokens out;
  double last_s = 0.0;
  out.rows = for_each_request(path, [&](double t_s, double input, double output, std::string_view time) {
    if (out.first_time.empty()) out.first_time = std::string(time);
    const std::size_t hour = static_cast<std::size_t>(std::floor(t_s / kSecondsPerHour));
    if (hour >= out.requests.size()) {
      out.requests.resize(hour + 1, 0.0);
      out.input_tokens.resize(hour + 1, 0.0);
      out.output_tokens.resize(hour + 1, 0.0);
    }
    out.requests[hour] += 1.0;
    out.input_tokens[hour] += input;
    out.output_tokens[hour] += output;
    last_s = t_s;
  });
  out.last_hour_s = last_s - kSecondsPerHour * static_cast<double>(out.requests.size() - 1);
  return out;
}

std::vector<serving::TraceRequest> read_azure_llm_requests(const std::string& path) {
  std::vector<serving::TraceRequest> out;
  for_each_request(path, [&](double t_s, double input, double output, std::string_view) {
    out.push_back({t_s, input, output});
  });
  return out;
}

std::string hourly_tokens_csv(const HourlyTokens& tokens) {
  std::string text = "time_h,requests,input_tokens,output_tokens\n";
  for (std::size_t h = 0; h < tokens.requests.size(); ++h)
    text += fmt::format("{},{},{},{}\n", h, tokens.requests[h], tokens.input_tokens[h], tokens.output_tokens[h]);
  return text;
}

}  // namespace tco
