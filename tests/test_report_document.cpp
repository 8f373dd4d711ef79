// The report document (reports/document/): each kind of cell as the human formats write it, by
// hand; the flag beyond +/-1,000%; a 200-character name in each format; a section with nothing
// to show; and, for every shipped scenario's baseline report, each section in each format (the
// terminal: drawn, or named when wider than it; the plans: its own table) with the numbers of its
// tables equal across Markdown, HTML and CSV, compared as numbers, and every figure a person reads
// the same text in Markdown and HTML. The workbook's sheets hold the same CSV tables with the same
// numbers (tests/check_workbook_sections.py, every baseline report): the four formats agree.
// Also: the Monte Carlo table with a 60-character plan name, and the note of an IRR beyond 1,000%.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/terminal/terminal_answer.hpp"
#include "document_support.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/document/cell_text.hpp"
#include "reports/document/section_order.hpp"
#include "reports/document/section_render.hpp"
#include "reports/html/html_escape.hpp"
#include "reports/html/html_report.hpp"
#include "reports/json/figure_ages_json.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/verdict/verdict_text.hpp"
#include "test_support.hpp"

using namespace tco;
namespace fs = std::filesystem;

TEST_CASE("report document: money, prices, percentages, counts and units as the human formats write them") {
  // Money: whole dollars, grouped, rounded half away from zero; "-$0" never appears.
  CHECK(cell_text(usd_cell(1234567.4)) == "$1,234,567");
  CHECK(cell_text(usd_cell(-1234.5)) == "-$1,235");
  CHECK(cell_text(usd_cell(-0.4)) == "$0");
  CHECK(cell_text(usd_cell(2e15)) == "$2.000e+15");
  CHECK(cell_text(usd_cell(Json(nullptr))) == "n/a");
  CHECK(cell_text(usd_price_cell(2.9876)) == "$2.988");
  CHECK(cell_text(usd_price_cell(-0.5, 2)) == "-$0.50");
  // Percentages of a fraction; one decimal unless told.
  CHECK(cell_text(percent_cell(0.1234)) == "12.3%");
  CHECK(cell_text(percent_cell(-0.005, 1)) == "-0.5%");
  CHECK(cell_text(percent_cell(0.4, 0)) == "40%");
  CHECK(cell_text(signed_percent_cell(-0.2601282)) == "-26.0%");
  CHECK(cell_text(signed_percent_cell(0.03)) == "+3.0%");
  // Counts and GPU-hours grouped; a signed count keeps its "+"; -0.001 at 2 decimals is "+0.00".
  CHECK(cell_text(count_cell(1234.56, 1)) == "1,234.6");
  CHECK(cell_text(signed_count_cell(0.05)) == "+0.05");
  CHECK(cell_text(signed_count_cell(-0.25)) == "-0.25");
  CHECK(cell_text(signed_count_cell(-0.001)) == "+0.00");
  CHECK(cell_text(gpu_hours_cell(46720.4)) == "46,720");
  CHECK(cell_text(month_cell(14)) == "14");
  CHECK(cell_text(hours_cell(12.0)) == "12 h");
  CHECK(cell_text(hours_cell(0.5)) == "0.5 h");
  // CO2 in kg shown in tonnes: 105,100 kg = 105.1 t; 1,234,567 kg = 1,234.567 t -> "1,234.6 t".
  CHECK(cell_text(co2_kg_cell(105100.0)) == "105.1 t");
  CHECK(cell_text(co2_kg_cell(1234567.0)) == "1,234.6 t");
  CHECK(cell_text(date_cell("2026-11-29")) == "2026-11-29");
  CHECK(cell_text(text_cell(Json(nullptr))) == "-");
  // Words in place of a number: the human formats show them, the CSV keeps the number.
  const Cell none = shown_as(usd_cell(0.0), "none");
  CHECK(cell_text(none) == "none");
  CHECK(csv_field(none.raw) == "0.0");
}

TEST_CASE("report document: a percentage beyond +/-1,000% is flagged, in a cell and in the IRR column") {
  // Before: quarterly-burst-capacity-block's IRR read "1640.3%" with no word beside it.
  CHECK(cell_text(percent_cell(99.59)) == "9,959.0% (outside a meaningful range)");
  CHECK(cell_text(percent_cell(-10.01)) == "-1,001.0% (outside a meaningful range)");
  CHECK(cell_text(percent_cell(10.0)) == "1,000.0%");  // at the bound: shown plainly
  CHECK(irr_words(Json{{"irr_per_year", 16.402843879622488}, {"starts_with_investment", true}}) ==
        "1,640.3% (outside a meaningful range)");
  CHECK(irr_words(Json{{"irr_per_year", 0.123}, {"starts_with_investment", true}}) == "12.3%");
}

