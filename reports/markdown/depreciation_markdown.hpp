// The Markdown summary's depreciation section: per owned plan with `depreciation_views`, one
// table by year with the book, tax and economic views side by side; empty when no plan has them.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

std::string depreciation_markdown(const Json& report);

// One plan's `depreciation_views` by year, shared with the HTML page: the years any view has,
// and year k's cells (k from 0): book depreciation, book value after, tax deduction, tax basis
// after, economic depreciation, resale value after ("-" past a view's last year).
std::size_t depreciation_years(const Json& views);
std::vector<std::string> depreciation_year_cells(const Json& views, std::size_t k);

}  // namespace tco
