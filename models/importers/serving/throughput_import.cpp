#include "models/importers/serving/throughput_import.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "core/calendar.hpp"
#include "core/error.hpp"
#include "models/input_limits.hpp"
#include "models/serving/serving_profile.hpp"

namespace tco {

namespace {

constexpr double kMsPerSecond = 1000.0;

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The fields of one row, read with their pointers: a field of the wrong type is an InputError.
class BenchmarkRow {
 public:
  BenchmarkRow(const Json& row, std::string file, std::string pointer)
      : row_(row), file_(std::move(file)), pointer_(std::move(pointer)) {
    if (!row_.is_object()) throw InputError(file_, pointer_, "expected a result object, found " + describe_json(row_));
  }
  std::string where(std::string_view key) const { return pointer_join(pointer_, key); }
  const std::string& pointer() const { return pointer_; }
  const std::string& file() const { return file_; }
  const Json& json() const { return row_; }

  // A number, or nullopt when the key is missing or null.
  std::optional<double> number(const Json& object, const std::string& pointer, std::string_view key) const {
    const auto it = object.find(std::string(key));
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_number()) throw InputError(file_, pointer_join(pointer, key), "expected a number, found " + describe_json(*it));
    return it->get<double>();
  }
  std::optional<double> number(std::string_view key) const { return number(row_, pointer_, key); }
  std::string text(std::string_view key) const {
    const auto it = row_.find(std::string(key));
    if (it == row_.end() || !it->is_string())
      throw InputError(file_, where(key),
                       "expected a string, found " + (it == row_.end() ? std::string("nothing") : describe_json(*it)));
    return it->get<std::string>();
  }
  bool flag(std::string_view key) const {
    const auto it = row_.find(std::string(key));
    if (it == row_.end() || it->is_null()) return false;
    if (!it->is_boolean()) throw InputError(file_, where(key), "expected true or false, found " + describe_json(*it));
    return it->get<bool>();
  }
  // An integer count, or nullopt when missing or null.
  std::optional<long> count(std::string_view key) const {
    const std::optional<double> value = number(key);
    if (!value) return std::nullopt;
    if (*value != std::floor(*value) || std::abs(*value) > 1e9)
      throw InputError(file_, where(key), fmt::format("expected a whole number, found {}", *value));
    return static_cast<long>(*value);
  }

 private:
  const Json& row_;
  std::string file_;
  std::string pointer_;
};

bool usable(const std::optional<double>& value) { return value && std::isfinite(*value) && *value > 0.0; }

bool within_record_bounds(const ServingProfile& shape, const ServingPoint& point);

// The profiles being built, by id, with the dates of their rows.
class ProfileSet {
 public:
  ProfileSet(ThroughputImport& out, const ThroughputImportOptions& options) : out_(out), options_(options) {}

  // The catalog gpu id of `name`, or "" after counting the row as dropped (--drop-unknown-gpus).
  std::string gpu_of(const std::string& name, const BenchmarkRow& row, std::string_view key) {
    return gpu_of(name, match_gpu_id(name, options_), row, key);
  }
  // The same, with `id` already matched ("" when none).
  std::string gpu_of(const std::string& name, const std::string& id, const BenchmarkRow& row, std::string_view key) {
    if (!id.empty()) return id;
    if (options_.drop_unknown_gpus) {
      out_.dropped.add("a GPU not in the catalog", row.where(key));
      return "";
    }
    std::string known;
    for (const std::string& k : options_.catalog_gpu_ids) known += (known.empty() ? "" : ", ") + k;
    throw InputError(row.file(), row.where(key),
                     fmt::format("GPU \"{}\" is not a gpu id of the catalog (known: {}): name it with --gpu-map "
                                 "{}=ID, or leave its rows out with --drop-unknown-gpus",
                                 name, known.empty() ? "none" : known, name));
  }