TEST_CASE("report document: a 200-character name is shortened in HTML and the terminal, whole in Markdown and CSV") {
  std::string name;
  for (int i = 0; i < 20; ++i) name += "plan-name" + std::to_string(i % 10);  // 20 x 10 = 200 characters
  REQUIRE(name.size() == 200);
  Table t = make_table({{"plan", "plan"}, {"NPV", "npv_usd"}}, "x.csv");
  t.rows.push_back(Row({text_cell(name), usd_cell(1000.0)}));
  const Section s = make_section("x", "X", "a lead", {t});
  // HTML: the first 45 characters and "...", the full name in the title attribute.
  const std::string html = html_section(s);
  CHECK(html.find("<td><span title=\"" + name + "\">" + name.substr(0, kMaxShownNameChars - 3) + "...</span></td>") !=
        std::string::npos);
  // The terminal: 48 columns at most.
  CHECK(terminal_section(s).find(name.substr(0, kMaxShownNameChars - 3) + "...  $1,000") != std::string::npos);
  CHECK(markdown_section(s).find("| " + name + " | $1,000 |") != std::string::npos);
  CHECK(csv_section(s).at(0).second == "plan,npv_usd\n" + name + ",1000.0\n");
  // A multi-byte character is never cut: "é" is two bytes at 44..45.
  CHECK(shortened(std::string(44, 'a') + "\xC3\xA9" + std::string(10, 'b'), 48) == std::string(44, 'a') + "...");
}

TEST_CASE("report document: prose (a source) is whole in Markdown and HTML, shortened in the terminal") {
  const std::string source(200, 's');
  Table t = make_table({{"record", "record"}, {"source", "source"}}, "x.csv");
  t.rows.push_back(Row({text_cell("r"), prose_cell(source)}));
  const Section s = make_section("x", "X", "", {t});
  CHECK(html_section(s).find("<td class=prose>" + source + "</td>") != std::string::npos);  // wraps anywhere
  CHECK(markdown_section(s).find("| r | " + source + " |") != std::string::npos);
  CHECK(terminal_section(s).find("  r       " + source.substr(0, kMaxShownNameChars - 3) + "...\n") != std::string::npos);
  CHECK(markdown_section(s).find("|---|---|") != std::string::npos);  // words: left-aligned
}

TEST_CASE("report document: a section with nothing to show says so once, and an empty table is never drawn") {
  Section s = make_section("x", "X", "", {make_table({{"plan", "plan"}}, "x.csv")});
  CHECK(s.empty());
  CHECK(markdown_section(s).empty());
  CHECK(csv_section(s).empty());
  s.nothing_to_show = "no plan has one";
  CHECK(markdown_section(s) == "\n**X**: no plan has one\n");
  CHECK(html_section(s) == "<h2 id=\"x\">X</h2>\n<p>No plan has one.</p>\n");
  CHECK(terminal_section(s) == "\nX:\n  no plan has one\n");
}

namespace {

std::string file_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// "-$1,234" -> -1234; "9,959.0% (outside ...)" -> 9959; "105.1 t" -> 105.1; "+0.05" -> 0.05.
double number_in(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c == '(') break;
    if ((c >= '0' && c <= '9') || c == '.' || c == '-' || c == 'e' || c == '+') digits += c;
  }
  REQUIRE_MESSAGE(!digits.empty(), "no number in \"" << text << "\"");
  return std::stod(digits);
}

std::vector<std::string> split(const std::string& text, char by) {
  std::vector<std::string> out(1);
  for (char c : text) {
    if (c == by)
      out.emplace_back();
    else
      out.back().push_back(c);
  }
  return out;
}

