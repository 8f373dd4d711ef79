#include "engine/sweep/sweep_over_ranks.hpp"

#include <optional>
#include <stdexcept>

#include "core/parallel/byte_codec.hpp"
#include "core/parallel/rank_errors.hpp"
#include "core/parallel/split_items.hpp"

namespace tco {

namespace {

constexpr const char* kPathValuesWhat = "a sweep's per-path values";

void put_rows(std::string& out, const std::vector<std::vector<double>>& rows) {
  put_value(out, static_cast<std::uint64_t>(rows.size()));
  for (const auto& r : rows) put_vector(out, r);
}

std::vector<std::vector<double>> get_rows(const std::string& bytes, std::size_t& at) {
  std::uint64_t n = 0;
  get_value(bytes, at, n, kPathValuesWhat);
  if (n > bytes.size()) throw std::runtime_error("gathered bytes are corrupt: a sweep's per-path values");
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(n));
  for (auto& r : rows) r = get_vector<double>(bytes, at, kPathValuesWhat);
  return rows;
}

}  // namespace

std::string sweep_point_values_bytes(const std::vector<SweepPointValues>& values) {
  std::string out;
  put_value(out, static_cast<std::uint64_t>(values.size()));
  for (const SweepPointValues& v : values) {
    put_value(out, static_cast<std::int64_t>(v.index));
    put_vector(out, v.grid_values);
    put_vector(out, v.deterministic_npv_usd);
    put_rows(out, v.npv_usd);
    put_rows(out, v.total_usd);
    put_rows(out, v.tokens_served);
    put_value(out, static_cast<std::uint8_t>(v.device ? 1 : 0));
    if (v.device)
      put_rows(out, {v.device->npv_mean_usd, v.device->npv_stderr_usd, v.device->saving_mean_usd,
                     v.device->saving_stderr_usd});
  }
  return out;
}

std::vector<SweepPointValues> sweep_point_values_from_bytes(const std::string& bytes) {
  std::size_t at = 0;
  std::uint64_t count = 0;
  get_value(bytes, at, count, kPathValuesWhat);
  if (count > bytes.size()) throw std::runtime_error("gathered bytes are corrupt: a sweep's per-path values");
  std::vector<SweepPointValues> values(static_cast<std::size_t>(count));
  for (SweepPointValues& v : values) {
    std::int64_t index = 0;
    get_value(bytes, at, index, kPathValuesWhat);
    v.index = static_cast<long>(index);
    v.grid_values = get_vector<double>(bytes, at, kPathValuesWhat);
    v.deterministic_npv_usd = get_vector<double>(bytes, at, kPathValuesWhat);
    v.npv_usd = get_rows(bytes, at);
    v.total_usd = get_rows(bytes, at);
    v.tokens_served = get_rows(bytes, at);
    std::uint8_t on_device = 0;
    get_value(bytes, at, on_device, kPathValuesWhat);
    if (on_device != 0) {
      std::vector<std::vector<double>> m = get_rows(bytes, at);
      if (m.size() != 4) throw std::runtime_error("gathered sweep values: expected 4 device moments");
      v.device = SweepDeviceMoments{std::move(m[0]), std::move(m[1]), std::move(m[2]), std::move(m[3])};
    }
  }
  return values;
}

std::string prepared_grid_points_bytes(const PreparedGridPoints& prepared) {
  std::string out;
  put_value(out, static_cast<std::int64_t>(prepared.range.first));
  put_value(out, static_cast<std::int64_t>(prepared.range.end));
  const SweepChunk& c = prepared.chunk;
  put_vector(out, c.points);
  put_vector(out, c.plans);
  put_vector(out, c.data);
  put_value(out, static_cast<std::int32_t>(c.max_failure_scratch));
  put_vector(out, c.same_as);
  put_rows(out, prepared.deterministic_npv_usd);
  return out;
}

