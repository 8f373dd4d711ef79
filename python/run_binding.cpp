#include "run_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11_json/pybind11_json.hpp>

#include "cli/options.hpp"
#include "cli/report_pipeline.hpp"
#include "core/parallel_for_index.hpp"
#include "engine/montecarlo/path_worlds.hpp"
#include "engine/montecarlo/uncertain_paths.hpp"
#include "models/workload/workload.hpp"
#include "reports/csv/csv_report.hpp"
#include "reports/html/html_report.hpp"
#include "reports/json/json_report.hpp"
#include "reports/markdown/markdown_summary.hpp"
#include "reports/workbook/workbook.hpp"

namespace py = pybind11;

namespace tco::python {

std::shared_ptr<RunResult> run_scenario(const RunRequest& r, RunControl* control) {
  const Scenario scenario = r.path ? load_scenario(*r.path, r.catalog)
                                   : load_scenario_json(r.document, r.file_label, r.base_dir, r.catalog);
  const int threads = resolved_thread_count(r.threads);
  MonteCarloOptions options = cli::monte_carlo_options(r.paths, r.seed, threads);
  options.progress = control ? &control->counter : nullptr;
  const RunMetadata meta = cli::with_today(RunMetadata{"run", threads, 1}, cli::TodayOptions{r.today, r.max_age_days});
  // A scenario of jobs alone draws its uncertain inputs per path in the replay.
  std::optional<UncertaintyInputs> drawn;
  if (draws_uncertain_in_replay(scenario))
    drawn = r.path ? read_uncertainty_inputs(*r.path, r.catalog, r.paths, r.seed)
                   : make_uncertainty_inputs(r.document, r.file_label, r.base_dir, r.catalog, r.paths, r.seed);
  cli::RunReport run = cli::run_report(scenario, options, meta, r.keep_npv_by_path, drawn ? &*drawn : nullptr);
  if (scenario.uncertain && !drawn) {
    if (r.path) {
      cli::add_uncertainty_analysis(run.report, *r.path, r.catalog, options);
    } else {
      cli::add_uncertainty_analysis(
          run.report, make_uncertainty_inputs(r.document, r.file_label, r.base_dir, r.catalog, r.paths, r.seed), options);
    }
  }
  auto out = std::make_shared<RunResult>();
  out->report = std::move(run.report);
  out->plans = static_cast<long>(run.npv_by_path.size());
  out->paths = out->plans > 0 ? static_cast<long>(run.npv_by_path.front().size()) : 0;
  out->npv_usd_by_plan_path.reserve(static_cast<std::size_t>(out->plans * out->paths));
  for (const std::vector<double>& plan : run.npv_by_path)
    out->npv_usd_by_plan_path.insert(out->npv_usd_by_plan_path.end(), plan.begin(), plan.end());
  if (!scenario.jobs)
    out->demand_gpus_by_hour = demand_gpus_by_hour(scenario.workload, scenario.horizon_hours(), scenario.calendar);
  return out;
}

// The workbook wants [plan][path]; the buffer is plans x paths.
static WorkbookPaths workbook_paths(const RunResult& r) {
  WorkbookPaths w;
  for (long p = 0; p < r.plans; ++p) {
    const auto first = r.npv_usd_by_plan_path.begin() + p * r.paths;
    w.npv_usd_by_path.emplace_back(first, first + r.paths);
  }
  w.demand_gpus_by_hour = r.demand_gpus_by_hour;
  return w;
}

void bind_run(py::module_& m) {
  py::class_<RunControl>(m, "RunControl")
      .def(py::init<>())
      .def("cancel", [](RunControl& c) { c.counter.cancel(); })
      .def_property_readonly("cancelled", [](const RunControl& c) { return c.counter.cancelled(); })
      .def("snapshot", [](const RunControl& c) {
        const ProgressCounter::Snapshot s = c.counter.snapshot();
        return py::make_tuple(s.stage, s.done, s.total);
      });

  py::class_<RunResult, std::shared_ptr<RunResult>>(m, "RunResult")
      .def_property_readonly("json", [](const RunResult& r) { return py::object(r.report); })
      .def_property_readonly("text", [](const RunResult& r) { return report_text(r.report); })
      // paths x plans over the buffer's own memory: the array's base is this object.
      .def_property_readonly("npv_by_path",
                             [](py::object self) {
                               const RunResult& r = self.cast<const RunResult&>();
                               const auto d = static_cast<py::ssize_t>(sizeof(double));
                               py::array_t<double> a({static_cast<py::ssize_t>(r.paths), static_cast<py::ssize_t>(r.plans)},
                                                     {d, d * r.paths}, r.npv_usd_by_plan_path.data(), self);
                               py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
                               return a;
                             })
      .def("csv_tables", [](const RunResult& r) { return csv_tables(r.report); })
      .def("html", [](const RunResult& r) { return html_report(r.report); })
      .def("markdown", [](const RunResult& r) { return markdown_summary(r.report); })
      .def("write_xlsx", [](const RunResult& r, const std::string& path) {
        check_workbook_target(path, "path");
        write_workbook_atomically(r.report, workbook_paths(r), path);
      });

  m.def(
      "run_scenario",
      [](py::object scenario, const std::string& file_label, const std::string& base_dir, const std::string& catalog,
         std::optional<long> paths, std::optional<std::uint64_t> seed, int threads, const std::string& today,
         int max_age_days, RunControl* control) {
        RunRequest r;
        if (py::isinstance<py::str>(scenario)) r.path = scenario.cast<std::string>();
        else r.document = scenario.cast<Json>();
        r.file_label = file_label;
        r.base_dir = base_dir;
        r.catalog = catalog;
        r.paths = paths;
        r.seed = seed;
        r.threads = threads;
        r.today = today;
        r.max_age_days = max_age_days;
        py::gil_scoped_release unlocked;
        return run_scenario(r, control);
      },
      py::arg("scenario"), py::arg("file_label"), py::arg("base_dir"), py::arg("catalog"), py::arg("paths"),
      py::arg("seed"), py::arg("threads"), py::arg("today"), py::arg("max_age_days"), py::arg("control").none(true));
}

}  // namespace tco::python