// The body rows of the Markdown tables in `md`, cells trimmed, in order.
std::vector<std::vector<std::string>> markdown_rows(const std::string& md) {
  std::vector<std::vector<std::string>> rows;
  bool header = true;
  for (const std::string& line : split(md, '\n')) {
    if (line.rfind("|", 0) != 0) {
      header = true;
      continue;
    }
    if (line.rfind("|---", 0) == 0) continue;
    if (header) {
      header = false;
      continue;
    }
    std::vector<std::string> cells = split(line.substr(2, line.size() - 4), '|');
    for (std::string& c : cells) {  // " text " -> "text"
      c.erase(0, c.find_first_not_of(' '));
      c.erase(c.find_last_not_of(' ') + 1);
    }
    rows.push_back(cells);
  }
  return rows;
}

// HTML text as written: "&amp;" -> "&", ... (html_escape's five).
std::string unescaped(std::string text) {
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""},
                                 {"&#39;", "'"}, {"&amp;", "&"}})
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
      text.replace(at, from.size(), to);
  return text;
}

// `text` without its tags ("<...>"); an unclosed "<" stays.
std::string without_tags(const std::string& text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t close = text[at] == '<' ? text.find('>', at) : std::string::npos;
    if (close == std::string::npos) {
      out += text[at++];
    } else {
      at = close + 1;
    }
  }
  return out;
}

// The <td> texts of each body row of the HTML tables in `html`: a row is "<tr>", one or more
// "<td ...>TEXT</td>" with no line break in TEXT, then "</tr>". Scanned by hand: libstdc++'s
// std::regex recurses once per character it matches, and a long row overflowed the stack in the
// sanitizer build.
std::vector<std::vector<std::string>> html_rows(const std::string& html) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t at = html.find("<tr>"); at != std::string::npos; at = html.find("<tr>", at + 4)) {
    std::vector<std::string> cells;
    std::size_t p = at + 4;
    while (html.compare(p, 3, "<td") == 0) {
      const std::size_t open_end = html.find('>', p);
      const std::size_t close = open_end == std::string::npos ? std::string::npos : html.find("</td>", open_end);
      if (close == std::string::npos) break;
      const std::string text = html.substr(open_end + 1, close - open_end - 1);
      if (text.find('\n') != std::string::npos) break;
      cells.push_back(without_tags(text));
      p = close + 5;
    }
    if (!cells.empty() && html.compare(p, 5, "</tr>") == 0) rows.push_back(cells);
  }
  return rows;
}

}  // namespace

