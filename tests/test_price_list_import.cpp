// `tcosim pricing import --format aws-price-list | azure-retail`
// (models/importers/prices/aws_price_list_import.hpp, azure_retail_import.hpp): the samples in
// tests/fixtures/aws-price-list and tests/fixtures/azure-retail (SOURCE.md says which are real
// and which constructed) give the records and drop counts worked out by hand below; malformed
// files exit 2 naming the file and the JSON pointer or CSV line, and write nothing.
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/importers/prices/aws_price_list_import.hpp"
#include "models/importers/prices/azure_retail_import.hpp"
#include "import_test_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

std::string aws_fixture(const std::string& name) { return source_path("tests/fixtures/aws-price-list/" + name); }
std::string azure_fixture(const std::string& name) { return source_path("tests/fixtures/azure-retail/" + name); }

const Json* record(const PriceListImport& imported, const std::string& id) {
  for (const Json& r : imported.catalog.at("records"))
    if (r.at("id") == id) return &r;
  return nullptr;
}

double field(const Json* record, const char* name) { return record->at(name).get<double>(); }

// The imported catalog file validates with no error (warnings allowed).
void check_validates(const PriceListImport& imported, const std::string& name) {
  const auto dir = scratch_dir(name);
  std::ofstream(dir / "imported.json", std::ios::binary) << imported.catalog.dump(2);
  for (const Finding& f : validate_catalog_dir(dir.string())) {
    INFO(f.code << ": " << f.message);
    CHECK(f.severity == Finding::Severity::warning);
  }
}

}  // namespace

TEST_CASE("aws-price-list: the GPU families of an EC2 offer file, on-demand and the chosen reserved term") {
  const PriceListImport imported = import_aws_price_list({aws_fixture("constructed-us-east-1-gpu.json")}, {});
  CHECK(imported.as_of == "2025-08-14");  // publicationDate 2025-08-14T19:11:05Z
  CHECK(imported.items_read == 12);
  REQUIRE(imported.catalog.at("records").size() == 3);

  // p5.48xlarge (SKU XSAMPLE0P548XL01): on-demand 55.04 $/h. Reserved, standard No Upfront (the
  // default): no upfront fee, so the effective hourly price is the hourly one:
  //   1yr: 0 / 8,760 + 38.528 = 38.528;  3yr: 0 / 26,280 + 27.52 = 27.52.
  const Json* p5 = record(imported, "aws/p5.48xlarge/us-east-1");
  REQUIRE(p5 != nullptr);
  CHECK(field(p5, "on_demand_usd_per_hour") == doctest::Approx(55.04).epsilon(1e-12));
  CHECK(field(p5, "reserved_1y_usd_per_hour") == doctest::Approx(38.528).epsilon(1e-12));
  CHECK(field(p5, "reserved_3y_usd_per_hour") == doctest::Approx(27.52).epsilon(1e-12));
  CHECK(p5->at("gpu_model") == "h100-sxm-80gb");
  CHECK(p5->at("gpus_per_instance") == 8);
  CHECK(p5->at("as_of") == "2025-08-14");
  CHECK(p5->at("source").get<std::string>().find("SKU XSAMPLE0P548XL01") != std::string::npos);
  CHECK_FALSE(p5->contains("spot_usd_per_hour"));  // the offer file has no spot prices

  const Json* p4d = record(imported, "aws/p4d.24xlarge/us-east-1");
  REQUIRE(p4d != nullptr);
  CHECK(field(p4d, "on_demand_usd_per_hour") == doctest::Approx(21.957642).epsilon(1e-12));
  CHECK(field(p4d, "reserved_1y_usd_per_hour") == doctest::Approx(13.82).epsilon(1e-12));
  CHECK(field(p4d, "reserved_3y_usd_per_hour") == doctest::Approx(9.5).epsilon(1e-12));
  CHECK(p4d->at("gpu_model") == "a100-sxm-40gb");

  const Json* g6e = record(imported, "aws/g6e.xlarge/us-east-1");
  REQUIRE(g6e != nullptr);
  CHECK(field(g6e, "on_demand_usd_per_hour") == doctest::Approx(1.861).epsilon(1e-12));
  CHECK(g6e->at("gpus_per_instance") == 1);
  CHECK(g6e->at("gpu_model") == "l40s");
  CHECK_FALSE(g6e->contains("reserved_1y_usd_per_hour"));

  // What was dropped, by reason: 12 products read, 3 kept.
  const ImportDrops& d = imported.dropped;
  CHECK(d.count("not a compute instance (productFamily)") == 1);  // the Data Transfer product
  CHECK(d.count("not a GPU instance family") == 2);                // m5.xlarge, trn1.32xlarge
  CHECK(d.count("GPU family not in the importer's table") == 1);   // g4ad.xlarge (AMD, gpu 1)
  CHECK(d.count("operating system not Linux") == 1);               // p5 Windows
  CHECK(d.count("tenancy not Shared") == 1);                       // p5 Dedicated
  CHECK(d.count("pre-installed software") == 1);                   // p5 with SQL Web
  CHECK(d.count("capacitystatus not Used (reservation or unused-capacity rows)") == 1);
  CHECK(d.count("no on-demand price") == 1);                       // p5e: Reserved terms only
  // Reserved terms other than standard No Upfront: p5 1yr Partial, 3yr All Upfront, 3yr
  // convertible No Upfront; p4d 1yr Partial: 4.
  CHECK(d.count("reserved terms not carried (the catalog keeps standard No Upfront)") == 4);
  CHECK(d.total() == 1 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 4);
  bool named_g4ad = false;
  for (const Finding& f : imported.notes)
    named_g4ad |= f.code == "gpu-family-not-in-table" && f.message.find("g4ad") != std::string::npos;
  CHECK(named_g4ad);
  check_validates(imported, "aws-price-list-json");
}

