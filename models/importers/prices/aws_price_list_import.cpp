#include "models/importers/prices/aws_price_list_import.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/csv_lines.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/importers/prices/skypilot_import.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace {

// The GPU families of EC2 and their accelerator, in SkyPilot's names (skypilot_gpu_id maps them
// to catalog ids): EC2 "Accelerated computing" instance pages.
const std::map<std::string, std::string, std::less<>>& gpu_families() {
  static const std::map<std::string, std::string, std::less<>> families = {
      {"p3", "V100"},        {"p3dn", "V100-32GB"}, {"p4d", "A100"},  {"p4de", "A100-80GB"},
      {"p5", "H100"},        {"p5e", "H200"},       {"p5en", "H200"}, {"p6-b200", "B200"},
      {"g4dn", "T4"},        {"g5", "A10G"},        {"g6", "L4"},     {"g6e", "L40S"}};
  return families;
}

std::string family_of(const std::string& instance_type) { return instance_type.substr(0, instance_type.find('.')); }

// One product of the offer file, reduced to the attributes the filters read.
struct Product {
  std::string where;  // JSON pointer or "line N"
  std::string family, instance_type, region_code, os, tenancy, preinstalled, capacity, license, market, gpu;
};

// One offer term of a product (OnDemand or Reserved) with its prices.
struct Term {
  std::string where;
  std::string type, lease, purchase_option, offering_class;
  std::string non_usd_currency;  // set when a price is not in USD
  std::string other_unit;        // set when a dimension's unit is neither Hrs nor Quantity
  std::optional<double> hourly_usd, upfront_usd;
};

struct OfferFile {
  std::string path;
  std::string publication;  // as written: "2025-09-12T22:53:08Z"
  std::string as_of;        // its date part
  std::map<std::string, Product> products;                      // by SKU
  std::map<std::string, std::map<std::string, Term>> terms;     // by SKU, then offer term code
};

std::string publication_date(const std::string& path, const std::string& where, const std::string& text) {
  const auto day = date_of_timestamp(text);
  if (!day)
    throw InputError(path, where, "expected a publication date \"YYYY-MM-DDThh:mm:ssZ\", found \"" + text + "\"");
  return *day;
}

void add_price(Term& term, const std::string& unit, double price) {
  if (unit == "Hrs") term.hourly_usd = term.hourly_usd.value_or(0.0) + price;
  else if (unit == "Quantity") term.upfront_usd = term.upfront_usd.value_or(0.0) + price;
  else term.other_unit = unit;
}

// --- The JSON form -------------------------------------------------------------------------

void read_json_terms(OfferFile& file, JsonObjectReader& terms, const Json& terms_json, const std::string& type) {
  if (!terms.has(type)) return;
  const JsonObjectReader by_sku = terms.object(type);  // an object, or an error naming /terms/<type>
  for (const auto& [sku, offers_json] : terms_json.at(type).items()) {
    JsonObjectReader offers(offers_json, file.path, by_sku.pointer_of(sku));
    for (const auto& [code, offer_json] : offers_json.items()) {
      JsonObjectReader offer(offer_json, file.path, offers.pointer_of(code));
      Term term;
      term.where = offer.pointer();
      term.type = type;
      if (offer.has("termAttributes")) {
        JsonObjectReader attributes = offer.object("termAttributes");
        term.lease = attributes.string_or("LeaseContractLength", "");
        term.purchase_option = attributes.string_or("PurchaseOption", "");
        term.offering_class = attributes.string_or("OfferingClass", "");
      }
      JsonObjectReader dimensions = offer.object("priceDimensions");
      for (const auto& [rate, dimension_json] : offer_json.at("priceDimensions").items()) {
        JsonObjectReader dimension(dimension_json, file.path, dimensions.pointer_of(rate));
        const std::string unit = dimension.string("unit");
        JsonObjectReader per_unit = dimension.object("pricePerUnit");
        if (!per_unit.has("USD")) {
          const Json& currencies = dimension_json.at("pricePerUnit");
          term.non_usd_currency = currencies.empty() ? "none" : currencies.begin().key();
          continue;
        }
        const Json& usd = per_unit.value("USD");
        const auto price = price_of(usd);
        if (!price) per_unit.fail("USD", "a price in USD (a number >= 0, as text)", &usd);
        add_price(term, unit, *price);
      }
      file.terms[sku][code] = std::move(term);
    }
  }
}