TEST_CASE("report document: every shipped scenario's sections are in each format, their numbers equal as numbers") {
  const fs::path baselines = test::source_path("tests/baselines");
  int reports = 0, numbers = 0, texts = 0, warned = 0;
  std::map<std::string, int> sections_seen;
  std::set<std::string> quiet;  // the reports without a warning
  for (const auto& entry : fs::directory_iterator(baselines)) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().filename().string());
    const Json report = Json::parse(file_text(entry.path()));
    const std::string md = markdown_summary(report), html = html_report(report);
    const std::string terminal = cli::terminal_answer(report, {});
    const CsvTables csv = csv_tables(report);
    ++reports;
    warned += report.at("warnings").empty() ? 0 : 1;
    if (report.at("warnings").empty()) quiet.insert(entry.path().stem().string());
    // Every section of the document: those of the first screen, then the rest.
    std::vector<Section> sections = report_sections(report, true);
    for (Section& s : report_sections(report, false)) sections.push_back(std::move(s));
    for (const Section& s : sections) {
      CAPTURE(s.id);
      ++sections_seen[s.id];
      const std::string md_section = markdown_section(s), html_section_text = html_section(s);
      CHECK(md.find(md_section) != std::string::npos);
      CHECK(html.find(html_section_text) != std::string::npos);
      // The terminal draws it within 100 columns, or names it among those too wide; the plans are
      // its own table (cli/terminal/plans_table.cpp), numbered and fitted to the columns, and the
      // breakevens and the cost distribution one row a line.
      const bool drawn = terminal.find(terminal_section(s)) != std::string::npos;
      if (s.id == "verdict")  // its sentences unindented, first (cli/terminal/terminal_answer.cpp)
        CHECK(terminal.rfind(s.opening.at(0).substr(0, 40), 0) == 0);
      else if (s.id == "plans")
        CHECK(terminal.find("Plans over ") != std::string::npos);
      else if (s.id == "breakevens" || s.id == "monte_carlo")
        CHECK(terminal.find(terminal_section(s, 100, TerminalTables::one_row_a_line)) != std::string::npos);
      else
        CHECK((drawn || terminal.find("Wider than the terminal, in the Markdown, HTML and CSV outputs:") != std::string::npos));
      const auto csv_files = csv_section(s);
      for (const auto& file_and_text : csv_files) {
        // Named, not bound: clang 14 refuses a structured binding captured by CHECK_MESSAGE.
        const std::string& file = file_and_text.first;
        const std::string& text = file_and_text.second;
        bool found = false;
        for (const auto& [name, written] : csv) found = found || (name == file && written == text);
        CHECK_MESSAGE(found, file);
      }
      // A folded table (a plan's monthly flows) is drawn in the HTML and named in Markdown: its
      // numbers are compared between the HTML and the CSV.
      const auto md_rows = markdown_rows(md_section), html_rows_ = html_rows(html_section_text);
      std::size_t folded_rows = 0;
      for (const Table& t : s.tables)
        if (t.folded && drawn_for_people(t)) folded_rows += t.rows.size();
      REQUIRE(md_rows.size() + folded_rows == html_rows_.size());
      std::size_t md_row = 0, html_row = 0, csv_file = 0;
      std::vector<std::vector<std::string>> csv_rows;  // of the table's csv_file, its header left out
      std::size_t csv_row = 0;
      for (const Table& t : s.tables) {
        if (t.rows.empty()) continue;
        if (!t.csv_file.empty() && (csv_rows.empty() || csv_files.at(csv_file - 1).first != t.csv_file)) {
          csv_rows.clear();
          csv_row = 0;
          for (const auto& line : split(csv_files.at(csv_file++).second, '\n'))
            if (!line.empty()) csv_rows.push_back(split(line, ','));
          csv_rows.erase(csv_rows.begin());  // the header
        }  // else the next table of the same file (monthly_cash_flows.csv): its rows follow
        if (!drawn_for_people(t)) continue;  // the CSV's alone (the warnings' codes and messages)
        for (const Row& r : t.rows) {
          const auto& md_cells = t.folded ? html_rows_.at(html_row) : md_rows.at(md_row++);
          const auto& html_cells = html_rows_.at(html_row++);
          std::size_t human_column = 0, csv_column = 0;
          for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const Column& column = t.columns[c];
            const Cell& cell = r.cells.at(c);
            const bool in_human = column.shown != Shown::csv, in_csv = column.shown != Shown::human && !t.csv_file.empty() && !r.human_only;
            if (in_human && in_csv && cell.has_number() && cell.shown_as.empty() && !is_words(cell.kind) &&
                cell_text(cell).find("e+") == std::string::npos) {
              CAPTURE(column.header);
              const double shown_md = number_in(md_cells.at(human_column));
              CHECK(number_in(html_cells.at(human_column)) == shown_md);
              // Text cells with commas are quoted in the CSV; none of the numeric columns follow one.
              Cell from_csv = cell;
              from_csv.raw = std::stod(csv_rows.at(csv_row).at(csv_column));
              CHECK(std::fabs(shown_md - cell_shown_number(from_csv)) <= cell_rounding(from_csv));
              ++numbers;
            }
            // Every figure a person reads, words in its place included ("none needed (no investment)",
            // "$1 .. $2"), is the same text in Markdown and HTML.
            if (in_human && !is_words(cell.kind)) {
              CAPTURE(column.header);
              CHECK(unescaped(html_cells.at(human_column)) == md_cells.at(human_column));
              ++texts;
            }
            if (in_human) ++human_column;
            if (column.shown != Shown::human) ++csv_column;
          }
          if (!r.human_only && !t.csv_file.empty()) ++csv_row;
        }
        if (t.csv_file.empty()) csv_rows.clear();
      }
    }
  }
  CHECK(reports >= 10);
  for (const auto& [id, count] : sections_seen) MESSAGE(id << ": in " << count << " shipped reports");
  CHECK(sections_seen.count("carbon") == 1);
  // What every report has: its costs by category, its sources, its warnings.
  CHECK(sections_seen["categories"] == reports);
  CHECK(sections_seen["assumptions"] == reports);
  // A Warnings section exactly where the report has a warning. Since the server prices were
  // field-dated 2026 (2026-11-30: hgx-h100-8 and hgx-h200-8 2026-05-04, hgx-b200-8 2026-02-13),
  // 15 shipped scenarios have none: clustermax-4096-gpus and deadline-campaign-spot-policies,
  // whose only old figures are the H100's datasheet (a specification does not age,
  // pricing-data/README.md), h100-indices-and-terms, whose prices are all of 2026, and the 12
  // whose only warnings were the servers' dates (hgx-h100-8's $317,000 of 2024-08-22, and in
  // b200-arrival, its replay and llm-serving-mlperf hgx-b200-8's 2025-03-16). The others keep an
  // old price (the SPEC's $0.12/kWh and 0.815 kW node, a GCP or RunPod record, the hindsight
  // scenario's own 2023 server price) or a model's warning (airflow, unserved demand, unfinished
  // jobs; azure-h100-term-curve's 3-year term renewed at month 36 of its 60).
  CHECK(sections_seen["warnings"] == warned);
  CHECK(quiet == std::set<std::string>{"b200-arrival", "b200-arrival-replay", "base-load-and-burst",
                                       "base-load-and-burst-uncertain", "clustermax-4096-gpus",
                                       "deadline-campaign-spot-policies", "h100-indices-and-terms", "helios-vc-replay",
                                       "hourly-time-shift-tou", "llm-serving-mlperf", "owned-cluster-books-and-operations",
                                       "owned-fleet-delivery-risk", "quarterly-burst-capacity-block",
                                       "quarterly-burst-capacity-block-replay", "startup-monte-carlo"});
  CHECK(warned == reports - 15);
  CHECK(sections_seen["verdict"] == reports);
  CHECK(sections_seen["monthly"] == reports);
  // The Monte Carlo runs (discrete_event or fluid: 13 of the 23 of 2026-11-29) and the three
  // uncertain scenarios with a tornado (base-load-and-burst-uncertain, b200-arrival and
  // h100-indices-and-terms, whose one uncertain input is the basis between two price indices).
  CHECK(sections_seen["monte_carlo"] >= 10);
  CHECK(sections_seen["sensitivity"] == 3);
  MESSAGE("numbers compared: " << numbers << ", figures compared as text: " << texts);
  CHECK(texts > numbers);  // the figures shown as words too
  CHECK(numbers > 700);  // 453 on the 18 shipped reports of 2026-11-29 before the categories
}

