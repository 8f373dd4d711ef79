// The scenario's `uncertain` section (docs/scenario.md, docs/decisions.md): inputs whose value
// is not known, each a numeric field of the scenario document named by JSON pointer (as in a
// sweep grid) with a distribution, and an optional rank correlation between them.
//   uniform(low, high)            x = low + u (high - low)
//   triangular(low, mode, high)   x = low + sqrt(u (high - low)(mode - low))        u <  F(mode)
//                                 x = high - sqrt((1 - u)(high - low)(high - mode)) u >= F(mode)
//                                 F(mode) = (mode - low) / (high - low)
//   normal(mean, sd)              x = mean + sd Phi^-1(u)
//   lognormal(median, sigma)      x = median exp(sigma Phi^-1(u))
// u is an open-interval uniform (core/random/random.hpp); Phi^-1 is our own (Wichura AS 241), so the
// draws are the same bits with any standard library. The tornado's low and high default to the
// distribution's P10 and P90: for uniform(0, 10) they are 1 and 9; for normal(5, 2),
// 5 -/+ 1.2816 x 2 = 2.437 and 7.563.
// An integer field (a node count) takes the drawn value rounded to the nearest integer.
#pragma once

#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco {

struct UncertainDistribution {
  enum class Type { uniform, triangular, normal, lognormal };
  Type type = Type::uniform;
  // uniform: low, high; triangular: low, mode, high; normal: mean, sd; lognormal: median, sigma.
  double low = 0.0;
  double mode = 0.0;
  double high = 0.0;
  double mean = 0.0;
  double sd = 0.0;
  double median = 1.0;
  double sigma = 0.0;

  // The value at cumulative probability u in (0, 1).
  double quantile(double u) const;
  bool operator==(const UncertainDistribution&) const = default;
};

std::string to_string(UncertainDistribution::Type type);

struct UncertainInput {
  std::string name;
  std::string pointer;       // into the scenario document
  UncertainDistribution distribution;
  double low = 0.0;          // the tornado's low and high values (default: P10 and P90)
  double high = 0.0;
  double base = 0.0;         // the value the scenario document writes
  bool integer = false;      // the target is an integer field: values are rounded

  // A drawn or given value as it is written into the document (rounded for an integer field).
  double as_written(double value) const;
};

struct UncertainSpec {
  std::vector<UncertainInput> inputs;
  // Target Spearman rank correlation, inputs x inputs in input order; empty: independent.
  std::vector<std::vector<double>> rank_correlation;
};

// Parses the section (the reader is on "/uncertain") against the scenario document it varies.
// Throws InputError naming the pointer: a pointer that does not exist in the document, a target
// that is not a number, a pointer into /uncertain or at /monte_carlo/seed or /monte_carlo/paths,
// the same pointer twice, low > high (of the input or of its distribution), a mode outside
// [low, high], a negative sd or sigma, a median <= 0, a correlation matrix that is not square in
// the number of inputs, not symmetric, not 1 on the diagonal, outside [-1, 1], or not positive
// definite.
UncertainSpec parse_uncertain(const Json& section, const std::string& file, const Json& document);

// The document with the values (one per input, in input order) written in.
Json document_with_values(const Json& document, const UncertainSpec& spec, const std::vector<double>& values);

// The section as the report records it.
Json to_json(const UncertainSpec& spec);

}  // namespace tco
