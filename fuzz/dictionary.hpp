// The libFuzzer dictionaries, generated from the tables they describe so they cannot drift: the
// op targets' from the decoder's size tables and mode bytes (fuzz/case_decoder.cpp), the text
// targets' from the Case fields, the ops and their tensors, the registry's variants, the dtypes,
// the value recipes and backends, and a linked target's own words (cli: the commands and their
// options; report_json: the report schema's keys). `fuzz_<target>
// --write-dict FILE` writes one; `kverify fuzz` and fuzz/build.sh write it before fuzzing.
#pragma once

#include <string>
#include <vector>

#include "fuzz/targets.hpp"

namespace kverify::fuzz {

// In libFuzzer's dictionary format (name="value" lines, # comments).
std::string dictionary(const Target& target);

}  // namespace kverify::fuzz