OfferFile read_json_offer_file(const std::string& path) {
  OfferFile file;
  file.path = path;
  const Json doc = read_json_file(path);
  JsonObjectReader top(doc, path, "");
  file.publication = top.string("publicationDate");
  file.as_of = publication_date(path, "/publicationDate", file.publication);

  JsonObjectReader products = top.object("products");
  for (const auto& [sku, product_json] : doc.at("products").items()) {
    JsonObjectReader product(product_json, path, products.pointer_of(sku));
    Product p;
    p.where = product.pointer();
    p.family = product.string_or("productFamily", "");
    if (product.has("attributes")) {
      JsonObjectReader a = product.object("attributes");
      p.instance_type = a.string_or("instanceType", "");
      p.region_code = a.string_or("regionCode", "");
      p.os = a.string_or("operatingSystem", "");
      p.tenancy = a.string_or("tenancy", "");
      p.preinstalled = a.string_or("preInstalledSw", "");
      p.capacity = a.string_or("capacitystatus", "");
      p.license = a.string_or("licenseModel", "");
      p.market = a.string_or("marketoption", "");
      p.gpu = a.string_or("gpu", "");
    }
    file.products.emplace(sku, std::move(p));
  }
  JsonObjectReader terms = top.object("terms");
  read_json_terms(file, terms, doc.at("terms"), "OnDemand");
  read_json_terms(file, terms, doc.at("terms"), "Reserved");
  return file;
}

// --- The CSV form --------------------------------------------------------------------------

OfferFile read_csv_offer_file(const std::string& path) {
  OfferFile file;
  file.path = path;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the file");
  std::string line;
  long line_number = 0;
  std::vector<skypilot::CsvField> header;
  long publication_line = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    auto fields = skypilot::split_csv_line(line, path, line_number);
    if (fields[0].text == "Publication Date" && fields.size() >= 2) {
      file.publication = fields[1].text;
      publication_line = line_number;
    }
    if (fields[0].text == "SKU") {
      header = std::move(fields);
      break;
    }
  }
  if (header.empty())
    throw InputError(path, fmt::format("line {}", line_number),
                     "expected the price list's header row (\"SKU\",\"OfferTermCode\",...) after its metadata lines, "
                     "found none");
  if (publication_line == 0)
    throw InputError(path, fmt::format("line {}", line_number),
                     "expected a \"Publication Date\" metadata line before the header row, found none");
  file.as_of = publication_date(path, csv_position(publication_line, 1), file.publication);

  const auto column = [&](const char* name) {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i].text == name) return static_cast<int>(i);
    throw InputError(path, fmt::format("line {}", line_number),
                     std::string("expected a column \"") + name + "\" in the header row of the price list");
  };
  const int c_sku = column("SKU"), c_code = column("OfferTermCode"), c_type = column("TermType");
  const int c_unit = column("Unit"), c_price = column("PricePerUnit"), c_currency = column("Currency");
  const int c_lease = column("LeaseContractLength"), c_option = column("PurchaseOption");
  const int c_class = column("OfferingClass"), c_family = column("Product Family");
  const int c_type_name = column("Instance Type"), c_region = column("Region Code");
  const int c_os = column("Operating System"), c_tenancy = column("Tenancy"), c_sw = column("Pre Installed S/W");
  const int c_capacity = column("CapacityStatus"), c_license = column("License Model"), c_gpu = column("GPU");
  int c_market = -1;
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i].text == "MarketOption") c_market = static_cast<int>(i);

  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    const auto f = skypilot::split_csv_line(line, path, line_number);
    if (f.size() != header.size())
      throw InputError(path, csv_position(line_number, line.size() + 1),
                       fmt::format("expected {} fields (as in the header row), found {}", header.size(), f.size()));
    const std::string& sku = f[c_sku].text;
    const std::string where = fmt::format("line {}", line_number);
    // A region's CSV runs to gigabytes: the terms of a product outside the GPU families are
    // never read (the product is dropped on its family), so they are not kept.
    const bool gpu_family = !aws_gpu_of_instance_type(f[c_type_name].text).gpu_id.empty();
    if (!file.products.count(sku)) {
      Product p;
      p.where = where;
      p.family = f[c_family].text;
      p.instance_type = f[c_type_name].text;
      p.region_code = f[c_region].text;
      p.os = f[c_os].text;
      p.tenancy = f[c_tenancy].text;
      p.preinstalled = f[c_sw].text;
      p.capacity = f[c_capacity].text;
      p.license = f[c_license].text;
      p.market = c_market >= 0 ? f[c_market].text : "";
      p.gpu = f[c_gpu].text;
      file.products.emplace(sku, std::move(p));
    }
    // Every price is checked, kept or not: a malformed file is refused wherever the fault is.
    const bool usd = f[c_currency].text == "USD";
    const auto price = price_of(Json(f[c_price].text));
    if (usd && !price)
      throw InputError(path, csv_position(line_number, static_cast<std::size_t>(f[c_price].column)),
                       "expected a price in USD (a number >= 0) in column PricePerUnit, found \"" + f[c_price].text +
                           "\"");
    if (!gpu_family) continue;
    auto [it, inserted] = file.terms[sku].try_emplace(f[c_code].text);
    Term& term = it->second;
    if (inserted) {
      term.where = where;
      term.type = f[c_type].text;
      term.lease = f[c_lease].text;
      term.purchase_option = f[c_option].text;
      term.offering_class = f[c_class].text;
    }
    if (!usd) {
      term.non_usd_currency = f[c_currency].text;
      continue;
    }
    add_price(term, f[c_unit].text, *price);
  }
  return file;
}

