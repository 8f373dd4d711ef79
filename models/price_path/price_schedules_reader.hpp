// A cloud section's "price_schedule": dated prices per kind (on_demand, spot, reserved), each
// per GPU-hour of the offer's instance (models/price_path/price_schedule.hpp).
#pragma once

#include "core/calendar.hpp"
#include "core/io/json_reader.hpp"
#include "models/catalog/records.hpp"
#include "models/price_path/price_schedule.hpp"

namespace tco {

CloudPriceSchedules parse_price_schedules(JsonObjectReader& r, const CloudOffer& offer, const Date& start);

}  // namespace tco
