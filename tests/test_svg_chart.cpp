// The chart pieces of the HTML report: axis ticks and their labels, the spreading of line-end
// labels, the palette, and charts that keep every coordinate on their canvas. The rendered
// layout (real text boxes in Chromium) is tests/check_html_layout.py's.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "reports/html/html_report.hpp"
#include "reports/svg/label_spread.hpp"
#include "reports/svg/svg_axis.hpp"
#include "reports/svg/svg_chart.hpp"
#include "reports/svg/svg_palette.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

using namespace tco::svg;

namespace {

// Every x-like coordinate (x, x1, x2, cx) written in the SVG.
std::vector<double> x_coordinates(const std::string& svg) {
  static const std::regex attribute(R"re((?:^|\s)(?:x|x1|x2|cx)="(-?[0-9.]+)")re");
  std::vector<double> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), attribute); it != std::sregex_iterator(); ++it)
    out.push_back(std::stod((*it)[1].str()));
  return out;
}

bool is_negative_zero_label(const std::string& label) {
  return std::regex_match(label, std::regex(R"(-0(\.0*)?[kMB]?)"));
}

}  // namespace

TEST_CASE("svg axis: the header's example, -2.1M .. 0.4M padded 5%") {
  // pad = 0.05 x 2.5M = 125k: -2.225M .. 0.525M, span 2.75M.
  const Axis y = padded_axis(-2.1e6, 0.4e6, 300.0, 0.0);
  CHECK(y.lo == doctest::Approx(-2.225e6).epsilon(1e-12));
  CHECK(y.hi == doctest::Approx(0.525e6).epsilon(1e-12));
  // About 7 ticks: 2.75M / 7 = 393k, magnitude 100k; 1, 2, 2.5 x 100k give 27.5, 13.75, 11 ticks;
  // 5 x 100k gives 5.5 <= 7: step 500k, from ceil(-4.45) = -4 to floor(1.05) = 1.
  CHECK(y.tick_step(7) == doctest::Approx(5e5).epsilon(1e-12));
  CHECK(tick_labels(y.ticks(7), 5e5) == std::vector<std::string>{"-2.0M", "-1.5M", "-1.0M", "-0.5M", "0", "0.5M"});
  // About 5 ticks: 5 x 100k gives 5.5 > 5, so 1M: -2, -1, 0.
  CHECK(tick_labels(y.ticks(5), y.tick_step(5)) == std::vector<std::string>{"-2M", "-1M", "0"});
}

TEST_CASE("svg axis: over many ranges the ticks are inside, increasing, distinct, and none reads -0") {
  int axes = 0;
  for (double lo : {-9.7e6, -1.0e6, -123456.0, -3.3, -0.4, 0.0, 0.2, 17.0, 950.0, 999999.0, 2.5e9}) {
    for (double span : {0.0, 0.7, 9.0, 1000.0, 4.1e4, 2.5e6, 8.8e8}) {
      const Axis a = padded_axis(lo, lo + span, 0.0, 500.0);
      for (int target = 2; target <= 10; ++target) {
        const double step = a.tick_step(target);
        const std::vector<double> ticks = a.ticks(target);
        const std::vector<std::string> labels = tick_labels(ticks, step);
        CAPTURE(lo);
        CAPTURE(span);
        CAPTURE(target);
        REQUIRE(!ticks.empty());
        CHECK(ticks.size() <= static_cast<std::size_t>(target) + 1);
        CHECK(ticks.front() >= a.lo - 1e-9 * (a.hi - a.lo));
        CHECK(ticks.back() <= a.hi + 1e-9 * (a.hi - a.lo));
        CHECK(std::is_sorted(ticks.begin(), ticks.end()));
        CHECK(std::set<std::string>(labels.begin(), labels.end()).size() == labels.size());
        for (const std::string& label : labels) CHECK_FALSE(is_negative_zero_label(label));
        ++axes;
      }
    }
  }
  CHECK(axes == 11 * 7 * 9);
}

TEST_CASE("svg axis: single figures never read -0 nor switch to an exponent") {
  CHECK(short_number(-0.0) == "0");
  CHECK(short_number(-0.0004) == "0");  // rounds to 0.00
  CHECK(short_number(1.5e6) == "1.5M");
  CHECK(short_number(-2.25e6) == "-2.25M");
  CHECK(short_number(12.0) == "12");
  CHECK(short_number(999950.0) == "1000k");  // "{:.3g}k" wrote "1e+03k"
  CHECK(short_number(350000.0) == "350k");
}

