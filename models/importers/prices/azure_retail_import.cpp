#include "models/importers/prices/azure_retail_import.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"

namespace tco {

namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

std::string size_name(const std::string& arm_sku_name) {
  return arm_sku_name.rfind("Standard_", 0) == 0 ? arm_sku_name.substr(9) : arm_sku_name;
}

// One price item, reduced to the fields the importer reads.
struct Item {
  std::string where;  // "page.json /Items/3" with several files, else "/Items/3"
  std::string service, type, currency, unit, arm_sku, region, product, meter, sku_name, term, start_date;
  double price_usd = 0.0;
};

// The prices found for one (size, region).
struct Offer {
  std::optional<double> on_demand, spot, reserved[2];
  std::string on_demand_where, spot_where, reserved_where[2];
  std::set<std::string> file_set;
};

Item read_item(const Json& json, const std::string& path, const std::string& pointer) {
  JsonObjectReader r(json, path, pointer);
  Item item;
  item.service = r.string("serviceName");
  item.type = r.string("type");
  item.currency = r.string("currencyCode");
  item.unit = r.string("unitOfMeasure");
  item.arm_sku = r.string("armSkuName");
  item.region = r.string("armRegionName");
  item.product = r.string("productName");
  item.meter = r.string("meterName");
  item.sku_name = r.string("skuName");
  // Consumption items carry no reservationTerm, or a null one.
  if (r.has("reservationTerm") && !json.at("reservationTerm").is_null()) item.term = r.string("reservationTerm");
  const Json& price = r.value("retailPrice");
  if (!price.is_number() || !price_of(price)) r.fail("retailPrice", "a price (a number >= 0)", &price);
  item.price_usd = price.get<double>();
  const Json& start = r.value("effectiveStartDate");
  const auto day = start.is_string() ? date_of_timestamp(start.get<std::string>()) : std::nullopt;
  if (!day) r.fail("effectiveStartDate", "a timestamp \"YYYY-MM-DDThh:mm:ssZ\"", &start);
  item.start_date = *day;
  return item;
}

class AzureRetailImporter {
 public:
  AzureRetailImporter(const AzureRetailOptions& options, const std::vector<std::string>& paths) : options_(options) {
    if (!options_.as_of.empty()) {
      Date date;
      if (!parse_date(options_.as_of, date))
        throw InputError("", "--as-of", "expected a date YYYY-MM-DD, found \"" + options_.as_of + "\"");
    }
    for (const std::string& path : paths) files_.push_back(fs::path(path).filename().string());
  }

  void read(const std::string& path) {
    const Json doc = read_json_file(path);
    JsonObjectReader page(doc, path, "");
    const Json& items = page.value("Items");
    if (!items.is_array()) page.fail("Items", "an array of price items", &items);
    const std::string base = fs::path(path).filename().string();
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string pointer = "/Items/" + std::to_string(i);
      Item item = read_item(items[i], path, pointer);
      item.where = files_.size() > 1 ? base + " " + pointer : pointer;
      ++result_.items_read;
      if (item.start_date > newest_start_) newest_start_ = item.start_date;
      add(item, base);
    }
  }

  PriceListImport finish() {
    result_.as_of = options_.as_of.empty() ? newest_start_ : options_.as_of;
    Json records = Json::array();
    for (const auto& [key, offer] : offers_) {
      const auto& [size, region] = key;
      if (!offer.on_demand) {
        const std::string& first = offer.spot          ? offer.spot_where
                                   : offer.reserved[0] ? offer.reserved_where[0]
                                                       : offer.reserved_where[1];
        result_.dropped.add("size and region without an on-demand (Consumption) price: no record", first);
        continue;
      }
      const AzureGpuSize gpu = azure_gpu_of_size(size);
      Json record = {{"id", "azure/" + size + "/" + region},
                     {"provider", "azure"},
                     {"instance_type", size},
                     {"region", region},
                     {"gpu_model", gpu.gpu_id},
                     {"gpus_per_instance", gpu.gpus},
                     {"on_demand_usd_per_hour", *offer.on_demand}};
      std::string source = "Azure Retail Prices API, " + join(offer.file_set) + ": on-demand " + offer.on_demand_where;
      if (offer.spot) {
        record["spot_usd_per_hour"] = *offer.spot;
        source += ", spot " + offer.spot_where;
      }
      if (offer.reserved[0]) {
        record["reserved_1y_usd_per_hour"] = *offer.reserved[0];
        source += ", reservation 1 Year " + offer.reserved_where[0] + " / 8,760 h";
      }
      if (offer.reserved[1]) {
        record["reserved_3y_usd_per_hour"] = *offer.reserved[1];
        source += ", reservation 3 Years " + offer.reserved_where[1] + " / 26,280 h";
      }
      source += options_.as_of.empty() ? "; as_of: the newest effectiveStartDate of the pages"
                                       : "; as_of: the download date given (--as-of)";
      if (!options_.source_note.empty()) source += "; " + options_.source_note;
      record["source"] = source;
      record["as_of"] = result_.as_of;
      records.push_back(std::move(record));
    }
    result_.catalog = Json{{"kind", "cloud_offer"}, {"records", std::move(records)}};
    for (Finding& f : result_.dropped.findings("dropped", join(files_))) result_.notes.push_back(std::move(f));
    if (!unknown_sizes_.empty())
      result_.notes.push_back({Finding::Severity::warning, "gpu-size-not-in-table", join(files_), "",
                               "GPU VM sizes the importer does not map: " + join(unknown_sizes_) +
                                   " (add them to the table in azure_retail_import.cpp)"});
    return std::move(result_);
  }