TEST_CASE("report document: electricity-100-nodes' plans, costs by category and warnings, the same in each format") {
  Json report = Json::parse(file_text(test::source_path("tests/baselines/electricity-100-nodes.json")));
  // Its as-of warnings aged again on the baseline's own day with the current rule (only prices
  // age, pricing-data/README.md "Which figures age"), as `report --today` does: the same
  // warnings whether or not the baseline was written before that rule.
  redate_report(report, report.at("pricing").at("today").get<std::string>(), 365);
  // The plans, on the first screen: renting's saving against the baseline own-100-nodes is
  // $3,809,970.96 - $2,397,284.47 = $1,412,686 (from month 0: no investment, so no IRR); the
  // recommended plan is renting, so the last column is each plan's payback against it.
  const std::vector<Section> all_first = report_sections(report, true);
  REQUIRE(all_first.size() == 3);
  CHECK(all_first[0].id == "verdict");  // the verdict's sentences (tests/test_verdict.cpp)
  const std::vector<Section> first(all_first.begin() + 1, all_first.end());
  CHECK(first[0].id == "plans");
  CHECK(first[1].id == "breakevens");
  const std::string plans_md = markdown_section(first[0]);
  CHECK(plans_md.find("| plan | kind | nodes | NPV | total (nominal) | $/useful GPU-h | NPV saving vs baseline | payback "
                      "| IRR | on-prem utilization | payback vs rent-1-gpu-instances |\n") != std::string::npos);
  CHECK(plans_md.find("| own-100-nodes | onprem | 100 | $3,809,971 | $3,809,971 | $6.21 | baseline | - | - | 70.0% | "
                      "never |\n") != std::string::npos);
  CHECK(plans_md.find("| rent-1-gpu-instances | cloud | 0 | $2,397,284 | $2,397,284 | $3.91 | $1,412,686 | none needed "
                      "(no investment) | - | - | (recommended) |\n") != std::string::npos);
  // plans.csv: the raw figures, the CO2 columns and the utilization (null: empty) after them.
  const auto plans_csv = csv_section(first[0]);
  REQUIRE(plans_csv.size() == 1);
  CHECK(plans_csv[0].second.rfind("plan,kind,onprem_nodes,npv_usd,total_nominal_usd,usd_per_useful_gpu_hour,npv_saving_usd,"
                                  "payback_month,irr_per_year,co2_onprem_kg,co2_embodied_kg,co2_cloud_kg,"
                                  "onprem_utilization\nown-100-nodes,onprem,100,3809970.9599999995,",
                                  0) == 0);
  // The categories either plan pays for (the other 18 of 22 are 0 for both and left out). By
  // hand: own-100-nodes' NPV $3,809,971 = capex $3,750,000 + energy $59,970.96; renting's
  // $2,397,284 = on-demand $2,317,896.00 + lost work $79,388.47.
  // The breakevens that decide: the fleet against the on-demand price its renting plan pays (the
  // reserved row is counted, not listed), and the price multiple 1.5892861 either way round.
  const std::string breakevens_md = markdown_section(first[1]);
  CHECK(breakevens_md.find("| reference-node-0.815kw | 100 | lambda/gpu_1x_h100_sxm5/us-east-1 | on_demand | $3.780/GPU-h, "
                           "flat |") != std::string::npos);
  CHECK(breakevens_md.find("reserved_1y") == std::string::npos);
  CHECK(breakevens_md.find("\n1 more row price these fleets against offers and price bases that no plan pays") !=
        std::string::npos);
  CHECK(breakevens_md.find("| rent-1-gpu-instances | own-100-nodes (the baseline) | on_demand+spot+reserved | 1.589 |\n") !=
        std::string::npos);
  CHECK(breakevens_md.find("| own-100-nodes | rent-1-gpu-instances (the recommended plan) | on_demand+spot+reserved | 1.589 "
                           "|\n") != std::string::npos);
  const auto breakevens_csv = csv_section(first[1]);
  REQUIRE(breakevens_csv.size() == 2);
  CHECK(breakevens_csv[1].second ==
        "plan,baseline,reference,prices,cloud_price_multiplier\n"
        "rent-1-gpu-instances,own-100-nodes,baseline,on_demand+spot+reserved,1.5892861291829579\n"
        "own-100-nodes,rent-1-gpu-instances,recommended,on_demand+spot+reserved,1.5892861291829579\n");
  const Section categories = report_section(report, "categories");
  CHECK(markdown_section(categories) ==
        "\n**Cost by category** (each plan's NPV in USD by what it pays for; a category no plan pays for is left "
        "out):\n\n"
        "| category | own-100-nodes | rent-1-gpu-instances |\n"
        "|---|---:|---:|\n"
        "| capex | $3,750,000 | $0 |\n"
        "| cloud_on_demand | $0 | $2,317,896 |\n"
        "| energy | $59,971 | $0 |\n"
        "| lost_work | $0 | $79,388 |\n");
  const auto csv = csv_section(categories);
  REQUIRE(csv.size() == 1);
  CHECK(csv[0].first == "categories.csv");
  CHECK(csv[0].second.rfind("category,own-100-nodes,rent-1-gpu-instances\ncapex,3750000.0,0.0\n", 0) == 0);
  CHECK(html_section(categories).find("<tr><td>energy</td><td class=n>$59,971</td><td class=n>$0</td></tr>") !=
        std::string::npos);
  // The two stale-price warnings (the power price and the server's price, 2025-06-01, 545 days
  // before 2026-11-28; the GPU's datasheet figures and the grid's CO2 do not age): one item each
  // in Markdown, HTML and the terminal, code and message as columns in warnings.csv (and the
  // workbook's Warnings sheet).
  const Section warnings = report_section(report, "warnings");
  REQUIRE(warnings.items.size() == 2);
  const std::string first_warning = "power_region \"us-reference-0.12\" usd_per_kwh: dated 2025-06-01, 545 days old on "
                                    "2026-11-28 (more than 365): re-check the figure";
  CHECK(warnings.items[0] == first_warning + " [as-of-stale]");
  CHECK(warnings.items[1] == "server \"reference-node-0.815kw\" price_usd: dated 2025-06-01, 545 days old on 2026-11-28 "
                             "(more than 365): re-check the figure [as-of-stale]");
  CHECK(markdown_section(warnings).rfind("\n**Warnings**:\n\n- " + first_warning + " [as-of-stale]\n- server", 0) == 0);
  CHECK(html_section(warnings).find("<ul><li>power_region &quot;us-reference-0.12&quot; usd_per_kwh") != std::string::npos);
  CHECK(terminal_section(warnings).rfind("\nWarnings:\n  - power_region \"us-reference-0.12\" usd_per_kwh", 0) == 0);
  const auto warnings_csv = csv_section(warnings);
  REQUIRE(warnings_csv.size() == 1);
  CHECK(warnings_csv[0].second.rfind("code,message\nas-of-stale,\"power_region \"\"us-reference-0.12\"\" usd_per_kwh:", 0) ==
        0);
  // Nothing of warnings.csv's columns reaches a human format as a table.
  CHECK(html_section(warnings).find("<table>") == std::string::npos);
  CHECK(markdown_section(warnings).find("| code |") == std::string::npos);
}