  // Adds a point to the profile `id` (created from `shape` the first time); a concurrency the
  // profile already has is dropped.
  void add(const std::string& id, const ServingProfile& shape, const ServingPoint& point, const std::string& date,
           const std::string& where) {
    if (!within_record_bounds(shape, point)) {
      out_.dropped.add("a figure outside a serving profile's bounds", where);
      return;
    }
    auto [it, created] = profiles_.try_emplace(id, Entry{shape, 0, {}, {}});
    Entry& entry = it->second;
    if (created) entry.profile.points.clear();
    for (const ServingPoint& p : entry.profile.points)
      if (p.concurrency == point.concurrency) {
        out_.dropped.add("a concurrency already measured for its configuration", where);
        return;
      }
    entry.profile.points.push_back(point);
    ++entry.rows;
    if (!date.empty()) {
      entry.first_date = entry.first_date.empty() ? date : std::min(entry.first_date, date);
      entry.last_date = std::max(entry.last_date, date);
    }
    ++out_.points;
  }

  // The records in id order, points by concurrency; the source names the rows' dates as `date_word`
  // says them: a benchmark's "run" dates, or an MLPerf round's "published" date.
  void write(const std::string& source_head, const std::string& date_word) {
    Json records = Json::array();
    for (auto& [id, entry] : profiles_) {
      ServingProfile& s = entry.profile;
      std::stable_sort(s.points.begin(), s.points.end(),
                       [](const ServingPoint& a, const ServingPoint& b) { return a.concurrency < b.concurrency; });
      s.provenance.as_of = entry.last_date;
      s.provenance.source = fmt::format("{}: {} points measured, {} {}{}{}", source_head, entry.rows, date_word,
                                        entry.first_date == entry.last_date ? entry.last_date
                                                                            : entry.first_date + " to " + entry.last_date,
                                        options_.source_note.empty() ? "" : "; ", options_.source_note);
      Json record = Json::object();
      record["id"] = id;
      record.update(serving_profile_json(s));
      records.push_back(std::move(record));
    }
    out_.catalog = Json{{"kind", "serving_profile"}, {"records", std::move(records)}};
  }