 private:
  template <class Items>
  static std::string join(const Items& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
  }

  // Why an item cannot price a record, or "" when it can.
  std::string drop_reason(const Item& item) {
    if (item.service != "Virtual Machines") return "not a virtual machine (serviceName)";
    const std::string size = size_name(item.arm_sku);
    if (azure_gpu_of_size(size).gpu_id.empty()) {
      if (!size.empty() && size[0] == 'N') {
        unknown_sizes_.insert(size);
        return "N-series size not in the importer's GPU table";
      }
      return "not a GPU VM size";
    }
    if (item.type == "DevTestConsumption" || item.type == "DevTest")
      return "DevTest price (Visual Studio subscribers, non-production only)";
    if (item.type != "Consumption" && item.type != "Reservation") return "type neither Consumption nor Reservation";
    if (item.currency != "USD") return "not priced in USD";
    if (item.unit != "1 Hour") return "unitOfMeasure not \"1 Hour\"";
    if (item.product.find("Windows") != std::string::npos) return "Windows product";
    if (item.meter.find("Low Priority") != std::string::npos || item.sku_name.find("Low Priority") != std::string::npos)
      return "Low Priority meter";
    if (item.region.empty()) return "no armRegionName";
    if (item.price_usd == 0.0) return "price $0 (a missing price, never written)";
    if (item.type == "Reservation" && item.term != "1 Year" && item.term != "3 Years")
      return "reservation term neither \"1 Year\" nor \"3 Years\"";
    return "";
  }

  // Keeps the lower of two prices for one slot, with a note when they differ.
  void keep(std::optional<double>& slot, std::string& slot_where, const Item& item, double price,
            const std::string& what, const std::string& id) {
    if (slot && *slot != price)
      result_.notes.push_back({Finding::Severity::warning, "duplicate-price", join(files_), item.where,
                               fmt::format("{}: two {} prices ({} at {}, {} at {}): the lower is kept", id, what,
                                           *slot, slot_where, price, item.where)});
    if (!slot || price < *slot) {
      slot = price;
      slot_where = item.where;
    }
  }

  void add(const Item& item, const std::string& base) {
    if (const std::string reason = drop_reason(item); !reason.empty()) {
      result_.dropped.add(reason, item.where);
      return;
    }
    const std::string size = size_name(item.arm_sku);
    Offer& offer = offers_[{size, item.region}];
    offer.file_set.insert(base);
    const std::string id = "azure/" + size + "/" + item.region;
    if (item.type == "Reservation") {
      const int years = item.term == "1 Year" ? 1 : 3;
      keep(offer.reserved[years == 1 ? 0 : 1], offer.reserved_where[years == 1 ? 0 : 1], item,
           item.price_usd / (kHoursPerTermYear * years), item.term + " reservation", id);
      return;
    }
    const bool spot = ends_with(item.meter, " Spot") || ends_with(item.sku_name, " Spot");
    if (spot) keep(offer.spot, offer.spot_where, item, item.price_usd, "spot", id);
    else keep(offer.on_demand, offer.on_demand_where, item, item.price_usd, "on-demand", id);
  }

  AzureRetailOptions options_;
  PriceListImport result_;
  std::vector<std::string> files_;
  std::string newest_start_;
  std::map<std::tuple<std::string, std::string>, Offer> offers_;  // by (size, region)
  std::set<std::string> unknown_sizes_;
};

}  // namespace

AzureGpuSize azure_gpu_of_size(const std::string& arm_sku_name) {
  // The ND/NC GPU series pages of Azure: ND H100/H200 v5 and ND A100 v4 are SXM parts; NC H100
  // v5 carries H100 NVL (94 GB) and NC A100 v4 A100 PCIe 80 GB cards.
  static const std::map<std::string, AzureGpuSize, std::less<>> sizes = {
      {"ND96isr_H100_v5", {"h100-sxm-80gb", 8}},     {"ND96isr_H200_v5", {"h200-sxm-141gb", 8}},
      {"ND96amsr_A100_v4", {"a100-sxm-80gb", 8}},    {"ND96asr_v4", {"a100-sxm-40gb", 8}},
      {"ND96isr_MI300X_v5", {"mi300x", 8}},          {"NC40ads_H100_v5", {"h100-nvl-94gb", 1}},
      {"NC80adis_H100_v5", {"h100-nvl-94gb", 2}},    {"NC24ads_A100_v4", {"a100-pcie-80gb", 1}},
      {"NC48ads_A100_v4", {"a100-pcie-80gb", 2}},    {"NC96ads_A100_v4", {"a100-pcie-80gb", 4}},
  };
  const auto it = sizes.find(size_name(arm_sku_name));
  return it == sizes.end() ? AzureGpuSize{} : it->second;
}

PriceListImport import_azure_retail(const std::vector<std::string>& paths, const AzureRetailOptions& options) {
  if (paths.empty()) throw InputError("", "", "expected at least one Azure Retail Prices API page");
  AzureRetailImporter importer(options, paths);
  for (const std::string& path : paths) importer.read(path);
  return importer.finish();
}

}  // namespace tco