OfferFile read_offer_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", "cannot open the file");
  char first = 0;
  while (in.get(first) && std::isspace(static_cast<unsigned char>(first))) {
  }
  return first == '{' ? read_json_offer_file(path) : read_csv_offer_file(path);
}

// --- Records ------------------------------------------------------------------------------

class Builder {
 public:
  Builder(const AwsPriceListOptions& options, const std::vector<std::string>& paths) : options_(options) {
    for (const std::string& path : paths) files_.push_back(fs::path(path).filename().string());
  }

  void add(const OfferFile& file) {
    if (file.as_of > result_.as_of) result_.as_of = file.as_of;
    const std::string base = fs::path(file.path).filename().string();
    for (const auto& [sku, product] : file.products) {
      ++result_.items_read;
      const auto terms = file.terms.find(sku);
      static const std::map<std::string, Term> no_terms;
      add_product(file, base, sku, product, terms == file.terms.end() ? no_terms : terms->second);
    }
  }

  PriceListImport finish() {
    Json records = Json::array();
    for (auto& [key, record] : records_) records.push_back(std::move(record));
    result_.catalog = Json{{"kind", "cloud_offer"}, {"records", std::move(records)}};
    for (Finding& f : result_.dropped.findings("dropped", files_text())) result_.notes.push_back(std::move(f));
    if (!unknown_families_.empty()) {
      std::string names;
      for (const auto& name : unknown_families_) names += (names.empty() ? "" : ", ") + name;
      note("gpu-family-not-in-table", "", "instance families with GPUs that the importer does not map: " + names +
                                              " (add them to the table in aws_price_list_import.cpp)");
    }
    return std::move(result_);
  }

 private:
  std::string reserved_choice() const {
    return options_.reserved_offering_class + " " + options_.reserved_purchase_option;
  }

  void note(const char* code, const std::string& where, std::string message) {
    result_.notes.push_back({Finding::Severity::warning, code, files_text(), where, std::move(message)});
  }

  std::string files_text() const {
    std::string text;
    for (const auto& f : files_) text += (text.empty() ? "" : ", ") + f;
    return text;
  }

  // Why a product cannot be a record, or "" when it can.
  std::string drop_reason(const Product& p, int* gpus, AwsGpuInstance* gpu) {
    if (p.family != "Compute Instance" && p.family != "Compute Instance (bare metal)")
      return "not a compute instance (productFamily)";
    int listed_gpus = 0;
    if (!p.gpu.empty() && p.gpu != "NA") {
      double value = 0.0;
      if (parse_finite_double(p.gpu, value) && value >= 0.0 && value == static_cast<int>(value))
        listed_gpus = static_cast<int>(value);
    }
    *gpu = aws_gpu_of_instance_type(p.instance_type);
    if (gpu->gpu_id.empty()) {
      if (listed_gpus > 0) {
        unknown_families_.insert(family_of(p.instance_type));
        return "GPU family not in the importer's table";
      }
      return "not a GPU instance family";
    }
    if (p.os != "Linux") return "operating system not Linux";
    if (p.tenancy != "Shared") return "tenancy not Shared";
    if (p.preinstalled != "NA") return "pre-installed software";
    if (p.capacity != "Used") return "capacitystatus not Used (reservation or unused-capacity rows)";
    if (p.license != "No License required") return "licenseModel not \"No License required\"";
    if (!p.market.empty() && p.market != "OnDemand") return "marketoption not OnDemand";
    if (p.region_code.empty()) return "no regionCode";
    const auto known = known_gpus_per_instance("aws", p.instance_type);
    if (listed_gpus > 0 && known && *known != listed_gpus) return "GPU count disagrees with the known instance table";
    *gpus = listed_gpus > 0 ? listed_gpus : known.value_or(0);
    if (*gpus <= 0) return "GPU count unknown";
    return "";
  }