TEST_CASE("aws-price-list: a reserved term with an upfront fee, as an effective hourly price") {
  // standard All Upfront, p5.48xlarge 3yr: $657,000 upfront and $0/h:
  //   657,000 / (8,760 x 3 = 26,280 h) + 0 = 25.0 $/h. There is no 1yr All Upfront term.
  AwsPriceListOptions all_upfront;
  all_upfront.reserved_purchase_option = "All Upfront";
  const PriceListImport all = import_aws_price_list({aws_fixture("constructed-us-east-1-gpu.json")}, all_upfront);
  const Json* p5 = record(all, "aws/p5.48xlarge/us-east-1");
  REQUIRE(p5 != nullptr);
  CHECK(field(p5, "reserved_3y_usd_per_hour") == doctest::Approx(25.0).epsilon(1e-12));
  CHECK_FALSE(p5->contains("reserved_1y_usd_per_hour"));

  // standard Partial Upfront, 1yr: p5: 168,000 / 8,760 + 17.60 = 19.178082... + 17.60 = 36.778082...;
  // p4d: 55,000 / 8,760 + 6.30 = 6.278539... + 6.30 = 12.578539...
  AwsPriceListOptions partial;
  partial.reserved_purchase_option = "Partial Upfront";
  const PriceListImport part = import_aws_price_list({aws_fixture("constructed-us-east-1-gpu.json")}, partial);
  CHECK(field(record(part, "aws/p5.48xlarge/us-east-1"), "reserved_1y_usd_per_hour") ==
        doctest::Approx(168000.0 / 8760.0 + 17.60).epsilon(1e-12));
  CHECK(field(record(part, "aws/p5.48xlarge/us-east-1"), "reserved_1y_usd_per_hour") ==
        doctest::Approx(36.778082).epsilon(1e-7));
  CHECK(field(record(part, "aws/p4d.24xlarge/us-east-1"), "reserved_1y_usd_per_hour") ==
        doctest::Approx(12.578539).epsilon(1e-7));
}

TEST_CASE("aws-price-list: the CSV form of the same offer file gives the same records") {
  const PriceListImport json = import_aws_price_list({aws_fixture("constructed-us-east-1-gpu.json")}, {});
  const PriceListImport csv = import_aws_price_list({aws_fixture("constructed-us-east-1-gpu.csv")}, {});
  CHECK(csv.as_of == "2025-08-14");
  CHECK(csv.items_read == json.items_read);
  CHECK(csv.dropped.summary() == json.dropped.summary());
  REQUIRE(csv.catalog.at("records").size() == json.catalog.at("records").size());
  for (std::size_t i = 0; i < json.catalog.at("records").size(); ++i) {
    Json a = json.catalog.at("records")[i], b = csv.catalog.at("records")[i];
    a.erase("source");  // names the file and the term code as each form writes it
    b.erase("source");
    CHECK(a == b);
  }
  // The CSV's places are lines: p5 Windows is the first row of its SKU (line 8).
  bool windows_line = false;
  for (const Finding& f : csv.notes)
    windows_line |= f.message == "1 dropped: operating system not Linux" && f.where == "line 8";
  CHECK(windows_line);
}

