#include "runtime/emu/detectors/race_detector.hpp"

#include <dlfcn.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(KVERIFY_EMU_ASAN_RUNTIME)
#define KV_RACE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KV_RACE_ASAN 1
#endif
#endif
#if defined(KV_RACE_ASAN)
#include <sanitizer/asan_interface.h>
#endif

namespace kverify::emu::race {
namespace {

constexpr std::uint16_t kMany = 0xffff;
constexpr std::size_t kGranule = 8;  // bytes per shadow cell (its masks name the bytes)

// One recorded access to a granule. The pc is an offset from this file's code (kernels are linked
// into the same program), so that a side fits in 24 bytes.
struct Side {
  std::uint32_t stamp = 0;  // the barrier interval (launch-wide counter; 0: none)
  std::uint32_t block = 0;  // linear block index
  std::uint32_t sync = 0;   // the thread's warp-synchronisation count at the access (readers: the largest)
  std::int32_t pc = 0;
  std::uint16_t thread = 0;  // linear thread index in the block, or kMany
  std::uint16_t warp = 0;    // or kMany
  std::uint8_t mask = 0;     // bytes of the granule
  std::uint8_t atomic = 0;
};

struct Cell {
  Side write, read;
  std::uint32_t fence_epoch = 0;  // the launch's fence count when `write` happened
  std::uint32_t init_stamp = 0;   // the first stamp of the block that wrote init_mask
  // Readers merged into `read` (thread kMany) keep its largest warp-synchronisation count; these
  // say which lane read at that count and the largest count of the others, so that a lane that
  // read its own element and then writes it (`s[t] += v`) is judged against the others' reads only.
  std::uint32_t read_sync_others = 0;
  std::uint16_t read_sync_lane = kMany;
  std::uint8_t init_mask = 0;
};

// Zeroed shadow memory, mapped lazily by the kernel (only touched pages cost memory).
class Shadow {
 public:
  Shadow() = default;
  explicit Shadow(std::size_t cells) : cells_(cells) {
    if (cells == 0) return;
    void* p =
        mmap(nullptr, cells * sizeof(Cell), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("emu race detector: cannot map its shadow memory");
    data_ = static_cast<Cell*>(p);
  }
  Shadow(Shadow&& o) noexcept : data_(o.data_), cells_(o.cells_) { o.data_ = nullptr, o.cells_ = 0; }
  Shadow& operator=(Shadow&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(cells_, o.cells_);
    return *this;
  }
  ~Shadow() {
    if (data_) munmap(data_, cells_ * sizeof(Cell));
  }
  Cell* data() const { return data_; }
  std::size_t cells() const { return cells_; }
  void clear() {
    if (data_) madvise(data_, cells_ * sizeof(Cell), MADV_DONTNEED);
  }

 private:
  Cell* data_ = nullptr;
  std::size_t cells_ = 0;
};

enum class Space : std::uint8_t { static_shared, dynamic_shared, global };

struct Region {
  std::uintptr_t begin = 0, end = 0;  // begin rounded down to a granule
  Space space = Space::global;
  Cell* cells = nullptr;
  const std::string* name = nullptr;
  const ElementSlots* elements = nullptr;  // device memory: which bytes reads may touch (null: all)
  std::uintptr_t declared_end = 0;         // dynamic shared memory: the end of the bytes the launch asked for
};

// --- the static shared arena ---------------------------------------------------------------------

constexpr std::size_t kArenaBytes = 16u << 20;
constexpr std::size_t kRedzone = 32;

struct Slot {
  std::uintptr_t begin, end;
  std::string name;
};

struct Arena {
  unsigned char* base = nullptr;
  std::size_t used = 0;
  Shadow shadow;
  // Per granule, the bytes that belong to a declaration (the rest: redzones, alignment padding,
  // the arena past the last declaration). Kept apart from `shadow`, which is cleared when the
  // stamps wrap.
  std::vector<std::uint8_t> declared;
  std::vector<Slot> slots;
  std::mutex m;

