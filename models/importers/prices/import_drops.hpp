// What a price-list importer could not use, counted by reason, with where the first few were
// (a JSON pointer or "line N"): the drop-and-count report of `tcosim pricing import`. Each
// reason becomes one warning Finding, and the summary line lists the counts, e.g.
//   "3 dropped: 2 not Linux, 1 not a GPU instance"
// Reasons keep the order they were first seen in, so the same file gives the same report.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/finding.hpp"

namespace tco {

class ImportDrops {
 public:
  // One item dropped for `reason` (e.g. "not Linux"), found at `where`.
  void add(const std::string& reason, const std::string& where);

  long total() const { return total_; }
  // The count of one reason; 0 when none was dropped for it.
  long count(const std::string& reason) const;
  // "2 not Linux, 1 not a GPU instance" (empty when nothing was dropped).
  std::string summary() const;
  // One warning per reason: code `code`, file `file`, where = the first few places.
  std::vector<Finding> findings(const std::string& code, const std::string& file) const;

 private:
  struct Reason {
    std::string name;
    long count = 0;
    std::vector<std::string> first_places;
  };
  std::vector<Reason> reasons_;
  long total_ = 0;
};

}  // namespace tco
