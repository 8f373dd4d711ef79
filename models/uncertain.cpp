#include "models/uncertain.hpp"

#include <cmath>
#include <cstdint>
#include <set>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/integer_fields.hpp"
#include "core/io/json_pointer.hpp"
#include "core/random/random.hpp"

namespace tco {

namespace {

constexpr double kSymmetryTolerance = 1e-12;

UncertainDistribution parse_distribution(JsonObjectReader& r, const std::string& target) {
  UncertainDistribution d;
  const std::string type = r.choice("type", {"uniform", "triangular", "normal", "lognormal"});
  auto low_high = [&](bool with_mode) {
    d.low = r.number("low");
    if (with_mode) d.mode = r.number("mode");
    d.high = r.number("high");
    if (d.low > d.high)
      throw InputError(r.file(), r.pointer_of("low"),
                       fmt::format("expected low <= high for \"{}\", found low {} > high {}", target, d.low, d.high));
    if (with_mode && (d.mode < d.low || d.mode > d.high))
      throw InputError(r.file(), r.pointer_of("mode"),
                       fmt::format("expected a mode in [low, high] = [{}, {}] for \"{}\", found {}", d.low, d.high,
                                   target, d.mode));
  };
  if (type == "uniform") {
    d.type = UncertainDistribution::Type::uniform;
    low_high(false);
  } else if (type == "triangular") {
    d.type = UncertainDistribution::Type::triangular;
    low_high(true);
  } else if (type == "normal") {
    d.type = UncertainDistribution::Type::normal;
    d.mean = r.number("mean");
    d.sd = r.number("sd", Bounds::non_negative());
  } else {
    d.type = UncertainDistribution::Type::lognormal;
    d.median = r.number("median", Bounds::positive());
    d.sigma = r.number("sigma", Bounds::non_negative());
  }
  r.finish();
  return d;
}

void check_correlation(const Json& value, const std::string& file, const std::string& pointer, std::size_t inputs,
                       std::vector<std::vector<double>>& out) {
  const std::string shape = fmt::format("a {} x {} matrix (a list of {} rows of {} numbers, in input order)", inputs,
                                        inputs, inputs, inputs);
  if (!value.is_array() || value.size() != inputs)
    throw InputError(file, pointer, "expected " + shape + ", found " + describe_json(value));
  out.assign(inputs, std::vector<double>(inputs));
  for (std::size_t i = 0; i < inputs; ++i) {
    const std::string row = pointer + "/" + std::to_string(i);
    if (!value[i].is_array() || value[i].size() != inputs)
      throw InputError(file, row, "expected a row of " + std::to_string(inputs) + " numbers, found " + describe_json(value[i]));
    for (std::size_t j = 0; j < inputs; ++j) {
      const Json& x = value[i][j];
      const std::string cell = row + "/" + std::to_string(j);
      if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < -1.0 || x.get<double>() > 1.0)
        throw InputError(file, cell, "expected a rank correlation in [-1, 1], found " + describe_json(x));
      out[i][j] = x.get<double>();
    }
  }
  for (std::size_t i = 0; i < inputs; ++i) {
    if (out[i][i] != 1.0)
      throw InputError(file, fmt::format("{}/{}/{}", pointer, i, i),
                       fmt::format("expected 1 on the diagonal (an input's correlation with itself), found {}", out[i][i]));
    for (std::size_t j = 0; j < i; ++j)
      if (std::fabs(out[i][j] - out[j][i]) > kSymmetryTolerance)
        throw InputError(file, fmt::format("{}/{}/{}", pointer, i, j),
                         fmt::format("expected a symmetric matrix: [{}][{}] = {} but [{}][{}] = {}", i, j, out[i][j], j,
                                     i, out[j][i]));
  }
  Eigen::MatrixXd m(inputs, inputs);
  for (std::size_t i = 0; i < inputs; ++i)
    for (std::size_t j = 0; j < inputs; ++j) m(i, j) = out[i][j];
  const Eigen::LLT<Eigen::MatrixXd> llt(m);
  if (llt.info() != Eigen::Success)
    throw InputError(file, pointer,
                     "expected a positive-definite correlation matrix (no set of inputs can have these pairwise "
                     "correlations together: e.g. a and b at +0.9, b and c at +0.9, a and c at -0.9), found one that "
                     "is not; lower the largest correlations");
}

}  // namespace

double UncertainDistribution::quantile(double u) const {
  switch (type) {
    case Type::uniform: return low + u * (high - low);
    case Type::triangular: {
      const double width = high - low;
      if (width <= 0.0) return low;
      const double f_mode = (mode - low) / width;
      if (u < f_mode) return low + std::sqrt(u * width * (mode - low));
      return high - std::sqrt((1.0 - u) * width * (high - mode));
    }
    case Type::normal: return mean + sd * normal_quantile(u);
    case Type::lognormal: return lognormal_quantile(u, median, sigma);
  }
  return 0.0;
}

std::string to_string(UncertainDistribution::Type type) {
  switch (type) {
    case UncertainDistribution::Type::uniform: return "uniform";
    case UncertainDistribution::Type::triangular: return "triangular";
    case UncertainDistribution::Type::normal: return "normal";
    case UncertainDistribution::Type::lognormal: return "lognormal";
  }
  return "?";
}

