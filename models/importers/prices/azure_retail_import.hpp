// `tcosim pricing import --format azure-retail`: pages of the Azure Retail Prices API
// (https://prices.azure.com/api/retail/prices?$filter=..., {"BillingCurrency", "Items": [...],
// "NextPageLink", "Count"}) into cloud_offer records, one per (armSkuName, armRegionName) of the
// GPU VM sizes in the table of the .cpp (ND/NC H100, H200, A100, MI300X...).
//   kept items: serviceName "Virtual Machines", currencyCode USD, unitOfMeasure "1 Hour", not a
//               Windows product, not Low Priority; anything else is dropped and counted.
//   type Consumption             -> on_demand_usd_per_hour = retailPrice
//                  (meterName/skuName "... Spot") -> spot_usd_per_hour = retailPrice
//   type Reservation             -> the price of the whole term: reserved_1y_usd_per_hour =
//                  retailPrice / 8,760 h ("1 Year"), reserved_3y = retailPrice / 26,280 h ("3 Years")
//   type DevTestConsumption      -> dropped: Dev/Test rates are for Visual Studio subscribers'
//                  non-production use, not a price a production fleet can pay
//   as_of                        = --as-of when given (the day the pages were downloaded), else
//                  the newest effectiveStartDate of the items read (the prices are in force
//                  since then: a lower bound on their date)
// Example: Standard_ND96isr_H100_v5 Reservation "3 Years" at $X: X / 26,280 $/h.
// A malformed page (bad JSON, no Items array, a price that is not a number, a field of the
// wrong type) is an InputError naming the file and the JSON pointer.
#pragma once

#include <string>
#include <vector>

#include "models/importers/prices/price_list_import.hpp"

namespace tco {

struct AzureRetailOptions {
  std::string as_of;        // YYYY-MM-DD; empty: the newest effectiveStartDate
  std::string source_note;  // appended to each record's source
};

PriceListImport import_azure_retail(const std::vector<std::string>& paths, const AzureRetailOptions& options);

// The catalog gpu id and GPU count of an Azure GPU VM size ("Standard_ND96isr_H100_v5" or
// "ND96isr_H100_v5" -> h100-sxm-80gb x8); an empty id when the size is not in the table.
struct AzureGpuSize {
  std::string gpu_id;
  int gpus = 0;
};
AzureGpuSize azure_gpu_of_size(const std::string& arm_sku_name);

}  // namespace tco