  Arena() {
    void* p = mmap(nullptr, kArenaBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("emu: cannot reserve the static shared memory arena");
    base = static_cast<unsigned char*>(p);
    shadow = Shadow(kArenaBytes / kGranule);
    declared.assign(kArenaBytes / kGranule, 0);
#if defined(KV_RACE_ASAN)
    __asan_poison_memory_region(base, kArenaBytes);
#endif
  }
};
Arena& arena() {
  static Arena a;
  return a;
}
// Read on every access: the arena's extent, without the function-static guard.
std::atomic<std::uintptr_t> arena_begin{0}, arena_end{0};

// --- registered device memory --------------------------------------------------------------------

// A region's shadow lives as long as the region (a Case's two runs and a launcher's several launches
// share it): older launches' records carry older stamps, so nothing needs clearing between launches.
struct Registered {
  std::uintptr_t begin, end;
  std::string name;
  std::shared_ptr<Shadow> shadow;
  std::shared_ptr<const ElementSlots> elements;
};
std::mutex regions_mutex;
std::vector<Registered>& registered() {
  static std::vector<Registered> r;
  return r;
}

// Shadows of regions that were removed, for the next ones (their pages are already mapped: faulting
// fresh pages in was a third of the detector's cost). Stale records carry older stamps than any
// later launch's, so a reused shadow needs no clearing. Under regions_mutex.
constexpr std::size_t kPoolBytes = 256u << 20;
std::vector<std::shared_ptr<Shadow>>& shadow_pool() {
  static std::vector<std::shared_ptr<Shadow>> pool;
  return pool;
}
std::shared_ptr<Shadow> pooled_shadow(std::size_t cells) {
  auto& pool = shadow_pool();
  for (auto it = pool.begin(); it != pool.end(); ++it)
    if ((*it)->cells() >= cells && (*it)->cells() <= 2 * cells + 4096) {
      auto s = std::move(*it);
      pool.erase(it);
      return s;
    }
  return std::make_shared<Shadow>(cells);
}
void return_shadow(std::shared_ptr<Shadow> s) {
  if (!s) return;
  auto& pool = shadow_pool();
  std::size_t bytes = s->cells() * sizeof(Cell);
  for (const auto& p : pool) bytes += p->cells() * sizeof(Cell);
  if (bytes <= kPoolBytes) pool.push_back(std::move(s));
}

// --- the state of the launch running on this OS thread -------------------------------------------

// In the order a report prefers them (widest first: see Launch::first).
// In the order a block's report picks its finding: an access out of bounds first (a bug wherever
// it happens), then the widest race.
enum class Kind : std::uint8_t { out_of_bounds, cross_block, intra_block, intra_warp, uninitialized_read };
constexpr const char* kKindNames[] = {"out-of-bounds", "cross-block", "intra-block", "intra-warp",
                                      "uninitialized read"};
constexpr int kKinds = 5;

struct Race {
  Kind kind{};
  Space space{};
  const std::string* region = nullptr;
  std::uintptr_t offset = 0;
  Side earlier;
  Access earlier_kind{};
  Side later;
  Access later_kind{};
  std::size_t bytes = 0;
  std::string where;  // out of bounds: where the byte lies
};

struct Launch {
  LaunchShape shape{};
  std::uint32_t launch_first = 0, block_first = 0, stamp = 0;
  std::uint32_t block = 0;
  std::uint32_t fence_epoch = 1;
  std::unordered_map<std::uint32_t, std::uint32_t> block_fence;  // block -> fence epoch after its last fence
  std::vector<std::uint32_t> sync;                               // per thread of the block
  std::vector<std::uint32_t> warp_count;                         // per warp
  std::vector<std::string> names;                                // the global regions' names (stable)
  Shadow dynamic_shadow;
  std::vector<std::shared_ptr<Shadow>> shadows;                    // the device memory's, held for the launch
  std::vector<std::shared_ptr<const ElementSlots>> element_slots;  // held for the launch
  std::vector<Region> regions;  // [0] static shared, [1] dynamic shared, then device memory
  // The block's first finding of each kind; the report takes the widest (a race between blocks, then
  // warps, then lanes of a warp, then an uninitialized read, which is often one half of a race that
  // names both sides), so that its advice (__threadfence, __syncthreads, __syncwarp) is the one needed.
  std::optional<Race> first[kKinds];
  std::uint64_t count[kKinds] = {};
  std::string dynamic_name = "extern __shared__ (dynamic shared memory)";
};

constinit thread_local Launch* t_launch = nullptr;  // set while recording
constinit thread_local int t_thread = -1;
constinit thread_local int t_atomic = 0;
constinit thread_local std::uintptr_t t_atomic_begin = 0, t_atomic_end = 0;

// Process-wide (the static arena's and the regions' shadows outlive launches; launches may run on
// several OS threads at once).
std::atomic<std::uint32_t> g_stamp{0};

std::atomic<int> enabled_state{-1};  // -1: not read yet

std::int32_t pc_offset(const void* pc) {
  const auto d = reinterpret_cast<std::intptr_t>(pc) - reinterpret_cast<std::intptr_t>(&pc_offset);
  return d > INT32_MIN && d < INT32_MAX ? static_cast<std::int32_t>(d) : 0;
}
const void* pc_of(std::int32_t offset) {
  return offset == 0 ? nullptr : reinterpret_cast<const void*>(reinterpret_cast<std::intptr_t>(&pc_offset) + offset);
}

// file:line of a code address, from its debug information through binutils' addr2line (only when
// a race is reported). Of the inlined frames, the innermost one outside the system's headers.
std::string symbolize(std::int32_t offset);
// Cached per code address: a property's shrinking reports the same accesses many times, and each
// addr2line call reads the program's debug information anew.
std::string where_text(std::int32_t offset) {
  static std::mutex m;
  static std::unordered_map<std::int32_t, std::string> known;
  {
    std::lock_guard lock(m);
    if (const auto it = known.find(offset); it != known.end()) return it->second;
  }
  std::string text = symbolize(offset);
  std::lock_guard lock(m);
  return known.emplace(offset, std::move(text)).first->second;
}

std::string symbolize(std::int32_t offset) {
  const void* pc = pc_of(offset);
  Dl_info info{};
  if (!pc || dladdr(pc, &info) == 0 || !info.dli_fname) return "an unknown place";
  // The return address of the hook's call: the access is the instruction before it.
  const auto at = reinterpret_cast<std::uintptr_t>(pc) - 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  char command[4200];
  std::snprintf(command, sizeof command, "addr2line -i -e '%s' 0x%jx 2>/dev/null", info.dli_fname,
                static_cast<std::uintmax_t>(at));
  std::string first, chosen;
  if (FILE* p = popen(command, "r")) {
    char line[4096];
    while (std::fgets(line, sizeof line, p)) {
      std::string l(line);
      while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
      if (const auto d = l.find(" (discriminator"); d != std::string::npos) l.erase(d);
      if (l.empty() || l.starts_with("??")) continue;
      if (first.empty()) first = l;
      if (chosen.empty() && !l.starts_with("/usr/")) chosen = l;
    }
    pclose(p);
  }
  if (!chosen.empty()) return chosen;
  if (!first.empty()) return first;
  return std::string("an unknown place (no line information for ") + info.dli_fname + "+0x" + [&] {
    char hex[32];
    std::snprintf(hex, sizeof hex, "%jx", static_cast<std::uintmax_t>(at));
    return std::string(hex);
  }() + ")";
}

std::string dim_text(std::uint64_t linear, const unsigned d[3]) {
  const std::uint64_t x = linear % d[0], y = linear / d[0] % d[1], z = linear / (std::uint64_t{d[0]} * d[1]);
  return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

std::string side_text(const Launch& l, const Side& s, Access kind, bool name_block, std::size_t bytes) {
  std::string who = s.thread == kMany ? std::string("several threads") : "thread " + dim_text(s.thread, l.shape.block);
  if (name_block) who += " of block " + dim_text(s.block, l.shape.grid);
  return who + (kind == Access::write ? " wrote" : " read") + (bytes ? " " + std::to_string(bytes) + " bytes" : "") +
         " at " + where_text(s.pc);
}

Finding report(const Launch& l, const Race& r) {
  std::string space;
  switch (r.space) {
    case Space::static_shared:
      space = "shared memory " + *r.region;
      break;
    case Space::dynamic_shared:
      space = "shared memory " + *r.region;
      break;
    case Space::global:
      space = "device memory of " + *r.region;
      break;
  }
  const bool cross = r.kind == Kind::cross_block;
  Finding f;
  const bool past_bounds = r.kind == Kind::out_of_bounds;
  f.guard = past_bounds ? std::string("out-of-bounds ") + (r.later_kind == Access::write ? "write" : "read") : "race";
  std::string out = past_bounds ? "in " + space + ", byte " + std::to_string(r.offset) + ": "
                                : std::string(kKindNames[static_cast<int>(r.kind)]) + " in " + space + ", byte " +
                                      std::to_string(r.offset) + ": ";
  if (r.kind == Kind::out_of_bounds) {
    out += side_text(l, r.later, r.later_kind, true, r.bytes) + ", " + r.where;
  } else if (r.kind == Kind::uninitialized_read) {
    out += side_text(l, r.later, Access::read, true, r.bytes) +
           ", which no thread of its block wrote before (shared memory starts undefined in every block)";
  } else {
    out += side_text(l, r.later, r.later_kind, true, r.bytes) + " that " +
           side_text(l, r.earlier, r.earlier_kind, cross, 0);
    if (r.kind == Kind::intra_warp)
      out +=
          ", lanes of one warp with no __syncwarp or warp collective between (independent thread scheduling: "
          "lanes of a warp may run apart)";
    else if (r.kind == Kind::intra_block)
      out += ", in the same barrier interval (no __syncthreads between)";
    else if (r.later_kind == Access::read && r.earlier_kind == Access::write)
      out += ", in the same launch with no __threadfence after the write (blocks run in any order and at once)";
    else
      out += ", in the same launch (blocks run in any order and at once)";
  }
  std::uint64_t more = 0;
  for (int k = 0; k < kKinds; ++k) more += l.count[k];
  if (more > 1) out += " (" + std::to_string(more - 1) + " more findings in this block)";
  f.text = std::move(out);
  return f;
}

inline bool separated(const Launch& l, const Side& s, int t) {  // lanes of one warp, ordered by a collective
  if (s.warp != static_cast<std::uint16_t>(t / 32)) return false;
  if (s.thread != kMany && !(l.sync[s.thread] > s.sync)) return false;
  return l.sync[static_cast<std::size_t>(t)] > s.sync;
}

void found(Launch& l, Kind category, const Region& region, std::uintptr_t granule, const Side& earlier,
           Access earlier_kind, const Side& later, Access later_kind, std::size_t bytes) {
  const int kind = static_cast<int>(category);
  ++l.count[kind];
  std::optional<Race>& slot = l.first[kind];
  if (slot) return;
  Race r;
  r.kind = category;
  r.space = region.space;
  r.region = region.name;
  r.offset = granule + static_cast<std::uintptr_t>(__builtin_ctz(later.mask | 0x100u)) - region.begin;
  r.earlier = earlier;
  r.earlier_kind = earlier_kind;
  r.later = later;
  r.later_kind = later_kind;
  r.bytes = bytes;
  slot = r;
}

// Whether [a, a + bytes) leaves what the region lets an access touch: a tensor's elements (reads
// only: a write there damages a canary or a gap, which the pipeline reports with the bytes), the
// declared bytes of shared memory.
inline bool out_of_bounds(const Region& region, std::uintptr_t a, std::size_t bytes, Access kind) {
  switch (region.space) {
    case Space::global: {
      if (kind != Access::read || !region.elements) return false;
      const ElementSlots& e = *region.elements;
      if (!e.is_element(a) || !e.is_element(a + bytes - 1)) return true;
      if (e.dense()) return false;  // both ends inside: every byte between is an element
      for (std::uintptr_t b = a + e.slot_bytes; b < a + bytes; b += e.slot_bytes)
        if (!e.is_element(b)) return true;
      return false;
    }
    case Space::dynamic_shared:
      return a + bytes > region.declared_end;
    case Space::static_shared: {
      const Arena& arena_ = arena();
      const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(arena_.base);
      for (std::uintptr_t g = a / kGranule * kGranule; g < a + bytes; g += kGranule) {
        const std::uintptr_t from = std::max(g, a), to = std::min(g + kGranule, a + bytes);
        const auto mask = static_cast<std::uint8_t>(((1u << (to - from)) - 1u) << (from - g));
        if ((arena_.declared[(g - base) / kGranule] & mask) != mask) return true;
      }
      return false;
    }
  }
  return false;
}

// Where an out-of-bounds access lies, for its report.
std::string out_of_bounds_text(const Region& region, std::uintptr_t a, std::size_t bytes) {
  switch (region.space) {
    case Space::global: {
      const ElementSlots& e = *region.elements;
      std::uintptr_t b = a;
      while (b < a + bytes && e.is_element(b)) ++b;
      return e.describe(b);
    }
    case Space::dynamic_shared:
      return "past the " + std::to_string(region.declared_end - region.begin) +
             " bytes of dynamic shared memory the launch asked for (its third <<<>>> argument, in bytes)";
    case Space::static_shared:
      break;
  }
  return "past the end of the declaration (into the redzone emu keeps after each)";
}

void found_out_of_bounds(Launch& l, const Region& region, std::uintptr_t a, std::size_t bytes, Access kind,
                         std::int32_t pc) {
  const int t = t_thread;
  const Side now{l.stamp,
                 l.block,
                 0,
                 pc,
                 static_cast<std::uint16_t>(t),
                 static_cast<std::uint16_t>(t / 32),
                 static_cast<std::uint8_t>(1u << (a % kGranule)),
                 0};
  const bool first = !l.first[static_cast<int>(Kind::out_of_bounds)];
  found(l, Kind::out_of_bounds, region, a / kGranule * kGranule, now, kind, now, kind, bytes);
  if (first) l.first[static_cast<int>(Kind::out_of_bounds)]->where = out_of_bounds_text(region, a, bytes);
}

inline void check_granule(Launch& l, const Region& region, std::uintptr_t granule, std::uint8_t mask, Access kind,
                          bool atomic, std::int32_t pc, std::size_t bytes) {
  Cell& c = region.cells[(granule - region.begin) / kGranule];
  const int t = t_thread;
  const auto warp = static_cast<std::uint16_t>(t / 32);
  const Side now{l.stamp, l.block, l.sync[static_cast<std::size_t>(t)], pc, static_cast<std::uint16_t>(t),
                 warp,    mask,    static_cast<std::uint8_t>(atomic)};
  const bool global = region.space == Space::global;
  const Side& w = c.write;
  if ((w.mask & mask) && !(atomic || w.atomic)) {
    if (w.stamp >= l.block_first) {
      if (w.stamp == l.stamp && w.thread != t && !separated(l, w, t))
        found(l, w.warp == warp ? Kind::intra_warp : Kind::intra_block, region, granule, w, Access::write, now, kind,
              bytes);
    } else if (global && w.stamp >= l.launch_first && w.block != l.block) {
      const auto fenced = l.block_fence.find(w.block);
      if (kind == Access::write || fenced == l.block_fence.end() || fenced->second <= c.fence_epoch)
        found(l, Kind::cross_block, region, granule, w, Access::write, now, kind, bytes);
    }
  }
  Side& r = c.read;
  if (kind == Access::write && (r.mask & mask) && !(atomic || r.atomic)) {
    Side others = r;  // the reads of threads other than t, as far as the record tells them apart
    if (r.thread == kMany && c.read_sync_lane == t) others.sync = c.read_sync_others;
    if (r.stamp == l.stamp && r.block == l.block) {
      if (r.thread != t && !separated(l, others, t))
        found(l, r.warp == warp ? Kind::intra_warp : Kind::intra_block, region, granule, r, Access::read, now, kind,
              bytes);
    } else if (global && r.stamp >= l.launch_first && r.stamp < l.block_first && r.block != l.block) {
      found(l, Kind::cross_block, region, granule, r, Access::read, now, kind, bytes);
    }
  }
  if (kind == Access::read && !atomic && !global) {
    const std::uint8_t written = c.init_stamp == l.block_first ? c.init_mask : 0;
    if ((written & mask) != mask) found(l, Kind::uninitialized_read, region, granule, now, kind, now, kind, bytes);
  }
  if (kind == Access::write) {
    c.write = now;
    c.fence_epoch = l.fence_epoch;
    if (!global) {
      if (c.init_stamp != l.block_first) c.init_stamp = l.block_first, c.init_mask = 0;
      c.init_mask |= mask;
    }
  } else if (r.stamp == l.stamp && r.block == l.block) {
    // Readers of one interval. A single reader's record widens to the bytes it reads; once two
    // threads read, the record keeps only the bytes both read (a write there conflicts with one of
    // them whoever writes), so that a thread that writes the bytes it alone read is never reported.
    if (r.thread == t) {
      r.mask |= mask;
    } else if (r.mask & mask) {
      if (r.thread != kMany) c.read_sync_lane = r.thread, c.read_sync_others = 0;
      r.thread = kMany;
      if (r.warp != warp) r.warp = kMany;
      r.mask &= mask;
      if (now.sync > r.sync) {
        if (c.read_sync_lane != t) c.read_sync_others = r.sync;
        c.read_sync_lane = static_cast<std::uint16_t>(t);
        r.sync = now.sync;
      } else if (c.read_sync_lane != t) {
        c.read_sync_others = std::max(c.read_sync_others, now.sync);
      }
      r.atomic &= now.atomic;
    }
  } else {
    r = now;
  }
}

inline const Region* region_of(Launch& l, std::uintptr_t a) {
  for (const Region& r : l.regions)
    if (a - r.begin < r.end - r.begin) return &r;
  return nullptr;
}

// --- which pages hold watched memory -------------------------------------------------------------
// Every load and store of kernel code calls in, most of them to memory nothing watches (a thread's
// stack, emu's own state); one byte per 64 KiB page of the 47-bit user address space says whether a
// page holds any watched byte, so that those calls return after one load instead of scanning the
// launch's regions. A count per page (regions share pages); one that reaches 255 stays set (a page
// flagged for nothing costs speed only). Reserved on the first watched region, 2 GiB of addresses
// of which only touched pages take memory; where it cannot be reserved (an address-space limit),
// every access takes the scan: slower, and as exact.
constexpr unsigned kPageShift = 16;
constexpr unsigned kUserAddressBits = 47;
constexpr std::size_t kPageTableBytes = std::size_t{1} << (kUserAddressBits - kPageShift);
std::uint8_t* g_watched_pages = nullptr;
std::mutex watched_pages_mutex;

std::uint8_t* watched_pages() {
  static std::uint8_t* const table = [] {
    void* p =
        mmap(nullptr, kPageTableBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<std::uint8_t*>(p);
  }();
  return table;
}

void set_watched(std::uintptr_t begin, std::uintptr_t end, bool watched) {
  if (end <= begin) return;
  std::uint8_t* table = watched_pages();
  if (!table) return;
  std::lock_guard lock(watched_pages_mutex);
  for (std::uintptr_t page = begin >> kPageShift; page <= (end - 1) >> kPageShift; ++page) {
    if (page >= kPageTableBytes) break;
    std::uint8_t& count = table[page];
    if (count == 255) continue;
    count = static_cast<std::uint8_t>(watched ? count + 1 : count - 1);
  }
  __atomic_store_n(&g_watched_pages, table, __ATOMIC_RELEASE);
}

// False only where no byte of [a, a + bytes) can be watched.
inline bool may_be_watched(const void* address, std::size_t bytes) {
  const std::uint8_t* table = __atomic_load_n(&g_watched_pages, __ATOMIC_RELAXED);
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  if (!table || ((a + bytes) >> kUserAddressBits) != 0) return true;
  for (std::uintptr_t page = a >> kPageShift; page <= (a + bytes - 1) >> kPageShift; ++page)
    if (__atomic_load_n(&table[page], __ATOMIC_RELAXED) != 0) return true;
  return false;
}

}  // namespace

bool enabled() {
  int s = enabled_state.load(std::memory_order_relaxed);
  if (s < 0) {
    const char* v = std::getenv("KVERIFY_EMU_RACE_DETECTOR");
    s = v && (std::string_view(v) == "off" || std::string_view(v) == "0") ? 0 : 1;
    enabled_state.store(s, std::memory_order_relaxed);
  }
  return s == 1 && instrumented();
}
void set_enabled(bool on) { enabled_state.store(on ? 1 : 0, std::memory_order_relaxed); }

bool instrumented() {
#if defined(KVERIFY_EMU_RACE_HOOKS_TSAN_CALLS) || defined(KVERIFY_EMU_RACE_HOOKS_SANCOV)
  return true;
#else
  return false;
#endif
}

std::string source_line(const void* pc) { return where_text(pc_offset(pc)); }

std::string status_text() {
#if defined(KVERIFY_EMU_RACE_DETECTOR_BUILT_OFF)
  return "off (built with -DKVERIFY_EMU_RACE_DETECTOR=OFF)";
#endif
  if (!instrumented())
    return "off (this build's kernels are not instrumented: the asan and tsan flavors leave the detector out)";
  if (!enabled()) return "off (KVERIFY_EMU_RACE_DETECTOR=off)";
  return "on";
}

std::string ElementSlots::describe(std::uintptr_t address) const {
  if (address < origin) return "before its first element (" + std::to_string(origin - address) + " bytes before it)";
  const std::uint64_t slot = (address - origin) / slot_bytes;
  if (slot >= slots)
    return "past its last element (" + std::to_string(address - origin - (slots - 1) * slot_bytes) +
           " bytes past the start of it)";
  return "in a gap between its elements (element slot " + std::to_string(slot) +
         " from the first, which the layout's strides skip)";
}

void add_global_region(const void* base, std::size_t bytes, std::string name,
                       std::shared_ptr<const ElementSlots> elements) {
  if (!base || bytes == 0) return;
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  std::lock_guard lock(regions_mutex);
  registered().push_back({b, b + bytes, std::move(name), nullptr, std::move(elements)});
  set_watched(b, b + bytes, true);
}
void remove_global_region(const void* base) {
  const auto b = reinterpret_cast<std::uintptr_t>(base);
  std::lock_guard lock(regions_mutex);
  auto& r = registered();
  for (auto it = r.end(); it != r.begin();)
    if ((--it)->begin == b) {
      // A launch still running holds its own reference: the pool gets the shadow once no one does.
      if (it->shadow.use_count() == 1) return_shadow(std::move(it->shadow));
      set_watched(it->begin, it->end, false);
      r.erase(it);
      return;
    }
}

void* carve_static_shared(std::size_t bytes, std::size_t alignment, const char* name) {
  Arena& a = arena();
  std::lock_guard lock(a.m);
  alignment = std::max<std::size_t>({alignment, 16, kGranule});
  const std::size_t at = (a.used + alignment - 1) / alignment * alignment;
  const std::size_t size = std::max<std::size_t>(bytes, 1);
  if (at + size + kRedzone > kArenaBytes)
    throw std::runtime_error("emu: the static __shared__ declarations of this program exceed the " +
                             std::to_string(kArenaBytes >> 20) + " MiB static shared arena (declaration '" + name +
                             "' of " + std::to_string(bytes) + " bytes)");
  a.used = at + size + kRedzone;
#if defined(KV_RACE_ASAN)
  __asan_unpoison_memory_region(a.base + at, size);
#endif
  const auto begin = reinterpret_cast<std::uintptr_t>(a.base + at);
  set_watched(begin, begin + size + kRedzone, true);  // the redzone too: overflows are recorded
  for (std::size_t byte = at; byte < at + size; ++byte)
    a.declared[byte / kGranule] |= std::uint8_t(1u << (byte % kGranule));
  a.slots.push_back(
      {begin, begin + size, std::string("'") + name + "' (static __shared__, " + std::to_string(bytes) + " bytes)"});
  arena_begin.store(reinterpret_cast<std::uintptr_t>(a.base), std::memory_order_relaxed);
  arena_end.store(reinterpret_cast<std::uintptr_t>(a.base) + a.used, std::memory_order_relaxed);
  return a.base + at;
}

void begin_launch(const LaunchShape& shape, const unsigned char* dynamic_shared, std::size_t dynamic_bytes,
                  std::size_t reserved_bytes) {
  if (!enabled()) return;
  auto* l = new Launch;
  l->shape = shape;
  if (g_stamp.load() > 0xf0000000u) {  // the counter would wrap: start every shadow afresh
    g_stamp = 0;
    arena().shadow.clear();
    std::lock_guard lock(regions_mutex);
    for (Registered& r : registered()) r.shadow.reset();
    shadow_pool().clear();
  }
  l->launch_first = g_stamp.load() + 1;
  Arena& a = arena();
  l->regions.push_back({reinterpret_cast<std::uintptr_t>(a.base),
                        reinterpret_cast<std::uintptr_t>(a.base) + kArenaBytes, Space::static_shared, a.shadow.data(),
                        nullptr});
  const auto dyn = reinterpret_cast<std::uintptr_t>(dynamic_shared) / kGranule * kGranule;
  const auto reserved_end = reinterpret_cast<std::uintptr_t>(dynamic_shared) + std::max(dynamic_bytes, reserved_bytes);
  l->dynamic_shadow = Shadow((reserved_end - dyn) / kGranule + 1);
  l->regions.push_back({dyn, reserved_end, Space::dynamic_shared, l->dynamic_shadow.data(), &l->dynamic_name, nullptr,
                        reinterpret_cast<std::uintptr_t>(dynamic_shared) + dynamic_bytes});
  set_watched(l->regions[1].begin, l->regions[1].end, true);
  {
    std::lock_guard lock(regions_mutex);
    l->names.reserve(registered().size());
    for (const Registered& r : registered()) l->names.push_back(r.name);
    std::size_t i = 0;
    for (Registered& r : registered()) {
      const std::uintptr_t begin = r.begin / kGranule * kGranule;
      if (!r.shadow) r.shadow = pooled_shadow((r.end - begin) / kGranule + 1);
      l->shadows.push_back(r.shadow);
      l->element_slots.push_back(r.elements);
      l->regions.push_back({begin, r.end, Space::global, r.shadow->data(), &l->names[i++], r.elements.get()});
    }
  }
  t_launch = l;
  t_thread = -1;
}

void end_launch() {
  if (t_launch) set_watched(t_launch->regions[1].begin, t_launch->regions[1].end, false);
  delete t_launch;
  t_launch = nullptr;
  t_thread = -1;
}

void begin_block(std::uint64_t block_linear, int threads) {
  Launch* l = t_launch;
  if (!l) return;
  l->block = static_cast<std::uint32_t>(block_linear);
  l->block_first = l->stamp = ++g_stamp;
  l->sync.assign(static_cast<std::size_t>(threads), 0);
  l->warp_count.assign(static_cast<std::size_t>(threads + 31) / 32, 0);
  for (int k = 0; k < kKinds; ++k) l->first[k].reset(), l->count[k] = 0;
}

std::optional<Finding> end_block() {
  Launch* l = t_launch;
  t_thread = -1;
  if (!l) return std::nullopt;
  int kind = 0;
  while (kind < kKinds && !l->first[kind]) ++kind;
  if (kind == kKinds) return std::nullopt;
  Race& r = *l->first[kind];
  // Static shared memory: name the declaration the byte belongs to.
  if (r.space == Space::static_shared) {
    Arena& a = arena();
    std::lock_guard lock(a.m);
    const std::uintptr_t at = r.offset + reinterpret_cast<std::uintptr_t>(a.base);
    // The declaration the byte is in; out of bounds, the one it is past the end of.
    const Slot* in = nullptr;
    for (const Slot& s : a.slots) {
      if (at >= s.begin && at < s.end) {
        in = &s;
        break;
      }
      if (r.kind == Kind::out_of_bounds && at >= s.begin && (!in || s.begin > in->begin)) in = &s;
    }
    if (in) {
      r.region = &in->name;
      r.offset = at - in->begin;
    }
    static const std::string unknown = "(static __shared__)";
    if (!r.region) r.region = &unknown;
  }
  return report(*l, r);
}

void run_thread(int linear) { t_thread = linear; }

void barrier_released() {
  if (Launch* l = t_launch) l->stamp = ++g_stamp;
}

void warp_synchronised(int warp, unsigned lanes) {
  Launch* l = t_launch;
  if (!l) return;
  const std::uint32_t v = ++l->warp_count[static_cast<std::size_t>(warp)];
  for (unsigned m = lanes; m != 0; m &= m - 1) {
    const std::size_t t = static_cast<std::size_t>(warp) * 32 + static_cast<std::size_t>(__builtin_ctz(m));
    if (t < l->sync.size()) l->sync[t] = v;
  }
}

void record(const void* address, std::size_t bytes, Access kind, const void* pc) {
  Launch* l = t_launch;
  if (!l || t_thread < 0 || bytes == 0) return;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  bool atomic = false;
  if (t_atomic > 0) {
    // Inside an atomic: its own accesses were recorded by AtomicScope; others are not expected.
    if (pc != nullptr && a >= t_atomic_begin && a < t_atomic_end) return;
    atomic = pc == nullptr;
  }
  const Region* region = region_of(*l, a);
  if (!region) return;
  const std::int32_t at = pc_offset(pc);
  if (out_of_bounds(*region, a, bytes, kind)) {
    found_out_of_bounds(*l, *region, a, bytes, kind, at);
    return;
  }
  const std::uintptr_t end = std::min<std::uintptr_t>(a + bytes, region->end);
  for (std::uintptr_t g = a / kGranule * kGranule; g < end; g += kGranule) {
    const std::uintptr_t from = std::max(g, a), to = std::min(g + kGranule, end);
    const auto mask = static_cast<std::uint8_t>(((1u << (to - from)) - 1u) << (from - g));
    check_granule(*l, *region, g, mask, kind, atomic, at, bytes);
  }
}

void fence() {
  Launch* l = t_launch;
  if (!l || t_thread < 0) return;
  l->block_fence[l->block] = ++l->fence_epoch;
}

namespace {
constinit thread_local Collector* t_collector = nullptr;
}
Collector::Collector() : outer_(t_collector) { t_collector = this; }
Collector::~Collector() { t_collector = outer_; }
Collector* collector() { return t_collector; }

AtomicScope::AtomicScope(const void* address, std::size_t bytes) {
  if (!instrumented()) return;  // the sanitizer flavors: nothing records, and TSan would see fibers share this
  if (t_atomic++ == 0) {
    t_atomic_begin = reinterpret_cast<std::uintptr_t>(address);
    t_atomic_end = t_atomic_begin + bytes;
    record(address, bytes, Access::write, nullptr);
  }
}
AtomicScope::~AtomicScope() {
  if (instrumented()) --t_atomic;
}

}  // namespace kverify::emu::race

// The instrumentation's entry points (cmake/KverifyRaceDetector.cmake picks the kind; only the
// kernels' TUs call them). The return address locates the access in the kernel's source.
// Most calls are for memory nothing watches: they return after the page table's byte.
#define KV_RACE_FILTER(address, bytes) \
  if (!::kverify::emu::race::may_be_watched(address, bytes)) return;
#define KV_RACE_HOOK(name, kind, size)                                                                            \
  extern "C" __attribute__((visibility("default"))) void name(void* address) {                                    \
    KV_RACE_FILTER(address, size)                                                                                 \
    ::kverify::emu::race::record(address, size, ::kverify::emu::race::Access::kind, __builtin_return_address(0)); \
  }
#define KV_RACE_HOOK_N(name, kind)                                                                                 \
  extern "C" __attribute__((visibility("default"))) void name(void* address, std::size_t bytes) {                  \
    KV_RACE_FILTER(address, bytes)                                                                                 \
    ::kverify::emu::race::record(address, bytes, ::kverify::emu::race::Access::kind, __builtin_return_address(0)); \
  }

// The sizes of one family of entry points: prefix##load4##suffix(addr) and so on.
#define KV_RACE_HOOK_SIZES(prefix, suffix)       \
  KV_RACE_HOOK(prefix##load1##suffix, read, 1)   \
  KV_RACE_HOOK(prefix##load2##suffix, read, 2)   \
  KV_RACE_HOOK(prefix##load4##suffix, read, 4)   \
  KV_RACE_HOOK(prefix##load8##suffix, read, 8)   \
  KV_RACE_HOOK(prefix##load16##suffix, read, 16) \
  KV_RACE_HOOK(prefix##store1##suffix, write, 1) \
  KV_RACE_HOOK(prefix##store2##suffix, write, 2) \
  KV_RACE_HOOK(prefix##store4##suffix, write, 4) \
  KV_RACE_HOOK(prefix##store8##suffix, write, 8) \
  KV_RACE_HOOK(prefix##store16##suffix, write, 16)

#if defined(KVERIFY_EMU_RACE_HOOKS_TSAN_CALLS)
// -fsanitize=thread and no sanitizer runtime in the program: a call per load and per store.
KV_RACE_HOOK(__tsan_read1, read, 1)
KV_RACE_HOOK(__tsan_read2, read, 2)
KV_RACE_HOOK(__tsan_read4, read, 4)
KV_RACE_HOOK(__tsan_read8, read, 8)
KV_RACE_HOOK(__tsan_read16, read, 16)
KV_RACE_HOOK(__tsan_write1, write, 1)
KV_RACE_HOOK(__tsan_write2, write, 2)
KV_RACE_HOOK(__tsan_write4, write, 4)
KV_RACE_HOOK(__tsan_write8, write, 8)
KV_RACE_HOOK(__tsan_write16, write, 16)
KV_RACE_HOOK(__tsan_unaligned_read2, read, 2)
KV_RACE_HOOK(__tsan_unaligned_read4, read, 4)
KV_RACE_HOOK(__tsan_unaligned_read8, read, 8)
KV_RACE_HOOK(__tsan_unaligned_read16, read, 16)
KV_RACE_HOOK(__tsan_unaligned_write2, write, 2)
KV_RACE_HOOK(__tsan_unaligned_write4, write, 4)
KV_RACE_HOOK(__tsan_unaligned_write8, write, 8)
KV_RACE_HOOK(__tsan_unaligned_write16, write, 16)
KV_RACE_HOOK_N(__tsan_read_range, read)
KV_RACE_HOOK_N(__tsan_write_range, write)
// A virtual call's table pointer: a store in a constructor, a load at a call.
extern "C" __attribute__((visibility("default"))) void __tsan_vptr_update(void** slot, void*) {
  ::kverify::emu::race::record(slot, sizeof(void*), ::kverify::emu::race::Access::write, __builtin_return_address(0));
}
extern "C" __attribute__((visibility("default"))) void __tsan_vptr_read(void** slot) {
  ::kverify::emu::race::record(slot, sizeof(void*), ::kverify::emu::race::Access::read, __builtin_return_address(0));
}
// What the instrumentation calls besides the accesses (there is no sanitizer runtime to tell).
extern "C" __attribute__((visibility("default"))) void __tsan_init() {}
extern "C" __attribute__((visibility("default"))) void __tsan_func_entry(void*) {}
extern "C" __attribute__((visibility("default"))) void __tsan_func_exit() {}
extern "C" __attribute__((visibility("default"))) void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
extern "C" __attribute__((visibility("default"))) void __tsan_atomic_signal_fence(int) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
// Atomics arrive as calls that must also do the operation. Each is one atomic access (an emu
// atomicAdd and its kin have recorded it already and nest). Sequentially consistent whatever the
// order asked: stronger than asked is always correct, and emu runs a launch on one OS thread.
#define KV_TSAN_ATOMIC_RMW(bits, T, op, builtin)                                                            \
  extern "C" __attribute__((visibility("default"))) T __tsan_atomic##bits##_##op(volatile T* a, T v, int) { \
    const ::kverify::emu::race::AtomicScope scope(const_cast<T*>(a), sizeof(T));                            \
    return builtin(a, v, __ATOMIC_SEQ_CST);                                                                 \
  }
#define KV_TSAN_ATOMICS(bits, T)                                                                                \
  extern "C" __attribute__((visibility("default"))) T __tsan_atomic##bits##_load(const volatile T* a, int) {    \
    const ::kverify::emu::race::AtomicScope scope(const_cast<T*>(a), sizeof(T));                                \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                                \
  }                                                                                                             \
  extern "C" __attribute__((visibility("default"))) void __tsan_atomic##bits##_store(volatile T* a, T v, int) { \
    const ::kverify::emu::race::AtomicScope scope(const_cast<T*>(a), sizeof(T));                                \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                   \
  }                                                                                                             \
  KV_TSAN_ATOMIC_RMW(bits, T, exchange, __atomic_exchange_n)                                                    \
  KV_TSAN_ATOMIC_RMW(bits, T, fetch_add, __atomic_fetch_add)                                                    \
  KV_TSAN_ATOMIC_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                                    \
  KV_TSAN_ATOMIC_RMW(bits, T, fetch_and, __atomic_fetch_and)                                                    \
  KV_TSAN_ATOMIC_RMW(bits, T, fetch_or, __atomic_fetch_or)                                                      \
  KV_TSAN_ATOMIC_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                                    \
  KV_TSAN_ATOMIC_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                                  \
  extern "C" __attribute__((visibility("default"))) int __tsan_atomic##bits##_compare_exchange_strong(          \
      volatile T* a, T* expected, T v, int, int) {                                                              \
    const ::kverify::emu::race::AtomicScope scope(const_cast<T*>(a), sizeof(T));                                \
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
  }                                                                                                             \
  extern "C" __attribute__((visibility("default"))) int __tsan_atomic##bits##_compare_exchange_weak(            \
      volatile T* a, T* expected, T v, int, int) {                                                              \
    const ::kverify::emu::race::AtomicScope scope(const_cast<T*>(a), sizeof(T));                                \
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);              \
  }                                                                                                             \
  extern "C" __attribute__((visibility("default")))                                                             \
  T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T expected, T v, int, int) {                      \
    const ::kverify::emu::race::AtomicScope scope(const_cast<T*>(a), sizeof(T));                                \
    __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
    return expected;                                                                                            \
  }
KV_TSAN_ATOMICS(8, unsigned char)
KV_TSAN_ATOMICS(16, unsigned short)
KV_TSAN_ATOMICS(32, unsigned int)
KV_TSAN_ATOMICS(64, unsigned long long)
#endif

#if defined(KVERIFY_EMU_RACE_HOOKS_SANCOV)
// SanitizerCoverage's load/store tracing (the sanitizer runtimes define weak no-op versions).
KV_RACE_HOOK_SIZES(__sanitizer_cov_, )
#endif
