#include <doctest/doctest.h>

#include <fstream>
#include <memory>

#include "core/error.hpp"
#include "core/io/sha256.hpp"
#include "models/catalog/catalog.hpp"
#include "models/catalog/catalog_source.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

const char* kGpus = R"({"kind": "gpu", "records": [
  {"id": "h100-sxm-80gb", "name": "H100", "perf_relative": 1.0, "memory_gb": 80, "tdp_w": 700,
   "source": "datasheet", "as_of": "2025-06-01"},
  {"id": "a100-sxm-80gb", "name": "A100", "perf_relative": 0.3, "memory_gb": 80, "tdp_w": 400,
   "source": "datasheet", "as_of": "2025-06-01"}]})";

const char* kOffers = R"({"$schema": "../schema/catalog.schema.json", "kind": "cloud_offer", "records": [
  {"id": "aws/p5.48xlarge/us-east-1", "provider": "aws", "instance_type": "p5.48xlarge",
   "region": "us-east-1", "gpu_model": "h100-sxm-80gb", "gpus_per_instance": 8,
   "on_demand_usd_per_hour": 98.32, "spot_usd_per_hour": 19.66, "source": "s", "as_of": "2025-06-01"},
  {"id": "aws/p5.48xlarge/us-west-2", "provider": "aws", "instance_type": "p5.48xlarge",
   "region": "us-west-2", "gpu_model": "h100-sxm-80gb", "gpus_per_instance": 8,
   "on_demand_usd_per_hour": 98.32, "source": "s", "as_of": "2025-06-01"}]})";

std::filesystem::path small_catalog(const std::string& name) {
  auto dir = tco::test::scratch_dir(name);
  write(dir / "gpus.json", kGpus);
  write(dir / "cloud_offers.json", kOffers);
  write(dir / "notes.txt", "not a catalog file");
  return dir;
}

}  // namespace

TEST_CASE("catalog: loads every json file, finds records by kind and id") {
  const auto dir = small_catalog("catalog-load");
  const Catalog catalog = Catalog::load(dir.string());
  CHECK(catalog.records().size() == 4);
  // cloud_offers.json sorts before gpus.json.
  CHECK(catalog.records()[0].kind == "cloud_offer");
  CHECK(catalog.records()[0].pointer == "/records/0");
  const CatalogRecord* h100 = catalog.find("gpu", "h100-sxm-80gb");
  REQUIRE(h100 != nullptr);
  CHECK(h100->fields.at("tdp_w").get<double>() == doctest::Approx(700.0).epsilon(1e-12));
  CHECK(catalog.find("cloud_offer", "h100-sxm-80gb") == nullptr);  // ids are per kind
  CHECK(catalog.ids("cloud_offer") ==
        std::vector<std::string>{"aws/p5.48xlarge/us-east-1", "aws/p5.48xlarge/us-west-2"});
}

TEST_CASE("catalog: the digest is sha256 over (file name, NUL, bytes) in name order") {
  const auto dir = small_catalog("catalog-digest");
  std::string expected_input = std::string("cloud_offers.json") + '\0' + kOffers;
  expected_input += std::string("gpus.json") + '\0' + kGpus;
  CHECK(Catalog::load(dir.string()).digest_sha256() == sha256_hex(expected_input));
  // Any byte changes it.
  write(dir / "gpus.json", std::string(kGpus) + " ");
  CHECK(Catalog::load(dir.string()).digest_sha256() != sha256_hex(expected_input));
}

TEST_CASE("catalog: an unknown kind is an error at /kind, a record without id at its pointer") {
  auto dir = tco::test::scratch_dir("catalog-bad-kind");
  write(dir / "x.json", R"({"kind": "cloud_offers", "records": []})");
  try {
    Catalog::load(dir.string());
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where() == "/kind");
    CHECK(std::string(e.what()).find("\"cloud_offer\"") != std::string::npos);
  }
  write(dir / "x.json", R"({"kind": "gpu", "records": [{"name": "no id"}]})");
  try {
    Catalog::load(dir.string());
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where() == "/records/0/id");
  }
  CHECK_THROWS_AS(Catalog::load((dir / "missing").string()), InputError);
}

