// Mutation test of the price-curve importers (issue 48 item 3): tests/fixtures/prices'
// price-index CSV (two series, read with --series) and term-structure CSV (read with an offer),
// each changed in one random way (tests/mutation_support.hpp) and imported. Every mutant exits 0
// with an output its reader accepts (the price index as a scenario's price_indices entry, the
// offer override as a scenario's cloud.offer), or exits 2 naming the file and a line, with nothing
// written.
#include <filesystem>
#include <regex>
#include <string>

#include <doctest/doctest.h>

#include "core/io/utf8_text.hpp"
#include "mutation_support.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace tco::test {

namespace {

// The base scenario renting at the imported index, or at the imported offer override.
bool price_import_loads(const Json& imported, bool term_structure, std::string& error) {
  Json doc = base_scenario_json();
  if (term_structure) {
    const Json& offer = imported.at("offer");
    doc["cloud"]["offer"] = offer;
    // A plan reserving the first of the curve's other terms (a mutant may have lost any row).
    if (offer.contains("reserved_usd_per_hour_by_term_months"))
      doc["plans"].push_back({{"name", "reserved-term"}, {"kind", "cloud"}, {"reserved_instances", 1},
                              {"reserved_term_months",
                               std::stoi(offer.at("reserved_usd_per_hour_by_term_months").items().begin().key())}});
  } else {
    doc["price_indices"] = {{"imported", imported}};
    doc["plans"][0]["price_index"] = "imported";
  }
  try {
    load_scenario_json(doc, "imported.json", source_path("tests"));
    return true;
  } catch (const std::exception& e) {
    error = e.what();
    return false;
  }
}

}  // namespace

TEST_CASE("mutation: 60 mutants of the price-index and term-structure CSVs, exit 0 or a named exit 2") {
  namespace fs = std::filesystem;
  const fs::path root = scratch_dir("mutation-prices");
  Mutator m(20 + 480);
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 60; ++i) {
    const bool term_structure = i % 2 == 1;
    const char* fixture = term_structure ? "term_structure.csv" : "price_index_two_series.csv";
    const fs::path in = root / ("m" + std::to_string(i)) / "in", out_dir = root / ("m" + std::to_string(i)) / "out";
    fs::create_directories(in);
    fs::create_directories(out_dir);
    std::string what;
    const std::string input = (in / fixture).string();
    write_text(input, m.mutate_csv(read_text_file(source_path(std::string("tests/fixtures/prices/") + fixture)), what));
    const std::string out = (out_dir / "out.json").string();
    INFO(fixture << ": " << what);
    const CliResult r =
        term_structure
            ? run_cli({"pricing", "import", "--format", "term-structure", input, "-o", out, "--discount-rate", "0.08",
                       "--offer", "test/gpu8/region-a", "--gpus-per-instance", "8"})
            : run_cli({"pricing", "import", "--format", "price-index", input, "-o", out, "--series", "a"});
    INFO("stderr: " << r.err);
    REQUIRE((r.exit_code == 0 || r.exit_code == 2));
    CHECK_MESSAGE(escaped_text(r.err, LineBreaks::keep) == r.err, "a message echoes bytes that are not text");
    if (r.exit_code == 0) {
      ++accepted;
      const std::string text = read_text_file(out);
      INFO("output: " << text);
      CHECK_FALSE(std::regex_search(text, std::regex(R"(\b(nan|inf)\b)")));  // as words: "provenance" holds "nan"
      std::string error;
      CHECK_MESSAGE(price_import_loads(Json::parse(text), term_structure, error),
                    "the import wrote a file a scenario rejects: " << error);
      continue;
    }
    ++rejected;
    const bool names_input = r.err.find(input + ": ") != std::string::npos;
    CHECK_MESSAGE(names_input, "the message names no input file");
    CHECK_MESSAGE(fs::is_empty(out_dir), "a failed import left a file behind");
  }
  MESSAGE("price import mutants: 60, accepted " << accepted << ", rejected " << rejected);
  CHECK(accepted >= 10);
  CHECK(rejected >= 10);
  fs::remove_all(root);
}

}  // namespace tco::test
