#include "core/layout.hpp"

#include <algorithm>
#include <numeric>
#include <unordered_set>

namespace kverify {

std::optional<Overlap> find_overlap(const Layout2D& l) {
  // r*rs + c*cs == r'*rs + c'*cs has a solution with (dr, dc) != 0 iff the smallest one,
  // dr = cs/g, dc = rs/g (g = gcd), fits in the shape.
  if (l.rows == 1 || l.cols == 1) return std::nullopt;
  const std::int64_t g = std::gcd(l.row_stride, l.col_stride);
  const std::int64_t dr = l.col_stride / g;
  const std::int64_t dc = l.row_stride / g;
  if (dr < l.rows && dc < l.cols) return Overlap{dr, 0, 0, dc};
  return std::nullopt;
}

std::optional<std::string> layout_problem(const Layout2D& l, std::size_t element_bytes, bool is_output) {
  using std::to_string;
  if (l.rows < 1 || l.cols < 1)
    return "shape " + to_string(l.rows) + "x" + to_string(l.cols) + " has a size below 1 (accepted: sizes >= 1)";
  if (l.row_stride < 1 || l.col_stride < 1)
    return "strides " + to_string(l.row_stride) + "," + to_string(l.col_stride) +
           " include a stride below 1 (accepted: strides >= 1, in elements)";
  if (l.offset < 0) return "offset " + to_string(l.offset) + " is negative (accepted: offset >= 0, in elements)";
  std::int64_t a = 0, b = 0, footprint = 0, bytes = 0;
  if (__builtin_mul_overflow(l.rows - 1, l.row_stride, &a) || __builtin_mul_overflow(l.cols - 1, l.col_stride, &b) ||
      __builtin_add_overflow(a, b, &footprint) || __builtin_add_overflow(footprint, l.offset, &footprint) ||
      __builtin_add_overflow(footprint, std::int64_t{1}, &footprint) ||
      __builtin_mul_overflow(footprint, static_cast<std::int64_t>(element_bytes), &bytes))
    return "shape " + to_string(l.rows) + "x" + to_string(l.cols) + " with strides " + to_string(l.row_stride) + "," +
           to_string(l.col_stride) + " and offset " + to_string(l.offset) +
           " spans more bytes than fit in 64 bits (accepted: a footprint below 2^63 bytes)";
  if (is_output) {
    if (auto o = find_overlap(l))
      return "output elements (" + to_string(o->r1) + "," + to_string(o->c1) + ") and (" + to_string(o->r2) + "," +
             to_string(o->c2) + ") share an address with strides " + to_string(l.row_stride) + "," +
             to_string(l.col_stride) + " (accepted: strides that give every element its own address, e.g. " +
             to_string(l.cols) + ",1)";
  }
  return std::nullopt;
}

Layout Layout::contiguous(std::span<const std::int64_t> sizes) {
  Layout l;
  l.rank = static_cast<int>(sizes.size());
  std::int64_t stride = 1;
  for (int d = l.rank - 1; d >= 0; --d) {
    l.sizes[d] = sizes[d];
    l.strides[d] = stride;
    // Saturated: a footprint past 2^63 elements is layout_problem's to refuse, not an overflow here.
    if (__builtin_mul_overflow(stride, sizes[d], &stride)) stride = INT64_MAX;
  }
  return l;
}

Layout::Layout(const Layout2D& m) : rank(2), offset(m.offset) {
  sizes[0] = m.rows, sizes[1] = m.cols;
  strides[0] = m.row_stride, strides[1] = m.col_stride;
}

std::int64_t Layout::elements() const {
  std::int64_t n = 1;
  for (int d = 0; d < rank; ++d) n *= sizes[d];
  return n;
}

std::int64_t Layout::rows() const {
  if (rank == 1) return sizes[0];
  std::int64_t n = 1;
  for (int d = 0; d + 1 < rank; ++d) n *= sizes[d];
  return n;
}

std::array<std::int64_t, kMaxRank> Layout::indices(std::int64_t row, std::int64_t col) const {
  std::array<std::int64_t, kMaxRank> at{};
  if (rank == 0) return at;
  if (rank == 1) {
    at[0] = row;
    return at;
  }
  at[rank - 1] = col;
  for (int d = rank - 2; d >= 0; --d) {
    at[d] = row % sizes[d];
    row /= sizes[d];
  }
  return at;
}

std::int64_t Layout::footprint() const {
  std::int64_t last = offset;
  for (int d = 0; d < rank; ++d) last += (sizes[d] - 1) * strides[d];
  return last + 1;
}

bool Layout::contiguous_row_major() const {
  std::int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != stride) return false;
    stride *= sizes[d];
  }
  return true;
}