TEST_CASE("catalog: duplicate ids load with the first record winning") {
  auto dir = tco::test::scratch_dir("catalog-dup");
  write(dir / "gpus.json", R"({"kind": "gpu", "records": [
    {"id": "g", "name": "first", "perf_relative": 1, "memory_gb": 1, "tdp_w": 1, "source": "s", "as_of": "2025-01-01"},
    {"id": "g", "name": "second", "perf_relative": 1, "memory_gb": 1, "tdp_w": 1, "source": "s", "as_of": "2025-01-01"}]})");
  const Catalog catalog = Catalog::load(dir.string());
  CHECK(catalog.records().size() == 1);
  CHECK(catalog.find("gpu", "g")->fields.at("name") == "first");
  CHECK(read_catalog_file((dir / "gpus.json").string()).records.size() == 2);
}

TEST_CASE("catalog: references by id, with overrides, and inline") {
  const Catalog catalog = Catalog::load(small_catalog("catalog-resolve").string());

  const ResolvedRecord by_id = resolve_reference(catalog, "cloud_offer", Json("aws/p5.48xlarge/us-east-1"),
                                                 "s.json", "/cloud/offer");
  CHECK(by_id.id == "aws/p5.48xlarge/us-east-1");
  CHECK(by_id.merged.at("spot_usd_per_hour").get<double>() == doctest::Approx(19.66).epsilon(1e-12));

  const Json override_ref = Json::parse(
      R"({"id": "aws/p5.48xlarge/us-east-1", "spot_usd_per_hour": 25, "on_demand_usd_per_hour": null})");
  const ResolvedRecord merged = resolve_reference(catalog, "cloud_offer", override_ref, "s.json", "/cloud/offer");
  CHECK(merged.id == "aws/p5.48xlarge/us-east-1");
  CHECK(merged.merged.at("spot_usd_per_hour").get<double>() == doctest::Approx(25.0).epsilon(1e-12));
  CHECK_FALSE(merged.merged.contains("on_demand_usd_per_hour"));  // null removes
  CHECK(merged.merged.at("region") == "us-east-1");                // untouched fields stay

  const Json inline_ref = Json::parse(R"({"name": "quote", "usd_per_kwh": 0.09, "g_co2_per_kwh": 400,
    "source": "utility quote 2026-01", "as_of": "2026-01-15"})");
  const ResolvedRecord inline_record = resolve_reference(catalog, "power_region", inline_ref, "s.json", "/power");
  CHECK(inline_record.id.empty());
  CHECK(inline_record.merged == inline_ref);
  check_record("power_region", inline_record.merged, "s.json", "/power", "");
}

TEST_CASE("catalog: an unknown id names the closest known ids") {
  const Catalog catalog = Catalog::load(small_catalog("catalog-unknown").string());
  try {
    resolve_reference(catalog, "cloud_offer", Json("aws/p5.48xlarge/us-east-2"), "s.json", "/cloud/offer");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == "s.json");
    CHECK(e.where() == "/cloud/offer");
    const std::string text = e.what();
    CHECK(text.find("unknown cloud_offer id \"aws/p5.48xlarge/us-east-2\"") != std::string::npos);
    // us-east-1 is one edit away, us-west-2 four: the closer comes first.
    CHECK(text.find("closest known: aws/p5.48xlarge/us-east-1, aws/p5.48xlarge/us-west-2") != std::string::npos);
  }
  try {
    resolve_reference(catalog, "gpu", Json::parse(R"({"id": "h100"})"), "s.json", "/gpu");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where() == "/gpu/id");
  }
  CHECK_THROWS_AS(resolve_reference(catalog, "gpu", Json(3), "s.json", "/gpu"), InputError);
}

TEST_CASE("catalog: check_record runs the strict parser of the kind") {
  const Json offer = Json::parse(kOffers).at("records").at(0);
  check_record("cloud_offer", offer, "c.json", "/records/0", "aws/p5.48xlarge/us-east-1");
  Json bad = offer;
  bad["colour"] = "blue";
  try {
    check_record("cloud_offer", bad, "c.json", "/records/0", "x");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where() == "/records/0/colour");
  }
}