TEST_CASE("aws-price-list: the real AWS price-list CSV excerpt (ec2-priceit) is read, and all of it dropped") {
  // 15 products of the global price list of 2025-09-12 (SOURCE.md): none is a Linux GPU
  // instance. 14 are not of a GPU family; g5.48xlarge (line 32) is, but runs SUSE.
  const PriceListImport imported =
      import_aws_price_list({aws_fixture("ec2-priceit-global-sample-2025-09-12.csv")}, {});
  CHECK(imported.as_of == "2025-09-12");  // "Publication Date","2025-09-12T22:53:08Z"
  CHECK(imported.items_read == 15);
  CHECK(imported.catalog.at("records").empty());
  CHECK(imported.dropped.count("not a GPU instance family") == 14);
  CHECK(imported.dropped.count("operating system not Linux") == 1);
  CHECK(imported.dropped.total() == 15);
  bool g5_line = false;
  for (const Finding& f : imported.notes)
    g5_line |= f.message == "1 dropped: operating system not Linux" && f.where == "line 32";
  CHECK(g5_line);
}

TEST_CASE("aws-price-list: the real us-east-1 offer-file excerpt (opencost, 2024-05-28) gives the p4d record") {
  // Two products of AWS's us-east-1 EC2 offer file, version 20240528203522 (SOURCE.md), kept
  // unchanged: p4d.24xlarge Linux/Shared/NA/Used/OnDemand (SKU H7NGEAC6UEHNTKSJ) at
  // "32.7726000000" USD per Hrs (the price before AWS's June 2025 cut), and the same instance's
  // Capacity Block product (SKU YSXJGN78QTXNVGDQ, marketoption CapacityBlock) at $0.00.
  const PriceListImport imported =
      import_aws_price_list({aws_fixture("opencost-us-east-1-p4d-2024-05-28.json")}, {});
  CHECK(imported.as_of == "2024-05-28");  // publicationDate 2024-05-28T20:35:22Z
  CHECK(imported.items_read == 2);
  REQUIRE(imported.catalog.at("records").size() == 1);

  const Json* p4d = record(imported, "aws/p4d.24xlarge/us-east-1");
  REQUIRE(p4d != nullptr);
  // The OnDemand term's one "Hrs" dimension, read as written: 32.7726000000 -> 32.7726 $/h
  // (= 4.096575 $ per GPU-hour: 32.7726 / 8).
  CHECK(field(p4d, "on_demand_usd_per_hour") == doctest::Approx(32.7726).epsilon(1e-12));
  CHECK(field(p4d, "on_demand_usd_per_hour") / 8.0 == doctest::Approx(4.096575).epsilon(1e-12));
  CHECK(p4d->at("gpu_model") == "a100-sxm-40gb");
  CHECK(p4d->at("gpus_per_instance") == 8);  // the "gpu" attribute, "8"
  CHECK(p4d->at("region") == "us-east-1");
  CHECK(p4d->at("as_of") == "2024-05-28");
  CHECK(p4d->at("source").get<std::string>().find("SKU H7NGEAC6UEHNTKSJ") != std::string::npos);
  CHECK(p4d->at("source").get<std::string>().find("JRTCKXETXF") != std::string::npos);
  // The excerpt holds no Reserved terms and the offer file no spot prices.
  CHECK_FALSE(p4d->contains("reserved_1y_usd_per_hour"));
  CHECK_FALSE(p4d->contains("reserved_3y_usd_per_hour"));
  CHECK_FALSE(p4d->contains("spot_usd_per_hour"));

  // The $0.00 Capacity Block product is dropped on its marketoption, before its price is read
  // (a block's rate is not in the offer file: pricing-data/README.md, capacity_block_*).
  CHECK(imported.dropped.count("marketoption not OnDemand") == 1);
  CHECK(imported.dropped.total() == 1);
  bool named_block = false;
  for (const Finding& f : imported.notes)
    named_block |= f.message == "1 dropped: marketoption not OnDemand" &&
                   f.where.find("YSXJGN78QTXNVGDQ") != std::string::npos;
  CHECK(named_block);
  check_validates(imported, "aws-price-list-opencost");
}

