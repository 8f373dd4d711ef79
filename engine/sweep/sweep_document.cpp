// The sweep document (engine/sweep/sweep_run.hpp): a point's statistics as JSON, the identity
// that the shards of one sweep share, the merge of shard documents, and the text and CSV written.
#include "engine/sweep/sweep_run.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/finite_figures.hpp"
#include "core/stats/statistics.hpp"
#include "engine/sweep/sweep_shard_check.hpp"

namespace tco {

namespace {

Json stats_json(double mean, double stderr_, long n, const Summary& s) {
  const double half = n > 1 ? student_t_975(n - 1) * stderr_ : 0.0;
  return {{"mean", mean}, {"stderr", stderr_}, {"ci95", {mean - half, mean + half}},
          {"p5", s.p5},   {"p50", s.p50},      {"p95", s.p95},
          {"cvar95", s.cvar95}};
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_number(const Json& value) {
  if (value.is_null()) return "";
  if (value.is_number_float()) return fmt::format("{}", value.get<double>());
  return value.dump();
}

}  // namespace

Json sweep_document_identity(const Json& doc) {
  if (!doc.is_object()) return doc;  // not a sweep document: its callers say so
  Json id = doc;
  id.erase("schema");
  id.erase("shard");
  id.erase("points");
  return id;
}

Json sweep_point_json(const SweepInputs& in, const SweepPointValues& v) {
  const int plans = static_cast<int>(v.npv_usd.size());
  const int baseline = in.base.baseline_index;
  Json list = Json::array();
  int best = 0;
  std::vector<double> means(plans);
  for (int j = 0; j < plans; ++j) {
    const Summary npv = summarize(v.npv_usd[j]);
    means[j] = v.device ? v.device->npv_mean_usd[j] : npv.mean;
    const double npv_se = v.device ? v.device->npv_stderr_usd[j] : npv.stderr_;
    const double total_mean = mean_of(v.total_usd[j]);
    Json plan = {{"name", in.base.plans[j].name},
                 {"deterministic_npv_usd", v.deterministic_npv_usd[j]},
                 {"npv_usd", stats_json(means[j], npv_se, npv.n, npv)},
                 {"total_usd", {{"mean", total_mean}}}};
    if (j != baseline) {
      std::vector<double> saving(v.npv_usd[j].size());
      for (std::size_t k = 0; k < saving.size(); ++k) saving[k] = v.npv_usd[baseline][k] - v.npv_usd[j][k];
      const Summary s = summarize(saving, WorstTail::low);  // the worst savings are the lowest
      const double mean = v.device ? v.device->saving_mean_usd[j] : s.mean;
      const double se = v.device ? v.device->saving_stderr_usd[j] : s.stderr_;
      Json saving_json = stats_json(mean, se, s.n, s);
      long positive = 0;
      for (double x : saving) positive += x > 0.0 ? 1 : 0;
      saving_json["probability_positive"] = static_cast<double>(positive) / static_cast<double>(saving.size());
      plan["saving_vs_baseline_usd"] = saving_json;
    }
    list.push_back(plan);
    if (means[j] < means[best]) best = j;
  }
  return {{"index", v.index},
          {"values", in.grid.values_json(v.grid_values)},
          {"plans", list},
          {"best_plan", in.base.plans[best].name}};
}

Json sweep_identity(const SweepInputs& in) {
  Json plans = Json::array();
  for (const auto& p : in.base.plans) plans.push_back(p.name);
  return {{"tool", {{"name", "tcosim"}, {"version", TCO_VERSION}}},
          {"scenario",
           {{"name", in.base.name},
            {"digest_sha256", in.scenario_digest_sha256},
            {"catalog_digest_sha256", in.base.catalog_digest_sha256}}},
          {"grid", in.grid.to_json()},
          {"monte_carlo", {{"seed", in.seed}, {"paths", in.paths}}},
          {"plans", plans},
          {"baseline", in.base.plans[in.base.baseline_index].name}};
}

Json merge_sweep_shards(const std::vector<std::pair<std::string, Json>>& shards) {
  if (shards.empty()) throw InputError("", "", "expected at least one shard to merge");
  struct Piece {
    std::string file;
    long first;
    long end;
    const Json* points;
  };
  std::vector<Piece> pieces;
  for (const auto& [file, doc] : shards) check_sweep_shard(file, doc, kSweepShardSchema);
  const std::string& first_file = shards.front().first;
  const Json identity = sweep_document_identity(shards.front().second);
  for (const auto& [file, doc] : shards) {
    const Json id = sweep_document_identity(doc);
    for (const auto& key : {"tool", "scenario", "grid", "monte_carlo", "plans", "baseline"}) {
      if (id.value(key, Json()) != identity.value(key, Json()))
        throw InputError(file, std::string("/") + key,
                         fmt::format("this shard does not belong with {}: its \"{}\" differs (another scenario, grid, "
                                     "catalog, seed, number of paths or tool version)",
                                     first_file, key));
    }
    if (id != identity)
      throw InputError(file, "", fmt::format("this shard does not belong with {}: its header differs", first_file));
    const Json& s = doc.value("shard", Json());
    if (!s.is_object() || !s.contains("first_point") || !s.contains("end_point") || !s["first_point"].is_number_integer() ||
        !s["end_point"].is_number_integer() || !doc.contains("points") || !doc["points"].is_array())
      throw InputError(file, "/shard", "expected the shard's point range and its points");
    const long first = s["first_point"].get<long>();
    const long end = s["end_point"].get<long>();
    if (end < first || static_cast<long>(doc["points"].size()) != end - first)
      throw InputError(file, "/points",
                       fmt::format("expected {} points for the range {}-{}, found {}", end - first, first, end,
                                   doc["points"].size()));
    pieces.push_back({file, first, end, &doc["points"]});
  }
  std::stable_sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.first < b.first; });
  const long total = identity.at("grid").at("points").get<long>();
  long expected = 0;
  const Piece* previous = nullptr;
  for (const auto& p : pieces) {
    if (p.first < expected)
      throw InputError(p.file, "/shard",
                       fmt::format("its points {}-{} overlap {}'s points {}-{}", p.first, p.end, previous->file,
                                   previous->first, previous->end));
    if (p.first > expected)
      throw InputError(p.file, "/shard",
                       fmt::format("points {}-{} are in no shard given (this shard starts at point {})", expected,
                                   p.first, p.first));
    expected = p.end;
    previous = &p;
  }
  if (expected != total)
    throw InputError(pieces.back().file, "/shard",
                     fmt::format("points {}-{} of the grid's {} are in no shard given", expected, total, total));
  Json points = Json::array();
  for (const auto& p : pieces)
    for (const auto& point : *p.points) points.push_back(point);
  Json out = identity;
  out["schema"] = kSweepSchema;
  out["points"] = std::move(points);
  return out;
}

