#include "fuzz/case_decoder.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/error.hpp"
#include "kernels/registry.hpp"

namespace kverify::fuzz {
namespace {

// --- the tables the choices index ------------------------------------------------------------

constexpr std::int64_t kMaxThreads = 32 * 1024;  // rows x min(1024, cols rounded up to 32)
constexpr std::int64_t kMaxRows = 64;            // with the element budget: Cases up to 64 x 1024, or 1 x 65536
// The budgets of size_choice (see there), which all its common ways and all but one in 16 of its
// rare ways keep to: columns; rows x min(1024, cols rounded up to 32) emulated threads; matmul's M,
// its M x N outputs and its K. A matmul Case costs about 1 ms per block of C and K tile (both
// variants run 256 threads on a 64 x 64 or 128 x 128 tile of C, whatever M and N, and step K by
// 16 or 8), so M x N and K are what the budget bounds.
constexpr std::int64_t kSoftCols = 4096;
constexpr std::int64_t kSoftThreads = 512;
constexpr std::int64_t kSoftMatmulM = 256;
constexpr std::int64_t kSoftOutputs = 2048;
constexpr std::int64_t kSoftMatmulK = 32;

// Rows past grid.y's 65535 (and any grid capped at 65535 blocks) for a tensor of at most two columns.
constexpr std::int64_t kTallRows = 65537;
constexpr std::int64_t kTallMaxCols = 2;

constexpr std::int64_t kSmallSizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17};
// Powers of two +-1, multiples of 32 +-1, primes, and the sizes where a variant or the
// dispatcher changes its mind (264 rows: split_row; 16384 columns; 57344: block_on_chip).
constexpr std::int64_t kBoundarySizes[] = {
    10,   13,   31,   32,    33,    47,    48,    49,    63,    64,    65,    95,    96,    97,
    100,  127,  128,  129,   191,   192,   193,   255,   256,   257,   263,   264,   265,   511,
    512,  513,  1000, 1021,  1023,  1024,  1025,  2047,  2048,  2049,  4093,  4095,  4096,  4097,
    8191, 8192, 8193, 16383, 16384, 16385, 32767, 32768, 32769, 57344, 57345, 65521, 65535, 65536};

constexpr std::uint64_t kLayoutModes =
    8;  // 0, 1, 6 contiguous; 2 padded, 3 col-major, 4 col stride, 5 col-major strided, 7 far
// Mode 7: rows 2^31 + pad elements apart (at most kFarMaxLines rows; else columns so apart, at most
// kFarMaxLines columns; else contiguous): past 2^31 elements and 4 GiB on a few mapped pages.
constexpr std::int64_t kFarStride = std::int64_t{1} << 31;
constexpr std::int64_t kFarMaxLines = 16;
constexpr std::uint64_t kMaxPad = 63;
constexpr std::uint64_t kMaxOffset = 64;
constexpr std::uint64_t kMaxSeed = 65535;

// In-domain recipe parameters per op (OpSpec::fuzz_params): a recipe is drawn with its default
// parameter or one of its op's table. A recipe the table does not list is drawn with its default
// only (a parameter's meaning differs per recipe: subnormal's is an exponent), and
// OpSpec::fuzz_excluded_recipes lists recipes whose default leaves the op's domain.
bool recipe_excluded(const OpSpec& op, std::string_view recipe) {
  for (auto r : op.fuzz_excluded_recipes)
    if (r == recipe) return true;
  return false;
}

std::span<const double> params_for(const OpSpec& op, std::string_view recipe) {
  for (const auto& r : op.fuzz_params)
    if (r.recipe == recipe) return r.params;
  return {};
}

// The recipes an op's inputs are drawn from (kRecipes order, less the excluded ones).
std::vector<const RecipeInfo*> recipes_for(const OpSpec& op) {
  std::vector<const RecipeInfo*> out;
  for (const auto& r : kRecipes)
    if (!recipe_excluded(op, r.name)) out.push_back(&r);
  return out;
}

bool same_double(double a, double b) { return a == b && std::signbit(a) == std::signbit(b); }

std::vector<std::int64_t> sizes_up_to(std::span<const std::int64_t> table, std::int64_t max) {
  std::vector<std::int64_t> out;
  for (auto s : table)
    if (s <= max) out.push_back(s);
  return out;
}

// --- one walk over the choices, shared by the decoder and the encoder ---------------------------
//
// The encoder runs the same walk with a Choices that answers with the value that reproduces the
// target Case, so the two cannot drift apart: `Coder` is told, at each choice, what the target
// field is, and `want(...)` is only consulted when encoding.

struct Coder {
  Choices& choices;
  const Case* target = nullptr;                                            // encoding: the Case to reproduce
  std::vector<std::pair<std::uint64_t, std::uint64_t>>* record = nullptr;  // encoding: (value - lo, hi - lo)

