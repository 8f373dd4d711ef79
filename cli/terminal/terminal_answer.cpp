#include "cli/terminal/terminal_answer.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/io/utf8_text.hpp"
#include "reports/document/section_order.hpp"
#include "reports/document/section_render.hpp"
#include "reports/document/number_words.hpp"
#include "reports/verdict/verdict_text.hpp"

namespace tco::cli {

namespace {

// Words wrapped at `columns`; the text's own leading spaces are kept, continuation lines are
// indented by `indent` spaces.
std::string wrapped(const std::string& text, int columns, int indent) {
  const std::size_t lead = std::min(text.find_first_not_of(' '), text.size());
  std::string out;
  std::string line = text.substr(0, lead);
  bool line_has_words = false;
  std::size_t start = lead;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (line_has_words && static_cast<int>(line.size() + 1 + word.size()) > columns) {
      out += line + "\n";
      line = std::string(static_cast<std::size_t>(indent), ' ');
      line_has_words = false;
    }
    line += (line_has_words ? " " : "") + word;
    line_has_words = true;
    start = end + 1;
  }
  return out + line + "\n";
}

// "Payback against the recommended plan, X: never for a, b; month 5 for c." The plans grouped by
// their words, in the table's order, so that the table keeps its width.
std::string payback_vs_recommended_line(const Json& report, int columns) {
  const std::string recommended = recommended_reference(report);
  if (recommended.empty()) return "";
  std::vector<std::pair<std::string, std::string>> groups;  // words, plans
  for (const auto& p : report.at("plans")) {
    const std::string name = p.at("name").get<std::string>();
    if (name == recommended) continue;
    const std::string words = payback_vs_recommended_words(report, name);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == words; });
    if (it == groups.end()) groups.push_back({words, name});
    else it->second += ", " + name;
  }
  std::string out = "Payback against the recommended plan, " + recommended + ":";
  for (std::size_t i = 0; i < groups.size(); ++i)
    out += fmt::format("{} {} for {}", i == 0 ? "" : ";", groups[i].first, groups[i].second);
  return wrapped(out + ".", columns, 2);
}

}  // namespace

// The breakevens and the Monte Carlo distribution: their sections, one row a line (their tables
// are wider than the columns), with the sentences every format says.
std::string breakeven_lines(const Json& report, int columns) {
  return terminal_section(report_section(report, "breakevens"), static_cast<std::size_t>(columns),
                          TerminalTables::one_row_a_line);
}

std::string monte_carlo_lines(const Json& report, int columns) {
  return terminal_section(report_section(report, "monte_carlo"), static_cast<std::size_t>(columns),
                          TerminalTables::one_row_a_line);
}

std::string files_written_lines(const std::vector<std::string>& files) {
  std::string out;
  for (const auto& f : files) out += "wrote: " + escaped_text(f) + "\n";  // a file name need not be UTF-8
  return out;
}

namespace {

// The widest line of `text` in terminal columns (UTF-8 continuation bytes take none).
std::size_t widest_line(const std::string& text) {
  std::size_t widest = 0, width = 0;
  for (char c : text) {
    if (c == '\n') {
      widest = std::max(widest, width);
      width = 0;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++width;
    }
  }
  return std::max(widest, width);
}

// The report document's sections (reports/document/section_order.cpp) as the terminal draws them,
// those of the first screen or those after it; those too wide for `columns` are named in a line
// instead, before the warnings (the last section with words). The verdict and the plans are
// drawn their own way above, the breakevens and the Monte Carlo distribution one row a line
// (breakeven_lines, monte_carlo_lines).
std::string section_lines(const Json& report, bool first_screen, int columns) {
  std::string out, too_wide;
  const auto name_too_wide = [&] {
    if (!too_wide.empty())
      out += "\n" + wrapped("Wider than the terminal, in the Markdown, HTML and CSV outputs: " + too_wide + ".", columns, 0);
    too_wide.clear();
  };
  for (const Section& s : report_sections(report, first_screen)) {
    if (s.id == "verdict" || s.id == "plans" || s.id == "breakevens" || s.id == "monte_carlo") continue;
    if (s.id == "warnings") name_too_wide();
    const std::string text = terminal_section(s, static_cast<std::size_t>(columns));
    if (widest_line(text) <= static_cast<std::size_t>(columns))
      out += text;
    else
      too_wide += (too_wide.empty() ? "" : ", ") + s.title;
  }
  name_too_wide();
  return out;
}

}  // namespace

std::string terminal_answer(const Json& report, const std::vector<std::string>& files_written, int columns) {
  const Json& sc = report.at("scenario");
  std::string out;
  const Section verdict = report_section(report, "verdict"), plans = report_section(report, "plans");
  for (const std::string& sentence : verdict.opening) out += wrapped(sentence, columns, 0);
  out += section_lines(report, true, columns);  // an uncertain scenario's tornado
  out += "\n";
  out += fmt::format("Plans over {}, in USD, against the baseline {}\n"
                     "(saving = the baseline's NPV minus the plan's: positive means the plan is cheaper; payback\n"
                     "\"none needed\": the plan never costs more than the baseline, there is no investment):\n",
                     format_months(sc.at("horizon_months").get<int>()), sc.at("baseline").get<std::string>());
  out += plans_table(report, columns);
  out += payback_vs_recommended_line(report, columns);
  // The plans section's notes (an IRR beyond +/-1,000% and why), as the other formats write them.
  for (const std::string& sentence : plans.sentences) out += wrapped(sentence, columns, 2);
  out += breakeven_lines(report, columns) + monte_carlo_lines(report, columns);  // each opens with a blank line
  out += section_lines(report, false, columns);  // the warnings last (reports/document/section_order.cpp)
  if (!files_written.empty()) out += "\n" + files_written_lines(files_written);
  return out;
}

}  // namespace tco::cli