 private:
  struct Entry {
    ServingProfile profile;
    long rows = 0;
    std::string first_date, last_date;
  };
  ThroughputImport& out_;
  const ThroughputImportOptions& options_;
  std::map<std::string, Entry> profiles_;
};

// Whether the record's strict parser takes the point (the output must validate): a throughput
// of more than 1e7 tokens/s per GPU or a TPOT of a nanosecond is a unit slip, not a measurement.
bool within_record_bounds(const ServingProfile& shape, const ServingPoint& point) {
  ServingProfile one = shape;
  one.points = {point};
  one.provenance.source = "check";
  one.provenance.as_of = "2000-01-01";
  const Json record = serving_profile_json(one);
  try {
    JsonObjectReader r(record, "", "");
    parse_serving_profile(r, "check");
    return true;
  } catch (const InputError&) {
    return false;
  }
}

// A latency in ms from `ms_key` (ms) or `s_key` (s); a value that is not positive is nullopt
// (the caller drops the row).
std::optional<double> latency_ms(const BenchmarkRow& row, const Json& object, const std::string& pointer,
                                 const std::string& ms_key, const std::string& s_key, bool* bad) {
  std::optional<double> value = row.number(object, pointer, ms_key);
  if (!value) {
    value = row.number(object, pointer, s_key);
    if (value) *value *= kMsPerSecond;
  }
  if (value && !(std::isfinite(*value) && *value > 0.0)) {
    *bad = true;
    return std::nullopt;
  }
  return value;
}

// TTFT and TPOT (median, p90, p99) of an object holding `<stat>_<what>_ms` or `<stat>_<what>` (s).
bool read_latencies(const BenchmarkRow& row, const Json& object, const std::string& pointer, ServingPoint& p) {
  bool bad = false;
  auto get = [&](const char* name) { return latency_ms(row, object, pointer, std::string(name) + "_ms", name, &bad); };
  p.median_ttft_ms = get("median_ttft");
  p.p90_ttft_ms = get("p90_ttft");
  p.p99_ttft_ms = get("p99_ttft");
  p.median_tpot_ms = get("median_tpot");
  p.p90_tpot_ms = get("p90_tpot");
  p.p99_tpot_ms = get("p99_tpot");
  if (p.median_tpot_ms) p.interactivity_tokens_per_s_per_user = interactivity_of_tpot_ms(*p.median_tpot_ms);
  return !bad;
}

std::optional<double> positive_or_null(const std::optional<double>& v) { return usable(v) ? v : std::nullopt; }

// ---- InferenceX ---------------------------------------------------------------------------

void import_inferencex_file(const std::string& path, ProfileSet& set, ThroughputImport& out) {
  const Json doc = read_json_file(path);
  if (!doc.is_array())
    throw InputError(path, "", "expected the InferenceX API's array of benchmark rows, found " + describe_json(doc));
  for (std::size_t i = 0; i < doc.size(); ++i) {
    ++out.rows_read;
    const BenchmarkRow row(doc[i], path, "/" + std::to_string(i));
    const std::string hardware = row.text("hardware");
    const std::string model = row.text("model");
    const std::string framework = row.text("framework");
    const std::string precision = row.text("precision");
    const std::string spec = row.json().contains("spec_method") ? row.text("spec_method") : "none";
    const bool disagg = row.flag("disagg");
    const std::optional<double> conc = row.number("conc");
    const std::optional<double> isl = row.number("isl");
    const std::optional<double> osl = row.number("osl");
    const auto metrics_it = row.json().find("metrics");
    if (metrics_it == row.json().end() || !metrics_it->is_object())
      throw InputError(path, row.where("metrics"), "expected an object of metrics, found " +
                           (metrics_it == row.json().end() ? std::string("nothing") : describe_json(*metrics_it)));
    const Json& metrics = *metrics_it;
    const std::string mp = row.where("metrics");
    const std::optional<double> tput = row.number(metrics, mp, "tput_per_gpu");
    if (!usable(tput)) {
      out.dropped.add("no throughput", pointer_join(mp, "tput_per_gpu"));
      continue;
    }
    if (!usable(conc) || !usable(isl) || !usable(osl)) {
      out.dropped.add("no concurrency or sequence length", row.pointer());
      continue;
    }
    // GPUs: tp for an aggregated engine; prefill + decode GPUs when disaggregated (README §1a).
    const long prefill_tp = row.count("prefill_tp").value_or(0), decode_tp = row.count("decode_tp").value_or(0);
    const long prefill_gpus = row.count("num_prefill_gpu").value_or(0);
    const long decode_gpus = row.count("num_decode_gpu").value_or(0);
    const long gpus = disagg ? prefill_gpus + decode_gpus : decode_tp;
    if ((disagg ? (prefill_gpus < 1 || decode_gpus < 1) : (decode_tp < 1 || prefill_tp != decode_tp)) ||
        gpus > limits::kMaxCount) {
      out.dropped.add("an impossible GPU count", row.pointer());
      continue;
    }
    const std::string gpu = set.gpu_of(hardware, row, "hardware");
    if (gpu.empty()) continue;
    ServingPoint p;
    p.concurrency = *conc;
    p.tokens_per_s_per_gpu = *tput;
    p.input_tokens_per_s_per_gpu = positive_or_null(row.number(metrics, mp, "input_tput_per_gpu"));
    p.output_tokens_per_s_per_gpu = positive_or_null(row.number(metrics, mp, "output_tput_per_gpu"));
    if (!read_latencies(row, metrics, mp, p)) {
      out.dropped.add("a latency that is not positive", mp);
      continue;
    }
    ServingProfile shape;
    shape.gpu_model = gpu;
    shape.model = model;
    shape.precision = precision;
    shape.framework = framework + (spec == "none" ? "" : " +" + spec);
    shape.gpus_per_replica = static_cast<int>(gpus);
    if (disagg) {
      shape.prefill_gpus = static_cast<int>(prefill_gpus);
      shape.decode_gpus = static_cast<int>(decode_gpus);
    }
    shape.input_tokens_per_request = *isl;
    shape.output_tokens_per_request = *osl;
    const long prefill_ep = row.count("prefill_ep").value_or(1), decode_ep = row.count("decode_ep").value_or(1);
    const std::string parallel =
        disagg ? fmt::format("p{}tp{}ep{}-d{}tp{}ep{}{}", prefill_gpus, prefill_tp, prefill_ep, decode_gpus, decode_tp,
                             decode_ep, row.flag("decode_dp_attention") ? "dpa" : "")
               : fmt::format("tp{}ep{}{}", decode_tp, decode_ep, row.flag("decode_dp_attention") ? "dpa" : "");
    const std::string id = fmt::format("inferencex/{}/{}/{}/{}{}/{}-{}/{}", model, hardware, framework, precision,
                                       spec == "none" ? "" : "-" + spec, *isl, *osl, parallel);
    const std::string date = row.text("date");
    Date parsed;
    if (!parse_date(date, parsed))
      throw InputError(path, row.where("date"), "expected the run's date YYYY-MM-DD, found \"" + date + "\"");
    set.add(id, shape, p, date, row.pointer());
  }
}

// ---- vLLM bench serve ---------------------------------------------------------------------

// "/models/models--openai--gpt-oss-120b/snapshots/<hash>/" -> "openai/gpt-oss-120b".
std::string model_name_of(const std::string& model_id) {
  const std::size_t at = model_id.find("models--");
  if (at == std::string::npos) return model_id;
  const std::string cached = model_id.substr(at + 8, model_id.find('/', at) - at - 8);
  std::string name;
  for (std::size_t i = 0; i < cached.size(); ++i) {
    if (cached.compare(i, 2, "--") == 0) {
      name += '/';
      ++i;
    } else {
      name += cached[i];
    }
  }
  return name;
}

// "20260428-095035" -> "2026-04-28"; "" when not that shape.
std::string date_of_vllm(const std::string& text) {
  if (text.size() < 8 || !std::all_of(text.begin(), text.begin() + 8, [](char c) { return c >= '0' && c <= '9'; }))
    return "";
  return text.substr(0, 4) + "-" + text.substr(4, 2) + "-" + text.substr(6, 2);
}

void import_vllm_file(const std::string& path, const ThroughputImportOptions& o, ProfileSet& set,
                      ThroughputImport& out) {
  const Json doc = read_json_file(path);
  ++out.rows_read;
  const BenchmarkRow row(doc, path, "");
  const bool disagg = o.prefill_gpus > 0;
  const int gpus = disagg ? o.prefill_gpus + o.decode_gpus : o.gpus_per_replica;
  const std::optional<double> conc = row.number("max_concurrency");
  const std::optional<double> completed = row.number("completed");
  const std::optional<double> input_tokens = row.number("total_input_tokens");
  const std::optional<double> output_tokens = row.number("total_output_tokens");
  const std::optional<double> output_tput = row.number("output_throughput");
  std::optional<double> total_tput = row.number("total_token_throughput");
  std::optional<double> input_tput = row.number("input_throughput");
  if (!total_tput && usable(input_tput) && usable(output_tput)) total_tput = *input_tput + *output_tput;
  if (usable(total_tput) && !input_tput && usable(output_tput)) input_tput = *total_tput - *output_tput;
  if (!usable(total_tput)) {
    out.dropped.add("no throughput", "/total_token_throughput");
    return;
  }
  if (!usable(conc) || !usable(completed) || !usable(input_tokens) || !usable(output_tokens)) {
    out.dropped.add("no concurrency or sequence length", "/max_concurrency");
    return;
  }
  ServingPoint p;
  p.concurrency = *conc;
  p.tokens_per_s_per_gpu = *total_tput / gpus;
  // Disaggregated, as InferenceX counts them: input per prefill GPU, output per decode GPU.
  if (usable(input_tput)) p.input_tokens_per_s_per_gpu = *input_tput / (disagg ? o.prefill_gpus : gpus);
  if (usable(output_tput)) p.output_tokens_per_s_per_gpu = *output_tput / (disagg ? o.decode_gpus : gpus);
  if (!read_latencies(row, doc, "", p)) {
    out.dropped.add("a latency that is not positive", "");
    return;
  }
  ServingProfile shape;
  shape.gpu_model = o.gpu;
  shape.model = o.model.empty() ? model_name_of(row.text("model_id")) : o.model;
  shape.precision = o.precision;
  shape.framework = o.framework;
  shape.gpus_per_replica = gpus;
  if (disagg) {
    shape.prefill_gpus = o.prefill_gpus;
    shape.decode_gpus = o.decode_gpus;
  }
  shape.input_tokens_per_request = *input_tokens / *completed;
  shape.output_tokens_per_request = *output_tokens / *completed;
  const std::string id =
      fmt::format("vllm-bench/{}/{}/{:g}-{:g}/{}", shape.model, o.gpu, shape.input_tokens_per_request,
                  shape.output_tokens_per_request, disagg ? fmt::format("p{}-d{}", o.prefill_gpus, o.decode_gpus)
                                                          : fmt::format("{}gpu", gpus));
  const std::string date = row.json().contains("date") ? date_of_vllm(row.text("date")) : "";
  Date parsed;
  if (date.empty() || !parse_date(date, parsed)) throw InputError(path, "/date", "expected the run's date YYYYMMDD-HHMMSS (the record's as_of)");
  set.add(id, shape, p, date, path);
}

// ---- MLPerf Inference summary ---------------------------------------------------------------

// The p99 limits a Server or Interactive result met (ms), from the mlperf.conf of the v6.0
// results (../shared/data/inference/README.md §2), by benchmark without its accuracy suffix.
struct LatencyLimits {
  const char* benchmark;
  double server_ttft_ms, server_tpot_ms, interactive_ttft_ms, interactive_tpot_ms;  // 0: no such scenario
};
constexpr LatencyLimits kMlperfLimits[] = {
    {"llama2-70b", 2000, 200, 450, 40},     {"mixtral-8x7b", 2000, 200, 0, 0},
    {"llama3.1-405b", 6000, 175, 4500, 80}, {"llama3.1-8b", 2000, 100, 500, 30},
    {"deepseek-r1", 2000, 80, 1500, 15},    {"gpt-oss-120b", 3000, 80, 2000, 15},
};
// Publication dates of the rounds (the records' as_of): README §2a, §2b.
constexpr std::pair<const char*, const char*> kMlperfRounds[] = {{"v5.1", "2025-09-09"}, {"v6.0", "2026-03-26"}};

// "llama2-70b-99.9" -> "llama2-70b": the accuracy target is not a serving difference.
std::string mlperf_benchmark(std::string model) {
  for (const char* suffix : {"-99.9", "-99"})
    if (model.size() > std::string_view(suffix).size() && model.ends_with(suffix))
      return model.substr(0, model.size() - std::string_view(suffix).size());
  return model;
}

// "NVIDIA B200-SXM-180GB" -> the catalog id: the --gpu-map entry or the usual match of the whole
// name, else the usual match of the name without "NVIDIA ", else the one id the name starts with
// followed by '-' ("b200-sxm-180gb" -> "b200").
std::string mlperf_gpu_id(const std::string& accelerator, const ThroughputImportOptions& o) {
  if (std::string id = match_gpu_id(accelerator, o); !id.empty()) return id;
  std::string key = lower(accelerator);
  if (key.starts_with("nvidia ")) key.erase(0, 7);
  if (std::string id = match_gpu_id(key, o); !id.empty()) return id;
  std::string found;
  int matches = 0;
  for (const std::string& id : o.catalog_gpu_ids)
    if (key.size() > id.size() && key.compare(0, id.size(), id) == 0 && key[id.size()] == '-') {
      found = id;
      ++matches;
    }
  return matches == 1 ? found : "";
}

// An accelerator name listing counts ("X (x87)", "A (x8) and B (x8)") is heterogeneous unless it
// names one model whose count is the system's; `name` loses its " (xN)" then.
bool homogeneous(std::string& name, long accelerators) {
  const std::size_t at = name.find("(x");
  if (at == std::string::npos) return name.find(" and ") == std::string::npos;
  if (name.find("(x", at + 2) != std::string::npos) return false;
  const std::size_t close = name.find(')', at);
  if (close == std::string::npos || close + 1 != name.size()) return false;
  const std::string digits = name.substr(at + 2, close - at - 2);
  if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  if (std::stol(digits) != accelerators) return false;
  name = name.substr(0, at > 0 && name[at - 1] == ' ' ? at - 1 : at);
  return true;
}

// Every row becomes a point or a counted drop. Per GPU: the system's output tokens/s / its
// accelerators; one replica = one node (a# GPUs); input tokens/s = output x input / output length
// (--sequence-lengths); the concurrency an ESTIMATE: replica output tokens/s / (1000 / p99 TPOT limit).
void import_mlperf_file(const std::string& path, const ThroughputImportOptions& o, ProfileSet& set,
                        ThroughputImport& out) {
  const Json doc = read_json_file(path);
  if (!doc.is_array())
    throw InputError(path, "", "expected the MLPerf summary's array of result rows, found " + describe_json(doc));
  for (std::size_t i = 0; i < doc.size(); ++i) {
    ++out.rows_read;
    const BenchmarkRow row(doc[i], path, "/" + std::to_string(i));
    const std::string units = row.text("Performance_Units");
    const std::string scenario = row.text("Scenario");
    std::string accelerator = row.text("Accelerator");
    const std::string benchmark = mlperf_benchmark(row.text("Model"));
    const std::optional<double> tokens_per_s = row.number("Performance_Result");
    if (units != "Tokens/s") {
      out.dropped.add("a unit other than Tokens/s", row.where("Performance_Units"));
      continue;
    }
    if (scenario != "Server" && scenario != "Interactive") {
      out.dropped.add("an Offline or other scenario without latency limits", row.where("Scenario"));
      continue;
    }
    if (accelerator.empty()) {
      out.dropped.add("a CPU-only system", row.where("Accelerator"));
      continue;
    }
    const long per_node = row.count("a#").value_or(0), nodes = row.count("Nodes").value_or(0);
    const long accelerators = row.count("Total Accelerators").value_or(per_node * nodes);
    if (per_node < 1 || nodes < 1 || accelerators < per_node || accelerators > limits::kMaxCount) {
      out.dropped.add("an impossible GPU count", row.where("a#"));
      continue;
    }
    if (!homogeneous(accelerator, accelerators) || accelerators != per_node * nodes) {
      out.dropped.add("a heterogeneous system", row.where("Accelerator"));
      continue;
    }
    const LatencyLimits* limit = nullptr;
    for (const LatencyLimits& l : kMlperfLimits)
      if (benchmark == l.benchmark) limit = &l;
    const bool interactive = scenario == "Interactive";
    if (!limit || (interactive ? limit->interactive_tpot_ms : limit->server_tpot_ms) == 0.0) {
      out.dropped.add("a benchmark without known latency limits", row.where("Model"));
      continue;
    }
    const auto lengths = o.sequence_lengths.find(benchmark);
    if (lengths == o.sequence_lengths.end()) {
      out.dropped.add("a benchmark without --sequence-lengths", row.where("Model"));
      continue;
    }
    if (!usable(tokens_per_s)) {
      out.dropped.add("no throughput", row.where("Performance_Result"));
      continue;
    }
    const std::string gpu = set.gpu_of(accelerator, mlperf_gpu_id(accelerator, o), row, "Accelerator");
    if (gpu.empty()) continue;
    const std::string version = row.text("version");
    std::string date;
    for (const auto& [round, published] : kMlperfRounds)
      if (version == round) date = published;
    if (date.empty())
      throw InputError(path, row.where("version"),
                       "expected an MLPerf round tcosim knows the publication date of (v5.1, v6.0), found \"" +
                           version + "\"");
    const auto [input_tokens, output_tokens] = lengths->second;
    const double ttft_ms = interactive ? limit->interactive_ttft_ms : limit->server_ttft_ms;
    const double tpot_ms = interactive ? limit->interactive_tpot_ms : limit->server_tpot_ms;
    const double output_per_gpu = *tokens_per_s / static_cast<double>(accelerators);
    ServingPoint p;
    p.output_tokens_per_s_per_gpu = output_per_gpu;
    p.input_tokens_per_s_per_gpu = output_per_gpu * input_tokens / output_tokens;
    p.tokens_per_s_per_gpu = output_per_gpu + *p.input_tokens_per_s_per_gpu;
    p.p99_ttft_ms = ttft_ms;
    p.p99_tpot_ms = tpot_ms;
    p.interactivity_tokens_per_s_per_user = interactivity_of_tpot_ms(tpot_ms);
    p.concurrency = output_per_gpu * static_cast<double>(per_node) / *p.interactivity_tokens_per_s_per_user;
    ServingProfile shape;
    shape.gpu_model = gpu;
    shape.model = benchmark;
    const std::string precision = row.json().contains("weight_data_types") ? row.text("weight_data_types") : "";
    shape.precision = precision.empty() ? "unstated" : precision;
    const std::string software = row.json().contains("Software") ? row.text("Software") : "";
    shape.framework = software.empty() ? "unstated" : software.substr(0, software.find(','));
    shape.gpus_per_replica = static_cast<int>(per_node);
    shape.input_tokens_per_request = input_tokens;
    shape.output_tokens_per_request = output_tokens;
    const std::string id = fmt::format("mlperf/{}/{}/{}/{}/{}", version, row.text("Model"), gpu, row.text("Submitter"),
                                       row.text("Platform"));
    set.add(id, shape, p, date, row.pointer());
  }
}

}  // namespace

