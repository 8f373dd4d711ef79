#include "models/importers/prices/term_structure_import.hpp"

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "core/io/utf8_text.hpp"
#include "models/input_limits.hpp"
#include "models/price_path/implied_forward.hpp"

namespace tco {

namespace {

int column_of(const std::vector<std::string_view>& header, std::string_view name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

// A field's "line N, column C" (1-based; the field views point into the line).
std::string field_position(const CsvLineReader& reader, std::string_view field) {
  return csv_position(reader.line_number(), static_cast<std::size_t>(field.data() - reader.line().data()) + 1);
}

// The curve as an override of one cloud_offer record (the header's example).
Json term_structure_offer_patch(const std::vector<TermPoint>& curve, const std::vector<std::string>& sources, const std::string& as_of,
                 const TermStructureOffer& offer) {
  Json patch = {{"id", offer.id}}, by_term = Json::object(), dated = Json::object();
  std::string other_sources;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const int months = curve[i].term_months;
    const double usd_per_instance_hour = curve[i].usd_per_gpu_hour * offer.gpus_per_instance;
    if (months == 12 || months == 36) {
      const std::string field = months == 12 ? "reserved_1y_usd_per_hour" : "reserved_3y_usd_per_hour";
      patch[field] = usd_per_instance_hour;
      dated[field] = {{"as_of", as_of}, {"source", sources[i]}};
      continue;
    }
    by_term[std::to_string(months)] = usd_per_instance_hour;
    if (other_sources.find(sources[i]) == std::string::npos)
      other_sources += (other_sources.empty() ? "" : "; ") + sources[i];
  }
  if (!by_term.empty()) {
    patch["reserved_usd_per_hour_by_term_months"] = by_term;
    dated["reserved_usd_per_hour_by_term_months"] = {{"as_of", as_of}, {"source", other_sources}};
  }
  patch["field_provenance"] = dated;
  return patch;
}

}  // namespace

TermStructureImport import_term_structure(const std::string& path, double discount_rate_per_year,
                                          const TermStructureOffer& offer) {
  CsvLineReader reader(path, "cannot open the file");
  reader.read_header();
  const auto& header = reader.fields();
  const int c_date = column_of(header, "as_of") >= 0 ? column_of(header, "as_of") : column_of(header, "date");
  const int c_term = column_of(header, "term_months"), c_price = column_of(header, "usd_per_gpu_hour");
  const int c_source = column_of(header, "source");
  const std::size_t columns = header.size();
  for (const auto& [column, name] : {std::pair{c_date, "as_of (or date)"}, std::pair{c_term, "term_months"},
                                     std::pair{c_price, "usd_per_gpu_hour"}, std::pair{c_source, "source"}})
    if (column < 0)
      throw InputError(path, "line 1", fmt::format("expected a header naming the column {} (as_of, term_months, "
                                                   "usd_per_gpu_hour, source), found \"{}\"", name, reader.line()));

  std::vector<TermPoint> curve;
  std::vector<std::string> sources;
  std::string as_of;
  while (reader.next_line()) {
    if (reader.line().empty()) continue;
    const auto& f = reader.fields();
    if (f.size() != columns)
      throw InputError(path, csv_position(reader.line_number(), reader.line().size() + 1),
                       fmt::format("expected {} fields (as in the header), found {}", columns, f.size()));
    const std::string_view date_field = f[static_cast<std::size_t>(c_date)];
    Date date;
    if (!parse_date(std::string(date_field), date))
      throw InputError(path, field_position(reader, date_field),
                       fmt::format("expected a date YYYY-MM-DD in column as_of, found \"{}\"", date_field));
    if (as_of.empty()) as_of = format_date(date);
    if (format_date(date) != as_of)
      throw InputError(path, field_position(reader, date_field),
                       fmt::format("expected one date for the whole curve ({}), found \"{}\"", as_of, date_field));
    const std::string_view term_field = f[static_cast<std::size_t>(c_term)];
    double term = 0.0;
    if (!parse_finite_double(term_field, term) || term < 1.0 || term > 1200.0 || term != static_cast<int>(term))
      throw InputError(path, field_position(reader, term_field),
                       fmt::format("expected a term in whole months, 1 to 1200, in column term_months, found \"{}\"",
                                   term_field));
    if (offer.gpus_per_instance > 0 && term > limits::kMaxCommitmentTermMonths)
      throw InputError(path, field_position(reader, term_field),
                       fmt::format("expected a term of at most {} months for the offer \"{}\" (the longest reserved "
                                   "term a catalog offer holds), found {}",
                                   limits::kMaxCommitmentTermMonths, offer.id, term_field));
    if (!curve.empty() && static_cast<int>(term) <= curve.back().term_months)
      throw InputError(path, field_position(reader, term_field),
                       fmt::format("expected terms in strictly increasing order, found {} months after {} months",
                                   term_field, curve.back().term_months));
    const std::string_view price_field = f[static_cast<std::size_t>(c_price)];
    double price = 0.0;
    if (!parse_finite_double(price_field, price) || price <= 0.0)
      throw InputError(path, field_position(reader, price_field),
                       fmt::format("expected a price in USD per GPU-hour above 0 in column usd_per_gpu_hour, found "
                                   "\"{}\" (a curve has no missing points: leave the row out)",
                                   price_field));
    if (offer.gpus_per_instance > 0 && price * offer.gpus_per_instance > limits::kUsdPerInstanceHour.max)
      throw InputError(path, field_position(reader, price_field),
                       fmt::format("expected a price that stays within ${:g} per instance-hour for the offer's {} "
                                   "GPUs (the catalog's ceiling), found \"{}\" per GPU-hour",
                                   limits::kUsdPerInstanceHour.max, offer.gpus_per_instance, price_field));
    const std::string_view source_field = f[static_cast<std::size_t>(c_source)];
    if (source_field.empty())
      throw InputError(path, field_position(reader, source_field), "expected where the price was read in column "
                                                                   "source, found an empty field");
    if (const std::size_t bad = first_unprintable_byte(source_field); bad != std::string_view::npos)
      throw InputError(path, field_position(reader, source_field.substr(bad)),
                       fmt::format("expected text (UTF-8, no control characters) in column source, found the byte "
                                   "\\x{:02X}",
                                   static_cast<unsigned>(static_cast<unsigned char>(source_field[bad]))));
    curve.push_back({static_cast<int>(term), price});
    sources.emplace_back(source_field);
  }
  if (reader.read_failed()) throw InputError(path, "", "the file could not be read to its end");
  if (curve.empty()) throw InputError(path, "", "expected at least one term of the curve, found no rows");

  TermStructureImport out;
  Json terms = Json::array(), forwards = Json::array();
  for (std::size_t i = 0; i < curve.size(); ++i)
    terms.push_back({{"term_months", curve[i].term_months},
                     {"usd_per_gpu_hour", curve[i].usd_per_gpu_hour},
                     {"source", sources[i]}});
  for (const ForwardSegment& segment : implied_forwards_from_curve(curve, discount_rate_per_year)) {
    forwards.push_back({{"start_month", segment.start_month},
                        {"end_month", segment.end_month},
                        {"usd_per_gpu_hour", segment.usd_per_gpu_hour}});
    if (!(segment.usd_per_gpu_hour > 0.0))
      out.notes.push_back(
          {Finding::Severity::warning, "implied-forward-not-positive", path,
           fmt::format("term_months {}", segment.end_month),
           fmt::format("the curve prices months {} to {} at ${:.4f} per GPU-hour at a discount rate of {}: the "
                       "{}-month price is likely a slip (a total, or per instance)",
                       segment.start_month, segment.end_month, segment.usd_per_gpu_hour, discount_rate_per_year,
                       segment.end_month)});
  }
  out.curve = {{"kind", "term_structure"},
               {"as_of", as_of},
               {"discount_rate_per_year", discount_rate_per_year},
               {"reserved_terms", terms},
               {"implied_forwards", forwards}};
  if (offer.gpus_per_instance > 0) out.curve["offer"] = term_structure_offer_patch(curve, sources, as_of, offer);
  return out;
}

}  // namespace tco