// models/catalog/catalog_source.hpp: a folder's catalog is parsed once per content.
TEST_CASE("catalog cache: byte-identical files are parsed once, an edited or added file anew") {
  clear_catalog_cache();
  const auto dir = small_catalog("catalog-cache");
  const Catalog first = Catalog::load(dir.string());
  const Catalog again = Catalog::load(dir.string());
  CHECK(catalog_cache_stats().misses == 1);  // the first load parsed the two files,
  CHECK(catalog_cache_stats().hits == 1);    // the second reused them
  CHECK(again.digest_sha256() == first.digest_sha256());
  CHECK(again.records().size() == 4);
  // One byte edited, the size unchanged (700 -> 800 W): a new source, parsed anew.
  std::string edited = kGpus;
  const std::string watts = "\"tdp_w\": 700";
  edited.replace(edited.find(watts), watts.size(), "\"tdp_w\": 800");
  REQUIRE(edited.size() == std::string(kGpus).size());
  write(dir / "gpus.json", edited);
  const Catalog after_edit = Catalog::load(dir.string());
  CHECK(after_edit.find("gpu", "h100-sxm-80gb")->fields.at("tdp_w").get<double>() ==
        doctest::Approx(800.0).epsilon(1e-12));
  CHECK(after_edit.digest_sha256() != first.digest_sha256());
  CHECK(catalog_cache_stats().misses == 2);
  // Back to the first bytes: the first catalog again (kept, 2 sources of at most 4).
  write(dir / "gpus.json", kGpus);
  CHECK(Catalog::load(dir.string()).find("gpu", "h100-sxm-80gb")->fields.at("tdp_w").get<double>() ==
        doctest::Approx(700.0).epsilon(1e-12));
  CHECK(catalog_cache_stats().hits == 2);
  // A file added: 4 records + 1.
  write(dir / "more_gpus.json", R"({"kind": "gpu", "records": [{"id": "b200", "name": "B200", "perf_relative": 2,
    "memory_gb": 192, "tdp_w": 1000, "source": "datasheet", "as_of": "2025-06-01"}]})");
  CHECK(Catalog::load(dir.string()).records().size() == 5);
  CHECK(catalog_cache_stats().misses == 3);
  // The same bytes in another folder: its records name their own files.
  const auto other = tco::test::scratch_dir("catalog-cache-other");
  write(other / "gpus.json", kGpus);
  write(other / "cloud_offers.json", kOffers);
  CHECK(Catalog::load(other.string()).records().at(0).file == (other / "cloud_offers.json").string());
  CHECK(catalog_cache_stats().misses == 4);
}

TEST_CASE("catalog cache: require_valid_catalog catches an edit that breaks a checked catalog") {
  clear_catalog_cache();
  const auto dir = small_catalog("catalog-cache-check");
  require_valid_catalog(dir.string());
  require_valid_catalog(dir.string());
  // us-west-2's on-demand price 98.32 -> 0.000: zero-price, at that record's field.
  std::string broken = kOffers;
  broken.replace(broken.rfind("98.32"), 5, "0.000");
  write(dir / "cloud_offers.json", broken);
  try {
    require_valid_catalog(dir.string());
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == (dir / "cloud_offers.json").string());
    CHECK(e.where() == "/records/1/on_demand_usd_per_hour");
    CHECK(tco::test::contains(e.message(), "[zero-price]"));
  }
  // Still broken on the next call (the cached check), and fixed again once the file is.
  CHECK_THROWS_AS(require_valid_catalog(dir.string()), InputError);
  write(dir / "cloud_offers.json", kOffers);
  require_valid_catalog(dir.string());
}

// Catalog::load_shared (a scenario load's way in): the cached catalog itself, not a copy; a
// catalog a caller holds stays as it was read when the folder is then edited.
TEST_CASE("catalog cache: load_shared gives the cached catalog itself, and an edited file another") {
  clear_catalog_cache();
  const auto dir = small_catalog("catalog-cache-shared");
  const std::shared_ptr<const Catalog> first = Catalog::load_shared(dir.string());
  CHECK(Catalog::load_shared(dir.string()).get() == first.get());  // the same object: no copy made
  CHECK(catalog_cache_stats().hits == 1);
  std::string edited = kGpus;  // 700 -> 800 W, the size unchanged
  const std::string watts = "\"tdp_w\": 700";
  edited.replace(edited.find(watts), watts.size(), "\"tdp_w\": 800");
  write(dir / "gpus.json", edited);
  const std::shared_ptr<const Catalog> after_edit = Catalog::load_shared(dir.string());
  CHECK(after_edit.get() != first.get());
  CHECK(catalog_cache_stats().misses == 2);
  CHECK(after_edit->find("gpu", "h100-sxm-80gb")->fields.at("tdp_w").get<double>() ==
        doctest::Approx(800.0).epsilon(1e-12));
  CHECK(first->find("gpu", "h100-sxm-80gb")->fields.at("tdp_w").get<double>() ==
        doctest::Approx(700.0).epsilon(1e-12));  // what the first caller holds did not change
}