std::string match_gpu_id(const std::string& name, const ThroughputImportOptions& options) {
  if (const auto it = options.gpu_map.find(name); it != options.gpu_map.end()) return it->second;
  const std::string key = lower(name);
  std::string found;
  int matches = 0;
  for (const std::string& id : options.catalog_gpu_ids) {
    if (id == key) return id;
    if (id.size() > key.size() && id.compare(0, key.size(), key) == 0 && id[key.size()] == '-') {
      found = id;
      ++matches;
    }
  }
  return matches == 1 ? found : "";
}

ThroughputImport import_throughput(const std::vector<std::string>& paths, const ThroughputImportOptions& o) {
  if (paths.empty()) throw InputError("", "", "expected at least one benchmark file");
  ThroughputImport out;
  ProfileSet set(out, o);
  std::string head, date_word = "run";
  if (o.format == "inferencex") {
    for (const std::string& path : paths) import_inferencex_file(path, set, out);
    head = "SemiAnalysis InferenceX benchmark rows";
  } else if (o.format == "vllm-bench") {
    if (std::find(o.catalog_gpu_ids.begin(), o.catalog_gpu_ids.end(), o.gpu) == o.catalog_gpu_ids.end())
      throw InputError("", "--gpu", fmt::format("expected a gpu id of the catalog, found \"{}\"", o.gpu));
    if ((o.gpus_per_replica > 0) == (o.prefill_gpus > 0 && o.decode_gpus > 0) ||
        (o.prefill_gpus > 0) != (o.decode_gpus > 0))
      throw InputError("", "--gpus-per-replica",
                       "expected either --gpus-per-replica N or both --prefill-gpus and --decode-gpus (the result "
                       "files do not say how many GPUs served them)");
    if (o.precision.empty())
      throw InputError("", "--precision", "expected the weights' precision (fp8, bf16...): the result files do not say");
    for (const std::string& path : paths) import_vllm_file(path, o, set, out);
    head = "vLLM bench serve result files";
  } else if (o.format == "mlperf") {
    for (const std::string& path : paths) import_mlperf_file(path, o, set, out);
    head = "MLPerf Inference summary rows; concurrency an ESTIMATE (replica output tokens/s x p99 TPOT limit / "
           "1000); TTFT and TPOT the p99 limits the result met; input tokens/s from the given sequence lengths";
    date_word = "published";
  } else {
    throw InputError("", "--format", "unknown throughput format \"" + o.format + "\"");
  }
  set.write(head + " (" + std::filesystem::path(paths.front()).filename().string() +
            (paths.size() > 1 ? fmt::format(" and {} more", paths.size() - 1) : std::string()) + ")",
            date_word);
  out.notes = out.dropped.findings("throughput-row-dropped", paths.size() == 1 ? paths.front() : "");
  return out;
}

}  // namespace tco