std::optional<Layout2D> Layout::as_2d() const {
  Layout2D m;
  m.offset = offset;
  m.cols = cols();
  m.col_stride = col_stride();
  m.rows = rows();
  // One row (or leading sizes of 1 only): never stepped over, so a product past int64 (a stride
  // near 2^63 on a wide row, which layout_problem refuses later) saturates instead of overflowing.
  if (__builtin_mul_overflow(m.cols, m.col_stride, &m.row_stride)) m.row_stride = INT64_MAX;
  if (rank == 2 || rank == 1) {
    m.row_stride = strides[0];
    return m;
  }
  if (rank == 0) return m;
  // The leading dimensions of more than one element collapse when each steps over the whole of
  // the next one in.
  int inner = -1;
  for (int d = rank - 2; d >= 0; --d) {
    if (sizes[d] == 1) continue;
    if (inner < 0)
      m.row_stride = strides[d];
    else if (strides[d] != strides[inner] * sizes[inner])
      return std::nullopt;
    inner = d;
  }
  return m;
}

namespace {

std::string joined(const Layout& l, const std::array<std::int64_t, kMaxRank>& v, const char* sep) {
  std::string s;
  for (int d = 0; d < l.rank; ++d) s += (d ? sep : "") + std::to_string(v[d]);
  return s;
}

// Two distinct elements at one address, for rank > 2: none when, dimensions sorted by stride, each
// stride steps past everything the smaller ones reach; otherwise the addresses are enumerated
// (tensors of up to 2^22 elements; a larger one that fails the sorted test is refused as
// possibly overlapping).
std::optional<std::string> overlap_nd(const Layout& l) {
  std::array<int, kMaxRank> order{};
  for (int d = 0; d < l.rank; ++d) order[d] = d;
  std::sort(order.begin(), order.begin() + l.rank, [&](int a, int b) { return l.strides[a] < l.strides[b]; });
  std::int64_t reach = 0;
  bool separated = true;
  for (int i = 0; i < l.rank; ++i) {
    const int d = order[i];
    if (l.sizes[d] == 1) continue;
    if (l.strides[d] <= reach) separated = false;
    reach += (l.sizes[d] - 1) * l.strides[d];
  }
  if (separated) return std::nullopt;
  if (l.elements() > (std::int64_t{1} << 22))
    return std::string(
        "may share an address (accepted: strides that, sorted, each step past the extent of the smaller ones)");
  std::unordered_set<std::int64_t> seen;
  for (std::int64_t r = 0; r < l.rows(); ++r)
    for (std::int64_t c = 0; c < l.cols(); ++c)
      if (!seen.insert(l.index(r, c)).second)
        return "element " + index_text(l, r, c) + " shares its address with another";
  return std::nullopt;
}

}  // namespace

std::string index_text(const Layout& l, std::int64_t row, std::int64_t col) {
  return "(" + joined(l, l.indices(row, col), ",") + ")";
}

std::optional<std::string> layout_problem(const Layout& l, std::size_t element_bytes, bool is_output) {
  using std::to_string;
  if (l.rank == 2) return layout_problem(*l.as_2d(), element_bytes, is_output);
  const std::string sizes = joined(l, l.sizes, "x");
  for (int d = 0; d < l.rank; ++d)
    if (l.sizes[d] < 1) return "shape " + sizes + " has a size below 1 (accepted: sizes >= 1)";
  for (int d = 0; d < l.rank; ++d)
    if (l.strides[d] < 1)
      return "strides " + joined(l, l.strides, ",") + " include a stride below 1 (accepted: strides >= 1, in elements)";
  if (l.offset < 0) return "offset " + to_string(l.offset) + " is negative (accepted: offset >= 0, in elements)";
  std::int64_t footprint = l.offset, bytes = 0;
  bool overflow = false;
  for (int d = 0; d < l.rank; ++d) {
    std::int64_t a = 0;
    overflow = overflow || __builtin_mul_overflow(l.sizes[d] - 1, l.strides[d], &a) ||
               __builtin_add_overflow(footprint, a, &footprint);
  }
  if (overflow || __builtin_add_overflow(footprint, std::int64_t{1}, &footprint) ||
      __builtin_mul_overflow(footprint, static_cast<std::int64_t>(element_bytes), &bytes))
    return "shape " + sizes + " with strides " + joined(l, l.strides, ",") + " and offset " + to_string(l.offset) +
           " spans more bytes than fit in 64 bits (accepted: a footprint below 2^63 bytes)";
  if (is_output && l.rank > 2)
    if (auto o = overlap_nd(l)) return "output elements with strides " + joined(l, l.strides, ",") + ": " + *o;
  return std::nullopt;
}

}  // namespace kverify