  void add_product(const OfferFile& file, const std::string& base, const std::string& sku, const Product& p,
                   const std::map<std::string, Term>& terms) {
    // With several files, a place names its file too.
    const auto at = [&](const std::string& where) { return files_.size() > 1 ? base + " " + where : where; };
    const std::string place = at(p.where);
    int gpus = 0;
    AwsGpuInstance gpu;
    if (const std::string reason = drop_reason(p, &gpus, &gpu); !reason.empty()) {
      result_.dropped.add(reason, place);
      return;
    }

    std::optional<double> on_demand;
    std::string on_demand_code;
    std::optional<double> reserved[2];  // 1yr, 3yr
    for (const auto& [code, term] : terms) {
      const std::string term_place = at(term.where);
      if (!term.non_usd_currency.empty()) {
        result_.dropped.add("term not priced in USD", term_place);
        continue;
      }
      if (!term.other_unit.empty()) {
        result_.dropped.add("term priced in a unit other than Hrs or Quantity", term_place);
        continue;
      }
      if (term.type == "OnDemand") {
        if (term.hourly_usd && (!on_demand || *term.hourly_usd < *on_demand)) {
          on_demand = term.hourly_usd;
          on_demand_code = code;
        }
        continue;
      }
      if (term.type != "Reserved") {
        result_.dropped.add("term type neither OnDemand nor Reserved", term_place);
        continue;
      }
      const int years = term.lease == "1yr" ? 1 : term.lease == "3yr" ? 3 : 0;
      if (years == 0) {
        result_.dropped.add("reserved term of a lease other than 1yr or 3yr", term_place);
        continue;
      }
      if (term.offering_class != options_.reserved_offering_class ||
          term.purchase_option != options_.reserved_purchase_option) {
        result_.dropped.add("reserved terms not carried (the catalog keeps " + reserved_choice() + ")", term_place);
        continue;
      }
      if (!term.hourly_usd && !term.upfront_usd) {
        result_.dropped.add("reserved term without a price", term_place);
        continue;
      }
      reserved[years == 1 ? 0 : 1] =
          term.upfront_usd.value_or(0.0) / (kHoursPerTermYear * years) + term.hourly_usd.value_or(0.0);
    }
    if (!on_demand) {
      result_.dropped.add("no on-demand price", place);
      return;
    }
    if (*on_demand == 0.0) {
      result_.dropped.add("on-demand price $0 (a missing price, never written)", place);
      return;
    }

    const std::string id = "aws/" + p.instance_type + "/" + p.region_code;
    if (!gpu.known_gpu_id)
      note("unknown-gpu", place,
           p.instance_type + ": its accelerator has no catalog gpu id: kept as \"" + gpu.gpu_id + "\"");
    Json record = {{"id", id},
                   {"provider", "aws"},
                   {"instance_type", p.instance_type},
                   {"region", p.region_code},
                   {"gpu_model", gpu.gpu_id},
                   {"gpus_per_instance", gpus},
                   {"on_demand_usd_per_hour", *on_demand}};
    if (reserved[0] && *reserved[0] > 0.0) record["reserved_1y_usd_per_hour"] = *reserved[0];
    if (reserved[1] && *reserved[1] > 0.0) record["reserved_3y_usd_per_hour"] = *reserved[1];
    std::string source = fmt::format("AWS Price List API, AmazonEC2 offer file {} (publicationDate {}), SKU {}, "
                                     "on-demand term {}",
                                     base, file.publication, sku, on_demand_code);
    if (reserved[0] || reserved[1])
      source += "; reserved: " + reserved_choice() + ", effective hourly = upfront / (8,760 h x years) + hourly";
    if (!options_.source_note.empty()) source += "; " + options_.source_note;
    record["source"] = source;
    record["as_of"] = file.as_of;

    auto [it, inserted] = records_.try_emplace(id, record);
    if (!inserted) {
      const double kept = it->second.at("on_demand_usd_per_hour").get<double>();
      note("duplicate-offer", place,
           fmt::format("{}: a second product passes the filters (on-demand {} against {}): the lower is kept", id,
                       *on_demand, kept));
      if (*on_demand < kept) it->second = std::move(record);
    }
  }

  AwsPriceListOptions options_;
  PriceListImport result_;
  std::map<std::string, Json> records_;  // by id
  std::vector<std::string> files_;
  std::set<std::string> unknown_families_;
};

}  // namespace

AwsGpuInstance aws_gpu_of_instance_type(const std::string& instance_type) {
  const auto it = gpu_families().find(family_of(instance_type));
  if (it == gpu_families().end()) return {"", true};
  AwsGpuInstance out;
  out.gpu_id = skypilot_gpu_id("aws", instance_type, it->second, &out.known_gpu_id);
  return out;
}

PriceListImport import_aws_price_list(const std::vector<std::string>& paths, const AwsPriceListOptions& options) {
  if (paths.empty()) throw InputError("", "", "expected at least one AWS price list file");
  Builder builder(options, paths);
  for (const std::string& path : paths) builder.add(read_offer_file(path));
  return builder.finish();
}

}  // namespace tco