PreparedGridPoints prepared_grid_points_from_bytes(const std::string& bytes) {
  constexpr const char* what = "a sweep's prepared points";
  std::size_t at = 0;
  PreparedGridPoints prepared;
  std::int64_t first = 0, end = 0;
  get_value(bytes, at, first, what);
  get_value(bytes, at, end, what);
  prepared.range = {static_cast<long>(first), static_cast<long>(end)};
  SweepChunk& c = prepared.chunk;
  c.points = get_vector<SweepPointHeader>(bytes, at, what);
  c.plans = get_vector<SweepPlanParams>(bytes, at, what);
  c.data = get_vector<double>(bytes, at, what);
  std::int32_t scratch = 0;
  get_value(bytes, at, scratch, what);
  c.max_failure_scratch = scratch;
  c.same_as = get_vector<int>(bytes, at, what);
  prepared.deterministic_npv_usd = get_rows(bytes, at);
  if (at != bytes.size() || prepared.deterministic_npv_usd.size() != c.points.size())
    throw std::runtime_error("broadcast bytes are corrupt: a sweep's prepared points");
  return prepared;
}

namespace {

// The CPU's split: every rank evaluates the range's points on its block of paths; the root joins
// each point's paths in rank order, which is path order. Each rank draws only its own paths'
// random inputs, which the points share. Points the root's check kept go to every rank (for 8
// points, milliseconds to broadcast against a tenth of a second to prepare on each rank);
// otherwise every rank prepares them.
std::vector<SweepPointValues> evaluate_paths_over_ranks(const SweepInputs& in, PointRange range, int threads,
                                                        ProgressCounter* progress,
                                                        const PreparedGridPoints* root_points) {
  const std::string shared =
      root_computes([&] { return root_points ? prepared_grid_points_bytes(*root_points) : std::string(); }, true);
  const std::vector<std::string> pieces = gather_item_blocks(in.paths, true, [&](IndexBlock mine) {
    std::optional<PreparedGridPoints> own;
    if (shared.empty()) own = prepare_grid_points(in, range, threads, progress);
    else if (root_points == nullptr) own = prepared_grid_points_from_bytes(shared);
    const PreparedGridPoints& prepared = own ? *own : *root_points;
    return sweep_point_values_bytes(evaluate_prepared_paths_cpu(in, prepared, mine.begin, mine.size(), threads, progress));
  });
  std::vector<SweepPointValues> all;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    std::vector<SweepPointValues> part = sweep_point_values_from_bytes(pieces[k]);
    if (k == 0) {
      all = std::move(part);
      continue;
    }
    if (part.size() != all.size()) throw std::runtime_error("gathered sweep values: a rank returned another point count");
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto append = [](std::vector<std::vector<double>>& into, const std::vector<std::vector<double>>& from) {
        if (from.size() != into.size()) throw std::runtime_error("gathered sweep values: another plan count");
        for (std::size_t j = 0; j < into.size(); ++j) into[j].insert(into[j].end(), from[j].begin(), from[j].end());
      };
      append(all[i].npv_usd, part[i].npv_usd);
      append(all[i].total_usd, part[i].total_usd);
      append(all[i].tokens_served, part[i].tokens_served);
    }
  }
  return all;
}

// The CUDA split: a rank's device evaluates its block of points on every path (the device reduces
// each point's moments over all its paths, so a point's paths stay on one rank).
std::vector<SweepPointValues> evaluate_points_over_ranks(const SweepInputs& in, PointRange range,
                                                         SweepBackend backend, int threads, ProgressCounter* progress) {
  const std::vector<std::string> pieces = gather_item_blocks(range.end - range.first, true, [&](IndexBlock mine) {
    std::vector<SweepPointValues> values;
    if (mine.size() > 0)
      values = evaluate_grid_points(in, {range.first + mine.begin, range.first + mine.end}, backend, threads, progress);
    return sweep_point_values_bytes(values);
  });
  std::vector<SweepPointValues> all;
  for (const std::string& piece : pieces)
    for (SweepPointValues& v : sweep_point_values_from_bytes(piece)) all.push_back(std::move(v));
  return all;
}

}  // namespace

std::vector<SweepPointValues> evaluate_grid_points_over_ranks(const SweepInputs& in, PointRange range,
                                                              SweepBackend backend, int threads, bool split,
                                                              ProgressCounter* progress, std::int64_t items_total,
                                                              std::int64_t items_done,
                                                              const PreparedGridPoints* root_points) {
  if (!split || !processes_split()) {
    if (root_points)
      return evaluate_prepared_points(in, *root_points, backend, threads, progress, items_total, items_done);
    return evaluate_grid_points(in, range, backend, threads, progress, items_total, items_done);
  }
  if (backend == SweepBackend::cuda) return evaluate_points_over_ranks(in, range, backend, threads, progress);
  return evaluate_paths_over_ranks(in, range, threads, progress, root_points);
}

}  // namespace tco
