// Assumptions and sources (docs/report.md, `pricing.records`): every catalog or inline record the
// run used, with its kind, source and date; then the figures of a record that carry a date or a
// source of their own (`field_provenance`, a capacity block's date).
#include "reports/document/report_section.hpp"

namespace tco {

Section assumptions_section(const Json& report) {
  Table records = make_table(
      {{"catalog record", "record"}, {"kind", "kind"}, {"source", "source"}, {"as of", "as_of"}}, "sources.csv");
  Table own = make_table({{"catalog record", "record"}, {"figure", "field"}, {"as of", "as_of"}, {"source", "source"}},
                         "sources_own_dates.csv");
  own.caption = "figures with a date or source of their own";
  for (const auto& r : report.at("pricing").at("records")) {
    records.rows.emplace_back(std::vector<Cell>{text_cell(r.at("id")), text_cell(r.at("kind")), prose_cell(r.at("source")),
                                                date_cell(r.at("as_of").get<std::string>())});
    for (const auto& f : r.value("figures", Json::array())) {
      if (f.at("as_of") == r.at("as_of") && f.at("source") == r.at("source")) continue;
      own.rows.emplace_back(std::vector<Cell>{text_cell(r.at("id")), text_cell(f.at("field")),
                                              date_cell(f.at("as_of").get<std::string>()), prose_cell(f.at("source"))});
    }
  }
  return make_section("assumptions", "Assumptions and sources",
                      "the pricing records this run used: where each figure comes from and how old it is",
                      {records, own});
}

}  // namespace tco
