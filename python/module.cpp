// The compiled core of the Python module (tcosim/_tcosim): the run (run_binding.cpp), validate,
// any other command of the CLI called in-process, and the engine's errors as Python exceptions.
// The pure-Python layer (tcosim/__init__.py) gives them their public shape.
#include <sstream>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11_json/pybind11_json.hpp>

#include "cli/app.hpp"
#include "core/error.hpp"
#include "core/memory/freed_memory_reuse.hpp"
#include "core/io/utf8_text.hpp"
#include "core/progress/progress_counter.hpp"
#include "engine/des/trace_limits.hpp"
#include "models/catalog/catalog_source.hpp"
#include "models/scenario.hpp"
#include "run_binding.hpp"

namespace py = pybind11;

namespace tco::python {
namespace {

// The text the CLI prints after "tcosim: error: " (cli/app.cpp).
std::string cli_text(const InputError& e) {
  return escaped_text((e.file().empty() ? std::string("<input>") : e.file()) +
                          (e.where().empty() ? std::string() : ": " + e.where()) + ": " + e.message(),
                      LineBreaks::keep);
}

py::dict finding_dict(const Finding& f) {
  py::dict d;
  d["severity"] = f.severity == Finding::Severity::error ? "error" : "warning";
  d["code"] = f.code;
  d["file"] = f.file;
  d["pointer"] = f.where;
  d["message"] = f.message;
  return d;
}

// What `tcosim validate` says of one scenario: an error finding for what loading rejects, plus
// the scenario's warnings (models/scenario.hpp validate_scenario_file; a file's trace as well, engine/des/trace_limits.hpp).
std::vector<Finding> validate_document(const Json& doc, const std::string& file, const std::string& dir,
                                       const std::string& catalog) {
  try {
    return load_scenario_json(doc, file, dir, catalog).warnings;
  } catch (const InputError& e) {
    return {{Finding::Severity::error, "invalid-scenario", e.file(), e.where(), e.what()}};
  } catch (const ModelError& e) {
    return {{Finding::Severity::error, "invalid-scenario", file, "", e.what()}};
  }
}

}  // namespace
}  // namespace tco::python

PYBIND11_MODULE(_tcosim, m) {
  using namespace tco;
  using namespace tco::python;
  m.doc() = "The compiled core of tcosim; use the tcosim package, not this module.";
  m.attr("version") = TCO_VERSION;
  // As tcosim does (cli/main.cpp): a run's series of a few hundred kB are reused from the heap
  // instead of mapped and faulted in again on every run (docs/python.md, "A loop of scenarios").
  keep_freed_memory_for_reuse();

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      py::object cls = py::module_::import("tcosim._errors").attr("InputError");
      py::object err = cls(cli_text(e), e.file(), e.where(), e.message());
      PyErr_SetObject(cls.ptr(), err.ptr());
    } catch (const ModelError& e) {
      py::object cls = py::module_::import("tcosim._errors").attr("ModelError");
      PyErr_SetObject(cls.ptr(), cls(escaped_text(e.what(), LineBreaks::keep)).ptr());
    } catch (const Cancelled&) {
      PyErr_SetNone(PyExc_KeyboardInterrupt);
    }
  });

  bind_run(m);

  m.def(
      "validate",
      [](py::object scenario, const std::string& file_label, const std::string& base_dir, const std::string& catalog) {
        std::vector<Finding> findings;
        if (py::isinstance<py::str>(scenario)) {
          const std::string path = scenario.cast<std::string>();
          py::gil_scoped_release unlocked;
          findings = des::validate_scenario_and_trace(path, catalog);
        } else {
          const Json doc = scenario.cast<Json>();
          py::gil_scoped_release unlocked;
          findings = validate_document(doc, file_label, base_dir, catalog);
        }
        py::list out;
        for (const Finding& f : findings) out.append(finding_dict(f));
        return out;
      },
      py::arg("scenario"), py::arg("file_label"), py::arg("base_dir"), py::arg("catalog"));

  // The process's catalog cache (models/catalog/catalog_source.hpp): (hits, misses) of the
  // catalogs loaded; tests read it, and clear it to load anew.
  m.def("catalog_cache_stats", [] {
    const CatalogCacheStats s = catalog_cache_stats();
    return py::make_tuple(s.hits, s.misses);
  });
  m.def("clear_catalog_cache", [] { clear_catalog_cache(); });

  // Any command as the CLI runs it, in this process: (exit code, standard output, standard error).
  m.def(
      "cli",
      [](const std::vector<std::string>& args) {
        std::ostringstream out, err;
        int code = 0;
        {
          py::gil_scoped_release unlocked;
          code = cli::run_main_throwing(args, out, err);
        }
        return py::make_tuple(code, py::bytes(out.str()), err.str());
      },
      py::arg("args"));
}
