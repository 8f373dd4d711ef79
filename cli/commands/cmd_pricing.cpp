// tcosim pricing import --format skypilot FILE... -o OUT.json --as-of YYYY-MM-DD [--source TEXT]
// tcosim pricing import --format price-index FILE -o OUT.json [--interpolation step|log_linear] [--series NAME]
// tcosim pricing import --format term-structure FILE -o OUT.json --discount-rate R [--offer ID --gpus-per-instance N]
// tcosim pricing import --format aws-price-list FILE... -o OUT.json [--reserved-term TERM] [--source TEXT]
// tcosim pricing import --format azure-retail PAGE... -o OUT.json [--as-of YYYY-MM-DD] [--source TEXT]
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/importers/prices/aws_price_list_import.hpp"
#include "models/importers/prices/azure_retail_import.hpp"
#include "models/importers/prices/price_index_import.hpp"
#include "models/importers/prices/skypilot_import.hpp"
#include "models/importers/prices/term_structure_import.hpp"
#include "core/io/atomic_file.hpp"
#include "core/io/output_set.hpp"

namespace tco::cli {

struct PricingImportOptions {
  std::string format;
  std::vector<std::string> files;
  std::string out;
  std::string as_of;
  std::string source;
  std::string interpolation = "log_linear";
  std::string reserved_term = "standard-no-upfront";
  std::optional<double> discount_rate_per_year;
  std::string series;
  std::string offer;
  int gpus_per_instance = 0;
  bool quiet = false;
};

// What one import writes: the file's JSON, the notes for stderr, the summary line's words.
struct ImportedFile {
  Json json;
  std::vector<Finding> notes;
  std::string summary;
};

// A published price series into one price schedule object (models/importers/prices/price_index_import.hpp).
static ImportedFile import_price_index_file(const PricingImportOptions& o) {
  PriceIndexImport imported = import_price_index(o.files.front(), o.interpolation, o.series);
  std::string summary = fmt::format("a price schedule of {} points to {} ({} rows read, {} with a $0 price skipped, {} "
                                    "with NaN dropped, {} notes)",
                                    imported.schedule.at("points").size(), o.out, imported.rows_read,
                                    imported.zero_price_rows, imported.nan_rows, imported.notes.size());
  return {std::move(imported.schedule), std::move(imported.notes), std::move(summary)};
}

// A reserved-price curve into its terms and implied forwards (models/importers/prices/term_structure_import.hpp).
static ImportedFile import_term_structure_file(const PricingImportOptions& o) {
  TermStructureImport imported =
      import_term_structure(o.files.front(), *o.discount_rate_per_year, {o.offer, o.gpus_per_instance});
  std::string summary = fmt::format("a term structure of {} reserved terms and their implied forwards at {} a year{} "
                                    "to {} ({} notes)",
                                    imported.curve.at("reserved_terms").size(), *o.discount_rate_per_year,
                                    o.offer.empty() ? "" : ", with the offer \"" + o.offer + "\" priced at each term",
                                    o.out, imported.notes.size());
  return {std::move(imported.curve), std::move(imported.notes), std::move(summary)};
}

static ImportedFile import_skypilot_files(const PricingImportOptions& o) {
  SkypilotImport imported = import_skypilot(o.files, SkypilotImportOptions{o.as_of, o.source});
  std::string summary = fmt::format("{} cloud_offer records to {} ({} rows read, {} with a $0 price left out, {} with "
                                    "NaN dropped, {} notes)",
                                    imported.catalog.at("records").size(), o.out, imported.rows_read,
                                    imported.zero_price_rows, imported.nan_rows, imported.notes.size());
  return {std::move(imported.catalog), std::move(imported.notes), std::move(summary)};
}

// A provider price list (AWS offer file, Azure retail pages) into cloud_offer records, with the
// drop-and-count summary.
static ImportedFile price_list_file(PriceListImport imported, const PricingImportOptions& o) {
  const std::string dropped = imported.dropped.total() == 0 ? "none" : imported.dropped.summary();
  std::string summary = fmt::format("{} cloud_offer records to {} as of {} ({} {} read; dropped: {})",
                                    imported.catalog.at("records").size(), o.out,
                                    imported.as_of.empty() ? "(no item)" : imported.as_of, imported.items_read,
                                    o.format == "aws-price-list" ? "products" : "price items", dropped);
  return {std::move(imported.catalog), std::move(imported.notes), std::move(summary)};
}

static ImportedFile import_aws_files(const PricingImportOptions& o) {
  // "standard-no-upfront" -> OfferingClass "standard", PurchaseOption "No Upfront".
  const std::size_t dash = o.reserved_term.find('-');
  const std::string option = o.reserved_term.substr(dash + 1);
  AwsPriceListOptions options;
  options.reserved_offering_class = o.reserved_term.substr(0, dash);
  options.reserved_purchase_option =
      option == "no-upfront" ? "No Upfront" : option == "partial-upfront" ? "Partial Upfront" : "All Upfront";
  options.source_note = o.source;
  return price_list_file(import_aws_price_list(o.files, options), o);
}

static ImportedFile import_azure_files(const PricingImportOptions& o) {
  return price_list_file(import_azure_retail(o.files, AzureRetailOptions{o.as_of, o.source}), o);
}

static ImportedFile import_files(const PricingImportOptions& o) {
  if (o.format == "price-index") return import_price_index_file(o);
  if (o.format == "term-structure") return import_term_structure_file(o);
  if (o.format == "aws-price-list") return import_aws_files(o);
  if (o.format == "azure-retail") return import_azure_files(o);
  return import_skypilot_files(o);
}

static int run_pricing_import(const PricingImportOptions& o, CommandContext& ctx) {
  const bool one_csv = o.format == "price-index" || o.format == "term-structure";
  if (one_csv && o.files.size() != 1) {
    ctx.err << "tcosim pricing import --format " << o.format << ": expected one CSV file, found " << o.files.size()
            << "\n";
    return kExitBadInput;
  }
  if (!o.series.empty() && o.format != "price-index") {
    ctx.err << "tcosim pricing import: --series is taken only by --format price-index\n";
    return kExitBadInput;
  }
  if ((!o.offer.empty() || o.gpus_per_instance > 0) && o.format != "term-structure") {
    ctx.err << "tcosim pricing import: --offer and --gpus-per-instance are taken only by --format term-structure\n";
    return kExitBadInput;
  }
  if (o.offer.empty() != (o.gpus_per_instance == 0)) {
    ctx.err << "tcosim pricing import --format term-structure: --offer ID and --gpus-per-instance N go together (the "
               "offer's catalog id, and its GPUs to price a GPU-hour curve per instance-hour)\n";
    return kExitBadInput;
  }
  if ((o.format == "term-structure") != o.discount_rate_per_year.has_value()) {
    ctx.err << "tcosim pricing import: --discount-rate is " << (o.discount_rate_per_year ? "taken only by" : "required by")
            << " --format term-structure (the rate at which the curve's forwards are implied: the scenario's "
               "finance.discount_rate_per_year)\n";
    return kExitBadInput;
  }
  if (o.format == "aws-price-list" && !o.as_of.empty()) {
    ctx.err << "tcosim pricing import --format aws-price-list: --as-of is not taken: every record's as_of is the "
               "offer file's publicationDate\n";
    return kExitBadInput;
  }
  if (o.format == "skypilot" && o.as_of.empty()) {
    ctx.err << "tcosim pricing import: --as-of YYYY-MM-DD is required: SkyPilot's CSVs carry no date, so say "
               "when the prices were read (every catalog record keeps it as its as_of)\n";
    return kExitBadInput;
  }
  OutputSet outputs(ctx.out);
  outputs.add_file("--out", o.out, true);
  for (const auto& file : o.files) outputs.add_input("an input file", file);
  const ImportedFile imported = import_files(o);
  // The file is written only once everything parsed: a bad row leaves no half file behind.
  outputs.stage(o.out, imported.json.dump(2) + "\n");
  outputs.commit();
  for (const Finding& note : imported.notes) ctx.err << format_finding(note) << "\n";
  if (!o.quiet && !OutputSet::is_stdout(o.out)) ctx.out << "wrote " << imported.summary << "\n";
  return kExitOk;
}

void setup_pricing(CLI::App& app, CommandContext& ctx) {
  CLI::App* pricing = app.add_subcommand("pricing", "Work with the pricing catalog (pricing-data/): import prices.");
  pricing->require_subcommand(1);

  auto opts = std::make_shared<PricingImportOptions>();
  CLI::App* import = pricing->add_subcommand(
      "import",
      "Turn a cloud's public price list into one catalog file of cloud_offer records, one per (provider, "
      "instance type, region), and print on stderr the quirks the list holds (spot above on-demand, regions "
      "without spot, zones that disagree, >= 2x regional spreads, rows that could not become a record). "
      "The output validates with `tcosim validate`; review it before copying records into pricing-data/.");
  import->add_option("--format", opts->format,
                     "Input format. skypilot: SkyPilot catalog v7 vms.csv files (github.com/skypilot-org/"
                     "skypilot-catalog, catalogs/v7/<cloud>/vms.csv). The cloud is read from the file name "
                     "(aws_....csv) or its folder (aws/vms.csv). GCP is additive: give the host-VM rows and the "
                     "accelerator rows (one file or several); a VM is priced host + accelerator of the same zone. "
                     "A region's on-demand price is the zones' minimum; its spot price the cheapest zone's. A $0 "
                     "price is left out (never written as a price) and a row with a NaN price dropped, both "
                     "counted in the summary and a note. "
                     "price-index: a published price series, one row a month (columns date as YYYY-MM or "
                     "YYYY-MM-DD, usd_per_gpu_hour, optional source and kind, as "
                     "../shared/data/published-prices/h100_rental_index.csv), into one price schedule object "
                     "{interpolation, points} for a scenario's cloud.price_schedule.on_demand or .spot "
                     "(docs/model.md section 4); $0 rows are skipped and NaN rows dropped, both counted. A file "
                     "may hold several indices of one GPU, told apart by a series column, each row with its own "
                     "source: --series names the one to read. "
                     "term-structure: a reserved-price curve at one date (columns as_of or date as YYYY-MM-DD, "
                     "term_months, usd_per_gpu_hour, source; terms strictly increasing, prices above $0) into "
                     "each term's reserved price per GPU-hour and the forward prices the curve implies at "
                     "--discount-rate (docs/model.md section 4). "
                     "aws-price-list: the AWS Price List API's regional EC2 offer file, index.json or index.csv "
                     "(pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/<region>/index.json): "
                     "Linux, Shared tenancy, no pre-installed software, capacitystatus Used, GPU families; "
                     "on-demand and the --reserved-term Reserved terms (effective hourly = upfront / "
                     "(8,760 h x years) + hourly); as_of = the file's publicationDate. "
                     "azure-retail: pages of the Azure Retail Prices API (prices.azure.com/api/retail/prices): "
                     "Linux Consumption items give on-demand and Spot prices, Reservation items the term price / "
                     "(8,760 h x years), DevTest items are dropped; as_of = --as-of or the newest "
                     "effectiveStartDate. Both drop and count what they cannot use, by reason.")
      ->required()
      ->check(CLI::IsMember({"skypilot", "price-index", "term-structure", "aws-price-list", "azure-retail"}));
  import->add_option("files", opts->files, "The files to import (one or more; read together)")->required();
  import->add_option("--out,-o", opts->out, "Write the catalog file here (JSON; \"-\": the standard output)")->required();
  import->add_option("--as-of", opts->as_of,
                     "skypilot: date the prices were read, YYYY-MM-DD (required: the CSVs carry no date); becomes "
                     "each record's as_of. azure-retail: the day the pages were downloaded (default: the newest "
                     "effectiveStartDate of the items). Not taken by aws-price-list (its publicationDate dates it)");
  import->add_option("--reserved-term", opts->reserved_term,
                     "aws-price-list: the Reserved term carried as reserved_1y/3y_usd_per_hour (the catalog "
                     "holds one per length; the others are counted as not carried)")
      ->check(CLI::IsMember({"standard-no-upfront", "standard-partial-upfront", "standard-all-upfront",
                             "convertible-no-upfront", "convertible-partial-upfront", "convertible-all-upfront"}))
      ->default_str("standard-no-upfront");
  import->add_option("--interpolation", opts->interpolation,
                     "price-index: how the schedule moves between points: step or log_linear (default)")
      ->check(CLI::IsMember({"step", "log_linear"}));
  import->add_option("--series", opts->series,
                     "price-index: the index to read from a file of several (its rows' value in column series); "
                     "required when the file holds two or more");
  import->add_option("--discount-rate", opts->discount_rate_per_year,
                     "term-structure (required there): the discount rate per year, 0 to 1, at which the curve's "
                     "forwards are implied; give the scenario's finance.discount_rate_per_year")
      ->check(CLI::Range(0.0, 1.0));
  import->add_option("--offer", opts->offer,
                     "term-structure: the catalog id of the cloud_offer the curve prices; the output then holds "
                     "\"offer\", an override of that record for a scenario's cloud.offer: each term a reserved "
                     "price per instance-hour (12 and 36 months as reserved_1y/3y_usd_per_hour, the others in "
                     "reserved_usd_per_hour_by_term_months, terms up to 60 months), dated the curve's as_of");
  import->add_option("--gpus-per-instance", opts->gpus_per_instance,
                     "term-structure, with --offer: the offer's GPUs per instance (a curve's USD per GPU-hour x "
                     "this = USD per instance-hour)")
      ->check(CLI::Range(1, 1024));
  import->add_option("--source", opts->source,
                     "Text appended to each record's source (after \"SkyPilot catalog v7: <file>\" or the price "
                     "list's file and date), e.g. the catalog commit or URL the files came from");
  import->add_flag("--quiet,-q", opts->quiet, "Print no summary line on success (quirks are still printed)");
  import->callback([opts, &ctx] { ctx.exit_code = run_pricing_import(*opts, ctx); });
}

}  // namespace tco::cli