TEST_CASE("label spread: the header's example and the bounds") {
  // {100, 102} overlap at gap 14: one cluster centred on 101, so 101 -/+ 7.
  CHECK(spread_labels({100.0, 102.0, 200.0}, 14.0, 0.0, 300.0) == std::vector<double>{94.0, 108.0, 200.0});
  // The order of the input is kept.
  CHECK(spread_labels({200.0, 100.0, 102.0}, 14.0, 0.0, 300.0) == std::vector<double>{200.0, 94.0, 108.0});
  // Near the top: centred -8, 6, 20, pushed down to start at 0: 0, 14, 28.
  CHECK(spread_labels({5.0, 6.0, 7.0}, 14.0, 0.0, 300.0) == std::vector<double>{0.0, 14.0, 28.0});
  // Near the bottom: 290, 304 then pulled up under 300: 286, 300.
  CHECK(spread_labels({295.0, 299.0}, 14.0, 0.0, 300.0) == std::vector<double>{286.0, 300.0});
  // Eight lines ending at one value (eight cloud plans): eight rows, 14 apart, centred on it.
  const std::vector<double> same = spread_labels(std::vector<double>(8, 150.0), 14.0, 0.0, 300.0);
  for (std::size_t i = 0; i < same.size(); ++i) CHECK(same[i] == doctest::Approx(150.0 - 49.0 + 14.0 * i).epsilon(1e-12));
}

TEST_CASE("label spread: any wishes end at least a gap apart, inside the bounds when they fit") {
  for (unsigned seed = 1; seed <= 200; ++seed) {
    std::vector<double> wanted;
    unsigned x = seed;
    const std::size_t n = 1 + seed % 12;
    for (std::size_t i = 0; i < n; ++i) {
      x = x * 1103515245u + 12345u;  // a fixed LCG: the same wishes on every machine
      wanted.push_back(static_cast<double>((x >> 8) % 400) - 50.0);
    }
    std::vector<double> placed = spread_labels(wanted, 14.0, 10.0, 310.0);
    CAPTURE(seed);
    std::sort(placed.begin(), placed.end());
    for (std::size_t i = 1; i < placed.size(); ++i) CHECK(placed[i] - placed[i - 1] >= 14.0 - 1e-9);
    CHECK(placed.front() >= 10.0 - 1e-9);
    CHECK(placed.back() <= 310.0 + 1e-9);  // 12 x 14 = 168 fits in 300
  }
}

TEST_CASE("svg palette: 12 distinct colours, and a 12-line chart uses every one") {
  CHECK(std::set<std::string>(std::begin(kPalette), std::end(kPalette)).size() == 12);
  std::vector<Series> series;
  for (int i = 0; i < 12; ++i) series.push_back({"plan-" + std::to_string(i), {0.0, 1.0 * i, 2.0 * i}});
  const std::string svg = line_chart(series, {}, "month", "USD");
  for (const char* colour : kPalette) CHECK(svg.find(std::string("stroke=\"") + colour + "\"") != std::string::npos);
}

