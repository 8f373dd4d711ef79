// The mutator of the mutation tests (tests/test_mutation.cpp, tests/test_mutation_prices.cpp): one
// random change to a JSON document or a CSV file, from a fixed seed.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "core/io/json_reader.hpp"

namespace tco::test {

// Random choices from a fixed-seed mt19937_64 (its output is specified by the standard; the
// std distributions are not, so they are not used).
class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : rng_(seed) {}

  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }

  // The text of `doc` changed in one way; `what` says how.
  std::string mutate_json(const Json& doc, std::string& what) {
    std::vector<std::string> all, numbers, objects;
    collect(doc, "", all, numbers, objects);
    switch (below(7)) {
      case 0: {  // delete a member
        std::vector<std::string> members;
        for (const auto& p : all)
          if (!p.empty() && doc.at(Json::json_pointer(parent_of(p))).is_object()) members.push_back(p);
        if (members.empty()) break;
        const std::string p = members[below(members.size())];
        Json out = doc;
        out.at(Json::json_pointer(parent_of(p))).erase(last_token(p));
        what = "deleted " + p;
        return out.dump(2);
      }
      case 1: {  // a value of another type
        if (all.size() < 2) break;
        const std::string p = all[1 + below(all.size() - 1)];
        static const Json kOthers[] = {"x", nullptr, true, Json::array(), Json::object(), 1, ""};
        Json out = doc;
        out[Json::json_pointer(p)] = kOthers[below(std::size(kOthers))];
        what = p + " = " + out[Json::json_pointer(p)].dump();
        return out.dump(2);
      }
      case 2:
      case 3: {  // an extreme number, or the number x1e12
        if (numbers.empty()) break;
        const std::string p = numbers[below(numbers.size())];
        static const double kExtremes[] = {1e308, -1e308, 1.8e19, 9.3e18, 2147483648.0, -1.0, 0.0, 1e-320, 4294967296.5};
        Json out = doc;
        Json& v = out[Json::json_pointer(p)];
        v = below(2) == 0 ? kExtremes[below(std::size(kExtremes))] : v.get<double>() * 1e12;
        what = p + " = " + v.dump();
        return out.dump(2);
      }
      case 4: {  // a duplicate key
        std::vector<std::string> with_members;
        for (const auto& p : objects)
          if (!doc.at(Json::json_pointer(p)).empty()) with_members.push_back(p);
        if (with_members.empty()) break;
        const std::string p = with_members[below(with_members.size())];
        Json out = doc;
        Json& object = out.at(Json::json_pointer(p));
        const std::string key = object.begin().key();
        object["\x01dup"] = object.begin().value();
        std::string text = out.dump(2);
        const std::string marker = Json(std::string("\x01dup")).dump();
        text.replace(text.find(marker), marker.size(), Json(key).dump());
        what = "duplicate " + p + "/" + key;
        return text;
      }
      case 5: {  // truncated
        const std::string text = doc.dump(2);
        const std::size_t at = below(text.size());
        what = "truncated at byte " + std::to_string(at);
        return text.substr(0, at);
      }
      default:
        break;
    }
    return garbage(doc.dump(2), what);
  }

  // A CSV changed in one way: a line deleted, a cell replaced, truncated, garbage.
  std::string mutate_csv(const std::string& text, std::string& what) {
    std::vector<std::string> lines;
    for (std::size_t from = 0; from < text.size();) {
      const std::size_t end = std::min(text.find('\n', from), text.size());
      lines.push_back(text.substr(from, end - from));
      from = end + 1;
    }
    const std::size_t line = below(lines.size());
    switch (below(4)) {
      case 0: {
        static const char* kCells[] = {"1e308", "-1", "nan", "inf", "x", "", "1e400", "99999999999", "0.1,0.2"};
        const std::size_t comma = lines[line].rfind(',');
        const char* cell = kCells[below(std::size(kCells))];
        lines[line] = (comma == std::string::npos ? std::string() : lines[line].substr(0, comma + 1)) + cell;
        what = "line " + std::to_string(line + 1) + " ends with \"" + cell + "\"";
        break;
      }
      case 1:
        lines.erase(lines.begin() + static_cast<long>(line));
        what = "deleted line " + std::to_string(line + 1);
        break;
      case 2: {
        const std::size_t at = below(text.size());
        what = "truncated at byte " + std::to_string(at);
        return text.substr(0, at);
      }
      default:
        return garbage(text, what);
    }
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
  }

 private:
  std::string garbage(std::string text, std::string& what) {
    static const char kRaw[] = "{}[],:\"\\ \n\x00\xff\xc3garbage1e9-";
    static const std::string kBytes(kRaw, sizeof kRaw - 1);
    const std::size_t at = below(text.size() + 1);
    std::string junk;
    for (std::size_t n = 1 + below(6); n > 0; --n) junk += kBytes[below(kBytes.size())];
    what = "garbage inserted at byte " + std::to_string(at);
    return text.insert(at, junk);
  }

  static void collect(const Json& v, const std::string& p, std::vector<std::string>& all,
                      std::vector<std::string>& numbers, std::vector<std::string>& objects) {
    all.push_back(p);
    if (v.is_number()) numbers.push_back(p);
    if (v.is_object()) {
      objects.push_back(p);
      for (const auto& [k, child] : v.items()) collect(child, pointer_join(p, k), all, numbers, objects);
    } else if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i) collect(v[i], pointer_join(p, std::to_string(i)), all, numbers, objects);
    }
  }
  static std::string parent_of(const std::string& p) { return p.substr(0, p.rfind('/')); }
  static std::string last_token(const std::string& p) {
    return Json::json_pointer(p).back();  // unescaped
  }

  std::mt19937_64 rng_;
};

}  // namespace tco::test
