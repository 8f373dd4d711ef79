// The on-prem section's "financing" (cash, loan, lease) and "depreciation.tax" (MACRS, bonus,
// section 179) objects.
#pragma once

#include "core/io/json_reader.hpp"
#include "models/finance/depreciation.hpp"
#include "models/finance/financing.hpp"

namespace tco {

Financing parse_financing(JsonObjectReader& r);
TaxDepreciationSpec parse_tax_depreciation(JsonObjectReader& r);

}  // namespace tco