  // A choice in [lo, hi]; when encoding, `wanted` is the value to emit (nullopt: unrepresentable).
  std::uint64_t take(std::uint64_t lo, std::uint64_t hi, std::optional<std::uint64_t> wanted, const char* field) {
    if (!target) return choices.pick(lo, hi);
    if (!wanted || *wanted < lo || *wanted > hi)
      throw InputError(std::string("the decoder cannot produce this Case's ") + field + " (" + target->to_text() + ")");
    record->emplace_back(*wanted - lo, hi - lo);
    return *wanted;
  }
};

std::optional<std::uint64_t> index_of(std::span<const std::int64_t> table, std::int64_t v) {
  for (std::size_t i = 0; i < table.size(); ++i)
    if (table[i] == v) return i;
  return std::nullopt;
}

// A size in [1, max], drawn through a mode byte (0..63) so that one exec stays cheap on average
// (under ASan an element costs about 1 us and an emulated thread about 3 us: a 1 x 65536 row takes
// 70 ms, 64 rows of 1024 on a 1024-thread variant 0.4 s) while tails stay likely. The rare, costly
// ways sit in the middle of the range: the bytes libFuzzer favours (0x00, 0xff, 0x7f, 0x80, ...)
// give small sizes. Each way is bounded by the caller's budget (`soft_max`, below) except a rare
// way given the full range (1 in 16). Columns (and matmul's M, N, K):  Rows (<= 64, and see below):
//   0..19, 44..63  a small size, 1..17        62.5%     0..23, 40..63  a small size     75%
//   20..33         a boundary size <= 257     21.9%     24..35         a boundary <= 33 18.8%
//   34..39         any size up to 1024         9.4%     36..37         any size          3.1%
//   40             any boundary size           1.6%     38             any boundary      1.6%
//   41             any size up to 8192         1.6%     39             the limit         1.6%
//   42             any size                    1.6%
//   43             the limit itself            1.6%
enum class SizeKind { cols, rows };

//
// Budgets (`soft_max` <= max): the cost of a Case is mostly its emulated threads and elements, and
// one Case at the limit costs as much as a thousand small ones, which set the mean when every
// Case may reach the limit. So the common ways (small, near, mid) stay under `soft_max` (the
// callers' thread and element budgets, kSoft*), and a rare way (boundary, wide, any, limit) reads
// one more choice, 0..15: kFullRange gives it the whole range up to `max` (0 when soft_max >=
// max: no choice is read then), any other value the range up to `soft_max`. Every size up to the
// limit stays reachable, and every boundary below the budget stays common.
constexpr std::uint64_t kFullRange = 9;  // not 0 (inputs that run out), 0xff or 0x7f (libFuzzer's favourites)

// The first mode byte of each way of the table above (the encoder and the dictionary use them).
struct SizeModes {
  std::uint64_t near, mid, boundary, wide, any, limit;  // 0: the kind has no such way
};
constexpr SizeModes kColModes{20, 34, 40, 41, 42, 43};
constexpr SizeModes kRowModes{24, 0, 38, 0, 36, 39};

// `past_limit` (0: none): what the limit way gives in its full range instead of `max` (rows past
// grid.y's 65535 for a tensor of one or two columns).
std::int64_t size_choice(Coder& k, std::int64_t max, std::optional<std::int64_t> want, const char* field,
                         SizeKind kind = SizeKind::cols, std::int64_t soft_max = INT64_MAX,
                         std::int64_t past_limit = 0) {
  const bool rows = kind == SizeKind::rows;
  const std::int64_t soft = std::max<std::int64_t>(1, std::min(max, soft_max));
  const auto small = sizes_up_to(kSmallSizes, soft);
  const auto near = sizes_up_to(kBoundarySizes, std::min<std::int64_t>(soft, rows ? 33 : 257));
  const auto boundary = sizes_up_to(kBoundarySizes, max);  // a prefix of it when not full range
  const std::int64_t mid = std::min<std::int64_t>(soft, 1024);
  enum Way { small_way, near_way, mid_way, boundary_way, wide_way, any_way, limit_way };
  const auto way_of = [&](std::uint64_t m) -> Way {
    if (rows) {
      if (m < 24 || m >= 40) return small_way;
      if (m < 36) return near_way;
      if (m < 38) return any_way;
      return m == 38 ? boundary_way : limit_way;
    }
    if (m < 20 || m >= 44) return small_way;
    if (m < 34) return near_way;
    if (m < 40) return mid_way;
    return m == 40 ? boundary_way : m == 41 ? wide_way : m == 42 ? any_way : limit_way;
  };
  std::optional<std::uint64_t> mode, detail, full;
  if (want) {  // the first mode byte of the way that gives the wanted size
    full = *want > soft ? kFullRange : 0;
    const SizeModes& m = rows ? kRowModes : kColModes;
    if (auto i = index_of(small, *want))
      mode = 0, detail = *i;
    else if (auto j = index_of(near, *want))
      mode = m.near, detail = *j;
    else if (auto b = index_of(boundary, *want))
      mode = m.boundary, detail = *b;
    else if (*want == max || (past_limit > 0 && *want == past_limit && max > soft))
      mode = m.limit, full = max > soft ? kFullRange : 0;
    else if (!rows && *want <= mid)
      mode = m.mid, detail = static_cast<std::uint64_t>(*want);
    else if (!rows && *want <= std::min<std::int64_t>(max, 8192))
      mode = m.wide, detail = static_cast<std::uint64_t>(*want);
    else
      mode = m.any, detail = static_cast<std::uint64_t>(*want);
  }
  const auto pick_in = [&](const std::vector<std::int64_t>& table, std::int64_t limit) {
    std::size_t n = 0;  // the table's entries up to `limit` (it is sorted)
    while (n < table.size() && table[n] <= limit) ++n;
    if (n == 0) return limit;  // every entry is above the limit
    return table[k.take(0, n - 1, detail, field)];
  };
  const auto any_up_to = [&](std::int64_t limit) {
    return static_cast<std::int64_t>(k.take(1, static_cast<std::uint64_t>(limit), detail, field));
  };
  const Way way = way_of(k.take(0, 63, mode, field));
  if (way == small_way) return pick_in(small, soft);
  if (way == near_way) return pick_in(near, soft);
  if (way == mid_way) return any_up_to(mid);
  // A rare way: the whole range once in 16.
  const bool full_range = soft < max && k.take(0, 15, full, field) == kFullRange;
  const std::int64_t limit = soft >= max || full_range ? max : soft;
  switch (way) {
    case boundary_way:
      return pick_in(boundary, limit);
    case wide_way:
      return any_up_to(std::min<std::int64_t>(limit, 8192));
    case any_way:
      return any_up_to(limit);
    default:
      return full_range && past_limit > 0 ? past_limit : limit;
  }
}

// Offsets: 0 three times in four, else 1..64 elements (misaligns vector paths).
void code_offset(Coder& k, const Placement* want, const char* field, Placement& p) {
  std::optional<std::uint64_t> offset_mode, offset;
  if (want) {
    if (want->offset == 0)
      offset_mode = 0;
    else
      offset_mode = 1, offset = static_cast<std::uint64_t>(want->offset);
  }
  if (k.take(0, 3, offset_mode, field) == 1) p.offset = static_cast<std::int64_t>(k.take(1, kMaxOffset, offset, field));
}

// The layout of an R x C tensor (see the header); `want` is the target's placement when encoding.
Placement layout_choice_2d(Coder& k, std::int64_t rows, std::int64_t cols, const Placement* want, const char* field) {
  std::optional<std::uint64_t> mode, pad, step;
  if (want) {
    if (!want->strides || (*want->strides == Strides{cols, 1})) {  // the canonical form drops contiguous strides
      mode = 0;
    } else {
      const std::int64_t rs = (*want->strides)[0], cs = (*want->strides)[1];
      if (cs == 1 && rs - cols - 1 >= 0 && rs - cols - 1 <= static_cast<std::int64_t>(kMaxPad))
        mode = 2, pad = rs - cols - 1;
      else if (rs == 1 && cs - rows >= 0 && cs - rows <= static_cast<std::int64_t>(kMaxPad))
        mode = 3, pad = cs - rows;
      else if (cs >= 2 && cs <= 4 && rs - cols * cs >= 0 && rs - cols * cs <= static_cast<std::int64_t>(kMaxPad))
        mode = 4, step = cs - 2, pad = rs - cols * cs;
      else if (rs >= 2 && rs <= 4 && cs - rows * rs >= 0 && cs - rows * rs <= static_cast<std::int64_t>(kMaxPad))
        mode = 5, step = rs - 2, pad = cs - rows * rs;
      else if (cs == 1 && rows <= kFarMaxLines && rs - kFarStride >= 0 && rs - kFarStride <= std::int64_t{kMaxPad})
        mode = 7, pad = rs - kFarStride;
      else if (rs == 1 && rows > kFarMaxLines && cols <= kFarMaxLines && cs - kFarStride >= 0 &&
               cs - kFarStride <= std::int64_t{kMaxPad})
        mode = 7, pad = cs - kFarStride;
    }
  }
  Placement p;
  // Modes 0, 1, 6 (bytes libFuzzer favours among them): contiguous.
  const auto m = k.take(0, kLayoutModes - 1, mode, field);
  if (m == 2) {
    p.strides = Strides{cols + 1 + static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field)), 1};
  } else if (m == 3) {
    p.strides = Strides{1, rows + static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field))};
  } else if (m == 4) {
    const auto s = 2 + static_cast<std::int64_t>(k.take(0, 2, step, field));
    p.strides = Strides{cols * s + static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field)), s};
  } else if (m == 5) {
    const auto s = 2 + static_cast<std::int64_t>(k.take(0, 2, step, field));
    p.strides = Strides{s, rows * s + static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field))};
  } else if (m == 7 && (rows <= kFarMaxLines || cols <= kFarMaxLines)) {
    const auto far = kFarStride + static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field));
    p.strides = rows <= kFarMaxLines ? Strides{far, 1} : Strides{1, far};
  }
  code_offset(k, want, field, p);
  return p;
}

