// `tcosim pricing import --format aws-price-list`: the AWS Price List API's regional EC2 offer
// file (https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/current/<region>/
// index.json, or the same file as index.csv) into cloud_offer records, one per (instance type,
// regionCode) of the GPU instance families.
//   kept products: productFamily "Compute Instance", a GPU family of the table in the .cpp
//                  (p3, p4d, p5, g5, g6e...), operatingSystem Linux, tenancy Shared,
//                  preInstalledSw NA, capacitystatus Used, licenseModel "No License required",
//                  a regionCode, a USD price; anything else is dropped and counted by reason.
//   on_demand_usd_per_hour   = the OnDemand term's "Hrs" price
//   reserved_1y/3y_usd_per_hour = the chosen Reserved term (default standard, No Upfront) of
//                  LeaseContractLength 1yr/3yr: upfront ("Quantity") / (8,760 h x years) + "Hrs"
//                  price. The catalog holds one reserved price per length: the other terms
//                  (partial/all upfront, convertible) are counted as not carried.
//   gpus_per_instance = the "gpu" attribute, checked against the known instance table
//   as_of          = the file's publicationDate (its date part)
// Example: p5.48xlarge, 3yr standard All Upfront, upfront $X and $0/h: X / 26,280 $/h.
// A malformed file (bad JSON, a field of the wrong type, a price that is not a number, no
// publicationDate) is an InputError naming the file and the JSON pointer or CSV line.
#pragma once

#include <string>
#include <vector>

#include "models/importers/prices/price_list_import.hpp"

namespace tco {

struct AwsPriceListOptions {
  // The Reserved term carried as reserved_1y/3y: OfferingClass and PurchaseOption as the file
  // spells them.
  std::string reserved_offering_class = "standard";   // standard | convertible
  std::string reserved_purchase_option = "No Upfront";  // No Upfront | Partial Upfront | All Upfront
  std::string source_note;  // appended to each record's source
};

// Reads each file (JSON or CSV, told apart by its first character) as one regional offer file.
PriceListImport import_aws_price_list(const std::vector<std::string>& paths, const AwsPriceListOptions& options);

// The catalog gpu id and count of an EC2 GPU instance type ("p5.48xlarge" -> h100-sxm-80gb);
// empty `gpu_id` when the family is not a GPU family of the table.
struct AwsGpuInstance {
  std::string gpu_id;
  bool known_gpu_id = true;  // false: the accelerator has no catalog gpu id (kept lowercase)
};
AwsGpuInstance aws_gpu_of_instance_type(const std::string& instance_type);

}  // namespace tco
