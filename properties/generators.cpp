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

rc::Gen<std::int64_t> long_size(std::int64_t max) {
  std::vector<std::int64_t> top;  // the tail sizes of the top quarter: where a long side switches most
  for (auto t : tails_up_to(max))
    if (t > max / 4) top.push_back(t);
  if (top.empty()) return tail_size(max);
  return rc::gen::weightedOneOf<std::int64_t>({{1, tail_size(max)}, {1, rc::gen::elementOf(top)}});
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
        p.strides = Strides{cols + pad, 1};
        break;
      case PlacementKind::column_major:
        p.strides = Strides{1, rows + pad - 1};
        break;
      case PlacementKind::strided_columns: {
        const std::int64_t cs = *rc::gen::inRange<std::int64_t>(2, 4);
        p.strides = Strides{cols * cs + pad, cs};
        break;
      }
      case PlacementKind::far:
        if (rows <= kFarMaxLines)
          p.strides = Strides{kFarStride + pad, 1};
        else if (cols <= kFarMaxLines)
          p.strides = Strides{1, kFarStride + pad};
        else
          p.strides = Strides{cols + pad, 1};  // too many rows and columns: padded
        break;
    }
    return p;
  });
}

rc::Gen<Placement> placement(const Layout& shape, bool any_kind) {
  if (shape.rank == 2) return placement(shape.sizes[0], shape.sizes[1], any_kind);
  const Layout l = shape;
  return rc::gen::exec([=] {
    Placement p;
    p.offset = *rc::gen::weightedOneOf<std::int64_t>(
        {{3, rc::gen::just<std::int64_t>(0)}, {1, rc::gen::inRange<std::int64_t>(1, 40)}});
    if (l.rank == 0) return p;
    const int first = any_kind ? 0 : 1;
    const auto kind = static_cast<PlacementKind>(*rc::gen::inRange(first, 5));
    const std::int64_t pad = *rc::gen::inRange<std::int64_t>(1, 34);
    Strides s;
    s.rank = l.rank;
    // Strides for the dimensions taken innermost first in `order`, each past the one inside it.
    const auto nested = [&](const std::vector<int>& order, std::int64_t innermost, std::int64_t extra) {
      std::int64_t stride = innermost;
      for (std::size_t i = 0; i < order.size(); ++i) {
        s[order[i]] = stride;
        stride = stride * l.sizes[static_cast<std::size_t>(order[i])] + (i == 0 ? extra : 0);
      }
    };
    std::vector<int> row_major, reversed;
    for (int d = l.rank - 1; d >= 0; --d) row_major.push_back(d);
    for (int d = 0; d < l.rank; ++d) reversed.push_back(d);
    switch (kind) {
      case PlacementKind::contiguous:
        return p;
      case PlacementKind::padded_rows:
        nested(row_major, 1, pad);
        break;
      case PlacementKind::column_major:
        nested(reversed, 1, pad);
        break;
      case PlacementKind::strided_columns:
        nested(row_major, *rc::gen::inRange<std::int64_t>(2, 4), pad);
        break;
      case PlacementKind::far:
        nested(row_major, 1, pad);
        if (l.sizes[0] <= kFarMaxLines && l.rank > 1) s[0] = kFarStride + pad;
        break;
    }
    p.strides = s;
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

// The size nearest `n` in the dimension's domain.
std::int64_t inside(const DimSpec& dim, std::int64_t n) {
  n = std::clamp(n, dim.min, dim.max);
  n = (n + dim.multiple - 1) / dim.multiple * dim.multiple;
  return n > dim.max ? n - dim.multiple : n;
}

// Tail dimensions first, in declaration order (tail sizes up to the width limit and their own
// cap), then the count dimensions within what the tails leave of an element budget. One Case in
// four instead makes one dimension long (DimSpec::long_max) and every other one 1..3.
void draw_shape(Draw& d) {
  const CaseShape& shape = d.shape;
  const auto& dims = d.op.dims;
  d.c.shape.assign(dims.size(), 1);
  std::vector<std::size_t> long_dims;
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i].long_max > 1 && dims[i].max > 3) long_dims.push_back(i);
  if (!shape.tails_only && shape.min_rows <= 1 && shape.min_width <= 1 && !long_dims.empty() &&
      *rc::gen::inRange(0, 4) == 0) {
    const std::size_t long_side =
        long_dims[static_cast<std::size_t>(*rc::gen::inRange<int>(0, static_cast<int>(long_dims.size())))];
    for (std::size_t i = 0; i < dims.size(); ++i)
      d.c.shape[i] = inside(dims[i], i == long_side ? *long_size(std::min(dims[i].long_max, dims[i].max))
                                                    : *rc::gen::inRange<std::int64_t>(1, 4));
    return;
  }
  std::int64_t tails = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].draw != DimDraw::tail) continue;
    const std::int64_t cap = std::max<std::int64_t>(1, std::min({shape.max_width, dims[i].draw_max, dims[i].max}));
    d.c.shape[i] = inside(dims[i], shape.tails_only      ? *tail_size_exactly(cap)
                                   : shape.min_width > 1 ? *rc::gen::inRange(std::min(shape.min_width, cap), cap + 1)
                                                         : *tail_size(cap));
    tails *= d.c.shape[i];
  }
  // Wide rows come in fewer of them, to keep one Case small.
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i].draw != DimDraw::count) continue;
    const std::int64_t max_rows =
        std::max<std::int64_t>(1, std::min({shape.max_rows, 65536 / tails, dims[i].draw_max}));
    d.c.shape[i] = inside(dims[i], *rc::gen::inRange<std::int64_t>(std::min(shape.min_rows, max_rows), max_rows + 1));
    tails *= d.c.shape[i];
  }
}