// The layout of a tensor of any rank: a rank-2 one as above; another rank reads the same mode
// choice with its dimensions nested (core/layout.hpp): 2 every dimension padded past the one
// inside it, 3 the dimensions in reverse order (column-major) padded, 4 the innermost strided by
// 2..4, 7 the outermost dimension far apart (when it has at most kFarMaxLines); others contiguous.
Placement layout_choice(Coder& k, const Layout& l, const Placement* want, const char* field) {
  if (l.rank == 2) return layout_choice_2d(k, l.sizes[0], l.sizes[1], want, field);
  const auto nested = [&](bool reversed, std::int64_t innermost, std::int64_t pad) {
    Strides s;
    s.rank = l.rank;
    std::int64_t stride = innermost;
    for (int i = 0; i < l.rank; ++i) {
      const int d = reversed ? i : l.rank - 1 - i;
      s[d] = stride;
      stride = stride * l.sizes[static_cast<std::size_t>(d)] + (i == 0 ? pad : 0);
    }
    return s;
  };
  const bool far_ok = l.rank > 1 && l.sizes[0] <= kFarMaxLines;
  std::optional<std::uint64_t> mode, pad, step;
  if (want) {
    mode = 0;
    if (want->strides && l.rank > 0) {
      mode.reset();
      for (std::uint64_t p = 0; p <= kMaxPad && !mode; ++p) {
        const auto pi = static_cast<std::int64_t>(p);
        if (*want->strides == nested(false, 1, pi + 1))
          mode = 2, pad = p;
        else if (*want->strides == nested(true, 1, pi))
          mode = 3, pad = p;
        for (std::int64_t st = 2; st <= 4 && !mode; ++st)
          if (*want->strides == nested(false, st, pi)) mode = 4, step = st - 2, pad = p;
        if (!mode && far_ok) {
          Strides f = nested(false, 1, 0);
          f[0] = kFarStride + pi;
          if (*want->strides == f) mode = 7, pad = p;
        }
      }
      if (*want->strides == nested(false, 1, 0)) mode = 0;
    }
  }
  Placement p;
  const auto m = k.take(0, kLayoutModes - 1, mode, field);
  if (l.rank > 0) {
    if (m == 2) {
      p.strides = nested(false, 1, 1 + static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field)));
    } else if (m == 3) {
      p.strides = nested(true, 1, static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field)));
    } else if (m == 4) {
      const auto st = 2 + static_cast<std::int64_t>(k.take(0, 2, step, field));
      p.strides = nested(false, st, static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field)));
    } else if (m == 7 && far_ok) {
      Strides f = nested(false, 1, 0);
      f[0] = kFarStride + static_cast<std::int64_t>(k.take(0, kMaxPad, pad, field));
      p.strides = f;
    }
  }
  code_offset(k, want, field, p);
  return p;
}

