// The inputs rank 0 reads and shares under mpirun (core/io/input_snapshot.hpp, issue #26): what a
// recording keeps, its bytes on the wire, and that an installed snapshot answers every read of
// a scenario's inputs once the files are gone from the disk (as they are on a rank that cannot
// see them). The mpirun side is tests/check_mpi.py (mpi_root_reads_inputs_*).
#include <filesystem>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "core/io/input_snapshot.hpp"
#include "models/catalog/catalog.hpp"
#include "scenario_builder.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;

namespace tco::test {

namespace {

// Forgets the installed snapshot when the test ends, so that no other test reads from it.
struct SnapshotCleared {
  ~SnapshotCleared() { clear_input_snapshot(); }
};

void copy_folder(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& e : fs::directory_iterator(from))
    if (e.is_regular_file()) fs::copy_file(e.path(), to / e.path().filename(), fs::copy_options::overwrite_existing);
}

}  // namespace

TEST_CASE("input snapshot: encode and decode give back every file's bytes and every folder's list") {
  InputSnapshot s;
  s.files["a.json"] = std::string("{\"x\": 1}\n");
  s.files["bin"] = std::string("\0\x01\xff", 3);  // any bytes, NULs included
  s.files["empty"] = "";
  s.folders["cat"] = {"cat/a.json", "cat/b.json"};
  s.folders["none"] = {};
  const std::string bytes = s.encode();
  const InputSnapshot back = InputSnapshot::decode(bytes);
  CHECK(back.files == s.files);
  CHECK(back.folders == s.folders);
  // Every count and length is 8 bytes, then the text:
  // files:   8 + ("a.json" 8+6, its 9 bytes 8+9) + ("bin" 8+3, 8+3) + ("empty" 8+5, 8+0) = 8 + 31 + 22 + 21 = 82
  // folders: 8 + ("cat" 8+3, 2 entries 8, 8+10, 8+10) + ("none" 8+4, 0 entries 8) = 8 + 55 + 20 = 83
  CHECK(bytes.size() == 82 + 83);
  CHECK_THROWS(InputSnapshot::decode(bytes.substr(0, bytes.size() - 1)));
  CHECK_THROWS(InputSnapshot::decode(bytes + "x"));
  CHECK(InputSnapshot::decode(InputSnapshot{}.encode()).empty());
}

TEST_CASE("input snapshot: a recorded scenario and catalog load from the snapshot once the files are gone") {
  const SnapshotCleared cleared;
  const fs::path dir = scratch_dir("input-snapshot");
  const fs::path catalog = dir / "catalog";
  copy_folder(fixture_catalog_dir(), catalog);
  Json doc = base_scenario_json();
  doc["catalog_dir"] = catalog.string();
  const std::string scenario = write_json_file(dir / "scenario.json", doc);

  InputRecording recording;
  const Scenario first = load_scenario(scenario);
  InputSnapshot recorded = recording.take();
  CHECK(recorded.files.count(scenario) == 1);
  CHECK(recorded.folders.count(catalog.string()) == 1);
  CHECK(recorded.files.size() == 1 + recorded.folders.at(catalog.string()).size());  // the scenario + each catalog file

  fs::remove_all(dir);  // as a rank that cannot see the files
  CHECK_FALSE(read_input_file(scenario).has_value());
  install_input_snapshot(std::move(recorded));
  CHECK(read_input_file(scenario).has_value());
  CHECK(list_input_folder(catalog.string()).has_value());
  const Scenario again = load_scenario(scenario);
  CHECK(again.scenario_digest_sha256 == first.scenario_digest_sha256);
  CHECK(again.catalog_digest_sha256 == first.catalog_digest_sha256);
  CHECK(again.plans.size() == first.plans.size());

  // max_bytes + 1 bytes at most, so that a reader can say the file is too large.
  CHECK(read_input_file(scenario, 4)->size() == 5);
  clear_input_snapshot();
  CHECK_FALSE(read_input_file(scenario).has_value());
  CHECK_FALSE(list_input_folder(catalog.string()).has_value());
}

}  // namespace tco::test