TEST_CASE("report document: a 60-character plan name in the HTML Monte Carlo table is shortened, in full in its title") {
  // The defect: the page's own Monte Carlo table let a long name push it past the page
  // (its test passed only once the shipped plans were renamed short). Now the table is the report
  // document's and its names follow html_name: beyond 48 characters, the first 45 and "...", the
  // whole name in the title attribute; tests/check_html_layout.py measures the page in Chromium.
  std::string text = file_text(test::source_path("tests/baselines/startup-monte-carlo.json"));
  const std::string name = "cloud-half-spot-with-a-long-descriptive-plan-name-for-a-test";
  REQUIRE(name.size() == 60);
  for (std::size_t at = text.find("\"cloud-half-spot\""); at != std::string::npos; at = text.find("\"cloud-half-spot\"", at))
    text.replace(at, 17, "\"" + name + "\"");
  const Json report = Json::parse(text);
  const std::string html = html_report(report);
  const std::size_t section = html.find("<h2 id=\"monte_carlo\">Cost distribution</h2>");
  REQUIRE(section != std::string::npos);
  // cloud-half-spot's mean NPV over the 40 paths: $17,171,124.04.
  CHECK(html.find("<tr><td><span title=\"" + name + "\">" + name.substr(0, 45) + "...</span></td><td class=n>$17,171,124</td>",
                  section) != std::string::npos);
  // Nowhere in the section is the name written whole outside a title attribute.
  const std::string mc = html.substr(section, html.find("<h2", section + 1) - section);
  CHECK(mc.find(">" + name) == std::string::npos);
  // Markdown and the CSV keep it whole.
  CHECK(markdown_summary(report).find("| " + name + " | $17,171,124 |") != std::string::npos);
  const std::string csv = csv_section(report_section(report, "monte_carlo")).at(0).second;
  CHECK(csv.find("\n" + name + ",17171124.04") != std::string::npos);
}