// --- the walk: one coder per Case field, in the order the choices are read -----------------------
//
// Every field of the Case table (core/case.cpp, kCaseFields) is drawn by exactly one coder here, or
// given by the target (op, backend); decoder_fields() lists them and a test holds the two lists
// equal, so a new Case field cannot be left out of the fuzz inputs. The order is the input format:
// changing it changes what every corpus file decodes to.

struct Walk {
  Coder& k;
  const DecodeOptions& o;
  const Case* t;  // encoding: the Case to reproduce
  Decoded d;
};

void code_op_and_backend(Walk& w) {  // given by the target, not drawn
  w.d.c.op = w.o.op;
  w.d.c.backend = w.o.backend;
}

void code_variant(Walk& w) {
  const DecodeOptions& o = w.o;
  const std::uint64_t n = o.variants.size();
  if (n == 0 && !o.allow_auto) throw std::logic_error("fuzz decoder: no variant to choose from");
  std::optional<std::uint64_t> want_variant;
  if (w.t) {
    if (w.t->variant == "auto" && o.allow_auto) want_variant = n;
    for (std::uint64_t i = 0; i < n; ++i)
      if (o.variants[i]->name == w.t->variant) want_variant = i;
    if (o.pinned) want_variant = 0;  // any choice: it is replaced
  }
  const std::uint64_t vi = w.k.take(0, o.allow_auto ? n : n - 1, want_variant, "variant");
  w.d.variant = o.pinned ? o.pinned : (vi < n ? o.variants[vi] : nullptr);
  w.d.c.variant = w.d.variant ? std::string(w.d.variant->name) : "auto";
}

