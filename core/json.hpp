// The one way kverify writes JSON (check, report, bench, mutants, agree): nlohmann::json (Debian
// nlohmann-json3-dev), keys in the order written so the files read in schema order.
#pragma once

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace kverify {

using Json = nlohmann::ordered_json;

// A number, or null where JSON has none (NaN, +-inf).
inline Json json_number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

// The document as written to a file: two-space indentation, a final newline.
inline std::string json_text(const Json& j) { return j.dump(2) + "\n"; }

}  // namespace kverify