TEST_CASE("svg axis: fit_text shortens a 200,000-character label in one pass, at whole characters") {
  // 12 px font, 100 px: a Latin letter is 0.62 em = 7.44 px (14 of them, 104 px, do not fit), "..."
  // is 3 x 0.34 em = 12.24 px, so n letters fit with the ellipsis while 7.44 n + 12.24 <= 100, i.e. n <= 11.79: 11 letters.
  // "é" (\u00e9) is two bytes and one 0.62 em character: 11 of them, 22 bytes, never half of one.
  CHECK(fit_text(std::string(14, 'a'), 100.0, 12.0) == std::string(11, 'a') + "...");
  std::string accents;
  for (int i = 0; i < 20; ++i) accents += "\u00e9";
  CHECK(fit_text(accents, 100.0, 12.0) == accents.substr(0, 22) + "...");
  CHECK(fit_text("abc", 5.0, 12.0) == "...");  // not even the ellipsis fits: nothing but it
  // Issue 43: each dropped character re-measured the rest (2 x 10^10 byte steps for 200,000
  // letters, 37 s of a --html run); one pass takes well under a millisecond. The bound is 100 x
  // generous for a sanitizer build.
  const std::string label(200'000, 'p');
  const auto start = std::chrono::steady_clock::now();
  const std::string fitted = fit_text(label, 100.0, 12.0);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(fitted == std::string(11, 'p') + "...");
  CHECK(seconds < 1.0);
}

TEST_CASE("svg charts: a box chart of the issue's figures stays on its canvas, with or without P10/P90") {
  // startup-monte-carlo's replay statistics before P10/P90 were reported: taking them as 0 drew
  // the boxes at x = -235 on a canvas of NPVs around -9.5M.
  std::vector<Box> boxes = {{"own", -9.9e6, -9.5e6, -9.1e6, -9.48e6, std::nullopt, std::nullopt, ""},
                            {"cloud", -12.1e6, -11.0e6, -10.2e6, -11.1e6, std::nullopt, std::nullopt, ""}};
  const std::string without = box_chart(boxes, "NPV (USD)", std::nullopt, 760);
  CHECK(without.find("<rect") == std::string::npos);
  CHECK(without.find("no P10-P90 box") != std::string::npos);
  boxes[0].p10 = -9.8e6;
  boxes[0].p90 = -9.2e6;
  boxes[1].p10 = -11.9e6;
  boxes[1].p90 = -10.4e6;
  boxes[1].note = "P(cheaper) 12.5%";
  const std::string with = box_chart(boxes, "NPV (USD)", 0.0, 760);
  CHECK(with.find("<rect") != std::string::npos);
  for (const std::string& svg : {without, with})
    for (double x : x_coordinates(svg)) {
      CHECK(x >= 0.0);
      CHECK(x <= 760.0);
    }
}

TEST_CASE("svg charts: payback points are listed one row each, never on top of each other") {
  // Three plans paying back in the same month at the same cost: the old chart wrote three
  // "payback month 5" labels at one spot. Now each gets its own row under the plot.
  std::vector<Series> series = {{"a", {0, 10, 20, 30, 40, 50}}, {"b", {0, 10, 20, 30, 40, 50}}, {"c", {0, 10, 20, 30, 40, 50}}};
  const std::vector<Marker> markers = {{0, 5, "month 5"}, {1, 5, "month 5"}, {2, 5, "month 5"}};
  const std::string svg = line_chart(series, markers, "month", "USD", 1000, 300);
  std::vector<double> rows;
  static const std::regex row(R"re(<text x="[0-9.]+" y="([0-9.]+)" text-anchor="start">[abc]: month 5</text>)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), row); it != std::sregex_iterator(); ++it)
    rows.push_back(std::stod((*it)[1].str()));
  REQUIRE(rows.size() == 3);
  CHECK(rows[1] - rows[0] == doctest::Approx(14.0).epsilon(1e-12));
  CHECK(rows[2] - rows[1] == doctest::Approx(14.0).epsilon(1e-12));
  for (double x : x_coordinates(svg)) CHECK((x >= 0.0 && x <= 1000.0));
}

TEST_CASE("html Monte Carlo section: intervals and P(cheaper) from the report, and no box from missing P10/P90") {
  tco::Json report = tco::Json::parse(tco::test::read_text_file(tco::test::source_path("tests/fixtures/des/mc_small.report.json")));
  const std::string page = tco::html_report(report);
  // Plan cloud: mean NPV 95% CI 197,290.57 .. 212,093.53, rounded to whole dollars (the report
  // document's Monte Carlo table, reports/document/answer/monte_carlo_section.cpp).
  CHECK(page.find("<tr><td>cloud</td><td class=n>$204,692</td><td class=\"n w\">$197,291 .. $212,094</td>") !=
        std::string::npos);
  // cloud minus the baseline buy-2-burst: 95% CI 29,762.58 .. 38,862.72, never cheaper (0 of the paths).
  CHECK(page.find("<td class=\"n w\">$29,763 .. $38,863</td><td class=n>0.0%</td></tr>") != std::string::npos);
  CHECK(page.find("P(cheaper) 0.0%") != std::string::npos);  // at the end of the difference chart's row
  CHECK(page.find("box P10-P90") != std::string::npos);

  // A report written before P10/P90 were reported: the boxes are left out, never drawn from 0.
  for (auto& p : report["monte_carlo"]["plans"]) p["npv_usd"].erase("p10");
  for (auto& c : report["monte_carlo"]["comparisons"]) c["npv_difference_usd"].erase("p90");
  const std::string old_page = tco::html_report(report);
  CHECK(old_page.find("box P10-P90") == std::string::npos);
  CHECK(old_page.find("no P10-P90 box: the report has none") != std::string::npos);
  for (double x : x_coordinates(old_page)) CHECK(x >= 0.0);
}