void code_dtype(Walk& w) {
  constexpr DType kDTypes[] = {DType::f32, DType::f16, DType::bf16};
  Case& c = w.d.c;
  std::optional<std::uint64_t> want_dtype;
  if (w.t) want_dtype = w.t->dtype == DType::f32 ? 0 : w.t->dtype == DType::f16 ? 1 : 2;
  c.dtype = kDTypes[w.k.take(0, 2, want_dtype, "dtype")];
  if (w.d.variant && !w.d.variant->supports(c.dtype))
    for (DType dt : kDTypes)
      if (w.d.variant->supports(dt)) {
        c.dtype = dt;
        break;
      }
}

// The op's size choices through size_choice, wanting the target's sizes when encoding.
class WalkSizes final : public FuzzSizes {
 public:
  WalkSizes(Coder& k, const Case* target, const Variant* variant) : k_(k), target_(target) {
    if (variant) max_rows = variant->max_rows, max_cols = variant->max_cols;
  }
  std::int64_t extent(std::int64_t max, std::int64_t soft, int dim) override {
    return size_choice(k_, max, want(dim), "shape", SizeKind::cols, soft);
  }
  std::int64_t count(std::int64_t max, std::int64_t soft, std::int64_t past_limit, int dim) override {
    return size_choice(k_, max, want(dim), "shape", SizeKind::rows, soft, past_limit);
  }

 private:
  std::optional<std::int64_t> want(int dim) const {
    if (!target_) return std::nullopt;
    return target_->shape.at(static_cast<std::size_t>(dim));
  }
  Coder& k_;
  const Case* target_;
};

