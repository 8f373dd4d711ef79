// The Markdown summary's commitments section: per plan with `commitments`, one row per instrument
// with its committed, used and unused dollars, and GPU-hours (n/a where several rates apply). Empty
// when no plan has one, so other summaries keep their bytes.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string commitments_markdown(const Json& report);

// Whole GPU-hours grouped in thousands: "86,016"; null: "n/a".
std::string format_gpu_hours(const Json& value);

}  // namespace tco