TEST_CASE("aws-price-list: the GPU families map to catalog gpu ids") {
  CHECK(aws_gpu_of_instance_type("p5.48xlarge").gpu_id == "h100-sxm-80gb");
  CHECK(aws_gpu_of_instance_type("p5e.48xlarge").gpu_id == "h200-sxm-141gb");
  CHECK(aws_gpu_of_instance_type("p5en.48xlarge").gpu_id == "h200-sxm-141gb");
  CHECK(aws_gpu_of_instance_type("p4d.24xlarge").gpu_id == "a100-sxm-40gb");
  CHECK(aws_gpu_of_instance_type("p4de.24xlarge").gpu_id == "a100-sxm-80gb");
  CHECK(aws_gpu_of_instance_type("p6-b200.48xlarge").gpu_id == "b200");
  CHECK(aws_gpu_of_instance_type("g6e.12xlarge").gpu_id == "l40s");
  CHECK(aws_gpu_of_instance_type("p3.16xlarge").gpu_id == "v100-sxm-16gb");
  CHECK(aws_gpu_of_instance_type("m5.xlarge").gpu_id.empty());
  CHECK(aws_gpu_of_instance_type("trn1.32xlarge").gpu_id.empty());
}

TEST_CASE("azure-retail: Consumption, Spot and Reservation items of two pages become records") {
  const PriceListImport imported = import_azure_retail(
      {azure_fixture("constructed-page-1.json"), azure_fixture("constructed-page-2.json")}, {});
  CHECK(imported.items_read == 7 + 6);
  // The newest effectiveStartDate of the items: NC40ads H100 v5's 2025-02-01 (page 2, item 0).
  CHECK(imported.as_of == "2025-02-01");
  REQUIRE(imported.catalog.at("records").size() == 2);

  // ND96isr H100 v5 in eastus: Linux Consumption 98.32 $/h; Spot 39.328 $/h; a Reservation is
  // the price of the whole term: 1 Year 525,600 / 8,760 h = 60.0 $/h; 3 Years 1,182,600 /
  // (8,760 x 3 = 26,280 h) = 45.0 $/h.
  const Json* nd = record(imported, "azure/ND96isr_H100_v5/eastus");
  REQUIRE(nd != nullptr);
  CHECK(field(nd, "on_demand_usd_per_hour") == doctest::Approx(98.32).epsilon(1e-12));
  CHECK(field(nd, "spot_usd_per_hour") == doctest::Approx(39.328).epsilon(1e-12));
  CHECK(field(nd, "reserved_1y_usd_per_hour") == doctest::Approx(60.0).epsilon(1e-12));
  CHECK(field(nd, "reserved_3y_usd_per_hour") == doctest::Approx(45.0).epsilon(1e-12));
  CHECK(nd->at("gpu_model") == "h100-sxm-80gb");
  CHECK(nd->at("gpus_per_instance") == 8);
  CHECK(nd->at("instance_type") == "ND96isr_H100_v5");
  CHECK(nd->at("as_of") == "2025-02-01");

  // NC40ads H100 v5: 6.98 $/h; 3 Years 100,000 / 26,280 h = 3.805175... $/h.
  const Json* nc = record(imported, "azure/NC40ads_H100_v5/eastus");
  REQUIRE(nc != nullptr);
  CHECK(field(nc, "on_demand_usd_per_hour") == doctest::Approx(6.98).epsilon(1e-12));
  CHECK(field(nc, "reserved_3y_usd_per_hour") == doctest::Approx(3.805175).epsilon(1e-6));
  CHECK(nc->at("gpus_per_instance") == 1);
  CHECK(nc->at("gpu_model") == "h100-nvl-94gb");

  const ImportDrops& d = imported.dropped;
  CHECK(d.count("Windows product") == 1);
  CHECK(d.count("Low Priority meter") == 1);
  CHECK(d.count("DevTest price (Visual Studio subscribers, non-production only)") == 1);
  CHECK(d.count("not a GPU VM size") == 1);                            // D2s v3
  CHECK(d.count("not a virtual machine (serviceName)") == 1);          // a Storage meter
  CHECK(d.count("N-series size not in the importer's GPU table") == 1);  // NV36ads A10 v5
  CHECK(d.count("size and region without an on-demand (Consumption) price: no record") == 1);  // westeurope spot only
  CHECK(d.total() == 7);
}