// The sizes of an op that declares no fuzz_sizes, from its DimSpecs: the tail dimensions drawn the
// way columns are, then the count dimensions the way rows are, within the element budget of the
// row ops (kMaxElements, a soft 4096) and each dimension's domain (a size outside it is moved in).
void generic_sizes(FuzzSizes& choose, const OpSpec& op, std::span<std::int64_t> sizes) {
  constexpr std::int64_t kSoftElements = 4096, kMaxCount = 64;
  std::int64_t elements = 1;
  const auto inside = [](const DimSpec& d, std::int64_t n) {
    n = std::clamp(n, d.min, d.max);
    n = (n + d.multiple - 1) / d.multiple * d.multiple;
    return n > d.max ? n - d.multiple : n;
  };
  for (const DimDraw pass : {DimDraw::tail, DimDraw::count})
    for (std::size_t i = 0; i < op.dims.size(); ++i) {
      const DimSpec& d = op.dims[i];
      if (d.draw != pass) continue;
      const std::int64_t budget = std::max<std::int64_t>(1, kMaxElements / elements);
      const std::int64_t soft = std::max<std::int64_t>(1, kSoftElements / elements);
      const std::int64_t max =
          std::min({budget, d.max, d.draw_max == INT64_MAX ? budget : std::max(d.draw_max, budget)});
      const int dim = static_cast<int>(i);
      const std::int64_t n =
          pass == DimDraw::tail ? choose.extent(max, soft, dim) : choose.count(std::min(max, kMaxCount), soft, 0, dim);
      sizes[i] = inside(d, n);
      elements *= sizes[i];
    }
}

void code_shape(Walk& w) {
  const OpSpec& op = *w.o.op;
  WalkSizes choose(w.k, w.t, w.d.variant);
  w.d.c.shape.assign(op.dims.size(), 1);
  if (op.fuzz_sizes)
    op.fuzz_sizes(choose, w.d.c.shape);
  else
    generic_sizes(choose, op, w.d.c.shape);
}

// Each parameter: its default, or one of its declared draws.
void code_params(Walk& w) {
  const OpSpec& op = *w.o.op;
  for (std::size_t p = 0; p < op.params.size(); ++p) {
    const ParamSpec& spec = op.params[p];
    if (spec.draws.empty()) continue;
    std::optional<std::uint64_t> want;
    if (w.t) {
      want = 0;
      if (const auto& given = w.t->params[p])
        for (std::size_t i = 0; i < spec.draws.size(); ++i)
          if (same_double(spec.draws[i], *given)) want = i + 1;
    }
    const std::uint64_t pick = w.k.take(0, spec.draws.size(), want, "parameter");
    if (pick == 0 || spec.draws[pick - 1] == spec.default_value)
      w.d.c.params[p].reset();
    else
      w.d.c.params[p] = spec.draws[pick - 1];
  }
}

// A recipe, then its default parameter or one from its op's table.
void code_values(Walk& w) {
  Coder& k = w.k;
  const Case* t = w.t;
  const OpSpec& op = *w.o.op;
  Case& c = w.d.c;
  const auto recipes = recipes_for(op);
  std::optional<std::uint64_t> want_recipe, want_given, want_param;
  if (t) {
    for (std::size_t i = 0; i < recipes.size(); ++i)
      if (recipes[i]->name == t->values.name) want_recipe = i;
    want_given = t->values.param_given ? 1 : 0;
    if (t->values.param_given) {
      const auto table = params_for(op, t->values.name);
      for (std::size_t i = 0; i < table.size(); ++i)
        if (same_double(table[i], t->values.param)) want_param = i;
    }
  }
  const RecipeInfo& recipe = *recipes[k.take(0, recipes.size() - 1, want_recipe, "values")];
  c.values = ValueRecipe{std::string(recipe.name), recipe.default_param, false};
  const auto table = params_for(op, recipe.name);
  if (!table.empty() && k.take(0, 1, want_given, "values") == 1) {
    c.values.param = table[k.take(0, table.size() - 1, want_param, "values")];
    c.values.param_given = true;
  }
  if (t && t->values.param_given && table.empty())
    throw InputError("the decoder cannot produce this Case's values (" + t->to_text() + ")");
}

// Strides and offset of each tensor, in the op's tensor order.
void code_layouts(Walk& w) {
  const OpSpec& op = *w.o.op;
  Case& c = w.d.c;
  for (int i = 0; i < op.tensor_count(); ++i) {
    const Layout l = c.layout(i);
    Placement want_p;
    if (w.t) want_p = w.t->placement[static_cast<std::size_t>(i)];
    c.placement[static_cast<std::size_t>(i)] = layout_choice(w.k, l, w.t ? &want_p : nullptr, "layout");
  }
}

