// The Markdown summary's refresh section: per plan with `refresh`, one row with the successor, its
// nodes, the refresh month and the money at it (the deterministic run's). Empty when no plan has
// one, so other summaries keep their bytes.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

std::string refresh_markdown(const Json& report);

// A plan's `refresh` month in words: "8", or "not inside the horizon (month 63)" for a refresh
// month at or past the horizon's end (no refresh happens).
std::string refresh_month_words(const Json& refresh);

// A refresh figure in USD, or "-" when the refresh is not inside the horizon (nothing is paid).
std::string refresh_usd_words(const Json& refresh, const char* key);

}  // namespace tco