double UncertainInput::as_written(double value) const { return integer ? std::nearbyint(value) : value; }

UncertainSpec parse_uncertain(const Json& section, const std::string& file, const Json& document) {
  // The scenario's integer fields, as load_scenario_json's reader read them before this section
  // (issue 43, item 7: `"waiting_usd_per_gpu_hour": 1` is a real number, its draws not rounded).
  const std::set<std::string>* integer_pointers = IntegerFieldRecorder::current();
  UncertainSpec spec;
  JsonObjectReader r(section, file, "/uncertain");
  const Json& inputs = r.value("inputs");
  if (!inputs.is_array() || inputs.empty())
    r.fail("inputs", "a non-empty list of uncertain inputs ({\"name\", \"pointer\", \"distribution\"})", &inputs);
  std::set<std::string> pointers, names;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    JsonObjectReader ir(inputs[i], file, "/uncertain/inputs/" + std::to_string(i));
    UncertainInput in;
    in.name = ir.string("name");
    if (in.name.empty()) ir.fail("name", "a non-empty name (it labels the tornado's bar)", &ir.value("name"));
    if (!names.insert(in.name).second)
      throw InputError(file, ir.pointer_of("name"), fmt::format("expected a unique input name, found \"{}\" twice", in.name));
    in.pointer = ir.string("pointer");
    const std::string where = ir.pointer_of("pointer");
    if (in.pointer.empty() || in.pointer.front() != '/')
      throw InputError(file, where,
                       fmt::format("expected a JSON pointer such as \"/cloud/price_change_per_year\", found \"{}\"",
                                   in.pointer));
    if (in.pointer == "/uncertain" || in.pointer.rfind("/uncertain/", 0) == 0 || in.pointer == "/monte_carlo/seed" ||
        in.pointer == "/monte_carlo/paths")
      throw InputError(file, where,
                       fmt::format("\"{}\" cannot be uncertain: it sets up the analysis itself", in.pointer));
    const Json* target = find_pointer(document, in.pointer);
    if (!target)
      throw InputError(file, where,
                       fmt::format("\"{}\" does not exist in the scenario: an uncertain input can only vary a field "
                                   "the scenario file writes (write its base value there first)",
                                   in.pointer));
    if (!target->is_number())
      throw InputError(file, where,
                       fmt::format("\"{}\" is not a numeric field of the scenario: found {}", in.pointer,
                                   describe_json(*target)));
    if (!pointers.insert(in.pointer).second)
      throw InputError(file, where, fmt::format("\"{}\" is named by two uncertain inputs", in.pointer));
    in.integer = integer_pointers ? integer_pointers->count(in.pointer) > 0 : target->is_number_integer();
    in.base = target->get<double>();
    JsonObjectReader dr = ir.object("distribution");
    in.distribution = parse_distribution(dr, in.pointer);
    in.low = in.as_written(ir.number_or("low", in.distribution.quantile(0.1)));
    in.high = in.as_written(ir.number_or("high", in.distribution.quantile(0.9)));
    if (in.low > in.high)
      throw InputError(file, ir.pointer_of("low"),
                       fmt::format("expected the tornado's low <= high for \"{}\", found low {} > high {}", in.pointer,
                                   in.low, in.high));
    ir.finish();
    spec.inputs.push_back(std::move(in));
  }
  if (r.has("rank_correlation"))
    check_correlation(r.value("rank_correlation"), file, "/uncertain/rank_correlation", spec.inputs.size(),
                      spec.rank_correlation);
  r.finish();
  return spec;
}

Json document_with_values(const Json& document, const UncertainSpec& spec, const std::vector<double>& values) {
  Json doc = document;
  for (std::size_t i = 0; i < spec.inputs.size() && i < values.size(); ++i) {
    const UncertainInput& in = spec.inputs[i];
    Json& target = doc.at(Json::json_pointer(in.pointer));
    if (in.integer)
      target = static_cast<std::int64_t>(in.as_written(values[i]));
    else
      target = values[i];
  }
  return doc;
}

Json to_json(const UncertainSpec& spec) {
  Json inputs = Json::array();
  for (const auto& in : spec.inputs) {
    const auto& d = in.distribution;
    Json dist = {{"type", to_string(d.type)}};
    switch (d.type) {
      case UncertainDistribution::Type::uniform: dist["low"] = d.low; dist["high"] = d.high; break;
      case UncertainDistribution::Type::triangular:
        dist["low"] = d.low; dist["mode"] = d.mode; dist["high"] = d.high;
        break;
      case UncertainDistribution::Type::normal: dist["mean"] = d.mean; dist["sd"] = d.sd; break;
      case UncertainDistribution::Type::lognormal: dist["median"] = d.median; dist["sigma"] = d.sigma; break;
    }
    inputs.push_back({{"name", in.name}, {"pointer", in.pointer}, {"distribution", dist}, {"base", in.base},
                      {"low", in.low}, {"high", in.high}, {"integer", in.integer}});
  }
  return {{"inputs", inputs},
          {"rank_correlation", spec.rank_correlation.empty() ? Json(nullptr) : Json(spec.rank_correlation)}};
}

}  // namespace tco
