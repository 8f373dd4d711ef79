// Every figure a command writes is a finite number: JSON has no inf or NaN (nlohmann would
// write null), and a CSV or a table would show "inf", "nan" or "$0". A non-finite figure comes
// from inputs whose products leave the range of a double (a price of 1e308), so it is bad input.
#pragma once

#include <string>

#include "core/io/json_reader.hpp"

namespace tco {

// Throws InputError naming `blamed_file` and the pointer of the first non-finite number in
// `document` when `blamed_file` is not empty, else std::logic_error (an internal error).
void require_finite_figures(const Json& document, const std::string& blamed_file);

}  // namespace tco