TEST_CASE("azure-retail: --as-of dates the records, and the GPU table agrees with the known instance table") {
  AzureRetailOptions options;
  options.as_of = "2025-03-10";
  const PriceListImport imported = import_azure_retail({azure_fixture("constructed-page-1.json")}, options);
  CHECK(imported.as_of == "2025-03-10");
  REQUIRE(imported.catalog.at("records").size() == 1);
  CHECK(imported.catalog.at("records")[0].at("as_of") == "2025-03-10");
  // A Consumption item may carry "reservationTerm": null (some API versions write it).
  const auto dir = scratch_dir("azure-retail-null-term");
  Json page = Json::parse(read_text_file(azure_fixture("constructed-page-1.json")));
  page["Items"][0]["reservationTerm"] = nullptr;
  const std::string null_term = write_file(dir, "page.json", page.dump());
  CHECK(import_azure_retail({null_term}, options).catalog.at("records").size() == 1);
  options.as_of = "2025-13-01";
  CHECK_THROWS_AS(import_azure_retail({azure_fixture("constructed-page-1.json")}, options), InputError);

  for (const char* size : {"ND96isr_H100_v5", "ND96isr_H200_v5", "ND96amsr_A100_v4", "ND96asr_v4",
                           "ND96isr_MI300X_v5", "NC40ads_H100_v5", "NC80adis_H100_v5", "NC24ads_A100_v4",
                           "NC48ads_A100_v4", "NC96ads_A100_v4"}) {
    INFO(size);
    const AzureGpuSize gpu = azure_gpu_of_size(std::string("Standard_") + size);
    CHECK_FALSE(gpu.gpu_id.empty());
    CHECK(known_gpus_per_instance("azure", size) == gpu.gpus);
  }
}

TEST_CASE("pricing import aws-price-list / azure-retail: the command writes the catalog and its summary") {
  const auto dir = scratch_dir("price-list-cli");
  const auto out = (dir / "aws.json").string();
  CliResult r = run_cli(
      {"pricing", "import", "--format", "aws-price-list", aws_fixture("constructed-us-east-1-gpu.json"), "-o", out});
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("wrote 3 cloud_offer records to " + out + " as of 2025-08-14 (12 products read; dropped: ") !=
        std::string::npos);
  CHECK(r.err.find("4 dropped: reserved terms not carried (the catalog keeps standard No Upfront)") !=
        std::string::npos);
  CHECK(Json::parse(read_text_file(out)).at("records").size() == 3);

  // --reserved-term picks the term carried.
  r = run_cli({"pricing", "import", "--format", "aws-price-list", aws_fixture("constructed-us-east-1-gpu.json"), "-o",
               out, "--reserved-term", "standard-all-upfront"});
  REQUIRE(r.exit_code == 0);
  CHECK(Json::parse(read_text_file(out)).at("records")[2].at("reserved_3y_usd_per_hour").get<double>() ==
        doctest::Approx(25.0).epsilon(1e-12));

  // The offer file dates itself: --as-of is refused.
  r = run_cli({"pricing", "import", "--format", "aws-price-list", aws_fixture("constructed-us-east-1-gpu.json"), "-o",
               (dir / "none.json").string(), "--as-of", "2025-01-01"});
  CHECK(r.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(dir / "none.json"));

  r = run_cli({"pricing", "import", "--format", "azure-retail", azure_fixture("constructed-page-1.json"),
               azure_fixture("constructed-page-2.json"), "-o", (dir / "azure.json").string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("wrote 2 cloud_offer records to " + (dir / "azure.json").string() +
                   " as of 2025-02-01 (13 price items read; dropped: ") != std::string::npos);
}