std::string sweep_text(const Json& document) { return document.dump(2) + "\n"; }

std::string sweep_csv(const Json& doc) {
  std::string out = "point";
  const Json& fields = doc.at("grid").at("fields");
  for (const auto& f : fields) {
    out += ',';
    out += csv_field(f.at("pointer").get<std::string>());
  }
  out +=
      ",plan,deterministic_npv_usd,npv_mean_usd,npv_stderr_usd,npv_p5_usd,npv_p50_usd,npv_p95_usd,npv_cvar95_usd,"
      "total_mean_usd,saving_mean_usd,saving_stderr_usd,saving_p5_usd,saving_p50_usd,saving_p95_usd,saving_cvar95_usd,"
      "probability_saving,best_plan\n";
  for (const auto& point : doc.at("points")) {
    std::string prefix = csv_number(point.at("index"));
    for (const auto& v : point.at("values")) {
      prefix += ',';
      prefix += csv_number(v);
    }
    for (const auto& plan : point.at("plans")) {
      const Json& npv = plan.at("npv_usd");
      const Json none;
      const Json& saving = plan.contains("saving_vs_baseline_usd") ? plan.at("saving_vs_baseline_usd") : none;
      auto s = [&](const char* key) { return saving.is_null() ? std::string() : csv_number(saving.at(key)); };
      out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", prefix,
                         csv_field(plan.at("name").get<std::string>()), csv_number(plan.at("deterministic_npv_usd")),
                         csv_number(npv.at("mean")), csv_number(npv.at("stderr")), csv_number(npv.at("p5")),
                         csv_number(npv.at("p50")), csv_number(npv.at("p95")), csv_number(npv.at("cvar95")),
                         csv_number(plan.at("total_usd").at("mean")), s("mean"), s("stderr"), s("p5"), s("p50"),
                         s("p95"), s("cvar95"), s("probability_positive"),
                         csv_field(point.at("best_plan").get<std::string>()));
    }
  }
  return out;
}

}  // namespace tco