void code_seed(Walk& w) {
  w.d.c.seed = w.k.take(0, kMaxSeed, w.t ? std::optional<std::uint64_t>(w.t->seed) : std::nullopt, "seed");
}

// emu only: on cuda the choice is read and dropped.
void code_schedule(Walk& w) {
  std::optional<std::uint64_t> want_sm, want_sched;
  if (w.t) {
    want_sm = w.t->schedule == 0 ? 0 : 1;
    if (w.t->schedule != 0) want_sched = w.t->schedule;
  }
  Case& c = w.d.c;
  if (w.k.take(0, 1, want_sm, "schedule") == 1) c.schedule = w.k.take(1, kMaxSeed, want_sched, "schedule");
  c.run_on(c.backend);
}

struct FieldCoder {
  std::array<std::string_view, 2> keys;  // the Case fields it gives (kCaseFields keys)
  void (*code)(Walk&);
};

constexpr FieldCoder kFieldCoders[] = {
    {{"op", "backend"}, &code_op_and_backend},
    {{"variant"}, &code_variant},
    {{"dtype"}, &code_dtype},
    {{"shape", "dims"}, &code_shape},
    {{"values"}, &code_values},
    {{"<p>"}, &code_params},
    {{"<t>.strides", "<t>.offset"}, &code_layouts},
    {{"seed"}, &code_seed},
    {{"schedule"}, &code_schedule},
};

Decoded walk(Coder& k, const DecodeOptions& o) {
  Walk w{k, o, k.target, {}};
  for (const auto& coder : kFieldCoders) coder.code(w);
  Decoded& d = w.d;
  // A variant that declares what it takes gets every input inside it (kernels/domain.hpp); where
  // no Case near the drawn one is, its smallest Case. `auto` with no variant that takes the Case
  // (an op whose kernels all declare a domain) gets the first fuzzable variant's.
  const Variant* fitted = d.variant;
  if (!fitted && !o.variants.empty()) {
    Case probe = d.c;
    probe.backend = o.backend == Backend::automatic ? Backend::emu : o.backend;
    if (!choose_variant(probe, nullptr)) fitted = o.variants.front();
  }
  if (fitted && !fit_into(domain_of(*fitted), d.c)) {
    const Domain& domain = domain_of(*fitted);
    for (std::size_t i = 0; i < d.c.shape.size() && i < domain.min.size(); ++i)
      d.c.shape[i] = (domain.min[i] + domain.multiple[i] - 1) / domain.multiple[i] * domain.multiple[i];
    d.c.placement = {};
    static_cast<void>(fit_into(domain, d.c));
  }

  // Canonical form: what parse_case gives back for the text (it also validates every layout).
  Case canonical;
  try {
    canonical = parse_case(d.c.to_text());
  } catch (const InputError& e) {
    throw std::logic_error(std::string("fuzz decoder produced an invalid Case: ") + e.what());
  }
  // The canonical text must give the same Case back (a finding printed as a line replays exactly).
  if (!(parse_case(canonical.to_text()) == canonical))
    throw std::logic_error("the Case text does not round-trip: '" + canonical.to_text() + "' parses differently");
  d.c = canonical;
  if (d.variant) {
    if (auto why = unsupported(*d.variant, d.c, d.c.backend))
      throw std::logic_error("fuzz decoder produced a Case its variant cannot take: " + *why + " (" + d.c.to_text() +
                             ")");
  }
  return d;
}

}  // namespace