void draw_placements(Draw& d) {
  if (d.placements == Placements::contiguous) return;
  for (int t = 0; t < d.op.tensor_count(); ++t)
    d.c.placement[static_cast<std::size_t>(t)] = *placement(d.c.layout(t), d.placements == Placements::any);
}

void draw_params(Draw& d) {
  for (std::size_t p = 0; p < d.op.params.size(); ++p) {
    const ParamSpec& spec = d.op.params[p];
    if (spec.draws.empty()) continue;
    std::vector<double> options{spec.default_value};
    options.insert(options.end(), spec.draws.begin(), spec.draws.end());
    const double v = *rc::gen::elementOf(options);
    if (v == spec.default_value)
      d.c.params[p].reset();
    else
      d.c.params[p] = v;
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
    {{"shape", "dims"}, &draw_shape},
    {{"<t>.strides", "<t>.offset"}, &draw_placements},
    {{"<p>"}, &draw_params},
    {{"values"}, &draw_values},
    {{"seed"}, &draw_seed},
    {{"schedule"}, &draw_schedule},
};

}  // namespace

rc::Gen<Case> sibling_of(const Case& c, rc::Gen<ValueRecipe> values) {
  return rc::gen::exec([=] {
    Case s = c;
    const auto& dims = c.op->dims;
    std::size_t kept = dims.size();  // the last tail dimension: a row's width, a reduction's length
    for (std::size_t i = 0; i < dims.size(); ++i)
      if (dims[i].draw == DimDraw::tail) kept = i;
    for (std::size_t i = 0; i < dims.size(); ++i)
      if (i != kept) s.shape[i] = inside(dims[i], c.shape[i] + *rc::gen::inRange<std::int64_t>(1, c.shape[i] + 9));
    s.placement = {};
    Draw d{*c.op, CaseShape{}, Placements::any, values, s};
    draw_placements(d);
    return *other_values_of(s, values);
  });
}

rc::Gen<Case> other_values_of(const Case& c, rc::Gen<ValueRecipe> values) {
  return rc::gen::exec([=] {
    Case o = c;
    Draw d{*c.op, CaseShape{}, Placements::any, values, o};
    draw_values(d);
    draw_seed(d);
    draw_schedule(d);
    if (o.seed == c.seed) ++o.seed;
    return o;
  });
}

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
