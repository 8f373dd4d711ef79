#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "core/error.hpp"
#include "models/catalog/catalog_validation.hpp"
#include "models/importers/prices/skypilot_import.hpp"
#include "test_support.hpp"

using namespace tco;

namespace {

const std::string kAwsHeader =
    "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone";

std::filesystem::path write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  return path;
}

const Json* record(const SkypilotImport& imported, const std::string& id) {
  for (const Json& r : imported.catalog.at("records"))
    if (r.at("id") == id) return &r;
  return nullptr;
}

// The first note with `code` whose message contains `text`, or nullptr.
const Finding* note(const SkypilotImport& imported, const std::string& code, const std::string& text) {
  for (const Finding& f : imported.notes)
    if (f.code == code && f.message.find(text) != std::string::npos) return &f;
  return nullptr;
}

std::vector<std::string> real_files() {
  const std::string dir = tco::test::shared_data_path("skypilot-catalog/");
  return {dir + "aws_vms_v7_p-family.csv", dir + "gcp_vms_v7_a2-a3-host-rows.csv",
          dir + "gcp_vms_v7_gpu-accelerator-rows.csv", dir + "lambda_vms_v7_first-gpu-groups.csv"};
}

}  // namespace

TEST_CASE("skypilot import: CSV lines with quoted fields") {
  using skypilot::split_csv_line;
  const auto f = split_csv_line(R"(p5,"{'Gpus': [1, 2]}",98.32,,"say ""hi""")", "f.csv", 2);
  REQUIRE(f.size() == 5);
  CHECK(f[1].text == "{'Gpus': [1, 2]}");
  CHECK(f[1].column == 4);
  CHECK(f[2].text == "98.32");
  CHECK(f[2].column == 23);
  CHECK(f[3].text.empty());
  CHECK(f[4].text == "say \"hi\"");
  CHECK(split_csv_line("", "f.csv", 2).size() == 1);
  try {
    split_csv_line(R"(a,"open)", "f.csv", 7);
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where() == "line 7, column 3");
  }
  CHECK_THROWS_AS(split_csv_line(R"(a,"q"x,b)", "f.csv", 7), InputError);
  CHECK_THROWS_AS(split_csv_line(R"(a,b"c)", "f.csv", 7), InputError);
}

TEST_CASE("skypilot import: the real AWS, GCP and Lambda samples") {
  TCO_REQUIRE_SHARED_DATA();
  const SkypilotImport imported = import_skypilot(real_files(), {"2025-06-01", "date approximate"});
  CHECK(imported.rows_read == 174 + 199 + 148 + 68);

  // aws p5.48xlarge us-east-1, lines 140-145: on-demand 98.32 in every zone; spot per zone
  // 30.326, 27.6948, 20.9934, 29.3511, 25.8774, 25.3026 -> the cheapest, 20.9934.
  const Json* p5 = record(imported, "aws/p5.48xlarge/us-east-1");
  REQUIRE(p5 != nullptr);
  CHECK(p5->at("on_demand_usd_per_hour").get<double>() == doctest::Approx(98.32).epsilon(1e-12));
  CHECK(p5->at("spot_usd_per_hour").get<double>() == doctest::Approx(20.9934).epsilon(1e-12));
  CHECK(p5->at("gpus_per_instance") == 8);
  CHECK(p5->at("gpu_model") == "h100-sxm-80gb");
  CHECK(p5->at("source") == "SkyPilot catalog v7: aws_vms_v7_p-family.csv; date approximate");
  CHECK(p5->at("as_of") == "2025-06-01");

  // p4de.24xlarge us-east-1 lists some zones twice (with and without spot): spot
  // min(7.8074 (use1-az4), 5.8394 (use1-az6)) = 5.8394.
  const Json* p4de = record(imported, "aws/p4de.24xlarge/us-east-1");
  REQUIRE(p4de != nullptr);
  CHECK(p4de->at("on_demand_usd_per_hour").get<double>() == doctest::Approx(40.96575).epsilon(1e-12));
  CHECK(p4de->at("spot_usd_per_hour").get<double>() == doctest::Approx(5.8394).epsilon(1e-12));
  CHECK(p4de->at("gpu_model") == "a100-sxm-80gb");

  // GCP is additive. us-central1-a: host a3-highgpu-1g (host file line 168) 1.18251 $/h, spot
  // 0.27193; accelerator H100 x1 (accelerator file line 35) 4.20076, spot 2.253.
  // VM: 1.18251 + 4.20076 = 5.38327; spot 0.27193 + 2.253 = 2.52493 (zones b and c agree).
  const Json* a3 = record(imported, "gcp/a3-highgpu-1g/us-central1");
  REQUIRE(a3 != nullptr);
  CHECK(a3->at("on_demand_usd_per_hour").get<double>() == doctest::Approx(5.38327).epsilon(1e-12));
  CHECK(a3->at("spot_usd_per_hour").get<double>() == doctest::Approx(2.52493).epsilon(1e-12));
  CHECK(a3->at("gpus_per_instance") == 1);
  CHECK(a3->at("source") ==
        "SkyPilot catalog v7: gcp_vms_v7_a2-a3-host-rows.csv + gcp_vms_v7_gpu-accelerator-rows.csv; date approximate");
  // a2-ultragpu-8g us-central1: host 8.79698 + A100-80GB x8 14.76958 = 23.56656;
  // spot 3.51864 + 12.5696 = 16.08824.
  const Json* a2 = record(imported, "gcp/a2-ultragpu-8g/us-central1");
  REQUIRE(a2 != nullptr);
  CHECK(a2->at("on_demand_usd_per_hour").get<double>() == doctest::Approx(23.56656).epsilon(1e-12));
  CHECK(a2->at("spot_usd_per_hour").get<double>() == doctest::Approx(16.08824).epsilon(1e-12));
  CHECK(a2->at("gpu_model") == "a100-sxm-80gb");
  // No host row for a3-highgpu-8g in the sample: no record (only pairs present become records).
  CHECK(record(imported, "gcp/a3-highgpu-8g/us-central1") == nullptr);

  // Lambda: no spot market.
  const Json* v100 = record(imported, "lambda/gpu_8x_v100/us-east-1");
  REQUIRE(v100 != nullptr);
  CHECK(v100->at("on_demand_usd_per_hour").get<double>() == doctest::Approx(4.4).epsilon(1e-12));
  CHECK_FALSE(v100->contains("spot_usd_per_hour"));
  CHECK(v100->at("gpu_model") == "v100-sxm-16gb");
  CHECK(record(imported, "lambda/gpu_1x_a6000/us-east-1")->at("gpu_model") == "rtx-a6000");
  CHECK(note(imported, "no-spot-market", "lambda") != nullptr);

  // The quirks. asia-northeast1-b: host 1.51858 + H100 4.20076 = 5.71934 on-demand, but spot
  // 1.07106 + 10.01876 = 11.08982 (x1.94).
  const Finding* above = note(imported, "spot-above-on-demand", "gcp/a3-highgpu-1g/asia-northeast1");
  REQUIRE(above != nullptr);
  CHECK(above->message.find("spot 11.08982 is above on-demand 5.71934 (x1.94)") != std::string::npos);
  CHECK(above->where == "line 156 + 19");
  CHECK(note(imported, "missing-spot", "aws/p4d.24xlarge/ap-south-1") != nullptr);
  // p5e.48xlarge rows have no on-demand price at all.
  CHECK(note(imported, "no-on-demand-price", "aws/p5e.48xlarge/us-east-2") != nullptr);
  CHECK(record(imported, "aws/p5e.48xlarge/us-east-2") == nullptr);
  // a3-highgpu-1g: us-central1 5.38327 vs europe-west4 1.24163 + 12.73552 = 13.97715: x2.60.
  CHECK(note(imported, "regional-spread", "gcp a3-highgpu-1g: on-demand varies x2.60 across regions, from 5.38327 "
                                          "(us-central1) to 13.97715 (europe-west4)") != nullptr);
  CHECK(note(imported, "unpaired-gcp-row", "accelerator rows of B200 x8") != nullptr);
  for (const Finding& f : imported.notes) CHECK(f.severity == Finding::Severity::warning);

  // The output is a valid catalog file: no errors, only the spot-above warnings it carries.
  const auto dir = tco::test::scratch_dir("skypilot-real");
  write(dir / "imported.json", imported.catalog.dump(2));
  for (const Finding& f : validate_catalog_dir(dir.string())) {
    CHECK(f.severity == Finding::Severity::warning);
    CHECK(f.code == "spot-above-on-demand");
  }
}

TEST_CASE("skypilot import: synthetic rows, zones that disagree, unknown GPUs, provider from the folder") {
  const auto dir = tco::test::scratch_dir("skypilot-synthetic");
  const auto aws = write(dir / "aws" / "vms.csv",
                         kAwsHeader + "\n" +
                             "p5.48xlarge,H100,8.0,192.0,2048.0,\"{'Name': 'H100', 'Count': 8}\",98.32,30.0,us-east-1,use1-az1\r\n"
                             "p5.48xlarge,H100,8.0,192.0,2048.0,\"{'Name': 'H100', 'Count': 8}\",99.00,,us-east-1,use1-az2\r\n"
                             "x9.large,Z900,4.0,8.0,16.0,,10.0,2.0,us-east-1,use1-az1\n"
                             "m5.large,,,2.0,8.0,,0.096,0.04,us-east-1,use1-az1\n"
                             "\n");
  const SkypilotImport imported = import_skypilot({aws.string()}, {"2025-06-01", ""});
  CHECK(imported.catalog.at("records").size() == 2);  // the CPU-only m5.large is not a GPU offer
  const Json* p5 = record(imported, "aws/p5.48xlarge/us-east-1");
  REQUIRE(p5 != nullptr);
  CHECK(p5->at("on_demand_usd_per_hour").get<double>() == doctest::Approx(98.32).epsilon(1e-12));
  CHECK(p5->at("source") == "SkyPilot catalog v7: vms.csv");
  const Finding* disagree = note(imported, "zone-price-disagree", "aws/p5.48xlarge/us-east-1");
  REQUIRE(disagree != nullptr);
  CHECK(disagree->where == "lines 2, 3");
  CHECK(disagree->message.find("(98.32 to 99)") != std::string::npos);
  const Json* unknown = record(imported, "aws/x9.large/us-east-1");
  REQUIRE(unknown != nullptr);
  CHECK(unknown->at("gpu_model") == "z900");
  CHECK(note(imported, "unknown-gpu", "accelerator \"Z900\"") != nullptr);
}

TEST_CASE("skypilot import: a $0 price is never written, a NaN row is dropped, both counted") {
  const auto dir = tco::test::scratch_dir("skypilot-zero-nan");
  const auto aws = write(dir / "aws_vms.csv",
                         kAwsHeader + "\n" +
                             // line 2: on-demand $0 in one zone, line 3: $98.32 in the other -> 98.32 is kept
                             "p5.48xlarge,H100,8.0,192.0,2048.0,,0.0,30.0,us-east-1,use1-az1\n"
                             "p5.48xlarge,H100,8.0,192.0,2048.0,,98.32,,us-east-1,use1-az2\n"
                             // line 4: spot $0 -> the record has on-demand $40 and no spot price
                             "g6.xlarge,L4,1.0,4.0,16.0,,40.0,0,us-west-2,usw2-az1\n"
                             // line 5: only $0 -> no on-demand price anywhere: no record (noted)
                             "g5.xlarge,A10G,1.0,4.0,16.0,,0,,eu-west-1,euw1-az1\n"
                             // lines 6, 7: NaN price, NaN GPU count -> dropped
                             "p4d.24xlarge,A100,8.0,96.0,1152.0,,nan,,us-east-1,use1-az1\n"
                             "p4de.24xlarge,A100,NaN,96.0,1152.0,,40.0,,us-east-1,use1-az1\n");
  const SkypilotImport imported = import_skypilot({aws.string()}, {"2025-06-01", ""});
  CHECK(imported.rows_read == 6);
  CHECK(imported.zero_price_rows == 3);  // lines 2, 4 and 5
  CHECK(imported.nan_rows == 2);         // lines 6 and 7
  const Json& records = imported.catalog.at("records");
  REQUIRE(records.size() == 2);
  for (const Json& r : records) {
    CHECK(r.at("on_demand_usd_per_hour").get<double>() > 0.0);
    if (r.contains("spot_usd_per_hour")) CHECK(r.at("spot_usd_per_hour").get<double>() > 0.0);
  }
  const Json* p5 = record(imported, "aws/p5.48xlarge/us-east-1");
  REQUIRE(p5 != nullptr);
  CHECK(p5->at("on_demand_usd_per_hour").get<double>() == 98.32);
  CHECK(p5->at("spot_usd_per_hour").get<double>() == 30.0);
  const Json* l4 = record(imported, "aws/g6.xlarge/us-west-2");
  REQUIRE(l4 != nullptr);
  CHECK_FALSE(l4->contains("spot_usd_per_hour"));
  CHECK(record(imported, "aws/g5.xlarge/eu-west-1") == nullptr);
  const Finding* zero = note(imported, "zero-price", "3 rows had a $0 price");
  REQUIRE(zero != nullptr);
  CHECK(zero->where == "lines 2, 4, 5");
  const Finding* nan = note(imported, "nan-price", "2 rows had a NaN price");
  REQUIRE(nan != nullptr);
  CHECK(nan->where == "lines 6, 7");
  for (const Finding& f : imported.notes) {
    INFO(f.code << ": " << f.message);
    CHECK(f.message.find("nan") == std::string::npos);
    CHECK(f.message.find("inf") == std::string::npos);
  }
}

TEST_CASE("skypilot import: malformed rows name the file, line and column") {
  const auto dir = tco::test::scratch_dir("skypilot-malformed");
  // Price column: "p5.48xlarge," (12) + "H100," (5) + "8.0," (4) + "192.0," (6) + "2048.0," (7)
  // + the quoted GpuInfo "\"{'a': 1, 'b': 2}\"," (16 + 2 quotes + comma = 19) = 53 characters
  // before it: column 54.
  const auto bad_price = write(dir / "aws_bad.csv", kAwsHeader + "\n" +
                                                        "p5.48xlarge,H100,8.0,192.0,2048.0,\"{'a': 1, 'b': 2}\",98.32,,us-east-1,a\n"
                                                        "p5.48xlarge,H100,8.0,192.0,2048.0,\"{'a': 1, 'b': 2}\",abc,,us-east-1,b\n");
  try {
    import_skypilot({bad_price.string()}, {"2025-06-01", ""});
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == bad_price.string());
    CHECK(e.where() == "line 3, column 54");
    CHECK(std::string(e.what()).find("in column Price, found \"abc\"") != std::string::npos);
  }
  const auto short_row = write(dir / "aws_short.csv", kAwsHeader + "\np5.48xlarge,H100,8.0,192.0\n");
  try {
    import_skypilot({short_row.string()}, {"2025-06-01", ""});
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.where() == "line 2, column 27");  // 26 characters: the end of the line
    CHECK(std::string(e.what()).find("expected 10 fields (as in the header), found 4") != std::string::npos);
  }
  const auto no_region_column = write(dir / "aws_header.csv", "InstanceType,AcceleratorName\n");
  CHECK_THROWS_AS(import_skypilot({no_region_column.string()}, {"2025-06-01", ""}), InputError);
  // No "<provider>_" prefix and not in a provider folder: the cloud is unknown.
  const auto unnamed = write(dir / "prices.csv", kAwsHeader + "\n");
  CHECK_THROWS_AS(import_skypilot({unnamed.string()}, {"2025-06-01", ""}), InputError);
  // The CSVs carry no date: as_of is required and must be a date.
  CHECK_THROWS_AS(import_skypilot({bad_price.string()}, {"", ""}), InputError);
  CHECK_THROWS_AS(import_skypilot({bad_price.string()}, {"June 2025", ""}), InputError);
}

TEST_CASE("skypilot import: gpu ids") {
  CHECK(skypilot_gpu_id("aws", "p5.48xlarge", "H100") == "h100-sxm-80gb");
  CHECK(skypilot_gpu_id("gcp", "a2-ultragpu-8g", "A100-80GB") == "a100-sxm-80gb");
  CHECK(skypilot_gpu_id("aws", "p3.2xlarge", "V100") == "v100-sxm-16gb");
  CHECK(skypilot_gpu_id("lambda", "gpu_1x_a6000", "A6000") == "rtx-a6000");
  CHECK(skypilot_gpu_id("gcp", "a4-highgpu-8g", "B200") == "b200");
  CHECK(skypilot_gpu_id("lambda", "gpu_1x_h100_pcie", "H100") == "h100-pcie-80gb");
  CHECK(skypilot_gpu_id("runpod", "8x_A100-80GB_SECURE", "A100-80GB") == "a100-pcie-80gb");
  CHECK(skypilot_gpu_id("runpod", "8x_H100-SXM_SECURE", "H100-SXM") == "h100-sxm-80gb");
  bool known = true;
  CHECK(skypilot_gpu_id("aws", "x", "MI300X", &known) == "mi300x");
  CHECK_FALSE(known);
}