std::string decoder_dictionary() {
  // Sizes: a size drawn "any" is read as (size - 1) in as many bytes as the range needs, from the
  // end of the input, most significant first, i.e. least significant first in memory; libFuzzer
  // inserts these anywhere. Two bytes cover every size up to 65536.
  std::string out = "# sizes: (size - 1), two bytes, least significant first in memory\n";
  const auto hex = [](std::uint64_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\x%02x\\x%02x", static_cast<unsigned>(v & 0xff),
                  static_cast<unsigned>((v >> 8) & 0xff));
    return std::string(buf);
  };
  for (std::int64_t s : {std::int64_t{1}, std::int64_t{2}, std::int64_t{3}})
    out += "size_" + std::to_string(s) + "=\"" + hex(static_cast<std::uint64_t>(s - 1)) + "\"\n";
  for (std::int64_t s : kBoundarySizes)
    out += "size_" + std::to_string(s) + "=\"" + hex(static_cast<std::uint64_t>(s - 1)) + "\"\n";
  // The first mode byte of each way of size_choice, and a rare way's full-range choice before it.
  out += "# size mode bytes (size_choice), and the full-range choice read after a rare way's mode\n";
  const auto byte = [](std::uint64_t v) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(v));
    return std::string(buf);
  };
  const std::pair<const char*, std::uint64_t> modes[] = {
      {"cols_near", kColModes.near},  {"cols_mid", kColModes.mid},           {"cols_boundary", kColModes.boundary},
      {"cols_wide", kColModes.wide},  {"cols_any", kColModes.any},           {"cols_limit", kColModes.limit},
      {"rows_near", kRowModes.near},  {"rows_boundary", kRowModes.boundary}, {"rows_any", kRowModes.any},
      {"rows_limit", kRowModes.limit}};
  for (const auto& [name, mode] : modes) {
    out += std::string("mode_") + name + "=\"" + byte(mode) + "\"\n";
    if (std::string_view(name).ends_with("any") || std::string_view(name).ends_with("limit"))
      out += std::string("full_") + name + "=\"" + byte(kFullRange) + byte(mode) + "\"\n";
  }
  out += "full_range=\"" + byte(kFullRange) + "\"\n";
  return out;
}

std::vector<std::string_view> decoder_fields() {
  std::vector<std::string_view> keys;
  for (const auto& coder : kFieldCoders)
    for (auto key : coder.keys)
      if (!key.empty()) keys.push_back(key);
  return keys;
}

struct InputChoices::Impl {
  FuzzedDataProvider in;
};

InputChoices::InputChoices(const std::uint8_t* data, std::size_t size)
    : impl_(new Impl{FuzzedDataProvider(data, size)}) {}
InputChoices::~InputChoices() { delete impl_; }
std::uint64_t InputChoices::pick(std::uint64_t lo, std::uint64_t hi) {
  return impl_->in.ConsumeIntegralInRange<std::uint64_t>(lo, hi);
}

std::vector<const Variant*> fuzzable_variants(const OpSpec& op, Backend backend) {
  std::vector<const Variant*> out;
  for (const auto& v : all_variants()) {
    if (v.op != op.name || v.mutant) continue;
    if (backend == Backend::emu && !v.on_emu) continue;
    if (backend == Backend::cuda && !v.launch_cuda) continue;
    out.push_back(&v);
  }
  return out;
}

Decoded decode_case(Choices& choices, const DecodeOptions& options) {
  Coder k{choices};
  return walk(k, options);
}

Decoded decode_case(const std::uint8_t* data, std::size_t size, const DecodeOptions& options) {
  InputChoices choices(data, size);
  return decode_case(choices, options);
}

std::vector<std::uint8_t> encode_case(const Case& c, const DecodeOptions& options) {
  if (c.op != options.op) throw InputError("the Case's op is not the target's (" + c.to_text() + ")");
  struct Unused : Choices {
    std::uint64_t pick(std::uint64_t, std::uint64_t) override { throw std::logic_error("unused"); }
  } unused;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> record;
  Coder k{unused, &c, &record};
  walk(k, options);
  // Trailing zero choices may be left out: an input that runs out reads 0.
  while (!record.empty() && record.back().first == 0) record.pop_back();
  // FuzzedDataProvider reads each choice from the end, its most significant byte first.
  std::vector<std::uint8_t> reversed;
  for (const auto& [value, range] : record) {
    int bytes = 0;
    while (bytes < 8 && (range >> (8 * bytes)) > 0) ++bytes;
    for (int b = bytes - 1; b >= 0; --b) reversed.push_back(static_cast<std::uint8_t>(value >> (8 * b)));
  }
  std::vector<std::uint8_t> data(reversed.rbegin(), reversed.rend());
  Case want = c;
  want.backend = options.backend;
  if (want.backend != Backend::emu) want.schedule = 0;
  const Decoded back = decode_case(data.data(), data.size(), options);
  if (!(back.c == want))
    throw InputError("the decoder cannot produce this Case: '" + want.to_text() +
                     "' encodes to bytes that decode to '" + back.c.to_text() + "'");
  return data;
}

}  // namespace kverify::fuzz
