// The byte -> Case decoder of the op fuzz targets (and its inverse, for seeds).
//
// A fuzz input is a sequence of choices, read from the end of the input by FuzzedDataProvider
// (an input that runs out reads 0: the first option of every remaining choice, so the empty input
// is `shape=1x1`, f32, contiguous, values=normal). In order:
//
//   variant   one of the target's variants (production ones that run on the backend), or auto
//   dtype     f32 | f16 | bf16
//   shape     each size: a small one (1..17), a boundary (2^k +-1, multiples of 32 +-1, primes), any
//             size up to the limit, or the limit itself, biased to small (see size_choice);
//             rows <= 64 (65537 for one or two columns, through the rows' limit way in its full
//             range), rows x cols <= kMaxElements (64 x 1024), rows x min(1024, cols) <= 32768
//             (emulated threads), and the variant's own limits; matmul M*N*K <= kMaxMultiplyAdds
//             and M*N <= kMaxElements. Most Cases stay within a cost budget (see kSoft* and
//             size_choice in case_decoder.cpp): the limits are reached by one rare way in 16
//   values    recipe and its parameter (default or one from a table of in-domain values)
//   layout    per tensor: contiguous, padded rows, column-major (+padding), a column stride of
//             2..4, column-major with a row stride of 2..4, far (rows or columns 2^31 + 0..63
//             elements apart, at most 16 of them); an offset of 0..64 elements
//   seed      of the value recipe (0..65535)
//   schedule  0 (thread order) or a seed: the order of a block's threads is part of the input
//
// Every decoded Case is valid (parse_case accepts its text and gives it back), inside the limits
// above, supported by its variant on the backend, and in the op's contract domain (e.g. sums
// whose magnitudes stay far from f32 overflow), so a failing Verdict is a kernel bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/case.hpp"

namespace kverify {
struct Variant;
}

namespace kverify::fuzz {

// The elements of a Case of an op that declares no size choices of its own (OpSpec::fuzz_sizes):
// the product of its sizes.
inline constexpr std::int64_t kMaxElements = 64 * 1024;

// Where choices come from: a fuzz input (InputChoices) or anything else that answers.
class Choices {
 public:
  virtual ~Choices() = default;
  // A whole number in [lo, hi].
  virtual std::uint64_t pick(std::uint64_t lo, std::uint64_t hi) = 0;
};

// Choices read from a fuzz input with FuzzedDataProvider (integers from the end of the data).
class InputChoices : public Choices {
 public:
  InputChoices(const std::uint8_t* data, std::size_t size);
  ~InputChoices() override;
  std::uint64_t pick(std::uint64_t lo, std::uint64_t hi) override;

 private:
  struct Impl;
  Impl* impl_;
};

struct DecodeOptions {
  const OpSpec* op = nullptr;
  Backend backend = Backend::emu;
  // The variants a choice can name, in order; auto is the choice after them when allow_auto.
  std::vector<const Variant*> variants;
  bool allow_auto = true;
  // --variant: the variant choice is still read (so the rest of the input means the same), then
  // replaced by this one.
  const Variant* pinned = nullptr;
};

// The op's production variants that run on `backend` (registry order), for DecodeOptions::variants.
std::vector<const Variant*> fuzzable_variants(const OpSpec& op, Backend backend);

struct Decoded {
  Case c;                            // canonical: c == parse_case(c.to_text())
  const Variant* variant = nullptr;  // null: variant=auto
};

// Never fails and never throws for any input: every input decodes to a valid Case.
Decoded decode_case(Choices& choices, const DecodeOptions& options);
Decoded decode_case(const std::uint8_t* data, std::size_t size, const DecodeOptions& options);

// The op targets' libFuzzer dictionary: encoded boundary sizes and the size mode bytes.
std::string decoder_dictionary();

// The Case fields the decoder gives (kCaseFields keys), in the order its choices draw them.
std::vector<std::string_view> decoder_fields();

// The inverse: bytes that decode to `c` (the seeds of corpus/<op>/ are made with it). Throws
// InputError naming the field when `c` is not one the decoder can produce.
std::vector<std::uint8_t> encode_case(const Case& c, const DecodeOptions& options);

}  // namespace kverify::fuzz
