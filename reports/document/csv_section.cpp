#include "reports/document/section_render.hpp"

namespace tco {

std::string csv_field(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string quoted = "\"";
    for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  }
  return v.dump();
}

std::vector<std::pair<std::string, std::string>> csv_section(const Section& s) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const Table& t : s.tables) {
    if (t.csv_file.empty()) continue;
    std::string body;
    for (const Row& r : t.rows) {
      if (r.human_only) continue;
      std::string line;
      bool first = true;
      for (std::size_t c = 0; c < t.columns.size(); ++c) {
        if (t.columns[c].shown == Shown::human) continue;
        line += (first ? "" : ",") + csv_field(r.cells.at(c).raw);
        first = false;
      }
      body += line + "\n";
    }
    if (body.empty()) continue;
    if (!files.empty() && files.back().first == t.csv_file) {  // the next plan's monthly flows
      files.back().second += body;
      continue;
    }
    std::string header;
    for (const Column& c : t.columns)
      if (c.shown != Shown::human) header += (header.empty() ? "" : ",") + csv_field(Json(c.csv_key));  // a plan's name may be one
    files.emplace_back(t.csv_file, header + "\n" + body);
  }
  return files;
}

}  // namespace tco
