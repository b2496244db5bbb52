#include "properties/generators.hpp"

#include <algorithm>
#include <array>
#include <ostream>

namespace kverify::properties {
namespace {

// Ascending, so that shrinking (toward the first element) goes toward size 1.
const std::vector<std::int64_t> kTails = {1,    2,    3,    5,    7,    13,   31,    32,    33,   63,
                                          64,   65,   97,   127,  128,  129,  251,   255,   256,  257,
                                          511,  512,  513,  1021, 1023, 1024, 1025,  2047,  2048, 2049,
                                          4093, 4095, 4096, 4097, 8191, 8193, 16383, 16385, 65537};

// The long side of a skinny matmul Case: past every tile count a kernel might cap its grid at, at a
// cost a property's budget affords (the boundary Cases reach 70000, past grid.y's 65535).
constexpr std::int64_t kSkinnyLongSide = 4097;

std::vector<std::int64_t> tails_up_to(std::int64_t max) {
  std::vector<std::int64_t> out;
  for (auto t : kTails)
    if (t <= max) out.push_back(t);
  return out;
}

}  // namespace

rc::Gen<std::int64_t> tail_size_exactly(std::int64_t max) { return rc::gen::elementOf(tails_up_to(max)); }

rc::Gen<std::int64_t> tail_size(std::int64_t max) {
  return rc::gen::weightedOneOf<std::int64_t>(
      {{3, tail_size_exactly(max)}, {1, rc::gen::inRange<std::int64_t>(1, max + 1)}});
}

rc::Gen<Placement> placement(std::int64_t rows, std::int64_t cols, bool any_kind) {
  return rc::gen::exec([=] {
    const int first = any_kind ? 0 : 1;
    const auto kind = static_cast<PlacementKind>(*rc::gen::inRange(first, 5));
    Placement p;
    p.offset = *rc::gen::weightedOneOf<std::int64_t>(
        {{3, rc::gen::just<std::int64_t>(0)}, {1, rc::gen::inRange<std::int64_t>(1, 40)}});
    const std::int64_t pad = *rc::gen::inRange<std::int64_t>(1, 34);
    switch (kind) {
      case PlacementKind::contiguous:
        break;
      case PlacementKind::padded_rows:
        p.strides = std::pair{cols + pad, std::int64_t{1}};
        break;
      case PlacementKind::column_major:
        p.strides = std::pair{std::int64_t{1}, rows + pad - 1};
        break;
      case PlacementKind::strided_columns: {
        const std::int64_t cs = *rc::gen::inRange<std::int64_t>(2, 4);
        p.strides = std::pair{cols * cs + pad, cs};
        break;
      }
      case PlacementKind::far:
        if (rows <= kFarMaxLines)
          p.strides = std::pair{kFarStride + pad, std::int64_t{1}};
        else if (cols <= kFarMaxLines)
          p.strides = std::pair{std::int64_t{1}, kFarStride + pad};
        else
          p.strides = std::pair{cols + pad, std::int64_t{1}};  // too many rows and columns: padded
        break;
    }
    return p;
  });
}

rc::Gen<ValueRecipe> in_domain_values(const OpSpec& op, DType dtype) {
  return rc::gen::elementOf(op.in_domain_values(dtype));
}

rc::Gen<std::uint64_t> schedule_seed() {
  return rc::gen::weightedOneOf<std::uint64_t>(
      {{2, rc::gen::just<std::uint64_t>(0)}, {1, rc::gen::inRange<std::uint64_t>(1, 1000)}});
}

namespace {

// One drawer per Case field, in draw order (RapidCheck shrinks the draws in this order, so the shape
// shrinks first and the rest follows it). op and dtype come from the property, variant and backend
// from pinning the Case to each variant (property_kit.hpp: pin); generator_fields() lists them all
// and a test holds that list equal to the Case table's keys. gen::exec, not gen::build: the
// placements depend on the drawn shape, and the draws must stay in this order for a seed to give
// the same Cases.
struct Draw {
  const OpSpec& op;
  const CaseShape& shape;
  Placements placements;
  const rc::Gen<ValueRecipe>& values;
  Case& c;
};

void draw_shape(Draw& d) {
  const CaseShape& shape = d.shape;
  if (d.op.shape_rank == 3) {  // M x N x K: the reduction length has its own limit
    const auto size = [&](std::int64_t max) { return shape.tails_only ? *tail_size_exactly(max) : *tail_size(max); };
    d.c.shape = {size(std::min<std::int64_t>(shape.max_width, 130)), size(std::min<std::int64_t>(shape.max_width, 130)),
                 size(shape.max_k)};
    // One Case in four: M or N long (up to 4097) and the other two at most 3, so every tile and
    // grid boundary along it is reached at the cost of M*N*K (a grid capped at some tile count
    // shows); a long K is a serial loop per thread, reached by max_k's tiles.
    if (!shape.tails_only && *rc::gen::inRange(0, 4) == 0) {
      const int long_side = *rc::gen::inRange(0, 2);
      for (int i = 0; i < 3; ++i)
        d.c.shape[static_cast<std::size_t>(i)] =
            i == long_side ? *tail_size(kSkinnyLongSide) : *rc::gen::inRange<std::int64_t>(1, 4);
    }
  } else {
    const std::int64_t width = shape.tails_only ? *tail_size_exactly(shape.max_width) : *tail_size(shape.max_width);
    // Wide rows come in fewer of them, to keep one Case small.
    const std::int64_t max_rows = std::max<std::int64_t>(1, std::min(shape.max_rows, 65536 / width));
    d.c.shape = {*rc::gen::inRange<std::int64_t>(1, max_rows + 1), width};
  }
}

void draw_placements(Draw& d) {
  if (d.placements == Placements::contiguous) return;
  for (int t = 0; t < d.op.tensor_count; ++t) {
    const Layout2D l = d.c.layout(t);
    d.c.placement[t] = *placement(l.rows, l.cols, d.placements == Placements::any);
  }
}

void draw_values(Draw& d) { d.c.values = *d.values; }
void draw_seed(Draw& d) { d.c.seed = *rc::gen::inRange<std::uint64_t>(0, 1000); }
void draw_schedule(Draw& d) { d.c.schedule = *schedule_seed(); }

struct FieldDrawer {
  std::array<std::string_view, 2> keys;  // kCaseFields keys
  void (*draw)(Draw&);                   // null: given, not drawn
};

constexpr FieldDrawer kDrawers[] = {
    {{"op", "dtype"}, nullptr},         // the property's op and dtype
    {{"variant", "backend"}, nullptr},  // pinned per variant and backend
    {{"shape"}, &draw_shape},          {{"<t>.strides", "<t>.offset"}, &draw_placements},
    {{"values"}, &draw_values},        {{"seed"}, &draw_seed},
    {{"schedule"}, &draw_schedule},
};

}  // namespace

std::vector<std::string_view> generator_fields() {
  std::vector<std::string_view> keys;
  for (const auto& d : kDrawers)
    for (auto key : d.keys)
      if (!key.empty()) keys.push_back(key);
  return keys;
}

rc::Gen<Case> case_of(const OpSpec& op, DType dtype, CaseShape shape, Placements placements,
                      rc::Gen<ValueRecipe> values) {
  const OpSpec* op_ptr = &op;  // the table entry itself: Cases point into all_ops()
  return rc::gen::exec([=] {
    Case c;
    c.op = op_ptr;
    c.dtype = dtype;
    Draw d{*op_ptr, shape, placements, values, c};
    for (const auto& drawer : kDrawers)
      if (drawer.draw) drawer.draw(d);
    return c;
  });
}

}  // namespace kverify::properties

namespace kverify {
void showValue(const Case& c, std::ostream& os) { os << c.to_text(); }
void showValue(const ValueRecipe& r, std::ostream& os) { os << r.name << ":" << r.param; }
}  // namespace kverify