TEST_CASE("report document: an IRR beyond 1,000% comes with a note on its small outlay, in every human format") {
  // quarterly-burst-capacity-block: cloud-burst-on-capacity-blocks' IRR 18.0114 a year (1,801.1%)
  // against cloud-on-demand. Its monthly totals against the baseline's (total_usd): month 0
  // -$379,491.07 (the first block is paid up front), month 1 +$614,668: at most $379,491 behind,
  // ahead again in month 1; NPV saving $2,457,857.65. No other plan of the report is beyond the bound.
  const Json report = Json::parse(file_text(test::source_path("tests/baselines/quarterly-burst-capacity-block.json")));
  const Section plans = report_section(report, "plans");
  REQUIRE(plans.sentences.size() == 1);
  const std::string note =
      "cloud-burst-on-capacity-blocks's IRR of 1,801.1% a year is outside a meaningful range: its up-front outlay is "
      "small beside what it returns, at most $379,491 behind the baseline (month 0) and ahead of it again in month 1, "
      "and a yearly rate compounds a return within weeks into thousands of percent; judge it by its NPV saving, "
      "$2,457,858, and its payback.";
  CHECK(plans.sentences[0] == note);
  CHECK(markdown_summary(report).find("\n" + note + "\n") != std::string::npos);
  CHECK(html_report(report).find("<p>" + html_escape(note) + "</p>") != std::string::npos);
  // The terminal wraps it at 100 columns: its words in order.
  std::string terminal = cli::terminal_answer(report, {});
  for (char& c : terminal) c = c == '\n' ? ' ' : c;
  while (terminal.find("  ") != std::string::npos) terminal.replace(terminal.find("  "), 2, " ");
  CHECK(terminal.find(note) != std::string::npos);
  // Within the bound, no note: electricity-100-nodes has no IRR, base-load-and-burst's highest is 667.6%.
  CHECK(report_section(Json::parse(file_text(test::source_path("tests/baselines/base-load-and-burst.json"))), "plans")
            .sentences.empty());
}