TEST_CASE("aws-price-list: malformed offer files exit 2 naming the file and the pointer or line, and write nothing") {
  const auto dir = scratch_dir("aws-price-list-bad");
  const std::string head = R"({"publicationDate": "2025-08-14T19:11:05Z", "products": {"S1": {"productFamily": )"
                           R"("Compute Instance", "attributes": {"instanceType": "p5.48xlarge"}}}, )";
  const std::string dims =
      R"("priceDimensions": {"S1.JRTCKXETXF.6YS6EN2CT7": {"unit": "Hrs", "pricePerUnit": {"USD": )";
  check_rejected("pricing", "aws-price-list", "index.json",
                 {
                     {"truncated JSON", head.substr(0, 80), "line 1, column 81"},
                     {"price not a number",
                      head + R"("terms": {"OnDemand": {"S1": {"S1.JRTCKXETXF": {)" + dims + R"("abc"}}}}}}}})",
                      "/terms/OnDemand/S1/S1.JRTCKXETXF/priceDimensions/S1.JRTCKXETXF.6YS6EN2CT7/pricePerUnit/USD"},
                     {"no publicationDate", R"({"products": {}, "terms": {}})", "/publicationDate"},
                     {"publicationDate not a date", R"({"publicationDate": "yesterday", "products": {}, "terms": {}})",
                      "/publicationDate"},
                     {"products of the wrong type",
                      R"({"publicationDate": "2025-08-14T19:11:05Z", "products": [], "terms": {}})",
                      "/products"},
                     {"unit of the wrong type",
                      head + R"("terms": {"OnDemand": {"S1": {"S1.JRTCKXETXF": )"
                             R"({"priceDimensions": {"R": {"unit": 3}}}}}}})",
                      "/terms/OnDemand/S1/S1.JRTCKXETXF/priceDimensions/R/unit"},
                 },
                 dir);
  const std::string header =
      "\"FormatVersion\",\"v1.0\"\n\"Publication Date\",\"2025-08-14T19:11:05Z\"\n"
      "\"SKU\",\"OfferTermCode\",\"TermType\",\"Unit\",\"PricePerUnit\",\"Currency\",\"LeaseContractLength\","
      "\"PurchaseOption\",\"OfferingClass\",\"Product Family\",\"Instance Type\",\"Region Code\",\"Operating System\","
      "\"Tenancy\",\"Pre Installed S/W\",\"CapacityStatus\",\"License Model\",\"GPU\"\n";
  const std::string row = "\"S1\",\"JRTCKXETXF\",\"OnDemand\",\"Hrs\",";
  check_rejected("pricing", "aws-price-list", "index.csv",
                 {
                     {"price not a number",
                      header + row + "\"abc\",\"USD\",,,,\"Compute Instance\",\"p5.48xlarge\",\"us-east-1\",\"Linux\","
                                     "\"Shared\",\"NA\",\"Used\",\"No License required\",\"8\"\n",
                      "line 4, column 36"},
                     {"price not a number, in a product outside the GPU families",
                      header + row + "\"abc\",\"USD\",,,,\"Compute Instance\",\"m5.xlarge\",\"us-east-1\",\"Linux\","
                                     "\"Shared\",\"NA\",\"Used\",\"No License required\",\"\"\n",
                      "line 4, column 36"},
                     {"truncated row", header + row + "\"55.04\",\"USD\"", "line 4, column"},
                     {"no Publication Date", header.substr(header.find("\"SKU\"")), "Publication Date"},
                     {"no header row", "\"FormatVersion\",\"v1.0\"\n", "line 1"},
                 },
                 dir);
}

TEST_CASE("azure-retail: malformed pages exit 2 naming the file and the pointer, and write nothing") {
  const auto dir = scratch_dir("azure-retail-bad");
  const std::string item =
      R"({"serviceName": "Virtual Machines", "type": "Consumption", "currencyCode": "USD", "unitOfMeasure": "1 Hour",)"
      R"( "armSkuName": "Standard_ND96isr_H100_v5", "armRegionName": "eastus",)"
      R"( "productName": "Virtual Machines NDsr H100 v5 Series", "meterName": "ND96isr H100 v5",)"
      R"( "skuName": "ND96isr H100 v5", "effectiveStartDate": "2024-03-01T00:00:00Z", "retailPrice": )";
  check_rejected("pricing", "azure-retail", "page.json",
                 {
                     {"truncated JSON", R"({"Items": [)" + item, "line 1, column"},
                     {"price not a number", R"({"Items": [)" + item + R"("98.x"}]})", "/Items/0/retailPrice"},
                     {"no Items", R"({"BillingCurrency": "USD"})", "/Items"},
                     {"Items of the wrong type", R"({"Items": {}})", "/Items"},
                     {"a field of the wrong type",
                      R"({"Items": [)" + item + R"(98.32}, {"serviceName": 7}]})", "/Items/1/serviceName"},
                     {"no effectiveStartDate",
                      R"({"Items": [{"serviceName": "Virtual Machines", "type": "Consumption", "currencyCode": "USD", )"
                      R"("unitOfMeasure": "1 Hour", "armSkuName": "", "armRegionName": "", "productName": "", )"
                      R"("meterName": "", )"
                      R"("skuName": "", "retailPrice": 1.0}]})",
                      "/Items/0/effectiveStartDate"},
                 },
                 dir);
}

}  // namespace tco::test
